import XCTest

@testable import Motion

/// The Bézier curves against their control points, and CSS's steps, mode by mode.
final class TimingCurveTests: XCTestCase {
    private let named: [(String, TimingCurve, (Double, Double, Double, Double))] = [
        ("easeIn", .easeIn, (0.42, 0, 1, 1)), ("easeOut", .easeOut, (0, 0, 0.58, 1)),
        ("easeInOut", .easeInOut, (0.42, 0, 0.58, 1)), ("default", .coreAnimationDefault, (0.25, 0.1, 0.25, 1)),
        ("seed animator", try! .cubicBezier(0.57, -0.4, 0.96, 0.87), (0.57, -0.4, 0.96, 0.87)),
        ("overshoot", try! .cubicBezier(0.3, 1.6, 0.7, -0.6), (0.3, 1.6, 0.7, -0.6)),
        // x′(t) = 3(1 − 2t)² vanishes half-way, where Newton's method stalls and bisection must finish.
        ("flat middle", try! .cubicBezier(1, 0, 0, 1), (1, 0, 0, 1)),
        ("flat ends", try! .cubicBezier(0, 0.3, 1, 0.7), (0, 0.3, 1, 0.7)),
    ]

    /// The Bernstein form of one coordinate, written out independently of the solver's polynomial.
    private func bernstein(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    func testNamedCurvesRecoverPointsOfTheirControlPolygon() {
        for (name, curve, (x1, y1, x2, y2)) in named {
            guard case .cubicBezier(let bezier) = curve.shape else { return XCTFail(name) }
            for step in 1..<200 {
                let t = Double(step) / 200
                let (x, y) = (bernstein(x1, x2, t), bernstein(y1, y2, t))
                let solved = bezier.solveT(forX: x)
                XCTAssertEqual(bernstein(x1, x2, solved), x, accuracy: 1e-7, "\(name) t \(t)")
                // Within 1e-7 in x; y follows with the curve's slope dy/dx there.
                let slope = abs(
                    (3 * (1 - t) * (1 - t) * y1 + 6 * (1 - t) * t * (y2 - y1) + 3 * t * t * (1 - y2))
                        / max(1e-12, 3 * (1 - t) * (1 - t) * x1 + 6 * (1 - t) * t * (x2 - x1) + 3 * t * t * (1 - x2)))
                XCTAssertEqual(curve.value(atFraction: x), y, accuracy: 1e-7 * max(1, slope) + 1e-12, "\(name) t \(t)")
            }
        }
    }

    func testEndPointsAreExactAndXIsMonotone() {
        for (name, curve, _) in named + [("linear", .linear, (0, 0, 1, 1))] {
            XCTAssertEqual(curve.progress(atTime: 0, duration: 0.3), 0, name)
            XCTAssertEqual(curve.progress(atTime: 0.3, duration: 0.3), 1, name)
            XCTAssertEqual(curve.value(atFraction: 0), 0, name)
            XCTAssertEqual(curve.value(atFraction: 1), 1, name)
            guard case .cubicBezier(let bezier) = curve.shape else { continue }
            var previous = -1.0
            for step in 0...1000 {
                let t = bezier.solveT(forX: min(max(Double(step) / 1000, 1e-9), 1 - 1e-9))
                XCTAssertGreaterThanOrEqual(t, previous - 1e-7, "\(name) step \(step)")
                previous = t
            }
        }
    }

    func testYOvershootsWhereTheControlPointsDo() {
        let seed = try! TimingCurve.cubicBezier(0.57, -0.4, 0.96, 0.87)
        let low = (1..<100).map { seed.value(atFraction: Double($0) / 100) }.min()!
        XCTAssertLessThan(low, -0.05)  // the seed's animator pulls back before it goes
        let bounce = try! TimingCurve.cubicBezier(0.3, 1.6, 0.7, 1.4)
        XCTAssertGreaterThan((1..<100).map { bounce.value(atFraction: Double($0) / 100) }.max()!, 1.1)
    }

    func testOutsideTheUnitIntervalTheCurveContinuesWithItsEndSlopes() {
        // easeOut starts with slope y1/x1 undefined (x1 = 0), so Chromium takes y2/x2 = 1/0.58.
        XCTAssertEqual(TimingCurve.easeOut.value(atFraction: -0.5), -0.5 / 0.58, accuracy: 1e-12)
        // easeIn ends with x2 = 1, y2 = 1: the slope (y1 − 1)/(x1 − 1) = 1/0.58.
        XCTAssertEqual(TimingCurve.easeIn.value(atFraction: 1.5), 1 + 0.5 / 0.58, accuracy: 1e-12)
        XCTAssertEqual(TimingCurve.easeInOut.value(atFraction: 2), 1, accuracy: 1e-12)  // flat ends
    }

    func testProgressIsTheCurveAtTheFractionOfTheDuration() {
        XCTAssertEqual(TimingCurve.linear.progress(atTime: 0.1, duration: 0.4), 0.25, accuracy: 1e-15)
        XCTAssertEqual(
            TimingCurve.easeIn.progress(atTime: 0.2, duration: 0.4), TimingCurve.easeIn.value(atFraction: 0.5))
        XCTAssertEqual(TimingCurve.easeIn.progress(atTime: -1, duration: 0.4), 0)
        XCTAssertEqual(TimingCurve.easeIn.progress(atTime: .nan, duration: 0.4), 0)
        XCTAssertEqual(TimingCurve.easeIn.progress(atTime: 5, duration: 0.4), 1)
        XCTAssertEqual(TimingCurve.easeIn.progress(atTime: 1, duration: 0), 1)
    }

    func testStepsInEveryJumpMode() {
        let fractions = [0, 0.1, 0.25, 0.3, 0.5, 0.74, 0.75, 0.99, 1]
        let expected: [(TimingCurve.StepPosition, [Double])] = [
            (.jumpEnd, [0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1]),
            (.jumpStart, [0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1]),
            (.jumpBoth, [0.2, 0.2, 0.4, 0.4, 0.6, 0.6, 0.8, 0.8, 1]),
            (.jumpNone, [0, 0, 1.0 / 3, 1.0 / 3, 2.0 / 3, 2.0 / 3, 1, 1, 1]),
        ]
        for (position, values) in expected {
            let curve = try! TimingCurve.steps(4, position)
            for (x, value) in zip(fractions, values) {
                XCTAssertEqual(curve.value(atFraction: x), value, accuracy: 1e-15, "\(position) at \(x)")
                // An animation's progress at its start is the curve's, a step taken at 0 included.
                XCTAssertEqual(curve.progress(atTime: 2 * x, duration: 2), value, accuracy: 1e-15, "\(position)")
            }
            XCTAssertEqual(curve.progress(atTime: -0.01, duration: 2), 0, "before the start: the from value")
        }
        // Through an animation's timing, at its (delayed) start.
        let timing = AnimationTiming(curve: try! .steps(4, .jumpBoth), duration: 1, delay: 0.5)
        XCTAssertEqual(timing.progress(at: 0.5), 0.2)
        XCTAssertEqual(timing.progress(at: 0.49), 0)
        XCTAssertEqual(try TimingCurve(parsing: "step-start").value(atFraction: 0), 1)
        XCTAssertEqual(try TimingCurve(parsing: "step-end").value(atFraction: 0.999), 0)
        XCTAssertEqual(try TimingCurve(parsing: "step-end").progress(atTime: 1, duration: 1), 1)
    }

    func testStepsRefuseCountsThatCannotStep() {
        XCTAssertThrowsError(try TimingCurve.steps(0))
        XCTAssertThrowsError(try TimingCurve.steps(1, .jumpNone))
        XCTAssertNoThrow(try TimingCurve.steps(2, .jumpNone))
    }

    func testNonSpringsHaveNoDurationAndIgnoreVelocity() {
        XCTAssertNil(TimingCurve.easeInOut.intrinsicDuration)
        XCTAssertFalse(TimingCurve.linear.isSpring)
        XCTAssertEqual(TimingCurve.easeOut.withInitialVelocity(3), .easeOut)
    }
}
