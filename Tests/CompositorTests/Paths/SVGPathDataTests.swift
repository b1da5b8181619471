import XCTest

@testable import Compositor

/// SVG path data: every command, absolute and relative, the implicit repeats, the smooth curves' reflections,
/// relative commands after a close, arc flags without separators, numbers as SVG writes them, and errors that
/// name the offset and what was expected.
final class SVGPathDataTests: XCTestCase {
    private func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    private func elements(_ data: String, file: StaticString = #filePath, line: UInt = #line) -> [Path.Element] {
        do {
            return try Path(svgPathData: data).elements
        } catch {
            XCTFail("\(data): \(error)", file: file, line: line)
            return []
        }
    }

    private func error(_ data: String, file: StaticString = #filePath, line: UInt = #line) -> SVGPathDataError? {
        do {
            let path = try Path(svgPathData: data)
            XCTFail("\(data) was read as \(path.elements)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testLinesAbsoluteAndRelative() {
        XCTAssertEqual(
            elements("M 10 20 L 30 40 H 50 V 60 l 1 2 h 3 v 4 Z"),
            [
                .move(to: p(10, 20)), .line(to: p(30, 40)), .line(to: p(50, 40)), .line(to: p(50, 60)),
                .line(to: p(51, 62)), .line(to: p(54, 62)), .line(to: p(54, 66)), .close,
            ])
    }

    func testCurvesAbsoluteAndRelative() {
        XCTAssertEqual(
            elements("M0 0C1 2 3 4 5 6c1 1 2 2 3 3Q10 10 12 12q1 0 2 2"),
            [
                .move(to: p(0, 0)), .curve(to: p(5, 6), control1: p(1, 2), control2: p(3, 4)),
                .curve(to: p(8, 9), control1: p(6, 7), control2: p(7, 8)),
                .quadCurve(to: p(12, 12), control: p(10, 10)), .quadCurve(to: p(14, 14), control: p(13, 12)),
            ])
    }

    /// S and T reflect the previous C/S or Q/T control point about the current point, and take the current
    /// point itself after any other command.
    func testSmoothCurvesReflect() {
        XCTAssertEqual(
            elements("M0 0 C0 10 10 10 10 0 S20 -10 20 0 s10 10 10 0"),
            [
                .move(to: p(0, 0)), .curve(to: p(10, 0), control1: p(0, 10), control2: p(10, 10)),
                .curve(to: p(20, 0), control1: p(10, -10), control2: p(20, -10)),
                .curve(to: p(30, 0), control1: p(20, 10), control2: p(30, 10)),
            ])
        XCTAssertEqual(
            elements("M0 0 L10 0 S20 10 20 0"),
            [.move(to: p(0, 0)), .line(to: p(10, 0)), .curve(to: p(20, 0), control1: p(10, 0), control2: p(20, 10))])
        XCTAssertEqual(
            elements("M0 0 Q5 10 10 0 T20 0 t10 0"),
            [
                .move(to: p(0, 0)), .quadCurve(to: p(10, 0), control: p(5, 10)),
                .quadCurve(to: p(20, 0), control: p(15, -10)), .quadCurve(to: p(30, 0), control: p(25, 10)),
            ])
        // T after a command that is not Q or T: the control is the current point, and the next T reflects it.
        XCTAssertEqual(
            elements("M0 0 T10 0 T20 5"),
            [
                .move(to: p(0, 0)), .quadCurve(to: p(10, 0), control: p(0, 0)),
                .quadCurve(to: p(20, 5), control: p(20, 0)),
            ])
        // A C between Q and T breaks the chain.
        XCTAssertEqual(
            elements("M0 0 Q5 5 10 0 C10 0 10 0 10 0 T20 0").last,
            .quadCurve(to: p(20, 0), control: p(10, 0)))
    }

    /// After M, extra pairs are linetos (relative after m); every other command repeats itself.
    func testImplicitRepeats() {
        XCTAssertEqual(
            elements("M1,2 3,4 5,6"), [.move(to: p(1, 2)), .line(to: p(3, 4)), .line(to: p(5, 6))])
        XCTAssertEqual(
            elements("m1 2 4 3 1 1Z"), [.move(to: p(1, 2)), .line(to: p(5, 5)), .line(to: p(6, 6)), .close])
        XCTAssertEqual(
            elements("M0 0 h1 2 3"), [.move(to: p(0, 0)), .line(to: p(1, 0)), .line(to: p(3, 0)), .line(to: p(6, 0))])
        XCTAssertEqual(elements("M0 0 Q1 1 2 2 3 3 4 4").count, 3)
        // A first relative moveto is relative to the origin, so absolute; later ones to the current point.
        XCTAssertEqual(elements("m10 10 m5 5"), [.move(to: p(10, 10)), .move(to: p(15, 15))])
    }

    /// After Z the current point is the subpath's start: relative commands count from there, and a drawing
    /// command begins a new subpath at it.
    func testRelativeAfterClose() {
        XCTAssertEqual(
            elements("M10 10 l10 0 l0 10 z l5 5 m1 1 l1 0"),
            [
                .move(to: p(10, 10)), .line(to: p(20, 10)), .line(to: p(20, 20)), .close, .move(to: p(10, 10)),
                .line(to: p(15, 15)), .move(to: p(16, 16)), .line(to: p(17, 16)),
            ])
        XCTAssertEqual(
            elements("M10 10 L20 10 20 20Z m5 5 h1"),
            [
                .move(to: p(10, 10)), .line(to: p(20, 10)), .line(to: p(20, 20)), .close, .move(to: p(15, 15)),
                .line(to: p(16, 15)),
            ])
    }

    /// Flags are one character each and need no separator; numbers end where a sign or second point begins.
    func testArcFlagsAndNumbersPacked() throws {
        let packed = try Path(svgPathData: "M0 0a1 1 0 00.5.5")
        let spaced = try Path(svgPathData: "M 0,0 a 1,1 0 0,0 0.5,0.5")
        XCTAssertEqual(packed, spaced)
        XCTAssertEqual(packed.currentPoint, p(0.5, 0.5))
        let flags = try Path(svgPathData: "M0 0A5 5 0 1110 0")  // large-arc 1, sweep 1, then 10 0
        XCTAssertEqual(flags.currentPoint, p(10, 0))
        XCTAssertEqual(try XCTUnwrap(flags.bounds).height, 5, accuracy: 1e-9)  // a half circle: radius 5
        // Relative arcs count from the current point; zero radii draw a line; equal ends omit the arc.
        XCTAssertEqual(
            elements("M5 5 a0 3 0 0 1 10 0 A3 3 0 0 1 15 5"), [.move(to: p(5, 5)), .line(to: p(15, 5))])
    }

    func testNumbersAsSVGWritesThem() {
        XCTAssertEqual(
            elements("M1e-3.5-1-2+3+4L.5.5 1.e2 1E2 1. 2 .5e+1-0"),
            [
                .move(to: p(0.001, 0.5)), .line(to: p(-1, -2)), .line(to: p(3, 4)), .line(to: p(0.5, 0.5)),
                .line(to: p(100, 100)), .line(to: p(1, 2)), .line(to: p(5, 0)),
            ])
        // More digits than a UInt64 holds, and exponents past the exact powers of ten.
        XCTAssertEqual(
            elements("M12345678901234567890123 1e-300")[0], .move(to: p(12_345_678_901_234_567_890_123, 1e-300)))
        XCTAssertEqual(elements("M0.1 0.3")[0], .move(to: p(0.1, 0.3)))  // correctly rounded, as Double reads it
        // Whitespace is space, tab, CR, LF and form feed; one comma may sit between arguments.
        XCTAssertEqual(
            elements(" \t\nM 1,2\tL\r\n3 ,4\u{0C}5 , 6 z "),
            [.move(to: p(1, 2)), .line(to: p(3, 4)), .line(to: p(5, 6)), .close])
        XCTAssertEqual(elements(""), [])
        XCTAssertEqual(elements("  \n "), [])
    }

    func testErrorsNameTheOffsetAndWhatWasExpected() {
        let cases: [(String, Int, String)] = [
            ("M 10", 4, "expected a number at offset 4, found the end of the data"),
            ("M 10 10 L 20 x", 13, "expected a number at offset 13, found \"x\""),
            ("L 10 10", 0, "expected a moveto (M or m) to begin the path data at offset 0, found \"L\""),
            (
                "M 10 10 X 5", 8,
                "expected a command letter (M L H V C S Q T A Z, or lower case) at offset 8, found \"X\""
            ),
            ("M 10,,10", 5, "expected a number at offset 5, found \",\""),
            ("M 10 10,", 8, "expected a number after the comma at offset 8, found the end of the data"),
            ("M,10 10", 1, "expected a number at offset 1, found \",\""),
            ("M 0 0 A 1 1 0 2 0 5 5", 14, "expected a flag (0 or 1) at offset 14, found \"2\""),
            ("M 0 0 Z 5", 8, "expected a command letter (M L H V C S Q T A Z, or lower case) at offset 8, found \"5\""),
            ("M 1e 2", 3, "expected a number at offset 3, found \"e\""),
            ("M NaN 0", 2, "expected a number at offset 2, found \"N\""),
            ("M 1 2 L 3 ４", 10, "expected a number at offset 10, found a character that is not ASCII"),
            ("M 1e400 0", 2, "number \"1e400\" out of range at offset 2"),
            ("M 1e308 0 l 1e308 0", 12, "coordinate out of range (beyond ±1.8e308) at offset 12"),
        ]
        for (data, offset, message) in cases {
            let error = self.error(data)
            XCTAssertEqual(error?.offset, offset, data)
            XCTAssertEqual(error?.description, message, data)
        }
    }

    /// SVG renders up to the command in error; `stopAtError` keeps that much, and `parsingSVGPathData` says why.
    func testStopAtError() throws {
        let data = "M10 10 L20 20 30"
        let path = try Path(svgPathData: data, stopAtError: true)
        XCTAssertEqual(path.elements, [.move(to: p(10, 10)), .line(to: p(20, 20))])
        let (parsed, error) = Path.parsingSVGPathData(data)
        XCTAssertEqual(parsed, path)
        XCTAssertEqual(error?.offset, 16)
    }

    /// The segment limit bounds hostile data: the command that would pass it is the error.
    func testSegmentLimit() throws {
        let data = "M0 0" + String(repeating: " L1 1", count: 10)
        XCTAssertEqual(try Path(svgPathData: data, maximumSegments: 11).elements.count, 11)
        XCTAssertThrowsError(try Path(svgPathData: data, maximumSegments: 10)) { error in
            XCTAssertEqual((error as? SVGPathDataError)?.offset, 51)
            XCTAssertEqual("\(error)", "more than 10 path segments at offset 51")
        }
        // An arc counts its cubics: a full circle in two arcs is 12 of them.
        let circle = "M0 50 A50 50 0 1 0 100 50 A50 50 0 1 0 0 50Z"
        XCTAssertEqual(try Path(svgPathData: circle).elements.count, 14)
        XCTAssertThrowsError(try Path(svgPathData: circle, maximumSegments: 8))
        XCTAssertEqual(Path.defaultMaximumSVGSegments, 1_000_000)
    }

    /// Strings in the manner of the W3C suite's paths-data tests: the same shape written absolute, relative,
    /// packed and spread out reads as the same outline.
    func testW3CStyleEquivalentSpellings() throws {
        let spellings = [
            "M 100 100 L 300 100 L 200 300 z M 150 150 C 150 100 250 100 250 150 S 350 200 250 250",
            "m100 100l200 0-100 200zm50 50c0-50 100-50 100 0s100 50 0 100",
            "M100,100 300,100 200,300Z M150,150C150,100,250,100,250,150S350,200,250,250",
            "M100 100H300L200 300Z m50,50 c0 -50 100 -50 100 0 S 350 200 250 250",
        ]
        let reference = try Path(svgPathData: spellings[0])
        for spelling in spellings.dropFirst() {
            XCTAssertEqual(try Path(svgPathData: spelling).elements, reference.elements, spelling)
        }
        let quads = [
            "M 50 150 Q 100 50 150 150 T 250 150 T 350 150", "M50 150q50-100 100 0t100 0t100 0",
            "M50,150Q100,50,150,150T250,150,350,150",
        ]
        let quadReference = try Path(svgPathData: quads[0])
        XCTAssertEqual(quadReference.elements.last, .quadCurve(to: p(350, 150), control: p(300, 50)))
        for spelling in quads.dropFirst() {
            XCTAssertEqual(try Path(svgPathData: spelling).elements, quadReference.elements, spelling)
        }
    }
}
