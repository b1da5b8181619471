/// What encoding a frame costs a pixel, in fills' pixels as `SceneRenderer.Cost.work` counts them (1.22 ns on one
/// core of the project's machine), so that `animate` and `transition` count their encoder in the work bound with
/// the drawing: an animated PNG at zlib level 9 takes some 25 times level 5's time on smooth frames, more than
/// drawing almost any scene.
///
/// Measured there, one thread, release build, 7 frames of 1170×2532: a fade between two photos (busy frames) and
/// an hblur of a small photo filled to the canvas (smooth frames), taking the slower of the two at each level.
/// Animated PNG, seconds a frame by zlib level 0…9: 0.07, 0.19, 0.22, 0.38, 0.30, 0.58, 1.25, 1.78, 3.3, 5.0
/// (smooth frames are the slow ones from level 8). Numbered PNGs at level 1 took 150 ms a frame (40 a pixel),
/// YUV4MPEG2 20 ms (6); an animated WebP 1.14 µs a pixel lossless (940), 155 ns lossy (130).
enum EncodingWork {
    /// A PNG's (animated or one a frame) cost a pixel at zlib levels 0…9, rounded up from the times above.
    static let pngOperationsPerPixel: [Double] = [20, 55, 65, 110, 110, 165, 350, 500, 950, 1400]

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
