import Compositor
import Motion

/// The page curls: the curling layer wrapped in a `.curled` layer of its frame whose progress animates.
extension LayerTransition {
    /// How far `.partialCurl` curls the presenting screen: a third of the curl's travel, where UIKit stops with
    /// the lower part of the page rolled up over the rest (reconstructed from recordings; UIKit documents no
    /// number, and MOTION.md names the style only).
    public static let partialCurlProgress = 1.0 / 3

    /// `layer` as the page of a curl in `direction` moving from progress `start` to `end` over the timing.
    func curling(_ layer: Layer, direction: PageCurl.Direction, from start: Double, to end: Double) -> Layer {
        let frame = layer.frame!
        var inner = layer
        inner.frame = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        var page = Layer.curled([inner], curl: PageCurl(progress: start, direction: direction), frame: frame)
        page.animations.append(LayerAnimation(.curl(Track(from: start, to: end)), timing: timing))
        return page
    }
}
