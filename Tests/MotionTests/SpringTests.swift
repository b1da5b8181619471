import TestSupport
import XCTest

@testable import Motion

#if canImport(Glibc)
    import Glibc
#endif

/// Springs against an independent oracle (RK4 integration of m·x″ + c·x′ + k·(x − 1) = 0) and the closed forms
/// written out here, every parametrisation against Apple's numbers.
final class SpringTests: XCTestCase {
    /// x(t) by classical Runge–Kutta with a fine step: no closed form involved.
    private func integrated(_ spring: Spring, until end: Double, steps: Int = 200_000) -> Double {
        SpringIntegration.position(
            mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
            initialVelocity: spring.initialVelocity, at: end, steps: steps)
    }

    func testEachDampingRegimeMatchesTheIntegratedEquation() {
        let springs = [
            Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0),  // ζ 0.5
            Spring(mass: 1, stiffness: 100, damping: 2, initialVelocity: 3),  // ζ 0.1, moving already
            Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0),  // critical
            Spring(mass: 2, stiffness: 50, damping: 20, initialVelocity: 25),  // critical, overshooting
            Spring(mass: 3, stiffness: 1000, damping: 500, initialVelocity: 0),  // UISpringTimingParameters()
            Spring(mass: 1, stiffness: 10, damping: 30, initialVelocity: -2),  // over-damped, backing off
            // Apple's parametrisations, each reduced to the same equation.
            Spring(dampingRatio: 0.2, initialVelocity: 0.3, duration: 0.8),
            Spring(dampingRatio: 1, initialVelocity: 2, duration: 0.5),
            Spring(response: 0.5, dampingFraction: 0.825), Spring(duration: 0.5, bounce: -0.3), Spring.bouncy,
        ]
        for spring in springs {
            for time in [0.05, 0.2, 0.7] {
                XCTAssertEqual(
                    spring.value(at: time), integrated(spring, until: time), accuracy: 1e-9, "\(spring) t \(time)")
            }
        }
    }

    func testClosedFormsAsWritten() {
        // ζ < 1: 1 − e^(−ζω₀t)(cos ω_d t + ((ζω₀ − v₀)/ω_d) sin ω_d t)
        let under = Spring(mass: 1, stiffness: 157.91367041742973, damping: 17.59291886010284, initialVelocity: 0.4)
        let (w, z) = (under.naturalFrequency, under.dampingRatio)
        let wd = w * (1 - z * z).squareRoot()
        for t in [0.01, 0.1, 0.3, 1.5] {
            let x = 1 - exp(-z * w * t) * (cos(wd * t) + (z * w - 0.4) / wd * sin(wd * t))
            XCTAssertEqual(under.value(at: t), x, accuracy: 1e-12)
        }
        // ζ = 1: 1 − e^(−ω₀t)(1 + (ω₀ − v₀)t)
        let critical = Spring(mass: 1, stiffness: 400, damping: 40, initialVelocity: 5)
        for t in [0.01, 0.1, 0.3] {
            XCTAssertEqual(critical.value(at: t), 1 - exp(-20 * t) * (1 + 15 * t), accuracy: 1e-12)
        }
        // ζ > 1: 1 − A e^(r₁t) − (1 − A) e^(r₂t), A = (r₂ + v₀)/(r₂ − r₁)
        let over = Spring(mass: 1, stiffness: 100, damping: 50, initialVelocity: 1)
        let root = (25.0 * 25 - 100).squareRoot()
        let (r1, r2) = (-25 + root, -25 - root)
        let a = (r2 + 1) / (r2 - r1)
        for t in [0.01, 0.1, 0.3, 2] {
            XCTAssertEqual(over.value(at: t), 1 - a * exp(r1 * t) - (1 - a) * exp(r2 * t), accuracy: 1e-12)
        }
    }

    func testNearlyCriticalRatiosAgreeWithTheCriticalForm() {
        let exact = Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 1)
        for damping in [20 * (1 - 1e-10), 20 * (1 + 1e-10), 20 * (1 - 1e-7), 20 * (1 + 1e-7)] {
            let near = Spring(mass: 1, stiffness: 100, damping: damping, initialVelocity: 1)
            for t in [0.05, 0.2, 0.6] {
                XCTAssertEqual(near.value(at: t), exact.value(at: t), accuracy: 1e-7, "damping \(damping)")
            }
        }
    }

    func testSettlingDurationIsWhereTheSpringStaysWithinAThousandth() {
        let springs = [
            Spring(), Spring.uiKitDefault, Spring.swiftUIDefault, Spring.bouncy, Spring.smooth,
            Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 40),
            Spring(mass: 10, stiffness: 5, damping: 30),
        ]
        for spring in springs {
            let settling = spring.settlingDuration()
            XCTAssertTrue(settling.isFinite && settling > 0, "\(spring)")
            // After it, never further than 0.001; some time before it, further (the bound is not loose by much).
            for step in 0...2000 {
                let t = settling * (1 + Double(step) / 500)
                XCTAssertLessThanOrEqual(abs(1 - spring.value(at: t)), 0.001 + 1e-12, "\(spring) at \(t)")
            }
            // Not loose: within the last period (or 1 %) before it the spring is still about that far out.
            let oscillates = spring.dampingRatio < 1 - 1e-9
            let period =
                2 * .pi / (spring.naturalFrequency * (1 - spring.dampingRatio * spring.dampingRatio).squareRoot())
            let window = oscillates ? min(period, settling) : settling / 100
            let late = (0...2000).map { abs(1 - spring.value(at: settling - window * Double($0) / 2000)) }.max()!
            XCTAssertGreaterThan(late, oscillates ? 0.00099 : 0.0009, "\(spring)")
        }
        // Core Animation's default spring (m 1, k 100, c 10): ζ 0.5, envelope 1.1547·e^(−5t) = 0.001 at 1.41 s.
        XCTAssertEqual(Spring().settlingDuration(), log(1000 * 2 / 3.0.squareRoot()) / 5, accuracy: 1e-12)
        XCTAssertEqual(Spring(mass: 1, stiffness: 100, damping: 0).settlingDuration(), .infinity)
    }

    func testAppleExamplesOfDurationAndBounce() {
        let spring = Spring(duration: 0.5, bounce: 0.3)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 157.9, accuracy: 0.05)
        XCTAssertEqual(spring.damping, 17.6, accuracy: 0.05)
        let physical = Spring(mass: 1, stiffness: 100, damping: 10)
        XCTAssertEqual(physical.perceptualDuration, 0.63, accuracy: 0.005)
        XCTAssertEqual(physical.bounce, 0.5, accuracy: 1e-12)
        // A negative bounce is over-damped: ζ = 1/(1 + bounce), and bounce reads back.
        let flat = Spring(duration: 0.5, bounce: -0.5)
        XCTAssertEqual(flat.dampingRatio, 2, accuracy: 1e-12)
        XCTAssertEqual(flat.bounce, -0.5, accuracy: 1e-12)
    }

    func testSwiftUIResponseAndPresets() {
        let spring = Spring(response: 0.5, dampingFraction: 0.825)
        XCTAssertEqual(spring.stiffness, pow(2 * .pi / 0.5, 2), accuracy: 1e-9)
        XCTAssertEqual(spring.damping, 4 * .pi * 0.825 / 0.5, accuracy: 1e-12)
        XCTAssertEqual(spring.dampingRatio, 0.825, accuracy: 1e-12)
        XCTAssertEqual(Spring.interactive.dampingRatio, 0.86, accuracy: 1e-12)
        XCTAssertEqual(Spring.interactive.perceptualDuration, 0.15, accuracy: 1e-12)
        XCTAssertEqual(Spring.animationDefault.dampingRatio, 1, accuracy: 1e-12)
        XCTAssertEqual(Spring.animationDefault.perceptualDuration, 0.55, accuracy: 1e-12)
        for (preset, bounce) in [(Spring.smooth, 0.0), (.snappy, 0.15), (.bouncy, 0.3)] {
            XCTAssertEqual(preset.bounce, bounce, accuracy: 1e-12)
            XCTAssertEqual(preset.perceptualDuration, 0.5, accuracy: 1e-12)
        }
        XCTAssertEqual(Spring.uiKitDefault.dampingRatio, 500 / (2 * 3000.0.squareRoot()), accuracy: 1e-12)
    }

    func testUIKitSpringEndsWithinAThousandthAtItsDuration() {
        for ratio in [0.05, 0.2, 0.5, 0.8, 0.99, 1] {
            for velocity in [-2.0, 0, 0.3, 1, 5] {
                for duration in [0.1, 0.4, 0.8, 2] {
                    let spring = Spring(dampingRatio: ratio, initialVelocity: velocity, duration: duration)
                    let label = "ζ \(ratio) v \(velocity) d \(duration)"
                    XCTAssertEqual(spring.mass, 1, label)
                    XCTAssertEqual(spring.dampingRatio, ratio, accuracy: 1e-12, label)
                    XCTAssertLessThanOrEqual(abs(spring.value(at: duration) - 1), 0.001 + 1e-12, label)
                    // The envelope is exactly the threshold there: the stiffness is the least that settles in time.
                    XCTAssertEqual(spring.envelope(at: duration), 0.001, accuracy: 1e-12, label)
                    XCTAssertEqual(spring.settlingDuration(), duration, accuracy: 1e-9 * duration, label)
                }
            }
        }
    }

    /// The same promise checked without the closed form or the envelope: the equation integrated step by step
    /// (RK4) from the solved mass, stiffness and damping is within a thousandth of the target at the duration,
    /// and not long before it: somewhere in the last 30 % it is still further out, so the spring is not a
    /// stiffer one that settled early (as a ratio read as a damping coefficient would be).
    func testUIKitSpringSettlesAtItsDurationByIntegration() {
        for ratio in [0.2, 0.5, 0.8, 1] {
            for velocity in [-2.0, 0, 1, 5] {
                for duration in [0.3, 0.8, 2] {
                    let spring = Spring(dampingRatio: ratio, initialVelocity: velocity, duration: duration)
                    let label = "ζ \(ratio) v \(velocity) d \(duration)"
                    XCTAssertLessThanOrEqual(
                        abs(integrated(spring, until: duration, steps: 20_000) - 1), 0.001 + 1e-9, label)
                    let late = stride(from: 0.7 * duration, to: duration, by: duration / 200).map {
                        abs(integrated(spring, until: $0, steps: 4_000) - 1)
                    }
                    XCTAssertGreaterThan(late.max() ?? 0, 0.001 * 0.5, label)
                }
            }
        }
    }

    func testUIKitSpringClampsItsRatioAndDuration() {
        let over = Spring(dampingRatio: 3, initialVelocity: 0, duration: 0.5)
        XCTAssertEqual(over.dampingRatio, 1, accuracy: 1e-12)
        let long = Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 60)
        XCTAssertEqual(long, Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 10))
        let undamped = Spring(dampingRatio: 0, initialVelocity: 0, duration: 0.5)
        XCTAssertEqual(undamped.dampingRatio, Reconstructed.uiKitDampingRatioRange.lowerBound, accuracy: 1e-12)
        XCTAssertTrue(undamped.stiffness.isFinite && undamped.damping > 0)
        XCTAssertLessThanOrEqual(abs(undamped.value(at: 0.5) - 1), 0.001 + 1e-12)
    }

    func testANewVelocityResolvesUIKitsStiffnessAndKeepsAPhysicalSprings() throws {
        let uiKit = try TimingCurve(parsing: "spring(damping: 0.5, velocity: 0, duration: 0.6)")
        let pushed = uiKit.withInitialVelocity(4)
        XCTAssertEqual(pushed.intrinsicDuration, 0.6)
        XCTAssertEqual(pushed.spring, Spring(dampingRatio: 0.5, initialVelocity: 4, duration: 0.6))
        XCTAssertNotEqual(pushed.spring?.stiffness, uiKit.spring?.stiffness)
        XCTAssertLessThanOrEqual(abs(pushed.spring!.value(at: 0.6) - 1), 0.001 + 1e-12)
        XCTAssertEqual(pushed.description, "spring(damping: 0.5, velocity: 4, duration: 0.6)")

        let physical = try TimingCurve(parsing: "spring(mass: 1, stiffness: 100, damping: 10)")
        let moving = physical.withInitialVelocity(-3)
        XCTAssertEqual(moving.spring, Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: -3))
        XCTAssertEqual(moving.intrinsicDuration, moving.spring!.settlingDuration())
        XCTAssertNotEqual(moving.intrinsicDuration, physical.intrinsicDuration)
        // Absurd velocities are limited as the parser limits them, so the stiffness stays finite.
        let flung = uiKit.withInitialVelocity(1e300)
        XCTAssertEqual(flung.spring?.initialVelocity, TimingCurve.Limits.maximumMagnitude)
        XCTAssertTrue(flung.spring!.stiffness.isFinite)
        XCTAssertEqual(uiKit.withInitialVelocity(.nan), uiKit)
    }
}
