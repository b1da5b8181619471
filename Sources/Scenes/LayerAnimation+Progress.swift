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
        // A spring given a slot other than its own duration (a delay factor's remainder, a keyframe's share) runs
        // scaled onto its own clock (see `TimingCurve.progress(atTime:filling:)`); a velocity vector's axes run on
        // that clock too, each on its own spring, and every part is at rest when the slot ends.
        let (time, slot) = curve.ownClock(atTime: elapsed, filling: seconds)
        let other = curve.progress(atTime: time, duration: slot)
        var progress = AxisProgress(x: other, y: other, other: other)
        if let velocity = animation.positionVelocity, curve.isSpring {
            progress.x = curve.withInitialVelocity(velocity.dx).progress(atTime: time, duration: slot)
            progress.y = curve.withInitialVelocity(velocity.dy).progress(atTime: time, duration: slot)
        }
        return Value.interpolate(before.value, after.value, progress)
    }
}

/// How far an animation has come, per part of its value: a position's x and y (which a spring's velocity vector
/// drives apart) and everything else.
struct AxisProgress {
    var x: Double
    var y: Double
    var other: Double
}

/// A value an animation can move between two of: at progress 0 the first, at 1 the second, beyond them
/// extrapolated (springs and overshooting curves).
protocol Interpolatable {
    static func interpolate(_ a: Self, _ b: Self, _ progress: AxisProgress) -> Self
}

extension Double: Interpolatable {
    static func interpolate(_ a: Double, _ b: Double, _ progress: AxisProgress) -> Double {
        a + (b - a) * progress.other
    }
}

extension Rect: Interpolatable {
    /// As UIKit animates a frame: its centre (x and y each on their own progress) and its size, apart.
    static func interpolate(_ a: Rect, _ b: Rect, _ progress: AxisProgress) -> Rect {
        func mix(_ p: Double, _ q: Double, _ t: Double) -> Double { p + (q - p) * t }
        let width = mix(a.width, b.width, progress.other)
        let height = mix(a.height, b.height, progress.other)
        let centreX = mix(a.x + a.width / 2, b.x + b.width / 2, progress.x)
        let centreY = mix(a.y + a.height / 2, b.y + b.height / 2, progress.y)
        return Rect(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
    }
}

extension AffineTransform2D: Interpolatable {
    /// By decomposition (see `interpolated(to:progress:)`); a transform is not a position to UIKit, so a velocity
    /// vector moves it by its magnitude.
    static func interpolate(
        _ a: AffineTransform2D, _ b: AffineTransform2D, _ progress: AxisProgress
    ) -> AffineTransform2D {
        a.interpolated(to: b, progress: progress.other)
    }
}

extension Transform3D: Interpolatable {
    /// By decomposition.
    static func interpolate(_ a: Transform3D, _ b: Transform3D, _ progress: AxisProgress) -> Transform3D {
        a.interpolated(to: b, progress: progress.other)
    }
}

extension RGBAColor: Interpolatable {
    /// Straight sRGB components, as Core Animation interpolates a colour, clamped to 0...1.
    static func interpolate(_ a: RGBAColor, _ b: RGBAColor, _ progress: AxisProgress) -> RGBAColor {
        let x = progress.other
        func mix(_ p: Double, _ q: Double) -> Double { min(max(p + (q - p) * x, 0), 1) }
        return RGBAColor(
            red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue),
            alpha: mix(a.alpha, b.alpha))
    }
}
