import XCTest

@testable import Motion

/// The curve text form: every accepted spelling, its canonical text, and one-line errors for the rest.
final class TimingCurveParsingTests: XCTestCase {
    private func parse(_ text: String, line: UInt = #line) -> TimingCurve? {
        do { return try TimingCurve(parsing: text) } catch {
            XCTFail("\(text): \(error)", line: line)
            return nil
        }
    }

    private func refusal(_ text: String, line: UInt = #line) -> String {
        do {
            let curve = try TimingCurve(parsing: text)
            XCTFail("\(text) was read as \(curve)", line: line)
            return ""
        } catch {
            XCTAssertFalse(error.description.contains("\n"), line: line)
            return error.description
        }
    }

    func testNamedCurvesInEverySpelling() {
        let spellings: [(String, TimingCurve)] = [
            ("linear", .linear), ("easeIn", .easeIn), ("ease-in", .easeIn), ("easeOut", .easeOut),
            ("ease-out", .easeOut), ("easeInOut", .easeInOut), ("ease-in-out", .easeInOut),
            ("easeInEaseOut", .easeInOut), ("ease", .coreAnimationDefault), ("default", .coreAnimationDefault),
            ("  EaseIn ", .easeIn), ("cubic-bezier(0.42, 0, 1, 1)", .easeIn),
            ("step-start", try! .steps(1, .jumpStart)), ("step-end", try! .steps(1, .jumpEnd)),
            ("steps(4)", try! .steps(4, .jumpEnd)), ("steps(4, jump-end)", try! .steps(4, .jumpEnd)),
            ("steps(4,start)", try! .steps(4, .jumpStart)), ("steps( 3 , jump-both )", try! .steps(3, .jumpBoth)),
            ("steps(2, jump-none)", try! .steps(2, .jumpNone)), ("steps(5, end)", try! .steps(5, .jumpEnd)),
        ]
        for (text, curve) in spellings {
            XCTAssertEqual(parse(text), curve, text)
        }
        XCTAssertEqual(
            parse("cubic-bezier(0.57,-0.4,0.96,0.87)"), parse("cubic-bezier( 0.57 , -0.4, 0.96 ,0.87 )"))
    }

    func testSpringParametrisationsAreChosenByTheirLabels() {
        let uiKit = parse("spring(damping: 0.2, velocity: 0.3, duration: 0.8)")
        XCTAssertEqual(uiKit?.spring, Spring(dampingRatio: 0.2, initialVelocity: 0.3, duration: 0.8))
        XCTAssertEqual(uiKit?.intrinsicDuration, 0.8)
        XCTAssertEqual(parse("spring(dampingRatio: 0.2, initialVelocity: 0.3, duration: 0.8)"), uiKit)

        let physical = parse("spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)")
        XCTAssertEqual(physical?.spring, Spring(mass: 1, stiffness: 100, damping: 10))
        XCTAssertEqual(physical?.intrinsicDuration, Spring().settlingDuration())
        XCTAssertEqual(parse("spring(stiffness: 100)"), physical)  // Core Animation's defaults fill the rest
        XCTAssertEqual(
            parse("spring(mass: 30, stiffness: 1000, damping: 300, velocity: 5)")?.spring,
            Spring(mass: 30, stiffness: 1000, damping: 300, initialVelocity: 5))

        let swiftUI = parse("spring(response: 0.5, dampingFraction: 0.825)")
        XCTAssertEqual(swiftUI?.spring, Spring(response: 0.5, dampingFraction: 0.825))
        XCTAssertEqual(parse("spring"), swiftUI)
        XCTAssertEqual(parse("spring()"), swiftUI)
        XCTAssertEqual(swiftUI, TimingCurve.swiftUISpring)

        XCTAssertEqual(parse("spring(duration: 0.5, bounce: 0.3)")?.spring, Spring(duration: 0.5, bounce: 0.3))
        XCTAssertEqual(parse("bouncy"), parse("spring(duration: 0.5, bounce: 0.3)"))
        XCTAssertEqual(parse("smooth"), TimingCurve.smooth)
        XCTAssertEqual(parse("snappy")?.spring, Spring.snappy)
        XCTAssertEqual(parse("snappy(duration: 0.4, extraBounce: 0.1)")?.spring, Spring(duration: 0.4, bounce: 0.25))
        XCTAssertEqual(parse("interactiveSpring")?.spring, Spring.interactive)
        XCTAssertEqual(
            parse("interpolatingSpring(mass: 1, stiffness: 170, damping: 15, velocity: 0)")?.spring,
            Spring(mass: 1, stiffness: 170, damping: 15))
        XCTAssertEqual(parse("interpolatingSpring"), TimingCurve.smooth)
        // A velocity alone keeps SwiftUI's default spring.
        XCTAssertEqual(
            parse("spring(velocity: 2)")?.spring, Spring(response: 0.5, dampingFraction: 0.825, initialVelocity: 2))
    }

    func testDescriptionIsCanonicalTextThatReadsBack() {
        let texts = [
            "linear", "easeIn", "easeOut", "easeInOut", "ease", "cubic-bezier(0.57, -0.4, 0.96, 0.87)",
            "steps(4, jump-end)", "steps(3, jump-none)", "step-start",
            "spring(damping: 0.2, velocity: 0.3, duration: 0.8)",
            "spring(mass: 10, stiffness: 5, damping: 30, velocity: 1e-07)",
            "spring(response: 0.5, dampingFraction: 0.825)",
            "spring(duration: 0.5, bounce: -0.25, velocity: 2)", "interactiveSpring", "bouncy",
        ]
        for text in texts {
            guard let curve = parse(text) else { continue }
            XCTAssertEqual(parse(curve.description), curve, "\(text) → \(curve.description)")
        }
        XCTAssertEqual(parse("ease-in-out")?.description, "easeInOut")
        XCTAssertEqual(parse("cubic-bezier(0.57,-0.4,0.96,0.87)")?.description, "cubic-bezier(0.57, -0.4, 0.96, 0.87)")
        XCTAssertEqual(
            parse("spring(stiffness: 100)")?.description,
            "spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)")
        XCTAssertEqual(parse("step-end")?.description, "steps(1, jump-end)")
    }

    func testRefusalsSayWhatWasExpected() {
        XCTAssertTrue(refusal("bounce").hasPrefix("unknown timing curve \"bounce\"; expected linear"))
        XCTAssertTrue(refusal("cubic-bezier(1.2, 0, 0.5, 1)").contains("x1 must be between 0 and 1"))
        XCTAssertTrue(refusal("cubic-bezier(0.2, 0, -0.1, 1)").contains("x2 must be between 0 and 1"))
        XCTAssertTrue(refusal("cubic-bezier(0.2, 0, 0.5)").contains("takes 4 numbers, got 3"))
        XCTAssertTrue(refusal("cubic-bezier(0.2, nan, 0.5, 1)").contains("\"nan\""))
        XCTAssertTrue(refusal("cubic-bezier(0.2, inf, 0.5, 1)").contains("decimal number"))
        XCTAssertTrue(refusal("cubic-bezier(0.2, 1e999, 0.5, 1)").contains("decimal number"))
        XCTAssertTrue(refusal("cubic-bezier(0.2, 0x1p3, 0.5, 1)").contains("\"0x1p3\""))
        XCTAssertTrue(refusal("cubic-bezier(0.2, 1e7, 0.5, 1)").contains("y1 must be a number from"))
        XCTAssertTrue(refusal("cubic-bezier(0.2, 0, 0.5, 1").contains("closing )"))
        XCTAssertTrue(refusal("steps(0)").contains("whole number from 1"))
        XCTAssertTrue(refusal("steps(2.5)").contains("whole number"))
        XCTAssertTrue(refusal("steps(1, jump-none)").contains("from 2"))
        XCTAssertTrue(refusal("steps(4, middle)").contains("position must be jump-start"))
        XCTAssertTrue(refusal("easeIn(0.3)").contains("takes no arguments"))
        XCTAssertTrue(refusal("spring(mass: -1)").contains("mass must be a number above 0"))
        XCTAssertTrue(refusal("spring(mass: 0)").contains("mass must be a number above 0"))
        XCTAssertTrue(refusal("spring(stiffness: 1e9)").contains("stiffness must be"))
        XCTAssertTrue(refusal("spring(stiffness: 100, damping: -1)").contains("damping must be a number from 0"))
        XCTAssertTrue(refusal("spring(mass: 1, damping: 0)").contains("would not settle"))
        // UIKit's ratio or Core Animation's coefficient? Alone, `damping:` cannot be told apart.
        XCTAssertTrue(refusal("spring(damping: 0.2)").contains("write spring(dampingRatio: x) for UIKit's"))
        XCTAssertTrue(refusal("spring(damping: 10, velocity: 1)").contains("give mass: and stiffness:"))
        // UIKit's ratio takes its duration from the animation; with none to take, it says so.
        XCTAssertTrue(refusal("spring(dampingRatio: 0.2)").contains("lasts its animation's duration"))
        XCTAssertTrue(refusal("spring(dampingRatio: 0.2, stiffness: 3)").contains("\"stiffness\""))
        XCTAssertTrue(refusal("spring(mass: 1e8, stiffness: 1e-3)").contains("would not settle"))
        XCTAssertTrue(refusal("spring(mass: 1e-6, stiffness: 1e8)").contains("too stiff"))
        XCTAssertTrue(refusal("spring(damping: 0.5, duration: 0)").contains("duration must be a number above 0"))
        XCTAssertTrue(refusal("spring(damping: 0.5, duration: -1)").contains("duration must be"))
        XCTAssertTrue(refusal("spring(response: 0)").contains("response must be a number above 0"))
        XCTAssertTrue(refusal("spring(duration: 0.5, bounce: 1)").contains("bounce must be between -1 and 1"))
        XCTAssertTrue(refusal("spring(response: 0.5, mass: 2)").contains("\"mass\" does not belong here"))
        XCTAssertTrue(refusal("spring(damping: 0.5, duration: 1, stiffness: 3)").contains("\"stiffness\""))
        XCTAssertTrue(refusal("spring(mass 1)").contains("expected label: number"))
        XCTAssertTrue(refusal("spring(mass: 1, mass: 2)").contains("given twice"))
        XCTAssertTrue(refusal("spring(wobble: 1)").contains("\"wobble\" does not belong here"))
        XCTAssertTrue(refusal("spring(velocity: 1e7)").contains("velocity must be"))
        XCTAssertTrue(refusal("interpolatingSpring(mass: 1)").contains("give both stiffness: and damping:"))
        XCTAssertTrue(refusal("").hasPrefix("unknown timing curve \"\""))
        // User text is quoted and escaped, never breaking the line, and cut short.
        XCTAssertTrue(refusal("ease\nin").contains("\\n"))
        XCTAssertLessThan(refusal(String(repeating: "x", count: 1_000_000)).count, 400)
        XCTAssertLessThan(refusal("spring(mass: " + String(repeating: "9", count: 100_000) + "x)").count, 200)
    }

    /// The seed's `UISpringTimingParameters(dampingRatio: 0.2)` inside a 2 s animator: UIKit's spring of ratio 0.2
    /// settling in the animator's 2 s (its stiffness solved for that), not a physical spring of coefficient 0.2
    /// wobbling for 20 s.
    func testADampingRatioSpringTakesTheAnimationsDuration() throws {
        let curve = try TimingCurve(parsing: "spring(dampingRatio: 0.2)", duration: 2)
        XCTAssertEqual(curve.spring, Spring(dampingRatio: 0.2, initialVelocity: 0, duration: 2))
        XCTAssertEqual(curve.intrinsicDuration, 2)
        // UIKit's parametrisation (MOTION.md): ζ = c / (2 √(m k)) with m = 1.
        let spring = try XCTUnwrap(curve.spring)
        XCTAssertEqual(spring.damping / (2 * (spring.mass * spring.stiffness).squareRoot()), 0.2, accuracy: 1e-12)
        // Its own duration: wins over the animation's.
        XCTAssertEqual(
            try TimingCurve(parsing: "spring(dampingRatio: 0.2, duration: 0.8)", duration: 2).intrinsicDuration, 0.8)
    }

}
