import TestSupport
import XCTest

@testable import Compositor

/// Dashes as SVG and Core Graphics lay them (on and off lengths along the path from the phase, an odd count
/// repeated), the errors SVG names, and hostile styles whose work must stay bounded.
final class PathStrokeDashTests: XCTestCase {
    /// The on intervals, along a path of `length`, of `pattern` (an odd count repeated) begun `phase` into it:
    /// worked out by stepping whole periods, apart from the dasher's walk.
    private func onIntervals(pattern: [Double], phase: Double, length: Double) -> [(Double, Double)] {
        let even = pattern.count % 2 == 0 ? pattern : pattern + pattern
        let period = even.reduce(0, +)
        let start = phase - (phase / period).rounded(.down) * period
        var intervals: [(Double, Double)] = []
        var periodStart = -start
        while periodStart < length {
            var offset = periodStart
            for (index, entry) in even.enumerated() {
                if index % 2 == 0 {
                    let (from, to) = (max(offset, 0), min(offset + entry, length))
                    if to > from { intervals.append((from, to)) }
                }
                offset += entry
            }
            periodStart += period
        }
        return intervals
    }

    /// A straight line 3 wide over whole pixel rows, butt caps: each column's coverage is the length of the
    /// dashes over it, for an even pattern with a phase, an odd one (repeated) with a negative phase, and a
    /// phase of many periods. Measured max 0.50 (rounding).
    func testDashLengthsAlongAStraightLine() throws {
        let box = PixelBox(x: 0, y: 0, width: 70, height: 16)
        var line = Path()
        line.move(to: Point(x: 2.25, y: 10.5))
        line.line(to: Point(x: 62.25, y: 10.5))
        for (pattern, phase) in [([5.0, 3], 2.0), ([4, 2, 1], -3), ([2.5, 1.25], 1000.3)] {
            let style = try StrokeStyle(width: 3).dashed(pattern, phase: phase)
            let drawn = StrokeTestSupport.stroke(line, style: style, box: box)
            var expected = [Double](repeating: 0, count: box.width * box.height)
            for (from, to) in onIntervals(pattern: pattern, phase: phase, length: 60) {
                let dash = StrokeTestSupport.rectangleCoverage(x0: 2.25 + from, y0: 9, x1: 2.25 + to, y1: 12, over: box)
                for index in expected.indices { expected[index] += dash[index] }
            }
            let difference = StrokeTestSupport.difference(drawn, expected)
            XCTAssertLessThanOrEqual(
                difference.maximum, PathTestSupport.roundingBound, "\(pattern), phase \(phase): \(difference)")
        }
    }

    /// Dashes of zero length with round caps are dots, one per period, each a disc of the width: the total
    /// coverage is their count times πr² (measured within 0.1 %), and butt caps draw nothing.
    func testZeroLengthDashesAreDots() throws {
        var line = Path()
        line.move(to: Point(x: 4.5, y: 8.5))
        line.line(to: Point(x: 64.5, y: 8.5))
        let style = try StrokeStyle(width: 4, cap: .round).dashed([0, 10])
        let drawn = StrokeTestSupport.stroke(line, style: style, box: PixelBox(x: 0, y: 0, width: 72, height: 16))
        // Dots at 0, 10, …, 60 along the line.
        XCTAssertEqual(StrokeTestSupport.area(drawn), 7 * .pi * 4, accuracy: 7 * .pi * 4 * 0.002)
        let butt = try StrokeStyle(width: 4).dashed([0, 10])
        XCTAssertNil(
            Coverage.stroke(line, style: butt, through: .identity, within: PixelBox(x: 0, y: 0, width: 72, height: 16)))
    }

    /// A dash crossing a corner keeps the corner and its join: a square's outline dashed with dashes longer
    /// than a side and a closed start draws exactly what the solid stroke draws where the dashes are on.
    func testDashesTurnCorners() throws {
        var square = Path()
        square.addRect(Rect(x: 5.5, y: 5.5, width: 20, height: 20))
        let box = PixelBox(x: 0, y: 0, width: 32, height: 32)
        // On for 70 of every 80: the gap is the first 10 of the square's top side (phase 70).
        let dashed = StrokeTestSupport.stroke(
            square, style: try StrokeStyle(width: 3, join: .miter).dashed([70, 10], phase: 70), box: box)
        let solid = StrokeTestSupport.stroke(square, style: StrokeStyle(width: 3, join: .miter), box: box)
        for row in 0..<box.height {
            for column in 0..<box.width where column >= 17 || row >= 8 {
                XCTAssertEqual(dashed[row * box.width + column], solid[row * box.width + column], "(\(column), \(row))")
            }
        }
        XCTAssertEqual(dashed[5 * box.width + 10], 0)  // in the gap on the top side
    }

    /// SVG calls a negative or non-finite entry, and a pattern of zeros, an error; the phase must be finite.
    func testDashPatternErrors() {
        let style = StrokeStyle(width: 2)
        XCTAssertThrowsError(try style.dashed([3, -1])) {
            XCTAssertEqual($0 as? StrokeStyleError, .negativeDash(index: 1))
        }
        XCTAssertThrowsError(try style.dashed([0, 0, 0])) { XCTAssertEqual($0 as? StrokeStyleError, .allDashesZero) }
        XCTAssertThrowsError(try style.dashed([.nan])) {
            XCTAssertEqual($0 as? StrokeStyleError, .dashNotFinite(index: 0))
        }
        XCTAssertThrowsError(try style.dashed([1], phase: .infinity)) {
            XCTAssertEqual($0 as? StrokeStyleError, .phaseNotFinite)
        }
        XCTAssertEqual(try style.dashed([]).dashes, [])
        XCTAssertEqual(try style.dashed([1, 2, 3]).evenDashes, [1, 2, 3, 1, 2, 3])
    }

    /// Hostile styles finish at once with a bounded result: a width of 10³⁰⁰ covers the image; a dash of
    /// 10⁻³⁰⁰ would make 10³⁰² dashes and is drawn solid instead; a miter limit of 10³⁰⁰ at a near reversal
    /// makes a long but finite spike; a negative or NaN width draws nothing.
    func testHostileStylesAreBounded() throws {
        var path = Path()
        path.move(to: Point(x: 2, y: 3))
        path.line(to: Point(x: 15, y: 12))
        path.line(to: Point(x: 3, y: 12.001))
        let box = PixelBox(x: 0, y: 0, width: 20, height: 20)
        let huge = StrokeTestSupport.stroke(path, style: StrokeStyle(width: 1e300, cap: .round, join: .round), box: box)
        XCTAssertTrue(huge.allSatisfy { $0 == 255 })
        let tiny = try StrokeStyle(width: 2).dashed([1e-300])
        XCTAssertEqual(
            StrokeTestSupport.stroke(path, style: tiny, box: box),
            StrokeTestSupport.stroke(path, style: StrokeStyle(width: 2), box: box))
        let spike = StrokeTestSupport.stroke(path, style: StrokeStyle(width: 2, miterLimit: 1e300), box: box)
        XCTAssertTrue(spike.allSatisfy { $0 >= 0 && $0 <= 255 })
        // A NaN miter limit counts as 1 (every corner a bevel) and leaves curves curved.
        var circle = Path()
        circle.addEllipse(in: Rect(x: 3.3, y: 2.7, width: 13, height: 14))
        XCTAssertEqual(
            StrokeTestSupport.stroke(circle, style: StrokeStyle(width: 2, miterLimit: .nan), box: box),
            StrokeTestSupport.stroke(circle, style: StrokeStyle(width: 2, join: .bevel), box: box))
        for width in [-1, Double.nan, .infinity] {
            XCTAssertNil(Coverage.stroke(path, style: StrokeStyle(width: width), through: .identity, within: box))
        }
        XCTAssertNil(
            Coverage.stroke(
                path, style: StrokeStyle(width: 2), through: AffineTransform2D(scaleX: 0, y: 1), within: box))
    }

    /// The width scales with the transform, as Core Graphics strokes in user space: a width of 2 at scale 3 is
    /// a width of 6 drawn at scale 1 (measured max 0.5), and a non-uniform scale makes an elliptical pen (a
    /// horizontal line at scale (1, 3) is 3 times as thick).
    func testWidthScalesWithTheTransform() {
        var line = Path()
        line.move(to: Point(x: 1.1, y: 2.3))
        line.line(to: Point(x: 9.7, y: 5.9))
        let box = PixelBox(x: 0, y: 0, width: 36, height: 26)
        let scaled = StrokeTestSupport.stroke(
            line, style: StrokeStyle(width: 2, cap: .square), transform: AffineTransform2D(scaleX: 3, y: 3), box: box)
        let direct = StrokeTestSupport.stroke(
            line.transformed(by: AffineTransform2D(scaleX: 3, y: 3)), style: StrokeStyle(width: 6, cap: .square),
            box: box)
        XCTAssertLessThanOrEqual(zip(scaled, direct).map { abs($0 - $1) }.max()!, 1)
        var flat = Path()
        flat.move(to: Point(x: 2, y: 2))
        flat.line(to: Point(x: 30, y: 2))
        let pen = StrokeTestSupport.stroke(
            flat, style: StrokeStyle(width: 2), transform: AffineTransform2D(scaleX: 1, y: 3), box: box)
        let expected = StrokeTestSupport.rectangleCoverage(x0: 2, y0: 3, x1: 30, y1: 9, over: box)
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(pen, expected).maximum, PathTestSupport.roundingBound)
    }
}
