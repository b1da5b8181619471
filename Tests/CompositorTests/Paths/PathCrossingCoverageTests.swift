import TestSupport
import XCTest

@testable import Compositor

/// Cells where more than one chain of edges meets: exact coverage against the naive exact reference, the
/// reference itself against Sutherland–Hodgman (where windings are simple) and fine sampling (where they
/// are not), the sampled fallback for crowded cells, and the same bytes for every thread count. Bounds in
/// levels of 255, each as measured.
final class PathCrossingCoverageTests: XCTestCase {
    /// The reference is exact: where the winding is 0 and ±1 only it matches the signed area of the polygon
    /// clipped to each pixel (measured max 8.5·10⁻¹² levels), and where the outline crosses itself it matches
    /// 64 × 64 samples within the sampling's error (measured max 0.35, mean 0.008).
    func testExactReferenceAgreesWithIndependentOnes() {
        let box = PixelBox(x: 0, y: 0, width: 30, height: 30)
        var triangle = Path()
        triangle.move(to: Point(x: 2.3, y: 1.7))
        triangle.line(to: Point(x: 27.9, y: 11.2))
        triangle.line(to: Point(x: 8.4, y: 28.6))
        triangle.close()
        let polygons = PathTestSupport.rasterize(triangle, box: box).polygons
        let exact = ReferencePathCoverage.exactCoverage(of: polygons, rule: .nonZero, over: box)
        let clipped = ReferencePathCoverage.windingIntegrals(of: polygons, over: box).map { min(abs($0), 1) }
        let largest = zip(exact, clipped).map { abs($0 - $1) * 255 }.max()!
        XCTAssertLessThan(largest, 1e-9)
        var random = SeededGenerator(seed: 11)
        let tangle = PathTestSupport.randomPolygon(count: 9, size: 30, random: &random)
        let tanglePolygons = PathTestSupport.rasterize(tangle, box: box).polygons
        for rule in FillRule.allCases {
            let exact = ReferencePathCoverage.exactCoverage(of: tanglePolygons, rule: rule, over: box)
            let sampled = ReferencePathCoverage.sampledCoverage(of: tanglePolygons, rule: rule, over: box)
            let differences = zip(exact, sampled).map { abs($0 - $1) * 255 }
            XCTAssertLessThan(differences.max()!, 1, "\(rule)")
            XCTAssertLessThan(differences.reduce(0, +) / Double(differences.count), 0.02, "\(rule)")
        }
    }

    /// Outlines that overlap without crossing in one pixel (two rectangles' sides a fraction of a pixel apart,
    /// a ring drawn twice the same way, a square inside a square the other way round), where non-zero sees
    /// windings 0, 1 and 2 or −1, 0 and 1 in a pixel: exact, measured max 0.5.
    func testOverlappingOutlinesInOnePixel() {
        let box = PixelBox(x: 0, y: 0, width: 24, height: 24)
        var overlapping = Path()
        overlapping.addRect(Rect(x: 2.2, y: 3.1, width: 10.35, height: 12.4))
        overlapping.addRect(Rect(x: 2.6, y: 3.45, width: 15.1, height: 9.9))
        var twice = Path()
        twice.addEllipse(in: Rect(x: 3.3, y: 4.1, width: 15, height: 14))
        twice.addEllipse(in: Rect(x: 3.5, y: 4.0, width: 15, height: 14.3))
        var reversedInner = Path()
        reversedInner.addRect(Rect(x: 2.5, y: 2.5, width: 18, height: 18))
        reversedInner.move(to: Point(x: 2.9, y: 2.8))
        reversedInner.line(to: Point(x: 2.9, y: 20.1))
        reversedInner.line(to: Point(x: 20.2, y: 20.1))
        reversedInner.line(to: Point(x: 20.2, y: 2.8))
        reversedInner.close()
        for (name, path) in [("overlapping", overlapping), ("twice", twice), ("reversed", reversedInner)] {
            PathTestSupport.assertExactByEveryRule(path, box: box, name)
        }
    }

    /// Star polygons of many points and dense random tangles, at a scale where tens of edges share a cell:
    /// cells of up to 32 edges are exact (random 40-gons in 12 px: measured max 0.498), more are sampled in 64
    /// strips (a 61-point star within 3 px, all 61 edges through its middle cells: measured max 0.66 non-zero,
    /// 0.88 even-odd).
    func testCrowdedCells() {
        var random = SeededGenerator(seed: 5)
        let box = PixelBox(x: 0, y: 0, width: 12, height: 12)
        for trial in 0..<4 {
            let path = PathTestSupport.randomPolygon(count: 40, size: 12, random: &random)
            PathTestSupport.assertExactByEveryRule(path, box: box, "trial \(trial)")
        }
        let star = PathTestSupport.star(points: 61, step: 30, center: Point(x: 6.1, y: 5.8), radius: 1.5)
        for rule in FillRule.allCases {
            let difference = PathTestSupport.differenceFromExact(star, rule: rule, box: box).difference
            XCTAssertLessThanOrEqual(difference.maximum, 1, "\(rule): \(difference)")
        }
    }

    /// Crossings on every band and at band boundaries: the same bytes on 1, 2, 3 and 5 threads.
    func testCrossingsSameBytesForEveryThreadCount() {
        var random = SeededGenerator(seed: 123)
        var path = PathTestSupport.randomPolygon(count: 80, size: 520, random: &random)
        path.addPath(PathTestSupport.star(points: 7, step: 3, center: Point(x: 260.5, y: 255.3), radius: 240))
        let box = PixelBox(x: 0, y: 0, width: 520, height: 520)
        for rule in FillRule.allCases {
            let bytes = PathTestSupport.rasterize(path, rule: rule, box: box, threads: 1).plane.withUnsafeBytes {
                Array($0)
            }
            for threads in [2, 3, 5] {
                let plane = PathTestSupport.rasterize(path, rule: rule, box: box, threads: threads).plane
                XCTAssertEqual(plane.withUnsafeBytes { Array($0) }, bytes, "\(rule), \(threads) threads")
            }
        }
    }
}
