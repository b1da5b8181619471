import Compositor
import Scenes

/// What a photo transition costs before any frame is drawn, so that one past the bound an animation has
/// (`AnimationRenderer.Limits.workFactor` times a scene's work limit, about four minutes on one core) is refused at
/// once: 35,995 frames of 100 megapixels would have run for some 80 hours.
///
/// Each frame is the whole canvas drawn and encoded, so the work is frames × pixels × the cost of a pixel,
/// counted in fills' pixels as `SceneRenderer.Cost.work` counts them (1.22 ns on one core of the project's
/// machine). Measured there, one thread, 1170×2532 frames, release build: drawing 1.9–8 ms a frame for the
/// mixes, wipes, slides and soft edges (up to 3 a pixel), pixelize and zoom 7–10 ms (4), hblur 20 ms and the
/// material 16 ms (6), the curls 58 ms (18); encoding an animated PNG 540 ms a frame (150 a pixel), numbered
/// PNGs 150 ms (40), YUV4MPEG2 20 ms (6); an animated WebP 1.14 µs a pixel lossless (940), 155 ns lossy (130).
enum TransitionWork {
    static func operationsPerPixel(style: PhotoTransition.Style, output: AnimationRequest.Output?, lossy: Bool)
        -> Double
    {
        let drawing: Double
        switch style {
        case .curlup, .curldown: drawing = 18
        case .hblur, .material: drawing = 6
        case .pixelize, .zoomin: drawing = 4
        default: drawing = 3
        }
        let encoding: Double
        switch output {
        case nil: encoding = 0  // --benchmark draws only
        case .apng: encoding = 150
        case .webp: encoding = lossy ? 130 : 940
        case .frames: encoding = 40
        case .y4m: encoding = 6
        }
        return drawing + encoding
    }

    /// - Throws: `ToolFailure` (data error) naming the work, the limit and what to lower.
    static func check(
        frames: Int, width: Int, height: Int, style: PhotoTransition.Style, output: AnimationRequest.Output?,
        lossy: Bool
    ) throws(ToolFailure) {
        let work =
            Double(frames) * Double(width) * Double(height)
            * operationsPerPixel(style: style, output: output, lossy: lossy)
        let limit = SceneRenderer.Limits().work * AnimationRenderer.Limits().workFactor
        guard work > limit else { return }
        throw ToolFailure(
            .dataError, shownAs: nil,
            "the transition's \(frames) frames of \(width)x\(height) would take \(Int(work / 1e6)) million pixel "
                + "operations to draw and encode; the limit is \(Int(limit / 1e6)) million (give a smaller --size, "
                + "a shorter --duration or fewer --fps)")
    }
}
