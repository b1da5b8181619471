/// When an animation runs and how its progress moves: a curve, a duration, a delay, UIKit's `delayFactor`, and
/// Core Animation's repeat count and autoreverse.
///
/// Times are seconds of scene time. The animation's passes start at `startTime` (delay + delayFactor ×
/// duration) and each lasts `passDuration`; with `autoreverses` a cycle is a pass there and a pass back, and
/// `repeatCount` counts cycles, as `CAMediaTiming` does. Values are used as they come: a NaN or negative
/// duration counts as 0, a delay factor is clamped to [0, 1], a repeat count that is not positive (or NaN) is 1
/// (Core Animation's 0 means once), a NaN delay is 0.
public struct AnimationTiming: Sendable, Equatable {
    public var curve: TimingCurve
    public var duration: Double
    public var delay: Double
    public var delayFactor: Double
    public var repeatCount: Double
    public var autoreverses: Bool

    /// The duration of a curve that fixes none, when none is given: Core Animation's implicit animations and
    /// `CATransaction.animationDuration()` last 0.25 s (SwiftUI's `.easeInOut` and friends last 0.35 s; a
    /// scene written from SwiftUI code should say so).
    public static let defaultDuration = 0.25

    /// - Parameter duration: nil means the curve's own (a spring's) duration, else `defaultDuration`.
    public init(
        curve: TimingCurve = .easeInOut, duration: Double? = nil, delay: Double = 0, delayFactor: Double = 0,
        repeatCount: Double = 1, autoreverses: Bool = false
    ) {
        self.curve = curve
        self.duration = duration ?? curve.intrinsicDuration ?? AnimationTiming.defaultDuration
        self.delay = delay
        self.delayFactor = delayFactor
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
    }

    /// The delay of the `index`-th of a row of animations started `step` seconds apart after `delay`, as
    /// `UIView.animate(withDuration: 0.4, delay: 0.1 * Double(index))` or SwiftUI's `.delay(Double(index) * 0.05)`.
    public static func staggeredDelay(index: Int, step: Double, after delay: Double = 0) -> Double {
        delay + Double(index) * step
    }

    /// This timing delayed by `index × step` more: the `index`-th of a staggered row.
    public func staggered(index: Int, step: Double) -> AnimationTiming {
        var copy = self
        copy.delay = AnimationTiming.staggeredDelay(index: index, step: step, after: delay)
        return copy
    }

    private var safeDuration: Double { duration > 0 ? duration : 0 }
    private var safeDelayFactor: Double { delayFactor.isNaN ? 0 : min(max(delayFactor, 0), 1) }

    /// When the first pass starts: after the delay and, for an animation added to a running animator with a
    /// delay factor (`addAnimations(_:delayFactor:)`), after that fraction of the animator's duration.
    public var startTime: Double { (delay.isNaN ? 0 : delay) + safeDelayFactor * safeDuration }

    /// One pass: the duration, less the part a delay factor skips (the animation ends with its animator).
    public var passDuration: Double { safeDuration * (1 - safeDelayFactor) }

    /// Passes in all: the repeat count, doubled when each cycle goes there and back.
    private var passCount: Double {
        let cycles = repeatCount > 0 ? repeatCount : 1
        return autoreverses ? 2 * cycles : cycles
    }

    /// When the animation stops changing (delay + active duration); .infinity when it repeats forever.
    public var endTime: Double {
        let pass = passDuration
        return pass == 0 ? startTime : startTime + pass * passCount
    }

    /// Where in its pass the animation is at `time`, 0...1, played backwards on the way back of an autoreversing
    /// cycle; 0 before the start, and after the end where the last pass stopped (1, or 0 after an autoreversed
    /// cycle, or part way for a fractional repeat count), as a fill-forwards animation holds it.
    public func localFraction(at time: Double) -> Double {
        let start = startTime
        guard time >= start else { return 0 }
        let passes = passCount
        let end = endTime
        let index: Double
        let within: Double
        if time >= end {
            // Only a time of +infinity reaches an endless animation's end; it has no last pass to hold.
            guard end.isFinite else { return 0 }
            // A whole number of passes ends at the end of the last one, not the start of another.
            index = passes.rounded(.up) - 1
            within = passes - index
        } else {
            let position = (time - start) / passDuration
            index = position.rounded(.down)
            within = position - index
        }
        let backwards = autoreverses && index.truncatingRemainder(dividingBy: 2) == 1
        return backwards ? 1 - within : within
    }

    /// Value progress at scene time `time`: 0 before the start, the curve in between, the final value after.
    /// A zero duration jumps straight to where its last pass ends.
    public func progress(at time: Double) -> Double {
        guard time >= startTime else { return 0 }
        let fraction = localFraction(at: time)
        let pass = passDuration
        return pass == 0 ? fraction : curve.progress(atTime: fraction * pass, filling: pass)
    }
}
