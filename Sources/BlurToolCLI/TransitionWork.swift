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
/// material 16 ms (6), the curls 58 ms (18); encoding as `EncodingWork` says.
enum TransitionWork {
    static func drawingOperationsPerPixel(style: PhotoTransition.Style) -> Double {
        switch style {
        case .curlup, .curldown: return 18
        case .hblur, .material: return 6
        case .pixelize, .zoomin: return 4
        default: return 3
        }
    }

    /// - Throws: `ToolFailure` (data error) naming the work, the limit and what to lower.
    static func check(
        frames: Int, width: Int, height: Int, style: PhotoTransition.Style, encodingPerPixel: Double
    ) throws(ToolFailure) {
        let work =
            Double(frames) * Double(width) * Double(height)
            * (drawingOperationsPerPixel(style: style) + encodingPerPixel)
        let limit = SceneRenderer.Limits().work * AnimationRenderer.Limits().workFactor
        guard work > limit else { return }
        throw ToolFailure(
            .dataError, shownAs: nil,
            "the transition's \(frames) frames of \(width)x\(height) would take \(Int(work / 1e6)) million pixel "
                + "operations to draw and encode; the limit is \(Int(limit / 1e6)) million (give a smaller --size, "
                + "a shorter --duration, fewer --fps or a lower --png-compression)")
    }
}
