import Compositor

// The checked ways to make a curve from numbers; the parser reads text into these, so code and scene files
// refuse the same values with the same messages.
extension TimingCurve {
    /// Bounds on what a curve may ask for, so that no value makes work or output unbounded.
    public enum Limits {
        /// A spring must settle within an hour (a damping of 0 never does).
        public static let maximumSettlingDuration = 3600.0
        /// Durations and responses are at most an hour too.
        public static let maximumDuration = 3600.0
        /// ω₀ = √(stiffness/mass) at most 10⁶ rad/s: a period under 10 µs is already far below one frame.
        public static let maximumNaturalFrequency = 1e6
        /// Stiffness, mass and damping at most 10⁸, control points' y and velocities at most 10⁶ in magnitude.
        public static let maximumSpringParameter = 1e8
        public static let maximumMagnitude = 1e6
        /// steps(n) with n at most 10⁶, far more than pixels on a screen.
        public static let maximumStepCount = 1_000_000
    }

    /// CSS `cubic-bezier(x1, y1, x2, y2)`: x1 and x2 in [0, 1] (so x is monotone), y1 and y2 free (overshoot).
    public static func cubicBezier(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double
    )
        throws(ParseError) -> TimingCurve
    {
        for (name, x) in [("x1", x1), ("x2", x2)] where !(x >= 0 && x <= 1) {
            throw ParseError(description: "cubic-bezier(): \(name) must be between 0 and 1, got \(text(x))")
        }
        for (name, y) in [("y1", y1), ("y2", y2)] {
            try check(y, name, in: -Limits.maximumMagnitude...Limits.maximumMagnitude, function: "cubic-bezier")
        }
        return TimingCurve(shape: .cubicBezier(UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2)))
    }

    /// CSS `steps(count, position)`: at least 1 step, 2 for `jump-none` (which would otherwise divide by 0).
    public static func steps(_ count: Int, _ position: StepPosition = .jumpEnd) throws(ParseError) -> TimingCurve {
        let minimum = position == .jumpNone ? 2 : 1
        guard count >= minimum, count <= Limits.maximumStepCount else {
            throw ParseError(
                description: "steps(): the count must be a whole number from \(minimum) to "
                    + "\(Limits.maximumStepCount) with \(position.rawValue), got \(count)")
        }
        return TimingCurve(shape: .steps(count: count, position: position))
    }

    /// A physical spring (`CASpringAnimation`, `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`,
    /// SwiftUI's `interpolatingSpring`): it lasts its settling duration, whatever duration an animation gives.
    public static func spring(
        mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
        initialVelocity: Double = 0
    ) throws(ParseError) -> TimingCurve {
        let spring = Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
        try check(mass, "mass", in: 0...Limits.maximumSpringParameter, positive: true)
        try check(stiffness, "stiffness", in: 0...Limits.maximumSpringParameter, positive: true)
        try check(damping, "damping", in: 0...Limits.maximumSpringParameter)
        try check(initialVelocity, "velocity", in: -Limits.maximumMagnitude...Limits.maximumMagnitude)
        return try settled(.physical, spring)
    }

    /// UIKit's duration-based spring (`usingSpringWithDamping:initialSpringVelocity:`,
    /// `UISpringTimingParameters(dampingRatio:initialVelocity:)`); the ratio is clamped to (0, 1] as UIKit does.
    public static func spring(
        dampingRatio: Double, initialVelocity: Double = 0, duration: Double
    )
        throws(ParseError) -> TimingCurve
    {
        try check(dampingRatio, "damping", in: 0...Limits.maximumSpringParameter)
        try check(initialVelocity, "velocity", in: -Limits.maximumMagnitude...Limits.maximumMagnitude)
        try check(duration, "duration", in: 0...Limits.maximumDuration, positive: true)
        let clamped = min(max(dampingRatio, Reconstructed.uiKitDampingRatioRange.lowerBound), 1)
        let spring = Spring(dampingRatio: clamped, initialVelocity: initialVelocity, duration: duration)
        return TimingCurve(
            shape: .spring(.uiKit(dampingRatio: clamped, duration: duration), spring, duration: duration))
    }

    /// SwiftUI's `spring(response:dampingFraction:)` (`spring` alone is response 0.5, fraction 0.825).
    public static func spring(
        response: Double, dampingFraction: Double, initialVelocity: Double = 0
    )
        throws(ParseError) -> TimingCurve
    {
        try check(response, "response", in: 0...Limits.maximumDuration, positive: true)
        try check(dampingFraction, "dampingFraction", in: 0...Limits.maximumMagnitude)
        try check(initialVelocity, "velocity", in: -Limits.maximumMagnitude...Limits.maximumMagnitude)
        let spring = Spring(response: response, dampingFraction: dampingFraction, initialVelocity: initialVelocity)
        return try settled(.response(response: response, dampingFraction: dampingFraction), spring)
    }

    /// iOS 17's `Spring(duration:bounce:)`, bounce between −1 and 1 (exclusive).
    public static func spring(
        duration: Double, bounce: Double, initialVelocity: Double = 0
    )
        throws(ParseError) -> TimingCurve
    {
        try check(duration, "duration", in: 0...Limits.maximumDuration, positive: true)
        guard bounce > -1 && bounce < 1 else {
            throw ParseError(description: "spring(): bounce must be between -1 and 1 (exclusive), got \(text(bounce))")
        }
        try check(initialVelocity, "velocity", in: -Limits.maximumMagnitude...Limits.maximumMagnitude)
        let spring = Spring(duration: duration, bounce: bounce, initialVelocity: initialVelocity)
        return try settled(.durationBounce(duration: duration, bounce: bounce), spring)
    }

    /// SwiftUI's named springs: `spring()`, `interactiveSpring()`, `Animation.default` (iOS 17), `.smooth`,
    /// `.snappy`, `.bouncy`.
    public static let swiftUISpring = named(.response(response: 0.5, dampingFraction: 0.825), .swiftUIDefault)
    public static let interactiveSpring = named(.response(response: 0.15, dampingFraction: 0.86), .interactive)
    public static let animationDefault = named(.response(response: 0.55, dampingFraction: 1), .animationDefault)
    public static let smooth = named(.durationBounce(duration: 0.5, bounce: 0), .smooth)
    public static let snappy = named(.durationBounce(duration: 0.5, bounce: 0.15), .snappy)
    public static let bouncy = named(.durationBounce(duration: 0.5, bounce: 0.3), .bouncy)

    private static func named(_ form: SpringForm, _ spring: Spring) -> TimingCurve {
        TimingCurve(shape: .spring(form, spring, duration: spring.settlingDuration()))
    }

    private static func settled(_ form: SpringForm, _ spring: Spring) throws(ParseError) -> TimingCurve {
        guard spring.naturalFrequency <= Limits.maximumNaturalFrequency else {
            throw ParseError(
                description: "spring(): too stiff for its mass (\u{3C9}\u{2080} = \(text(spring.naturalFrequency)) "
                    + "rad/s; at most \(text(Limits.maximumNaturalFrequency)))")
        }
        let settling = spring.settlingDuration()
        guard settling <= Limits.maximumSettlingDuration else {
            throw ParseError(
                description: "spring(): it would not settle within \(text(Limits.maximumSettlingDuration)) s "
                    + "(give it more damping or stiffness)")
        }
        return TimingCurve(shape: .spring(form, spring, duration: settling))
    }

    private static func check(
        _ value: Double, _ name: String, in range: ClosedRange<Double>, positive: Bool = false,
        function: String = "spring"
    ) throws(ParseError) {
        guard range.contains(value), !positive || value > 0 else {
            let bounds =
                positive
                ? "above \(text(range.lowerBound)) and at most \(text(range.upperBound))"
                : "from \(text(range.lowerBound)) to \(text(range.upperBound))"
            throw ParseError(description: "\(function)(): \(name) must be a number \(bounds), got \(text(value))")
        }
    }

    private static func text(_ value: Double) -> String { value.plainDescription }
}
