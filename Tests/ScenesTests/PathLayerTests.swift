import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// Path layers (`Layer.Content.path`): placed by the frame and the view box, filled by their rule, their colour
/// animated; the pixels against closed forms (axis-aligned squares are exact rectangles) and the compositor's own
/// path fill with the mapping written out here.
final class PathLayerTests: XCTestCase {
    // Whole bytes: a channel of x.5 would round either way in the masked and unmasked fills.
    private let background = RGBAColor(red: 26 / 255, green: 51 / 255, blue: 77 / 255)
    private let ink = RGBAColor(red: 230 / 255, green: 128 / 255, blue: 26 / 255)

    private func render(_ layers: [Layer], scale: Double = 1, threads: Int = 1) throws -> Image {
        try SceneRenderer(threads: threads).render(
            Scene(width: 80, height: 60, scale: scale, background: background, layers: layers))
    }

    private func square(_ side: Double, at origin: Double = 0) throws -> Path {
        try Path(svgPathData: "M\(origin) \(origin) h\(side) v\(side) h-\(side) z")
    }

    /// A 24-unit square in a 24 × 24 view box drawn into a 48 × 48 frame is the colour over that frame, exactly.
    func testAViewBoxScalesThePathIntoTheFrame() throws {
        let frame = Rect(x: 10, y: 6, width: 48, height: 48)
        let shape = VectorShape(try square(24), viewBox: Rect(x: 0, y: 0, width: 24, height: 24), fill: ink)
        let drawn = try render([.path(shape, frame: frame)], scale: 1)
        XCTAssertTrue(drawn.hasSamePixels(as: try render([.color(ink, frame: frame)], scale: 1)))
        // A wide frame: the box is scaled to its height and centred across (xMidYMid meet).
        let wide = Rect(x: 0, y: 0, width: 80, height: 40)
        let centred = try render([.path(shape, frame: wide)], scale: 1)
        XCTAssertTrue(
            centred.hasSamePixels(as: try render([.color(ink, frame: Rect(x: 20, y: 0, width: 40, height: 40))])))
        // Without a view box, path units are points from the frame's corner (at scale 2, two pixels each).
        let plain = try render([.path(VectorShape(try square(10), fill: ink), frame: frame)], scale: 2)
        let expected = try render([.color(ink, frame: Rect(x: 10, y: 6, width: 10, height: 10))], scale: 2)
        XCTAssertTrue(plain.hasSamePixels(as: expected))
    }

    /// Even-odd leaves the inner square's hole; non-zero with both squares wound alike fills it.
    func testTheFillRuleDecidesTheHole() throws {
        let holed = try Path(svgPathData: "M10 10 h40 v40 h-40 z M20 20 h20 v20 h-20 z")
        let evenOdd = try render([.path(VectorShape(holed, fill: ink, fillRule: .evenOdd))])
        let nonZero = try render([.path(VectorShape(holed, fill: ink, fillRule: .nonZero))])
        let inkPixel = try render([.color(ink)])[0, 0]
        let backgroundPixel = try render([])[0, 0]
        XCTAssertEqual(evenOdd[30, 30], backgroundPixel)
        XCTAssertEqual(nonZero[30, 30], inkPixel)
        XCTAssertEqual(evenOdd[15, 15], inkPixel)
        XCTAssertEqual(evenOdd[5, 5], backgroundPixel)
    }

    /// Rotated and scaled, the layer equals the compositor's path fill with the mapping written out: the frame's
    /// corner, the layer transform about the frame's centre, the scene's scale.
    func testTheLayerTransformAndScaleMapThePath() throws {
        let star = try Path(svgPathData: "M10 0 L12 7 L20 7 L14 12 L16 20 L10 15 L4 20 L6 12 L0 7 L8 7 Z")
        let frame = Rect(x: 20, y: 10, width: 20, height: 20)
        var layer = Layer.path(VectorShape(star, fill: ink), frame: frame)
        layer.transform = AffineTransform2D.identity.rotatedBy(0.4)
        let drawn = try render([layer], scale: 2, threads: 3)
        let expected = Image(width: 160, height: 120, fill: try render([], scale: 2)[0, 0])
        let mapping = AffineTransform2D(translationX: 20, y: 10)
            .concatenating(AffineTransform2D(translationX: -30, y: -20))
            .concatenating(AffineTransform2D.identity.rotatedBy(0.4))
            .concatenating(AffineTransform2D(translationX: 30, y: 20))
            .concatenating(AffineTransform2D(scaleX: 2, y: 2))
        expected.fill(star, color: ink, transform: mapping, threads: 1)
        XCTAssertTrue(drawn.hasSamePixels(as: expected))
    }

    /// The fill colour animates as a shape's does; `fill: nil` draws nothing.
    func testTheFillAnimatesAndNoneDrawsNothing() throws {
        var layer = Layer.path(VectorShape(try square(30), fill: .black))
        layer.animations = [
            LayerAnimation(.color(Track(to: .white)), timing: AnimationTiming(curve: .linear, duration: 1))
        ]
        guard case .path(let half) = layer.snapshot(at: 0.5).content else { return XCTFail() }
        XCTAssertEqual(half.fill, RGBAColor(red: 0.5, green: 0.5, blue: 0.5))
        let none = try render([.path(VectorShape(try square(30), fill: nil))])
        XCTAssertTrue(none.hasSamePixels(as: try render([])))
        XCTAssertEqual(SceneRenderer().cost(of: Scene(width: 80, height: 60, layers: [layer])).work > 1000, true)
    }

    /// A gradient fill in the bounding box's units: across a 40-point square at scale 1 from black to white, pixel
    /// column x of the square has t = (x + ½)/40 at its centre.
    func testAGradientFillSpansTheBoundingBox() throws {
        let ramp = Gradient(
            .linear(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0)),
            stops: [.init(offset: 0, color: .black), .init(offset: 1, color: .white)])
        var shape = VectorShape(try square(40, at: 10), fill: nil)
        shape.gradient = GradientFill(ramp, transform: AffineTransform2D(a: 40, b: 0, c: 0, d: 40, tx: 10, ty: 10))
        let drawn = try render([.path(shape)], threads: 2)
        for x in [0, 13, 20, 39] {
            let value = UInt8((255 * (Double(x) + 0.5) / 40).rounded())
            XCTAssertEqual(drawn[10 + x, 30], Pixel(red: value, green: value, blue: value), "column \(x)")
        }
        XCTAssertEqual(drawn[5, 30], try render([])[5, 30], "outside the path")
    }

    /// A stroke is drawn over the fill as the compositor's stroke with the layer's mapping; `strokeEnd` ½ of a
    /// straight line strokes its first half (a butt-capped bar of half the length), and it animates.
    func testAStrokeOverTheFillAndItsEnd() throws {
        let line = try Path(svgPathData: "M10 30 H70")
        var shape = VectorShape(line, fill: nil)
        shape.stroke = PathStroke(color: ink, style: StrokeStyle(width: 8))
        let frame = Rect(x: 0, y: 0, width: 80, height: 60)
        let whole = try render([.path(shape, frame: frame)], scale: 2, threads: 3)
        XCTAssertTrue(whole.hasSamePixels(as: try render([.color(ink, frame: Rect(x: 10, y: 26, width: 60, height: 8))], scale: 2)))
        shape.strokeEnd = 0.5
        let half = try render([.path(shape, frame: frame)], scale: 2)
        XCTAssertTrue(half.hasSamePixels(as: try render([.color(ink, frame: Rect(x: 10, y: 26, width: 30, height: 8))], scale: 2)))
        // Over a fill, with the compositor's own stroke for a curve.
        var ring = VectorShape(try Path(svgPathData: "M40 10 A20 20 0 1 1 39.99 10 Z"), fill: .white)
        ring.stroke = PathStroke(color: ink, style: StrokeStyle(width: 3, join: .round))
        let drawn = try render([.path(ring)], threads: 2)
        let expected = Image(width: 80, height: 60, fill: try render([])[0, 0])
        expected.fill(ring.path, color: .white, threads: 1)
        expected.stroke(ring.path, style: ring.stroke!.style, color: ink, threads: 1)
        XCTAssertTrue(drawn.hasSamePixels(as: expected))
        // strokeEnd animates, as CAShapeLayer's does.
        var drawing = Layer.path(shape)
        drawing.animations = [
            LayerAnimation(.strokeEnd(Track(from: 0, to: 1)), timing: AnimationTiming(curve: .linear, duration: 2))
        ]
        guard case .path(let quarter) = drawing.snapshot(at: 0.5).content else { return XCTFail() }
        XCTAssertEqual(quarter.strokeEnd, 0.25, accuracy: 1e-12)
    }

    /// `trimmed(to:)` cuts by length across subpaths; a closed one cut short stays open.
    func testTrimmingByLength() throws {
        let two = try Path(svgPathData: "M0 0 H10 M0 5 H30")
        XCTAssertEqual(two.trimmed(to: 0.5, tolerance: 0.01), try Path(svgPathData: "M0 0 H10 M0 5 H10"))
        XCTAssertEqual(two.trimmed(to: 0, tolerance: 0.01), Path())
        XCTAssertEqual(two.trimmed(to: 1, tolerance: 0.01), two)
        let square = try Path(svgPathData: "M0 0 H10 V10 H0 Z")
        XCTAssertEqual(square.trimmed(to: 0.5, tolerance: 0.01), try Path(svgPathData: "M0 0 H10 V10"))
    }
}
