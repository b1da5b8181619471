#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Apple's parametrisations, each reduced to mass, stiffness and damping. Sources: Apple's documentation of
// SwiftUI's `Spring` and `Animation.spring(response:dampingFraction:blendDuration:)`, of
// `UISpringTimingParameters` and `CASpringAnimation`; UIKit's duration-based spring is reconstructed (see
// `Reconstructed`).
extension Spring {
    /// SwiftUI's `spring(response:dampingFraction:)`: mass 1, stiffness (2π/response)², damping
    /// 4π·dampingFraction/response, so that `response` is the period of the undamped spring.
    public init(response: Double, dampingFraction: Double, initialVelocity: Double = 0) {
        let omega = 2 * .pi / response
        self.init(
            mass: 1, stiffness: omega * omega, damping: 2 * dampingFraction * omega,
            initialVelocity: initialVelocity)
    }

    /// iOS 17's `Spring(duration:bounce:)`: stiffness (2π/duration)²·mass and damping ratio 1 − bounce for a
    /// bounce ≥ 0, 1/(1 + bounce) below (over-damped). Apple's example: (0.5, 0.3) is m 1, k 157.9, c 17.6.
    public init(duration: Double, bounce: Double, mass: Double = 1, initialVelocity: Double = 0) {
        let omega = 2 * .pi / duration
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.init(
            mass: mass, stiffness: omega * omega * mass, damping: 2 * ratio * omega * mass,
            initialVelocity: initialVelocity)
    }

    /// UIKit's duration-based spring (`animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`,
    /// `UISpringTimingParameters(dampingRatio:initialVelocity:)` in an animator of that duration).
    ///
    /// *Reconstructed* (see `Reconstructed`): mass 1, the ratio and the duration clamped to UIKit's ranges, and
    /// ω₀ solved by Newton's method so that the envelope of the motion, its amplitude included, is exactly
    /// `Reconstructed.settlingThreshold` at the duration; the spring is then within that of the end there.
    public init(dampingRatio: Double, initialVelocity: Double, duration: Double) {
        let ratioRange = Reconstructed.uiKitDampingRatioRange
        let durationRange = Reconstructed.uiKitDurationRange
        let ratio = dampingRatio.isNaN ? ratioRange.upperBound : min(max(dampingRatio, ratioRange.lowerBound), 1)
        let given = duration.isNaN ? durationRange.lowerBound : duration
        let time = min(max(given, durationRange.lowerBound), durationRange.upperBound)
        let velocity = initialVelocity.isFinite ? initialVelocity : 0
        let omega = Spring.solveNaturalFrequency(dampingRatio: ratio, initialVelocity: velocity, duration: time)
        let mass = Reconstructed.uiKitMass
        self.init(
            mass: mass, stiffness: omega * omega * mass, damping: 2 * ratio * omega * mass,
            initialVelocity: velocity)
    }

    /// ω₀ at which ln(envelope(duration)) = ln(threshold), by Newton's method kept inside a bracket (bisection
    /// when a step would leave it), so it converges for any velocity.
    static func solveNaturalFrequency(
        dampingRatio zeta: Double, initialVelocity v0: Double, duration d: Double
    )
        -> Double
    {
        let target = log(Reconstructed.settlingThreshold)
        let critical = zeta >= 1 - Spring.criticalTolerance
        let s = (1 - zeta * zeta).squareRoot()
        // g(ω) = ln envelope(d) − ln threshold and its derivative; g falls to −∞ as ω grows.
        func g(_ omega: Double) -> (value: Double, slope: Double) {
            if critical {
                let gap = omega - v0
                let reach = 1 + abs(gap) * d
                return (log(reach) - omega * d - target, (gap < 0 ? -d : d) / reach - d)
            }
            let q = (zeta * omega - v0) / (omega * s)
            let dq = v0 / (omega * omega * s)
            return (0.5 * log1p(q * q) - zeta * omega * d - target, q * dq / (1 + q * q) - zeta * d)
        }
        let guess = -target / (zeta * d)
        // Widen a bracket [lower, upper] with g(lower) ≥ 0 ≥ g(upper) from the guess that ignores the amplitude.
        var lower = guess
        var upper = guess
        var widenings = 0
        while g(upper).value > 0 && widenings < 200 {
            (lower, upper) = (upper, upper * 2)
            widenings += 1
        }
        while g(lower).value < 0 && widenings < 400 {
            (upper, lower) = (lower, lower / 2)
            widenings += 1
        }
        var omega = min(max(guess, lower), upper)
        for _ in 0..<100 {
            let (value, slope) = g(omega)
            if abs(value) < 1e-14 { break }
            if value > 0 { lower = omega } else { upper = omega }
            let step = omega - value / slope
            omega = step > lower && step < upper && slope.isFinite ? step : (lower + upper) / 2
            if upper - lower <= 1e-15 * upper { break }
        }
        return omega
    }
}

extension Spring {
    /// `UISpringTimingParameters()` with no arguments: mass 3, stiffness 1000, damping 500 (ζ ≈ 4.56, as Apple's
    /// documentation of the initialiser says).
    public static let uiKitDefault = Spring(mass: 3, stiffness: 1000, damping: 500)

    /// SwiftUI's `spring()` with no arguments: response 0.5, damping fraction 0.825.
    public static let swiftUIDefault = Spring(response: 0.5, dampingFraction: 0.825)

    /// SwiftUI's `interactiveSpring()`: response 0.15, damping fraction 0.86.
    public static let interactive = Spring(response: 0.15, dampingFraction: 0.86)

    /// SwiftUI's `Animation.default` since iOS 17: a spring of response 0.55 and damping fraction 1.
    public static let animationDefault = Spring(response: 0.55, dampingFraction: 1)

    /// iOS 17's presets: `.smooth` (no bounce), `.snappy` (bounce 0.15), `.bouncy` (0.3), all 0.5 s.
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)
}
