import Compositor
import Motion

/// An animation at one moment: the fraction of its pass (after delay, repeats and autoreversing) and, through
/// the keyframe segment holding it, the value of its track.
struct Progress {
    let animation: LayerAnimation
    /// 0...1 of the current pass, direction applied (an autoreversing pass runs back from 1 to 0).
    let fraction: Double

    /// At `time` seconds of the scene; at `.infinity`, the end of a pass (where a forever-repeating
    /// animation leaves the model for the next one in its chain).
    init(_ animation: LayerAnimation, at time: Double) {
        self.animation = animation
        fraction = time.isFinite ? min(max(animation.timing.localFraction(at: time), 0), 1) : 1
    }

    /// The curve's progress of a plain 0 → 1 animation (a cross-dissolve's).
    var x: Double { value(of: Track(from: 0.0, to: 1.0), from: 0) }

    /// The track's value: `from` (or `start` without one) through the keyframes, each segment along its
    /// own curve over its share of the pass, a spring's vertical axis with its own initial velocity.
    func value<Value: Interpolatable>(of track: Track<Value>, from start: Value) -> Value {
        let keyframes = track.keyframes
        var points = [Keyframe(time: 0, value: track.from ?? start)]
        if keyframes[0].time <= 0 { points.removeAll() }
        points += keyframes
        guard let next = points.firstIndex(where: { $0.time > fraction }), next > 0 else {
            return fraction <= points[0].time ? points[0].value : points[points.count - 1].value
        }
        let (before, after) = (points[next - 1], points[next])
        let span = after.time - before.time
        let curve = after.curve ?? (points.count == 2 ? animation.timing.curve : .linear)
        let seconds = animation.timing.passDuration * span
        let elapsed = (fraction - before.time) / span * seconds
        let x = curve.progress(atTime: elapsed, duration: seconds)
        var y = x
        if let vertical = animation.verticalVelocity, curve.isSpring {
            y = curve.withInitialVelocity(vertical).progress(atTime: elapsed, duration: seconds)
        }
        return Value.interpolate(before.value, after.value, x: x, y: y)
    }
}

/// A value an animation can move between two of: at progress 0 the first, at 1 the second, beyond them
/// extrapolated (springs and overshooting curves), `y` driving the vertical parts.
protocol Interpolatable {
    static func interpolate(_ a: Self, _ b: Self, x: Double, y: Double) -> Self
}

extension Double: Interpolatable {
    static func interpolate(_ a: Double, _ b: Double, x: Double, y: Double) -> Double { a + (b - a) * x }
}

extension Rect: Interpolatable {
    static func interpolate(_ a: Rect, _ b: Rect, x: Double, y: Double) -> Rect {
        Rect(
            x: .interpolate(a.x, b.x, x: x, y: x), y: .interpolate(a.y, b.y, x: y, y: y),
            width: .interpolate(a.width, b.width, x: x, y: x), height: .interpolate(a.height, b.height, x: y, y: y))
    }
}

extension AffineTransform2D: Interpolatable {
    /// By decomposition (see `interpolated(to:progress:)`); the vertical translation follows `y`.
    static func interpolate(_ a: AffineTransform2D, _ b: AffineTransform2D, x: Double, y: Double) -> AffineTransform2D {
        var result = a.interpolated(to: b, progress: x)
        if y != x { result.ty = a.interpolated(to: b, progress: y).ty }
        return result
    }
}

extension Transform3D: Interpolatable {
    /// By decomposition; one progress for every part (a spring's vertical velocity is a 2D notion).
    static func interpolate(_ a: Transform3D, _ b: Transform3D, x: Double, y: Double) -> Transform3D {
        a.interpolated(to: b, progress: x)
    }
}

extension RGBAColor: Interpolatable {
    /// Straight sRGB components, as Core Animation interpolates a colour, clamped to 0...1.
    static func interpolate(_ a: RGBAColor, _ b: RGBAColor, x: Double, y: Double) -> RGBAColor {
        func mix(_ p: Double, _ q: Double) -> Double { min(max(p + (q - p) * x, 0), 1) }
        return RGBAColor(
            red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue),
            alpha: mix(a.alpha, b.alpha))
    }
}
