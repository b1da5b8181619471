#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A damped spring moving a value from 0 to 1: m·x″ + c·x′ + k·(x − 1) = 0 with x(0) = 0 and x′(0) = v₀, the
/// initial velocity in whole distances per second (UIKit's convention: 200 pt to cover at 100 pt/s is 0.5).
///
/// Every parametrisation Apple offers reduces to this model (see `Spring+Parameters.swift`); the solution is
/// the closed form of WebKit's `Source/WebCore/platform/graphics/SpringSolver.h`, written for all three damping
/// regimes.
public struct Spring: Sendable, Equatable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    public var initialVelocity: Double

    /// A spring as `CASpringAnimation` and `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`
    /// take one; the defaults are Core Animation's. Values are used as given: `TimingCurve`'s parser is where
    /// user text is checked.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        (self.mass, self.stiffness, self.damping, self.initialVelocity) = (mass, stiffness, damping, initialVelocity)
    }

    /// ω₀ = √(k/m), radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c / (2√(mk)): below 1 the spring overshoots, at 1 it is critically damped, above 1 over-damped.
    public var dampingRatio: Double { damping / (2 * (mass * stiffness).squareRoot()) }

    /// SwiftUI's perceptual duration, 2π/ω₀ (`Spring.duration`; Apple's example: m 1, k 100 → 0.63 s).
    public var perceptualDuration: Double { 2 * .pi / naturalFrequency }

    /// SwiftUI's bounce: 1 − ζ up to critical damping, 1/ζ − 1 beyond (the inverse of `init(duration:bounce:)`).
    public var bounce: Double {
        let ratio = dampingRatio
        return ratio <= 1 ? 1 - ratio : 1 / ratio - 1
    }

    /// Ratios this close to 1 are solved as critically damped: the under- and over-damped forms divide by
    /// ω₀√|1 − ζ²|, and the critical form differs from them here by about |ζ − 1|, below what any test or
    /// frame can see.
    static let criticalTolerance = 1e-9

    /// The position at `time` seconds: 0 at and before 0, approaching 1; NaN only for a NaN time.
    public func value(at time: Double) -> Double {
        guard time > 0 else { return time.isNaN ? .nan : 0 }
        return 1 - deviation(at: time)
    }

    /// Where a body on this spring is `time` seconds after release, relative to the rest position, released at
    /// `displacement` from it with `velocity` (both in the caller's units; the spring's own initial velocity is
    /// not used): the motion SwiftUI gives a spring retargeted mid-flight, which keeps the value and the velocity
    /// it had. The equation is linear, so this is displacement × (the deviation released at rest) minus velocity ×
    /// (what a unit velocity adds to it).
    public func offset(at time: Double, displacement: Double, velocity: Double) -> Double {
        guard time > 0 else { return time.isNaN ? .nan : displacement }
        var atRest = self
        atRest.initialVelocity = 0
        var launched = self
        launched.initialVelocity = 1
        let still = atRest.deviation(at: time)
        return displacement * still - velocity * (launched.deviation(at: time) - still)
    }

    /// 1 − x(t), the distance still to go (negative while overshooting).
    func deviation(at time: Double) -> Double {
        let omega = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if abs(zeta - 1) <= Spring.criticalTolerance {
            return exp(-omega * time) * (1 + (omega - v0) * time)
        }
        if zeta < 1 {
            let damped = omega * (1 - zeta * zeta).squareRoot()
            let envelope = exp(-zeta * omega * time)
            return envelope * (cos(damped * time) + (zeta * omega - v0) / damped * sin(damped * time))
        }
        let (r1, r2, a) = overdampedTerms
        return a * exp(r1 * time) + (1 - a) * exp(r2 * time)
    }

    /// A bound on |1 − x(t)| that only falls after its one maximum (at 0 unless a critical spring is launched
    /// faster than ω₀): the decaying envelope with its amplitude when the spring oscillates, the sum of the two
    /// exponentials' magnitudes when over-damped, and (1 + |ω₀ − v₀|·t)·e^(−ω₀t) when critical.
    func envelope(at time: Double) -> Double {
        let omega = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if abs(zeta - 1) <= Spring.criticalTolerance {
            return exp(-omega * time) * (1 + abs(omega - v0) * time)
        }
        if zeta < 1 {
            return underdampedAmplitude * exp(-zeta * omega * time)
        }
        let (r1, r2, a) = overdampedTerms
        return abs(a) * exp(r1 * time) + abs(1 - a) * exp(r2 * time)
    }

    /// The over-damped solution's rates r₁ = −ω₀(ζ − √(ζ² − 1)) (the slow one) and r₂ = −ω₀(ζ + √(ζ² − 1)), and
    /// the weight A = (r₂ + v₀)/(r₂ − r₁) of the slow one. r₁ is taken as ω₀²/r₂, since ζ − √(ζ² − 1) cancels
    /// to nothing at large ζ (`UISpringTimingParameters()` has ζ ≈ 4.6).
    var overdampedTerms: (r1: Double, r2: Double, a: Double) {
        let omega = naturalFrequency
        let zeta = dampingRatio
        let root = (zeta * zeta - 1).squareRoot()
        let r2 = -omega * (zeta + root)
        let r1 = omega * omega / r2
        return (r1, r2, (r2 + initialVelocity) / (-2 * omega * root))
    }

    /// √(1 + ((ζω₀ − v₀)/ω_d)²): the amplitude of the oscillation's envelope at t = 0.
    var underdampedAmplitude: Double {
        let omega = naturalFrequency
        let zeta = dampingRatio
        let damped = omega * (1 - zeta * zeta).squareRoot()
        let phase = (zeta * omega - initialVelocity) / damped
        return (1 + phase * phase).squareRoot()
    }

    /// The time after which the spring stays within `threshold` of the distance (0.001 by default, see
    /// `Reconstructed.settlingThreshold`): where `envelope` falls to the threshold. Infinite for an undamped or
    /// degenerate spring, which never settles.
    public func settlingDuration(threshold: Double = Reconstructed.settlingThreshold) -> Double {
        let omega = naturalFrequency
        let zeta = dampingRatio
        guard omega.isFinite, omega > 0, zeta.isFinite, zeta > 0, threshold > 0, initialVelocity.isFinite else {
            return .infinity
        }
        if zeta < 1 - Spring.criticalTolerance {
            return max(0, log(underdampedAmplitude / threshold) / (zeta * omega))
        }
        // The critical envelope rises until 1/ω₀ − 1/|ω₀ − v₀|, then falls; the over-damped one only falls.
        let slope = abs(omega - initialVelocity)
        var lower = zeta > 1 + Spring.criticalTolerance || slope <= omega ? 0 : 1 / omega - 1 / slope
        guard envelope(at: lower) > threshold else { return lower }
        var upper = max(lower, 1 / omega)
        var doublings = 0
        while envelope(at: upper) > threshold {
            lower = upper
            upper *= 2
            doublings += 1
            if doublings > 2000 || !upper.isFinite { return .infinity }
        }
        for _ in 0..<200 where upper - lower > 1e-12 * upper {
            let middle = (lower + upper) / 2
            if envelope(at: middle) > threshold { lower = middle } else { upper = middle }
        }
        return upper
    }
}
