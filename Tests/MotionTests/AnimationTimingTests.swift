import XCTest

@testable import Motion

/// Delays, stagger, UIKit's delay factor, and Core Animation's repeat count and autoreverse.
final class AnimationTimingTests: XCTestCase {
    func testDurationDefaultsToTheSpringsOwnOrAQuarterSecond() {
        XCTAssertEqual(AnimationTiming().duration, 0.25)
        XCTAssertEqual(AnimationTiming(curve: .linear, duration: 0.4).duration, 0.4)
        let spring = try! TimingCurve(parsing: "spring(damping: 0.2, velocity: 0.3, duration: 0.8)")
        XCTAssertEqual(AnimationTiming(curve: spring).duration, 0.8)
        XCTAssertEqual(AnimationTiming(curve: .bouncy).duration, Spring.bouncy.settlingDuration())
    }

    func testDelayShiftsTheCurve() {
        let timing = AnimationTiming(curve: .easeOut, duration: 0.4, delay: 0.1)
        XCTAssertEqual(timing.progress(at: 0), 0)
        XCTAssertEqual(timing.progress(at: 0.1), 0)
        XCTAssertEqual(timing.progress(at: 0.3), TimingCurve.easeOut.value(atFraction: 0.5), accuracy: 1e-12)
        XCTAssertEqual(timing.progress(at: 0.5), 1)
        XCTAssertEqual(timing.progress(at: 9), 1)
        XCTAssertEqual(timing.endTime, 0.5, accuracy: 1e-15)
    }

    func testStaggerAddsIndexTimesStep() {
        XCTAssertEqual(AnimationTiming.staggeredDelay(index: 3, step: 0.05), 0.15, accuracy: 1e-15)
        XCTAssertEqual(AnimationTiming.staggeredDelay(index: 2, step: 0.1, after: 0.1), 0.3, accuracy: 1e-15)
        let base = AnimationTiming(curve: .easeOut, duration: 0.4, delay: 0.1)
        let fourth = base.staggered(index: 4, step: 0.05)
        XCTAssertEqual(fourth.delay, 0.3, accuracy: 1e-15)
        XCTAssertEqual(fourth.progress(at: 0.5), base.progress(at: 0.3), accuracy: 1e-12)
    }

    func testDelayFactorStartsLateAndEndsWithTheAnimator() {
        // addAnimations(_:delayFactor: 0.5) in a 1 s animator: runs from 0.5 s to 1 s, the curve over 0.5 s.
        let timing = AnimationTiming(curve: .linear, duration: 1, delay: 0.2, delayFactor: 0.5)
        XCTAssertEqual(timing.startTime, 0.7, accuracy: 1e-15)
        XCTAssertEqual(timing.passDuration, 0.5, accuracy: 1e-15)
        XCTAssertEqual(timing.endTime, 1.2, accuracy: 1e-15)
        XCTAssertEqual(timing.progress(at: 0.6), 0)
        XCTAssertEqual(timing.progress(at: 0.95), 0.5, accuracy: 1e-12)
        XCTAssertEqual(timing.progress(at: 1.2), 1)
    }

    func testRepeatCountsPassesAndAllowsFractions() {
        let twice = AnimationTiming(curve: .linear, duration: 1, repeatCount: 2)
        XCTAssertEqual(twice.endTime, 2)
        XCTAssertEqual(twice.progress(at: 0.25), 0.25, accuracy: 1e-12)
        XCTAssertEqual(twice.progress(at: 1.25), 0.25, accuracy: 1e-12)  // starts over
        XCTAssertEqual(twice.progress(at: 2), 1)
        XCTAssertEqual(twice.progress(at: 5), 1)
        let partial = AnimationTiming(curve: .linear, duration: 1, repeatCount: 2.5)
        XCTAssertEqual(partial.endTime, 2.5)
        XCTAssertEqual(partial.progress(at: 10), 0.5, accuracy: 1e-12)  // stops half-way through the third
        let forever = AnimationTiming(curve: .linear, duration: 1, repeatCount: .infinity)
        XCTAssertEqual(forever.endTime, .infinity)
        XCTAssertEqual(forever.progress(at: 1000.75), 0.75, accuracy: 1e-9)
        XCTAssertEqual(forever.progress(at: .infinity), 0)
        // Core Animation's repeatCount 0 means once.
        XCTAssertEqual(AnimationTiming(curve: .linear, duration: 1, repeatCount: 0).endTime, 1)
    }

    func testAutoreverseGoesThereAndBackEachCycle() {
        let timing = AnimationTiming(curve: .easeIn, duration: 1, repeatCount: 1, autoreverses: true)
        XCTAssertEqual(timing.endTime, 2)
        XCTAssertEqual(timing.localFraction(at: 0.25), 0.25, accuracy: 1e-12)
        XCTAssertEqual(timing.localFraction(at: 1.25), 0.75, accuracy: 1e-12)
        XCTAssertEqual(timing.progress(at: 1.25), TimingCurve.easeIn.value(atFraction: 0.75), accuracy: 1e-12)
        XCTAssertEqual(timing.progress(at: 1), 1)
        XCTAssertEqual(timing.progress(at: 2), 0)  // back where it started
        XCTAssertEqual(timing.progress(at: 3), 0)
        let oneAndAHalf = AnimationTiming(curve: .linear, duration: 1, repeatCount: 1.5, autoreverses: true)
        XCTAssertEqual(oneAndAHalf.endTime, 3)
        XCTAssertEqual(oneAndAHalf.progress(at: 2.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(oneAndAHalf.progress(at: 4), 1)  // a half cycle more ends at the far end
    }

    func testZeroAndInvalidValuesDoNotTrap() {
        let instant = AnimationTiming(curve: .easeIn, duration: 0, delay: 1)
        XCTAssertEqual(instant.progress(at: 0.5), 0)
        XCTAssertEqual(instant.progress(at: 1), 1)
        let odd = AnimationTiming(curve: .linear, duration: -3, delay: .nan, delayFactor: 7, repeatCount: .nan)
        XCTAssertEqual(odd.endTime, 0)
        XCTAssertEqual(odd.progress(at: .nan), 0)
        XCTAssertEqual(odd.progress(at: 1), 1)
    }

    func testSpringPassesRunOnTheSpringsClockAndEndExactly() {
        let curve = try! TimingCurve(parsing: "spring(damping: 0.3, velocity: 0.7, duration: 0.4)")
        let timing = AnimationTiming(curve: curve, delay: 0.1)
        XCTAssertEqual(timing.progress(at: 0.2), curve.spring!.value(at: 0.1), accuracy: 1e-12)
        XCTAssertEqual(timing.progress(at: 0.5), 1)
        XCTAssertGreaterThan((1..<100).map { timing.progress(at: 0.1 + 0.4 * Double($0) / 100) }.max()!, 1)
    }
}
