import XCTest

@testable import Compositor

/// Curves flattened in output pixels: within the tolerance at every scale, as many lines as Wang's formula
/// says, and bounded when coordinates are huge; refused when they are not finite.
final class PathFlatteningTests: XCTestCase {
    private let everywhere = (minX: -1e6, minY: -1e6, maxX: 1e6, maxY: 1e6)

    /// The polygon's edges (each chord of a circle) come within `tolerance` of the circle at scale 1 and at
    /// scale 3, where it needs about √3 times the lines. Measured: sagittas of 0.0192 px with 73 vertices at
    /// scale 1, 0.0171 px with 133 at scale 3.
    func testCircleWithinToleranceAtEveryScale() throws {
        var circle = Path()
        circle.addEllipse(in: Rect(x: -20, y: -20, width: 40, height: 40))
        var counts: [Double] = []
        for scale in [1.0, 3.0] {
            let polygons = try XCTUnwrap(
                PathFlattener.flatten(
                    circle, through: AffineTransform2D(scaleX: scale, y: scale), tolerance: 0.02, clip: everywhere))
            let radius = 20 * scale
            var worst = 0.0
            for polygon in polygons.polygons {
                for i in polygon {
                    let j = i + 1 == polygon.upperBound ? polygon.lowerBound : i + 1
                    let middleX = (polygons.xs[i] + polygons.xs[j]) / 2
                    let middleY = (polygons.ys[i] + polygons.ys[j]) / 2
                    worst = max(worst, radius - (middleX * middleX + middleY * middleY).squareRoot())
                }
            }
            XCTAssertLessThanOrEqual(worst, 0.02, "scale \(scale)")
            XCTAssertGreaterThan(worst, 0.012, "scale \(scale): the tolerance is used, not far undershot")
            counts.append(Double(polygons.xs.count))
        }
        XCTAssertEqual(counts[1] / counts[0], 3.0.squareRoot(), accuracy: 0.15)
    }

    /// Wang's formula: the quadratic (0, 0), (50, 100), (100, 0) has second difference 200, so at 0.02 px it
    /// takes √(2·200 / (8·0.02)) = 50 lines.
    func testLineCountFromTheSecondDifference() throws {
        var path = Path()
        path.move(to: .zero)
        path.quadCurve(to: Point(x: 100, y: 0), control: Point(x: 50, y: 100))
        let polygons = try XCTUnwrap(PathFlattener.flatten(path, through: .identity, tolerance: 0.02, clip: everywhere))
        XCTAssertEqual(polygons.xs.count, 1 + 50)
        // Scaled by 4, the second difference is 800: 100 lines, cut into two halves of 50.
        let scaled = try XCTUnwrap(
            PathFlattener.flatten(path, through: AffineTransform2D(scaleX: 4, y: 4), tolerance: 0.02, clip: everywhere))
        XCTAssertEqual(scaled.xs.count, 1 + 100)
        // A tolerance of 0 is the minimum, 0.001 px, not endless lines; NaN is the default.
        XCTAssertEqual(
            PathFlattener.flatten(path, through: .identity, tolerance: 0, clip: everywhere)?.xs.count, 1 + 224)
        XCTAssertEqual(
            PathFlattener.flatten(path, through: .identity, tolerance: .nan, clip: everywhere)?.xs.count, 1 + 50)
    }

    /// A curve whose control points lie 10¹⁴ px away costs its pieces near the clip, not the 10⁸ lines its second
    /// difference asks for; a curve wholly outside the clip is its chord.
    func testHugeCurvesAreBoundedAndOutsideCurvesAreChords() throws {
        var huge = Path()
        huge.move(to: Point(x: 10, y: 10))
        huge.curve(to: Point(x: 20, y: 20), control1: Point(x: 1e14, y: -1e14), control2: Point(x: -1e14, y: 1e14))
        huge.line(to: Point(x: 10, y: 20))
        let clip = (minX: 0.0, minY: 0.0, maxX: 100.0, maxY: 100.0)
        let polygons = try XCTUnwrap(PathFlattener.flatten(huge, through: .identity, tolerance: 0.02, clip: clip))
        // Measured: 290 vertices (up to 10 halvings, at most 64 lines for each piece near the clip).
        XCTAssertLessThan(polygons.xs.count, 2_000)
        XCTAssertTrue(polygons.xs.allSatisfy(\.isFinite))
        var outside = Path()
        outside.addEllipse(in: Rect(x: 500, y: 500, width: 100, height: 100))
        let culled = try XCTUnwrap(PathFlattener.flatten(outside, through: .identity, tolerance: 0.02, clip: clip))
        XCTAssertEqual(culled.xs.count, 1 + 12)  // the start and one chord per cubic
    }

    /// A point that is not finite, or beyond ±10¹⁵ px after the transform, refuses the whole path.
    func testNonFiniteAndHugeCoordinatesAreRefused() {
        func path(_ x: Double) -> Path {
            var path = Path()
            path.move(to: .zero)
            path.line(to: Point(x: x, y: 10))
            path.line(to: Point(x: 0, y: 10))
            return path
        }
        for x in [Double.nan, .infinity, -.infinity, 1e16, 1e300] {
            XCTAssertNil(PathFlattener.flatten(path(x), through: .identity, tolerance: 0.02, clip: everywhere), "\(x)")
        }
        XCTAssertNotNil(PathFlattener.flatten(path(1e14), through: .identity, tolerance: 0.02, clip: everywhere))
        XCTAssertNil(
            PathFlattener.flatten(
                path(10), through: AffineTransform2D(scaleX: 1e300, y: 1), tolerance: 0.02, clip: everywhere))
    }
}
