import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How an animation's value moves from its start (0) to its end (1) over time: a cubic Bézier as Core Animation
/// and CSS name them, CSS `steps()`, or a spring in any of Apple's parametrisations.
///
/// The text form (`init(parsing:)`, `description`) is what scene files and `blurtool curve` use.
public struct TimingCurve: Sendable, Equatable, CustomStringConvertible {
    /// Why a curve's text or parameters were refused: one line saying what was expected.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Where a `steps()` curve jumps, as CSS Easing Functions level 1 defines it.
    public enum StepPosition: String, Sendable, CaseIterable {
        case jumpStart = "jump-start"
        case jumpEnd = "jump-end"
        case jumpNone = "jump-none"
        case jumpBoth = "jump-both"
    }

    /// A spring as it was given, kept for its text form and for `withInitialVelocity(_:)`, which re-solves
    /// UIKit's stiffness; the physical spring itself is in `Shape.spring`.
    package enum SpringForm: Sendable, Equatable {
        case uiKit(dampingRatio: Double, duration: Double)
        case physical
        case response(response: Double, dampingFraction: Double)
        case durationBounce(duration: Double, bounce: Double)
    }

    package enum Shape: Sendable, Equatable {
        case linear
        case cubicBezier(UnitBezier)
        case steps(count: Int, position: StepPosition)
        /// `duration`: UIKit's given duration, or the settling duration, computed once.
        case spring(SpringForm, Spring, duration: Double)
    }

    let shape: Shape

    package init(shape: Shape) {
        self.shape = shape
    }

    public static let linear = TimingCurve(shape: .linear)
    // Control points of Apple's `CAMediaTimingFunctionName` constants (the same as CSS's keywords).
    public static let easeIn = bezier(0.42, 0, 1, 1)
    public static let easeOut = bezier(0, 0, 0.58, 1)
    public static let easeInOut = bezier(0.42, 0, 0.58, 1)
    /// `CAMediaTimingFunctionName.default`, the same curve as CSS `ease`.
    public static let coreAnimationDefault = bezier(0.25, 0.1, 0.25, 1)

    private static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> TimingCurve {
        TimingCurve(shape: .cubicBezier(UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2)))
    }

    /// Springs fix their own duration (UIKit's given one; physical/SwiftUI: settling duration); others nil.
    public var intrinsicDuration: Double? {
        if case .spring(_, _, let duration) = shape { return duration }
        return nil
    }

    public var isSpring: Bool { intrinsicDuration != nil }

    /// The physical spring behind a spring curve (mass, stiffness, damping, velocity), nil for other curves.
    public var spring: Spring? {
        if case .spring(_, let spring, _) = shape { return spring }
        return nil
    }

    /// Progress at `time` s into an animation lasting `duration` s: 0 before 0, exactly 1 at/after the end,
    /// overshoot allowed in between. For non-springs this is the curve at time/duration.
    ///
    /// A spring runs on its own clock (its position `time` seconds after release) whatever `duration` is:
    /// `duration` only says when it is declared finished and snaps to exactly 1, as an animator completes.
    /// A NaN time counts as before the start.
    public func progress(atTime time: Double, duration: Double) -> Double {
        // At 0 itself the active phase has begun: a step that jumps at the start is already taken (CSS gives
        // steps(n, jump-start) 1/n there); every other curve is 0 at 0.
        guard time >= 0 else { return 0 }
        guard time < duration else { return 1 }
        if case .spring(_, let spring, _) = shape { return spring.value(at: time) }
        return value(atFraction: time / duration)
    }

    /// Progress `time` s into a slot of `slot` s that the curve must fill: `progress(atTime:duration:)`, except
    /// that a spring whose own duration is not the slot's (an animation added with a delay factor runs in what is
    /// left of its animator; a keyframe segment in its share of the pass) is scaled in time to fill it, as UIKit
    /// fits an added animation into the animator's remaining time: it ends at rest, never on a jump.
    package func progress(atTime time: Double, filling slot: Double) -> Double {
        let (time, duration) = ownClock(atTime: time, filling: slot)
        return progress(atTime: time, duration: duration)
    }

    /// `time` s into a slot of `slot` s as this curve's clock reads it: unchanged, except for a spring whose own
    /// duration is not the slot's, whose clock the slot is scaled onto (see `progress(atTime:filling:)`).
    package func ownClock(atTime time: Double, filling slot: Double) -> (time: Double, duration: Double) {
        guard case .spring(_, _, let own) = shape, slot > 0, abs(own - slot) > 1e-9 * own else { return (time, slot) }
        return (time / slot * own, own)
    }

    /// The curve at `fraction` of its duration; beziers continue linearly outside [0, 1], steps hold their
    /// ends, a spring is taken over its intrinsic duration.
    package func value(atFraction x: Double) -> Double {
        switch shape {
        case .linear:
            return x
        case .cubicBezier(let bezier):
            return bezier.value(atX: x)
        case .steps(let count, let position):
            return TimingCurve.step(x, count: count, position: position)
        case .spring(_, let spring, let duration):
            return spring.value(at: x * duration)
        }
    }

    /// The step function of CSS Easing Functions level 1, §2.3 (without the "before flag", which only
    /// matters for a fill before the start).
    static func step(_ x: Double, count: Int, position: StepPosition) -> Double {
        var current = (x * Double(count)).rounded(.down)
        if position == .jumpStart || position == .jumpBoth { current += 1 }
        if x >= 0 && current < 0 { current = 0 }
        let jumps: Int
        switch position {
        case .jumpBoth: jumps = count + 1
        case .jumpNone: jumps = count - 1
        case .jumpStart, .jumpEnd: jumps = count
        }
        if x <= 1 && current > Double(jumps) { current = Double(jumps) }
        return current / Double(jumps)
    }

    /// The same curve with another initial velocity (springs, re-solving UIKit's stiffness; others: self).
    ///
    /// A non-finite velocity is taken as 0, and a velocity is limited to ±`Limits.maximumMagnitude` as the
    /// parser limits it (past that the solved stiffness would overflow). The duration of a physical or SwiftUI
    /// spring becomes the new velocity's settling duration.
    public func withInitialVelocity(_ velocity: Double) -> TimingCurve {
        guard case .spring(let form, var spring, _) = shape else { return self }
        let limit = Limits.maximumMagnitude
        let velocity = velocity.isFinite ? min(max(velocity, -limit), limit) : 0
        if case .uiKit(let ratio, let duration) = form {
            let solved = Spring(dampingRatio: ratio, initialVelocity: velocity, duration: duration)
            return TimingCurve(shape: .spring(form, solved, duration: duration))
        }
        spring.initialVelocity = velocity
        return TimingCurve(shape: .spring(form, spring, duration: spring.settlingDuration()))
    }

    /// The canonical text, which `init(parsing:)` reads back to an equal curve.
    public var description: String {
        func number(_ value: Double) -> String { value.plainDescription }
        switch shape {
        case .linear:
            return "linear"
        case .cubicBezier(let b):
            let names: [(TimingCurve, String)] = [
                (.easeIn, "easeIn"), (.easeOut, "easeOut"), (.easeInOut, "easeInOut"), (.coreAnimationDefault, "ease"),
            ]
            if let name = names.first(where: { $0.0 == self })?.1 { return name }
            return "cubic-bezier(\(number(b.x1)), \(number(b.y1)), \(number(b.x2)), \(number(b.y2)))"
        case .steps(let count, let position):
            return "steps(\(count), \(position.rawValue))"
        case .spring(let form, let spring, _):
            let velocity = spring.initialVelocity
            let velocityText = velocity == 0 ? "" : ", velocity: \(number(velocity))"
            switch form {
            case .uiKit(let ratio, let duration):
                return "spring(damping: \(number(ratio)), velocity: \(number(velocity)), duration: \(number(duration)))"
            case .physical:
                return "spring(mass: \(number(spring.mass)), stiffness: \(number(spring.stiffness)), "
                    + "damping: \(number(spring.damping)), velocity: \(number(velocity)))"
            case .response(let response, let fraction):
                return "spring(response: \(number(response)), dampingFraction: \(number(fraction))\(velocityText))"
            case .durationBounce(let duration, let bounce):
                return "spring(duration: \(number(duration)), bounce: \(number(bounce))\(velocityText))"
            }
        }
    }
}
