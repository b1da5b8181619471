import TestSupport
import XCTest

@testable import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Strokes against shapes computed without the stroker: rectangles and hand-built join polygons through the
/// exact fill reference, capsules and annuli in closed form. Differences are in levels of 255, as measured.
final class PathStrokeTests: XCTestCase {
    /// A straight thick line is its rectangle: butt caps end at the points, square caps half the width past
    /// them, at any angle. Measured max 0.4996 (rounding; no curve, so nothing flattened).
    func testStraightLineIsItsRectangle() {
        let box = PixelBox(x: 0, y: 0, width: 40, height: 30)
        var line = Path()
        line.move(to: Point(x: 5.3, y: 10.4))
        line.line(to: Point(x: 30.7, y: 10.4))
        let butt = StrokeTestSupport.stroke(line, style: StrokeStyle(width: 5.2), box: box)
        let rectangle = StrokeTestSupport.rectangleCoverage(x0: 5.3, y0: 7.8, x1: 30.7, y1: 13, over: box)
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(butt, rectangle).maximum, PathTestSupport.roundingBound)
        let square = StrokeTestSupport.stroke(line, style: StrokeStyle(width: 5.2, cap: .square), box: box)
        let longer = StrokeTestSupport.rectangleCoverage(x0: 2.7, y0: 7.8, x1: 33.3, y1: 13, over: box)
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(square, longer).maximum, PathTestSupport.roundingBound)
        // A diagonal with square caps: the rectangle's corners by hand.
        let (start, end, half) = ((4.2, 6.1), (31.5, 22.8), 2.2)
        let length = ((end.0 - start.0) * (end.0 - start.0) + (end.1 - start.1) * (end.1 - start.1)).squareRoot()
        let along = ((end.0 - start.0) / length * half, (end.1 - start.1) / length * half)
        let across = (along.1, -along.0)
        let corners = [
            (start.0 - along.0 + across.0, start.1 - along.1 + across.1),
            (end.0 + along.0 + across.0, end.1 + along.1 + across.1),
            (end.0 + along.0 - across.0, end.1 + along.1 - across.1),
            (start.0 - along.0 - across.0, start.1 - along.1 - across.1),
        ]
        var diagonal = Path()
        diagonal.move(to: Point(x: start.0, y: start.1))
        diagonal.line(to: Point(x: end.0, y: end.1))
        let drawn = StrokeTestSupport.stroke(diagonal, style: StrokeStyle(width: 2 * half, cap: .square), box: box)
        let expected = StrokeTestSupport.polygonCoverage(corners, over: box)
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(drawn, expected).maximum, PathTestSupport.roundingBound)
    }

    /// A round-capped line is the capsule of points within half the width of the segment (closed form per
    /// strip, itself within 0.4 of 2,048 strips). Measured max 1.5, mean 0.03: the caps' chords, which
    /// straddle the circle within the 0.02 px tolerance.
    func testRoundCappedLineIsACapsule() {
        let box = PixelBox(x: 0, y: 0, width: 40, height: 22)
        var line = Path()
        line.move(to: Point(x: 6.3, y: 10.45))
        line.line(to: Point(x: 28.9, y: 10.45))
        let drawn = StrokeTestSupport.stroke(line, style: StrokeStyle(width: 7.3, cap: .round), box: box)
        let capsule = StrokeTestSupport.capsuleCoverage(x0: 6.3, x1: 28.9, y: 10.45, radius: 3.65, over: box)
        let difference = StrokeTestSupport.difference(drawn, capsule)
        XCTAssertLessThanOrEqual(difference.maximum, 3, "\(difference)")
        XCTAssertLessThanOrEqual(difference.mean, 0.1, "\(difference)")
    }

    /// A circle stroked is the annulus between radii r ± w/2, in closed form (the difference of two discs'
    /// areas per pixel); at scale 3 a circle of radius 5 stroked 1.6 wide is the annulus 15 ± 2.4 px, as smooth;
    /// and a circle of radius 3 stroked 4.4 wide, tighter than twice the half-width, so that the kites of its
    /// inner corners overlap along every segment. Measured max 3.8 / mean 0.19 (the first two) and 3.5 / 0.02:
    /// the path's chords lie inside the circle by up to 0.02 px, and both offsets with them.
    func testStrokedCircleIsAnAnnulus() {
        for (scale, radius, width) in [(1.0, 15.2, 4.6), (3.0, 5.0, 1.6), (1.0, 3.0, 4.4)] {
            let center = Point(x: 25.3, y: 24.8)
            var circle = Path()
            circle.addEllipse(
                in: Rect(
                    x: center.x / scale - radius, y: center.y / scale - radius, width: 2 * radius, height: 2 * radius))
            let box = PixelBox(x: 0, y: 0, width: 50, height: 50)
            let transform = AffineTransform2D(scaleX: scale, y: scale)
            let drawn = StrokeTestSupport.stroke(
                circle, style: StrokeStyle(width: width), transform: transform, box: box)
            let (outer, inner) = ((radius + width / 2) * scale, (radius - width / 2) * scale)
            let annulus = zip(
                PathTestSupport.discCoverage(center: center, radius: outer, over: box),
                PathTestSupport.discCoverage(center: center, radius: inner, over: box)
            ).map { $0 - $1 }
            let difference = StrokeTestSupport.difference(drawn, annulus)
            XCTAssertLessThanOrEqual(difference.maximum, 5.6, "scale \(scale): \(difference)")
            XCTAssertLessThanOrEqual(difference.mean, 0.3, "scale \(scale): \(difference)")
        }
    }

    /// A closed octagon whose sides lie 9 from its middle, stroked 20 wide with miter joins, is the octagon whose
    /// sides lie 19 away, middle and all: each corner's kite fits within both its segments' rectangles, and were
    /// every corner to take its inner offsets' meeting point, the eight kites would all hold a patch about the
    /// middle (1.08 px past it, they reach) and leave it a hole of winding 8 − 8. Measured max 0.50 / mean 0.01.
    func testARingNarrowerThanItsStrokeIsCoveredToItsMiddle() {
        let center = (x: 25.5, y: 25.5)
        func octagon(apothem: Double) -> [(Double, Double)] {
            (0..<8).map { index in
                let angle = Double(index) * .pi / 4
                let radius = apothem / cos(.pi / 8)
                return (center.x + radius * cos(angle), center.y + radius * sin(angle))
            }
        }
        var ring = Path()
        for (index, (x, y)) in octagon(apothem: 9).enumerated() {
            if index == 0 { ring.move(to: Point(x: x, y: y)) } else { ring.line(to: Point(x: x, y: y)) }
        }
        ring.close()
        let box = PixelBox(x: 0, y: 0, width: 51, height: 51)
        let drawn = StrokeTestSupport.stroke(ring, style: StrokeStyle(width: 20), box: box)
        XCTAssertEqual(drawn[25 * box.width + 25], 255, "the middle pixel")
        let difference = StrokeTestSupport.difference(
            drawn, StrokeTestSupport.polygonCoverage(octagon(apothem: 19), over: box))
        XCTAssertLessThanOrEqual(difference.maximum, 1, "\(difference)")
        XCTAssertLessThanOrEqual(difference.mean, 0.05, "\(difference)")
    }

    /// The three joins at a right angle against the union by hand: two rectangles 8 wide and, in the outer
    /// corner's square, all of it (miter), the triangle beyond the bevel's diagonal cut off (bevel), or a
    /// quarter disc (round, in closed form). Measured max 0.50 (miter, bevel) and 1.3 (round's chords).
    func testJoinsAtARightAngle() {
        let box = PixelBox(x: 0, y: 0, width: 40, height: 40)
        var corner = Path()
        corner.move(to: Point(x: 10.3, y: 30.6))
        corner.line(to: Point(x: 30.3, y: 30.6))
        corner.line(to: Point(x: 30.3, y: 10.6))
        let arms = [(10.3, 26.6), (26.3, 26.6), (26.3, 10.6), (34.3, 10.6)]
        let miter = StrokeTestSupport.polygonCoverage(arms + [(34.3, 34.6), (10.3, 34.6)], over: box)
        let bevel = StrokeTestSupport.polygonCoverage(arms + [(34.3, 30.6), (30.3, 34.6), (10.3, 34.6)], over: box)
        var round = StrokeTestSupport.polygonCoverage(
            arms + [(34.3, 30.6), (30.3, 30.6), (30.3, 34.6), (10.3, 34.6)], over: box)
        for row in 0..<box.height {
            for column in 0..<box.width {
                let (x0, y0) = (max(Double(column), 30.3), max(Double(row), 30.6))
                let (x1, y1) = (min(Double(column + 1), 34.3), min(Double(row + 1), 34.6))
                guard x1 > x0, y1 > y0 else { continue }
                round[row * box.width + column] += PathTestSupport.discArea(
                    center: Point(x: 30.3, y: 30.6), radius: 4, x0: x0, y0: y0, x1: x1, y1: y1)
            }
        }
        let rounding = PathTestSupport.roundingBound
        for (join, expected, bound) in [
            (StrokeStyle.LineJoin.miter, miter, rounding), (.bevel, bevel, rounding), (.round, round, 2.5),
        ] {
            let drawn = StrokeTestSupport.stroke(corner, style: StrokeStyle(width: 8, join: join), box: box)
            let difference = StrokeTestSupport.difference(drawn, expected)
            XCTAssertLessThanOrEqual(difference.maximum, bound, "\(join): \(difference)")
        }
    }

    /// SVG's miter limit: a miter is drawn while 1 / sin(θ/2) ≤ the limit (θ the interior angle), else a
    /// bevel; the limit 4 switches at θ = 2·asin(1/4) ≈ 28.96°. At 30° the miter is drawn (the same bytes as
    /// an unlimited miter, and more than the bevel by the tip's triangle, h²·cos³(θ/2)/sin(θ/2): measured
    /// within 0.006 px²); at 28° it is the bevel, byte for byte.
    func testMiterLimitSwitchesToBevelAtSVGsAngle() {
        let box = PixelBox(x: 0, y: 0, width: 60, height: 50)
        let vertex = (40.3, 30.4)
        let half = 2.0
        for (degrees, mitered) in [(30.0, true), (28.0, false)] {
            let angle = degrees * .pi / 180
            var path = Path()
            path.move(to: Point(x: vertex.0 - 30, y: vertex.1))
            path.line(to: Point(x: vertex.0, y: vertex.1))
            path.line(to: Point(x: vertex.0 - 30 * cos(angle), y: vertex.1 - 30 * sin(angle)))
            let limited = StrokeTestSupport.stroke(path, style: StrokeStyle(width: 2 * half), box: box)
            let unlimited = StrokeTestSupport.stroke(
                path, style: StrokeStyle(width: 2 * half, miterLimit: 1000), box: box)
            let bevel = StrokeTestSupport.stroke(path, style: StrokeStyle(width: 2 * half, join: .bevel), box: box)
            if mitered {
                XCTAssertEqual(limited, unlimited)
                let tip = half * half * pow(cos(angle / 2), 3) / sin(angle / 2)
                let extra = StrokeTestSupport.area(limited) - StrokeTestSupport.area(bevel)
                XCTAssertEqual(extra, tip, accuracy: 0.05)
            } else {
                XCTAssertEqual(limited, bevel)
                XCTAssertGreaterThan(StrokeTestSupport.area(unlimited), StrokeTestSupport.area(bevel) + 10)
            }
        }
    }

    /// Zero-length subpaths, closed or drawn to themselves, are a disc with round caps and a square with square
    /// caps (aligned with the x axis, SVG 2), nothing with butt caps; a lone move is nothing. Measured max 0.72
    /// for the discs (closed form), 0.50 for the squares.
    func testZeroLengthSubpathsAreDotsAndSquares() throws {
        let dots = try Path(svgPathData: "M 10.5 10.3 Z M 30.2 10.6 L 30.2 10.6 M 20 20")
        let box = PixelBox(x: 0, y: 0, width: 40, height: 24)
        let round = StrokeTestSupport.stroke(dots, style: StrokeStyle(width: 6, cap: .round), box: box)
        let discs = zip(
            PathTestSupport.discCoverage(center: Point(x: 10.5, y: 10.3), radius: 3, over: box),
            PathTestSupport.discCoverage(center: Point(x: 30.2, y: 10.6), radius: 3, over: box)
        ).map { $0 + $1 }
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(round, discs).maximum, 1.5)
        let square = StrokeTestSupport.stroke(dots, style: StrokeStyle(width: 6, cap: .square), box: box)
        let squares = zip(
            StrokeTestSupport.rectangleCoverage(x0: 7.5, y0: 7.3, x1: 13.5, y1: 13.3, over: box),
            StrokeTestSupport.rectangleCoverage(x0: 27.2, y0: 7.6, x1: 33.2, y1: 13.6, over: box)
        ).map { $0 + $1 }
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(square, squares).maximum, PathTestSupport.roundingBound)
        XCTAssertNil(Coverage.stroke(dots, style: StrokeStyle(width: 6), through: .identity, within: box))
    }

    /// A width of 0 is a hairline one device pixel wide whatever the transform (here a scale of 3).
    func testHairlineIsOneDevicePixelWide() throws {
        var line = Path()
        line.move(to: Point(x: 2, y: 3.5))
        line.line(to: Point(x: 12, y: 3.5))
        let box = PixelBox(x: 0, y: 0, width: 40, height: 20)
        let drawn = StrokeTestSupport.stroke(
            line, style: StrokeStyle(width: 0), transform: AffineTransform2D(scaleX: 3, y: 3), box: box)
        let expected = StrokeTestSupport.rectangleCoverage(x0: 6, y0: 10, x1: 36, y1: 11, over: box)
        XCTAssertLessThanOrEqual(StrokeTestSupport.difference(drawn, expected).maximum, PathTestSupport.roundingBound)
    }

    /// Dashed round strokes, wide miters with square caps and hairlines of a random polygon and of curves, on a
    /// box large enough to be threaded: the same bytes on 1, 2, 3 and 5 threads.
    func testSameBytesForEveryThreadCount() throws {
        var random = SeededGenerator(seed: 42)
        let polygon = PathTestSupport.randomPolygon(count: 40, size: 560, random: &random)
        var curves = Path()
        curves.addEllipse(in: Rect(x: 80.5, y: 60.25, width: 400, height: 330))
        curves.addRoundedRect(in: Rect(x: 30, y: 300, width: 500, height: 200), cornerRadius: 60)
        let box = PixelBox(x: 0, y: 0, width: 580, height: 580)
        let styles = [
            try StrokeStyle(width: 9, cap: .round, join: .round).dashed([30, 12, 0, 12], phase: 5),
            StrokeStyle(width: 14, cap: .square, join: .miter, miterLimit: 10),
            StrokeStyle(width: 0),
        ]
        for (index, style) in styles.enumerated() {
            for path in [polygon, curves] {
                let single = StrokeTestSupport.stroke(path, style: style, box: box, threads: 1)
                XCTAssertGreaterThan(Set(single).count, 100, "style \(index)")
                for threads in [2, 3, 5] {
                    XCTAssertEqual(
                        StrokeTestSupport.stroke(path, style: style, box: box, threads: threads), single,
                        "style \(index), \(threads) threads")
                }
            }
        }
    }
}
