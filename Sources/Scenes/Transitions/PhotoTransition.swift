import Compositor
import Motion

/// A transition from one photo to another, frame by frame: the transitions of ffmpeg's `xfade` filter
/// (libavfilter/vf_xfade.c) on premultiplied RGBA8, plus `material`, our own.
///
/// xfade runs its progress P from 1 (all of the first input) to 0; here `progress` runs from 0 (`from`) to
/// 1 (`to`) and each style is xfade's formula at P = 1 − progress, after the timing curve. Mixes are rounded to
/// nearest in fixed point (xfade truncates its float mixes), so a mix differs from xfade's by at most one level.
/// Every style is a convex mix of premultiplied pixels (or a copy of them), so an opaque pair stays opaque.
/// `curlup` and `curldown` are UIKit's page curls (`PageCurl`): the old photo curls away over the new one.
public struct PhotoTransition: Sendable {
    public enum Style: String, CaseIterable, Sendable {
        case fade, fadeblack, fadewhite, dissolve, wipeleft, wiperight, wipeup, wipedown,
            slideleft, slideright, slideup, slidedown, smoothleft, smoothright,
            circleopen, circleclose, radial, pixelize, hblur, zoomin, material, curlup, curldown
    }

    public var style: Style
    /// Maps linear time progress to the style's progress (overshoot is clamped to 0...1); default `.linear`.
    public var curve: TimingCurve
    /// At most this many threads; results are identical for every count.
    public var threads: Int

    public init(style: Style, curve: TimingCurve = .linear, threads: Int = Parallel.processorCount) {
        self.style = style
        self.curve = curve
        self.threads = threads
    }

    /// The style's progress at linear `progress`: NaN counts as 0, the value is clamped to 0...1, exactly 0 and 1
    /// stay 0 and 1 whatever the curve, and the curve's value is clamped to 0...1 again.
    public func styleProgress(at progress: Double) -> Double {
        guard progress > 0 else { return 0 }
        guard progress < 1 else { return 1 }
        let value = curve.value(atFraction: progress)
        guard value > 0 else { return 0 }  // NaN too
        return min(value, 1)
    }

    /// The frame at `progress` (0: `from` exactly, 1: `to` exactly; the curve applied to it first) into `target`.
    ///
    /// - Precondition: `from`, `to` and `target` have the same size (aspect-fill the photos first with
    ///   `Resampler.fit`), and `target` shares no pixels with `from` or `to`.
    /// - Parameter workspace: scratch for `material`'s blurs (a new one per call when nil); other styles use none
    ///   and allocate nothing but the curls' page copies (a padded copy to sample and the curled page).
    public func draw(from: Image, to: Image, progress: Double, into target: Image, workspace: Workspace? = nil) {
        precondition(
            from.width == to.width && from.height == to.height && target.width == from.width
                && target.height == from.height, "a transition's images must have the same size")
        precondition(!target.overlaps(from) && !target.overlaps(to), "a transition cannot draw into its inputs")
        guard target.pixelCount > 0 else { return }  // pixelize's squares would be 0 wide
        let p = styleProgress(at: progress)
        if p == 0 || p == 1 {
            copy(p == 0 ? from : to, into: target)
            return
        }
        let frame = Frame(from: from, to: to, target: target, p: p, threads: threads)
        switch style {
        case .fade: frame.fade()
        case .fadeblack: frame.fadeThrough(.black)
        case .fadewhite: frame.fadeThrough(.white)
        case .dissolve: frame.dissolve()
        case .wipeleft, .wiperight, .wipeup, .wipedown: frame.wipe(style)
        case .slideleft, .slideright, .slideup, .slidedown: frame.slide(style)
        case .smoothleft, .smoothright, .circleopen, .circleclose, .radial: frame.softEdge(style)
        case .pixelize: frame.pixelize()
        case .hblur: frame.horizontalBlur()
        case .zoomin: frame.zoomIn()
        case .material: frame.material(workspace: workspace ?? Workspace())
        case .curlup, .curldown: frame.curl(style == .curlup ? .up : .down)
        }
    }

    /// A new image: the frame at `progress` (see `draw(from:to:progress:into:workspace:)`).
    public func frame(from: Image, to: Image, progress: Double, workspace: Workspace? = nil) -> Image {
        let target = Image(uninitializedWidth: from.width, height: from.height)  // every pixel is written
        draw(from: from, to: to, progress: progress, into: target, workspace: workspace)
        return target
    }

    private func copy(_ source: Image, into target: Image) {
        let rowBytes = source.width * Image.bytesPerPixel
        Parallel.forEach(source.height, threads: threads) { y, _ in
            target.row(y).update(from: source.row(y), count: rowBytes)
        }
    }
}

/// One frame being drawn: the inputs, the target and both progresses.
struct TransitionFrame {
    let from: Image
    let to: Image
    let target: Image
    /// Our progress, strictly between 0 and 1.
    let p: Double
    /// xfade's progress, 1 − p.
    let xfade: Double
    let threads: Int
    var width: Int { target.width }
    var height: Int { target.height }

    init(from: Image, to: Image, target: Image, p: Double, threads: Int) {
        self.from = from
        self.to = to
        self.target = target
        self.p = p
        self.xfade = 1 - p
        self.threads = threads
    }

    /// Calls `body(y)` for every row, rows spread over the threads.
    func forEachRow(_ body: (Int) -> Void) {
        Parallel.forEach(height, threads: threads) { y, _ in body(y) }
    }
}

extension PhotoTransition {
    typealias Frame = TransitionFrame
}

/// GLSL's smoothstep, as xfade defines it: 0 below `edge0`, 1 above `edge1`, 3t² − 2t³ between.
@inline(__always)
func smoothstep<F: BinaryFloatingPoint>(_ edge0: F, _ edge1: F, _ x: F) -> F {
    var t = (x - edge0) / (edge1 - edge0)
    t = t > 0 ? (t < 1 ? t : 1) : 0  // NaN → 0
    return t * t * (3 - 2 * t)
}
