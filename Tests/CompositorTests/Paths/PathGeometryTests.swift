import XCTest

@testable import Compositor

/// Paths built in Swift: SVG's rules for segments after a close, the shapes, transforms, exact bounds, and
/// elliptical arcs converted to cubics, held to the closed-form ellipse.
final class PathGeometryTests: XCTestCase {
    func testSegmentsAfterACloseBeginASubpathAtItsStart() {
        var path = Path()
        path.line(to: Point(x: 5, y: 0))  // nothing open yet: begins at the origin
        path.move(to: Point(x: 10, y: 10))
        path.line(to: Point(x: 20, y: 10))
        path.close()
        path.close()  // nothing open: ignored
        XCTAssertEqual(path.currentPoint, Point(x: 10, y: 10))
        path.quadCurve(to: Point(x: 30, y: 30), control: Point(x: 25, y: 5))
        XCTAssertEqual(
            path.elements,
            [
                .move(to: .zero), .line(to: Point(x: 5, y: 0)), .move(to: Point(x: 10, y: 10)),
                .line(to: Point(x: 20, y: 10)), .close, .move(to: Point(x: 10, y: 10)),
                .quadCurve(to: Point(x: 30, y: 30), control: Point(x: 25, y: 5)),
            ])
    }

    func testTransformedMapsEveryPoint() {
        var path = Path()
        path.move(to: Point(x: 1, y: 2))
        path.curve(to: Point(x: 3, y: 4), control1: Point(x: 5, y: 6), control2: Point(x: 7, y: 8))
        let moved = path.transformed(
            by: AffineTransform2D(scaleX: 2, y: 3).concatenating(.init(translationX: 1, y: -1)))
        XCTAssertEqual(
            moved.elements,
            [
                .move(to: Point(x: 3, y: 5)),
                .curve(to: Point(x: 7, y: 11), control1: Point(x: 11, y: 17), control2: Point(x: 15, y: 23)),
            ])
        XCTAssertEqual(moved.currentPoint, Point(x: 7, y: 11))
    }

    func testBoundsFollowCurvesToTheirExtremesNotTheirControlPoints() throws {
        var path = Path()
        XCTAssertNil(path.bounds)
        path.move(to: .zero)
        // A cubic whose control points reach y = 10 but whose curve turns at t = ½, y = 7.5.
        path.curve(to: Point(x: 10, y: 0), control1: Point(x: 0, y: 10), control2: Point(x: 10, y: 10))
        // A quadratic whose control point reaches y = −10; the curve turns at y = −5.
        path.quadCurve(to: Point(x: 20, y: 0), control: Point(x: 15, y: -10))
        let bounds = try XCTUnwrap(path.bounds)
        XCTAssertEqual(bounds.x, 0)
        XCTAssertEqual(bounds.width, 20)
        XCTAssertEqual(bounds.y, -5, accuracy: 1e-12)
        XCTAssertEqual(bounds.y + bounds.height, 7.5, accuracy: 1e-12)
    }

    func testRectAndRoundedRect() throws {
        var rect = Path()
        rect.addRect(Rect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(rect.elements.count, 5)
        XCTAssertEqual(rect.bounds, Rect(x: 1, y: 2, width: 3, height: 4))
        var rounded = Path()
        // The radius is clamped to half the shorter side: a capsule.
        rounded.addRoundedRect(in: Rect(x: 0, y: 0, width: 40, height: 10), cornerRadius: 50)
        let bounds = try XCTUnwrap(rounded.bounds)
        XCTAssertEqual(bounds.x, 0, accuracy: 1e-9)
        XCTAssertEqual(bounds.width, 40, accuracy: 1e-9)
        XCTAssertEqual(bounds.height, 10, accuracy: 1e-9)
        // Every curve point of the left cap lies on the circle of radius 5 about (5, 5).
        let deviation = Self.maximumDeviation(of: rounded, fromEllipseAt: Point(x: 5, y: 5), radiusX: 5, radiusY: 5) {
            $0.x <= 5
        }
        XCTAssertLessThan(deviation, 5 * 4e-7)
    }

    /// Each cubic spans at most 30°, so the arcs stay within 4·10⁻⁷ of the radius (measured: 3.7·10⁻⁷, where a
    /// quarter-circle cubic errs by 2.7·10⁻⁴).
    func testEllipseStaysOnTheEllipse() {
        var path = Path()
        path.addEllipse(in: Rect(x: -100, y: -50, width: 200, height: 100))
        XCTAssertEqual(path.elements.count, 14)  // move, 12 cubics, close
        let circle = { () -> Path in
            var circle = Path()
            circle.addEllipse(in: Rect(x: -1, y: -1, width: 2, height: 2))
            return circle
        }()
        let deviation = Self.maximumDeviation(of: circle, fromEllipseAt: .zero, radiusX: 1, radiusY: 1)
        XCTAssertLessThan(deviation, 4e-7)
        XCTAssertGreaterThan(deviation, 3e-7)  // the measured error, so the comment's number stays true
        XCTAssertLessThan(
            Self.maximumDeviation(of: path, fromEllipseAt: .zero, radiusX: 100, radiusY: 50), 100 * 4e-7)
    }

    /// F.6.5's centre: a semicircle of radius 50 from (0, 50) to (100, 50) with sweep 1 passes over the top.
    func testEndpointArcFindsItsCentre() throws {
        var path = Path()
        path.move(to: Point(x: 0, y: 50))
        path.arc(to: Point(x: 100, y: 50), radiusX: 50, radiusY: 50, largeArc: false, sweep: true)
        XCTAssertEqual(path.currentPoint, Point(x: 100, y: 50))  // exactly, not where trigonometry lands
        XCTAssertLessThan(
            Self.maximumDeviation(of: path, fromEllipseAt: Point(x: 50, y: 50), radiusX: 50, radiusY: 50), 50 * 4e-7)
        let bounds = try XCTUnwrap(path.bounds)
        XCTAssertEqual(bounds.y, 0, accuracy: 1e-4)
        XCTAssertEqual(bounds.height, 50, accuracy: 1e-4)
        // The large arc of radius 10 over a chord of 10, sweeping towards increasing angles: 300° about the centre
        // above the chord, (5, −8.66), from 120° round to 60°.
        var large = Path()
        large.move(to: .zero)
        large.arc(to: Point(x: 10, y: 0), radiusX: 10, radiusY: 10, largeArc: true, sweep: true)
        let center = Point(x: 5, y: -75.0.squareRoot())
        XCTAssertLessThan(Self.maximumDeviation(of: large, fromEllipseAt: center, radiusX: 10, radiusY: 10), 10 * 4e-7)
        let largeBounds = try XCTUnwrap(large.bounds)
        XCTAssertEqual(largeBounds.height, 10 + 75.0.squareRoot(), accuracy: 1e-4)
        XCTAssertEqual(large.elements.count, 1 + 10)  // 300° in cubics of 30°
    }

    /// F.6.6: radii too small are scaled up until the ellipse just reaches (the centre at the midpoint), keeping
    /// their ratio; negative radii count as positive; zero radii draw a line; equal end points omit the arc.
    func testOutOfRangeRadii() throws {
        var path = Path()
        path.move(to: .zero)
        path.arc(to: Point(x: 10, y: 0), radiusX: -1, radiusY: 1, largeArc: false, sweep: true)
        XCTAssertLessThan(
            Self.maximumDeviation(of: path, fromEllipseAt: Point(x: 5, y: 0), radiusX: 5, radiusY: 5), 5 * 4e-7)
        XCTAssertEqual(try XCTUnwrap(path.bounds).y, -5, accuracy: 1e-4)
        // Ratio 2:1 in an ellipse rotated 90°: the scaled radii are 10 and 5, the 5 along x.
        var rotated = Path()
        rotated.move(to: .zero)
        rotated.arc(to: Point(x: 10, y: 0), radiusX: 2, radiusY: 1, rotation: .pi / 2, largeArc: false, sweep: false)
        XCTAssertEqual(try XCTUnwrap(rotated.bounds).height, 10, accuracy: 1e-4)
        var degenerate = Path()
        degenerate.move(to: .zero)
        degenerate.arc(to: Point(x: 10, y: 0), radiusX: 0, radiusY: 5, largeArc: false, sweep: true)
        degenerate.arc(to: Point(x: 10, y: 0), radiusX: 5, radiusY: 5, largeArc: false, sweep: true)
        XCTAssertEqual(degenerate.elements, [.move(to: .zero), .line(to: Point(x: 10, y: 0))])
    }

    /// UIBezierPath's arc: clockwise (towards increasing angles on a y-down screen) from 0 to π/2 ends at the
    /// bottom; the other way round it goes the long way, through the top.
    func testCentreArcFollowsUIKitsDirection() throws {
        var short = Path()
        short.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        XCTAssertEqual(short.currentPoint.x, 0, accuracy: 1e-12)
        XCTAssertEqual(short.currentPoint.y, 10, accuracy: 1e-12)
        XCTAssertEqual(short.elements.count, 1 + 3)
        var long = Path()
        long.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        XCTAssertEqual(long.elements.count, 1 + 9)
        XCTAssertEqual(try XCTUnwrap(long.bounds).y, -10, accuracy: 1e-6)
    }

    /// The largest distance from the ellipse (in its own units) of points sampled along every curve, as a
    /// fraction of the radius… measured as |‖(x/rx, y/ry)‖ − 1|, scaled back by the larger radius.
    static func maximumDeviation(
        of path: Path, fromEllipseAt center: Point, radiusX: Double, radiusY: Double,
        where include: (Point) -> Bool = { _ in true }
    ) -> Double {
        var worst = 0.0
        var current = Point.zero
        for element in path.elements {
            switch element {
            case .move(let point), .line(let point):
                current = point
            case .curve(let point, let c1, let c2):
                for step in 0...64 {
                    let t = Double(step) / 64
                    let x = Path.cubic((current.x, c1.x, c2.x, point.x), at: t)
                    let y = Path.cubic((current.y, c1.y, c2.y, point.y), at: t)
                    guard include(Point(x: x, y: y)) else { continue }
                    let u = (x - center.x) / radiusX
                    let v = (y - center.y) / radiusY
                    worst = max(worst, abs((u * u + v * v).squareRoot() - 1) * max(radiusX, radiusY))
                }
                current = point
            case .quadCurve(let point, _):
                current = point
            case .close:
                break
            }
        }
        return worst
    }
}
