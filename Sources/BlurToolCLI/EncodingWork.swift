/// What encoding a frame costs a pixel, in fills' pixels as `SceneRenderer.Cost.work` counts them (1.22 ns on one
/// core of the project's machine), so that `animate` and `transition` count their encoder in the work bound with
/// the drawing: an animated PNG at level 9 takes some 11 times level 5's time on smooth frames, more than drawing
/// almost any scene.
///
/// Measured there (AMD EPYC Zen 3, 2026-12-05), one thread, release build: `transition --style fade --duration 0.1
/// --fps 70 --size 1170x2532 --threads 1` (7 frames) between two photos (busy frames) and between the same photos
/// blurred at σ 40 (smooth frames), less the same with `--benchmark`, the slower of the two at each level.
/// PNG data is Sub-filtered, stored at 0, igzip at 1, libdeflate at 2…9 (`bt_png_frame.c`; the project's own
/// encoder takes frames with runs at 2…6, faster there, so these busy frames bound it): seconds a frame
/// 0.083, 0.106, 0.199, 0.219, 0.241, 0.354, 0.48, 0.80, 2.37, 3.89 (smooth frames are the slow ones from level 7).
/// With zlib and libpng's filter heuristic they had been 0.07, 0.19, 0.22, 0.38, 0.30, 0.58, 1.25, 1.78, 3.3 and 5.0.
/// YUV4MPEG2 took 20 ms a frame (6 a pixel); an animated WebP 1.14 µs a pixel lossless (940), 155 ns lossy (130).
enum EncodingWork {
    /// A PNG's (animated or one a frame) cost a pixel at levels 0…9, rounded up from the times above.
    static let pngOperationsPerPixel: [Double] = [25, 30, 60, 65, 70, 100, 135, 225, 660, 1080]

    /// nil output: `--benchmark`, which encodes nothing.
    static func operationsPerPixel(output: AnimationRequest.Output?, lossy: Bool, pngLevel: Int) -> Double {
        switch output {
        case nil: return 0
        case .apng, .frames: return pngOperationsPerPixel[min(max(pngLevel, 0), 9)]
        case .webp: return lossy ? 130 : 940
        case .y4m: return 6
        }
    }

    static func operationsPerPixel(_ request: AnimationRequest, output: AnimationRequest.Output?) -> Double {
        operationsPerPixel(output: output, lossy: request.isLossy, pngLevel: request.animatedPNGLevel)
    }
}
