import TestSupport
import XCTest

@testable import Compositor

/// Cells two chains of edges share and that keep their summed area (`PathRasterizer.safelySummed`: opposite
/// ways, ends only at a shared vertex, no crossing), against the exact reference: the shapes where that rule is
/// easiest to get wrong, and seeded polygons on a quarter-pixel grid, where horizontal edges, shared vertices,
/// slivers and crossings inside one cell are common. Bounds in levels of 255, as measured.
final class PathSharedCellTests: XCTestCase {
    /// Slivers (a side and the other a fraction of a pixel apart, straight and curved), turns with a point and a
    /// flat end, a staircase of horizontal edges, an X of two slivers crossing inside a cell, and a U that turns
    /// back left of a cell another sliver passes through: measured max 0.5.
    func testShapesWhereTwoChainsShareCells() {
        let box = PixelBox(x: 0, y: 0, width: 40, height: 40)
        var shapes: [(String, Path)] = []
        shapes.append(("sliver", polygon([(3.2, 2.1), (35.7, 9.35), (35.9, 9.8), (3.25, 2.6)])))
        var curved = Path()
        curved.move(to: Point(x: 2.5, y: 30.2))
        curved.quadCurve(to: Point(x: 37.1, y: 28.4), control: Point(x: 20.3, y: 4.6))
        curved.line(to: Point(x: 37.2, y: 28.9))
        curved.quadCurve(to: Point(x: 2.6, y: 30.55), control: Point(x: 20.1, y: 5.3))
        curved.close()
        shapes.append(("curved sliver", curved))
        shapes.append(("point turns", polygon([(4.3, 3.7), (20.6, 30.25), (36.1, 3.9), (20.65, 29.1)])))
        shapes.append(("flat turns", polygon([(3.3, 4.25), (9.7, 20.5), (14.2, 20.5), (19.6, 4.25), (17.1, 4.25),
            (12.4, 17.75), (11.3, 17.75), (6.1, 4.25)])))
        shapes.append(("staircase", polygon([(2.25, 2.5), (8.75, 2.5), (8.75, 9.25), (15.5, 9.25), (15.5, 16.75),
            (22.25, 16.75), (22.25, 23.5), (2.25, 23.5)])))
        var cross = polygon([(2.1, 5.3), (37.6, 33.2), (37.9, 33.1), (2.4, 5.2)])
        cross.addPath(polygon([(2.3, 33.4), (37.7, 5.6), (37.4, 5.45), (2.05, 33.2)]))
        shapes.append(("crossing slivers", cross))
        var turnBeside = polygon([(10.6, 10.2), (4.1, 10.9), (10.4, 11.6), (4.5, 10.85)])
        turnBeside.addPath(polygon([(11.2, 3.1), (11.9, 19.4), (12.3, 19.4), (11.5, 3.1)]))
        shapes.append(("turn beside a sliver", turnBeside))
        for (name, path) in shapes {
            PathTestSupport.assertExactByEveryRule(path, box: box, name)
        }
    }

    /// 300 seeded polygons of 3 to 12 vertices on a quarter-pixel grid in 10 × 10 pixels: measured max 0.5.
    func testQuarterPixelPolygons() {
        var random = SeededGenerator(seed: 29)
        let box = PixelBox(x: 0, y: 0, width: 10, height: 10)
        for trial in 0..<300 {
            var path = Path()
            let count = 3 + Int(random.next() % 10)
            for index in 0..<count {
                let point = Point(x: Double(random.next() % 40) / 4, y: Double(random.next() % 40) / 4)
                if index == 0 { path.move(to: point) } else { path.line(to: point) }
            }
            path.close()
            PathTestSupport.assertExactByEveryRule(path, box: box, "trial \(trial)")
        }
    }

    /// Crossing outlines three times the box's width, half of them starting left of it: chains pushed onto its
    /// left side and cut at its right, whole row chains left of shared cells taken as one step each; measured max
    /// 0.5.
    func testOutlinesCutByTheBoxSides() {
        var random = SeededGenerator(seed: 67)
        let box = PixelBox(x: 0, y: 0, width: 12, height: 16)
        for trial in 0..<120 {
            let left = trial % 2 == 0 ? 0.0 : -12
            var path = Path()
            for index in 0..<14 {
                let point = Point(
                    x: left + Double(random.next() % 36_000) / 1000, y: Double(random.next() % 16_000) / 1000)
                if index == 0 { path.move(to: point) } else { path.line(to: point) }
            }
            path.close()
            PathTestSupport.assertExactByEveryRule(path, box: box, "trial \(trial)")
        }
    }

    /// A small box is one band, a box over 64 rows bands of 16: the rows they share have the same bytes.
    func testOneBandOrManySameBytes() {
        var random = SeededGenerator(seed: 47)
        var path = PathTestSupport.randomPolygon(count: 30, size: 60, random: &random)
        path.addPath(PathTestSupport.star(points: 9, step: 4, center: Point(x: 30.3, y: 29.6), radius: 27))
        for rule in FillRule.allCases {
            let small = PathTestSupport.rasterize(path, rule: rule, box: PixelBox(x: 0, y: 0, width: 60, height: 60))
            let tall = PathTestSupport.rasterize(path, rule: rule, box: PixelBox(x: 0, y: 0, width: 60, height: 130))
            let smallBytes = small.plane.withUnsafeBytes { Array($0) }
            let tallBytes = tall.plane.withUnsafeBytes { Array($0.prefix(smallBytes.count)) }
            XCTAssertEqual(smallBytes, tallBytes, "\(rule)")
            XCTAssertGreaterThan(Set(smallBytes).count, 100, "\(rule): the path covers partly")
        }
    }

    /// Past the row chains a band records (lowered here to 40; a hostile outline of millions of edges reaches
    /// the real limit) every cell the rest touch is resolved exactly: the same exact coverage, within 0.5.
    func testPiecesPastTheRowChainLimitAreResolvedExactly() {
        var random = SeededGenerator(seed: 53)
        let box = PixelBox(x: 0, y: 0, width: 24, height: 20)
        let path = PathTestSupport.randomPolygon(count: 60, size: 20, random: &random)
        for rule in FillRule.allCases {
            let polygons = PathTestSupport.rasterize(path, rule: rule, box: box).polygons
            let limited = PathRasterizer.coverage(of: polygons, rule: rule, over: box, threads: 1, rowChainLimit: 40)
            let exact = ReferencePathCoverage.exactCoverage(of: polygons, rule: rule, over: box)
            let difference = PathTestSupport.Difference(limited, exact)
            XCTAssertLessThanOrEqual(difference.maximum, PathTestSupport.roundingBound, "\(rule): \(difference)")
        }
    }

    private func polygon(_ points: [(Double, Double)]) -> Path {
        var path = Path()
        path.move(to: Point(x: points[0].0, y: points[0].1))
        for point in points.dropFirst() { path.line(to: Point(x: point.0, y: point.1)) }
        path.close()
        return path
    }
}
