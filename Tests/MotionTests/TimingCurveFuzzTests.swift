import TestSupport
import XCTest

@testable import Motion

/// Seeded, structure-aware curve texts, from valid to hostile: the parser never traps, refuses with one line,
/// and every curve it accepts gives finite progress, ends exactly at 1 and reads back from its description.
final class TimingCurveFuzzTests: XCTestCase {
    private static let names = [
        "linear", "easeIn", "ease-out", "easeInOut", "ease", "default", "cubic-bezier", "steps", "step-start",
        "step-end", "spring", "interpolatingSpring", "interactiveSpring", "smooth", "snappy", "bouncy", "wobble", "",
    ]
    private static let labels = [
        "mass", "stiffness", "damping", "velocity", "initialVelocity", "duration", "response", "dampingFraction",
        "bounce", "extraBounce", "dampingRatio", "blendDuration", "",
    ]
    private static let numbers = [
        "0", "1", "-1", "0.5", "0.2", "0.8", "1e-300", "1e300", "1e999", "-0", ".5", "5.", "100", "1000", "3600",
        "3601", "1e8", "1e9", "nan", "inf", "0x10", "+1", "1,5", "１", "2", "4", "-0.4", "0.96", "",
    ]

    private func text(_ random: inout SeededGenerator) -> String {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &random)! }
        let name = pick(TimingCurveFuzzTests.names)
        var arguments: [String] = []
        for _ in 0..<Int.random(in: 0..<5, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: arguments.append(pick(TimingCurveFuzzTests.numbers))
            case 1: arguments.append(pick(["jump-start", "jump-none", "end", "middle", ":", "(", ")"]))
            default:
                arguments.append(
                    pick(TimingCurveFuzzTests.labels) + pick([": ", ":", " : ", " "])
                        + pick(TimingCurveFuzzTests.numbers))
            }
        }
        let inside = arguments.joined(separator: pick([", ", ",", " ,", ",,"]))
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return name
        case 1: return name + "(" + inside
        default: return name + pick(["(", " ("]) + inside + pick([")", " )", "))"])
        }
    }

    func testHostileCurveTextNeverTrapsAndAcceptedCurvesBehave() {
        var random = SeededGenerator(seed: 20_261_201)
        var accepted = 0
        for index in 0..<20_000 {
            let spec = text(&random)
            do {
                let curve = try TimingCurve(parsing: spec)
                accepted += 1
                let duration = curve.intrinsicDuration ?? 1
                XCTAssertTrue(duration.isFinite && duration > 0, "case \(index): \(spec)")
                for step in 0...8 {
                    let value = curve.progress(atTime: duration * Double(step) / 8, duration: duration)
                    XCTAssertTrue(value.isFinite, "case \(index): \(spec) at \(step)/8")
                }
                XCTAssertEqual(curve.progress(atTime: duration, duration: duration), 1, "case \(index): \(spec)")
                XCTAssertEqual(try? TimingCurve(parsing: curve.description), curve, "case \(index): \(spec)")
            } catch {
                XCTAssertFalse(error.description.contains("\n"), "case \(index): \(spec)")
                XCTAssertFalse(error.description.isEmpty, "case \(index): \(spec)")
            }
        }
        // The generator reaches both sides.
        XCTAssertGreaterThan(accepted, 500)
        XCTAssertLessThan(accepted, 19_000)
    }
}
