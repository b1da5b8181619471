import Motion
import XCTest

@testable import Compositor
@testable import Scenes

/// Gradients beyond paths: shapes filled with one and backdrops tinted by one, each pixel against the gradient's
/// closed form at the pixel's centre mapped back into the frame; and a path's stroke colour animated on its own.
final class GradientPaintTests: XCTestCase {
    private let background = RGBAColor(red: 40 / 255, green: 90 / 255, blue: 160 / 255)

    /// Black at the frame's left edge to white at its right (CAGradientLayer's startPoint (0, ½), endPoint (1, ½)).
    private let ramp = GradientFill(
        Gradient(
            .linear(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0)),
            stops: [.init(offset: 0, color: .black), .init(offset: 1, color: .white)]),
        units: .objectBoundingBox)

    private func render(_ layers: [Layer], scale: Double = 1, threads: Int = 2) throws -> Image {
        try SceneRenderer(threads: threads).render(
            Scene(width: 80, height: 60, scale: scale, background: background, layers: layers))
    }

    private func level(_ value: Double) -> Double { (value * 255).rounded() }

    /// Every pixel whose centre lies at least a point inside the frame against `expected(t, pixel)`, where t is the
    /// pixel centre's x across the frame (0 at its left edge, 1 at its right), within one level.
    private func checkInterior(
        _ drawn: Image, frame: Rect, scale: Double, transform: AffineTransform2D, margin: Double = 1,
        expected: (Double, Pixel) -> (Double, Double, Double), file: StaticString = #filePath, line: UInt = #line
    ) throws {
        // Pixels to the frame's coordinates: the scale undone, then the transform about the frame's centre.
        let (cx, cy) = (frame.x + frame.width / 2, frame.y + frame.height / 2)
        let layerToPoints = AffineTransform2D(translationX: -cx, y: -cy).concatenating(transform)
            .concatenating(AffineTransform2D(translationX: cx, y: cy))
        let pointsToLayer = try XCTUnwrap(layerToPoints.inverted())
        let plain = try render([], scale: scale)[0, 0]
        var checked = 0
        for y in 0..<drawn.height {
            for x in 0..<drawn.width {
                let local = pointsToLayer.apply(to: ((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale))
                guard local.x > frame.x + margin, local.x < frame.x + frame.width - margin,
                    local.y > frame.y + margin, local.y < frame.y + frame.height - margin
                else { continue }
                let t = (local.x - frame.x) / frame.width
                let (red, green, blue) = expected(t, plain)
                let pixel = drawn[x, y]
                let differences = [
                    abs(Double(pixel.red) - red), abs(Double(pixel.green) - green), abs(Double(pixel.blue) - blue),
                ]
                XCTAssertLessThanOrEqual(differences.max()!, 1, "pixel \(x), \(y): \(pixel)", file: file, line: line)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100, file: file, line: line)
    }

    /// A rectangle filled with the ramp: pixel column x of a 40-point frame at scale 1 has t = (x + ½)/40.
    func testALinearGradientFillsARectangleInItsFrame() throws {
        let frame = Rect(x: 10, y: 10, width: 40, height: 30)
        let drawn = try render([.shape(.rectangle(cornerRadius: 0), gradient: ramp, frame: frame)])
        try checkInterior(drawn, frame: frame, scale: 1, transform: .identity, margin: 0) { t, _ in
            (self.level(t), self.level(t), self.level(t))
        }
        XCTAssertEqual(drawn[5, 5], try render([])[5, 5], "outside the frame")
        // Points from the frame's corner: the same ramp written in user space over the frame's width.
        var points = ramp
        (points.units, points.transform) = (.userSpaceOnUse, AffineTransform2D(scaleX: 40, y: 30))
        let same = try render([.shape(.rectangle(cornerRadius: 0), gradient: points, frame: frame)])
        XCTAssertTrue(same.hasSamePixels(as: drawn))
    }

    /// Turned 30°, at scale 2, half opaque over the background: each interior pixel is the ramp at its centre
    /// mapped back into the frame, mixed half and half with the background, within a level.
    func testThroughATransformAndWithOpacity() throws {
        let frame = Rect(x: 20, y: 15, width: 40, height: 30)
        let turn = AffineTransform2D.identity.rotatedBy(.pi / 6)
        let layer = Layer.shape(
            .rectangle(cornerRadius: 6), gradient: ramp, frame: frame, opacity: 0.5, transform: turn)
        let drawn = try render([layer], scale: 2, threads: 3)
        try checkInterior(drawn, frame: frame, scale: 2, transform: turn, margin: 6) { t, under in
            let value = t * 255
            return (
                0.5 * value + 0.5 * Double(under.red), 0.5 * value + 0.5 * Double(under.green),
                0.5 * value + 0.5 * Double(under.blue)
            )
        }
        XCTAssertTrue(drawn.hasSamePixels(as: try render([layer], scale: 2, threads: 1)), "threads")
    }

    /// A capsule (a circle in a square frame) clips the gradient to its outline; its corners stay background.
    func testACapsuleClipsTheGradient() throws {
        let frame = Rect(x: 20, y: 10, width: 40, height: 40)
        let drawn = try render([.shape(.capsule, gradient: ramp, frame: frame)])
        let plain = try render([])[0, 0]
        XCTAssertEqual(drawn[21, 11], plain, "outside the circle, inside the frame")
        XCTAssertEqual(Int(drawn[39, 30].red), Int(level(19.5 / 40)), "the centre column")
    }

    /// A gradient shape animates its opacity and corners as a coloured one; its colours stay (scene files refuse a
    /// colour animation on it).
    func testAGradientShapeAnimatesAsAShape() throws {
        let frame = Rect(x: 10, y: 10, width: 40, height: 30)
        var layer = Layer.shape(.rectangle(cornerRadius: 0), gradient: ramp, frame: frame)
        let timing = AnimationTiming(curve: .linear, duration: 2)
        layer.animations = [
            LayerAnimation(.opacity(Track(from: 0, to: 1)), timing: timing),
            LayerAnimation(.cornerRadius(Track(to: 8)), timing: timing),
            LayerAnimation(.color(Track(to: .white)), timing: timing),
        ]
        let middle = layer.snapshot(at: 1)
        XCTAssertEqual(middle.opacity, 0.5, accuracy: 1e-12)
        guard case .gradientShape(.rectangle(let radius), let fill) = middle.content else { return XCTFail() }
        XCTAssertEqual(radius, 4, accuracy: 1e-12)
        XCTAssertEqual(fill, ramp)
    }

    /// A backdrop over a flat background (whose blur is itself) tinted by a dark fade from the top, as a
    /// CAGradientLayer over a UIVisualEffectView: each row is the untinted material with black at ½·(1 − t) over
    /// it, t down the frame, and then the dim, within a level; `effect` ½ halves the fade as it halves the tints.
    func testAGradientTintsABackdropUnderItsDim() throws {
        let frame = Rect(x: 10, y: 10, width: 60, height: 40)
        let fade = GradientFill(
            Gradient(
                .linear(from: Point(x: 0, y: 0), to: Point(x: 0, y: 1)),
                stops: [
                    .init(offset: 0, color: RGBAColor(white: 0, alpha: 0.5)), .init(offset: 1, color: .clear),
                ]),
            units: .objectBoundingBox)
        for (dim, effect) in [(0.0, 1.0), (0.3, 1.0), (0.0, 0.5)] {
            var material = BackdropMaterial(recipe: Material.regular.recipe(for: .light), effect: effect)
            // Pixel by pixel: the material's dither varies a level from one to the next.
            let untinted = try render([Layer(.backdrop(material), frame: frame)])
            (material.tintGradient, material.dim) = (fade, dim)
            let drawn = try render([Layer(.backdrop(material), frame: frame)])
            for y in 11..<49 {
                let t = (Double(y) + 0.5 - frame.y) / frame.height
                let alpha = 0.5 * (1 - t) * effect
                func expected(_ channel: UInt8) -> Double { Double(channel) * (1 - alpha) * (1 - dim) }
                let pixel = drawn[40, y]
                let under = untinted[40, y]
                XCTAssertEqual(Double(pixel.red), expected(under.red), accuracy: 1, "dim \(dim), row \(y)")
                XCTAssertEqual(Double(pixel.blue), expected(under.blue), accuracy: 1, "dim \(dim), row \(y)")
            }
        }
    }

    /// `strokeColor` changes the outline's colour alone: at the midpoint of a linear animation it is the mean of the
    /// two colours and the fill is untouched, drawn as a still with that colour; `color` still moves the fill only.
    func testTheStrokeColourAnimatesOnItsOwn() throws {
        var shape = VectorShape(try Path(svgPathData: "M20 20 H60 V40 H20 Z"), fill: .white)
        shape.stroke = PathStroke(color: RGBAColor(red: 1, green: 0, blue: 0), style: StrokeStyle(width: 4))
        var layer = Layer.path(shape)
        let timing = AnimationTiming(curve: .linear, duration: 2)
        layer.animations = [
            LayerAnimation(.strokeColor(Track(to: RGBAColor(red: 0, green: 0, blue: 1))), timing: timing)
        ]
        let middle = layer.snapshot(at: 1)
        guard case .path(let half) = middle.content else { return XCTFail() }
        XCTAssertEqual(half.stroke?.color, RGBAColor(red: 0.5, green: 0, blue: 0.5))
        XCTAssertEqual(half.fill, .white)
        var still = shape
        still.stroke?.color = RGBAColor(red: 0.5, green: 0, blue: 0.5)
        XCTAssertTrue(try render([middle]).hasSamePixels(as: try render([.path(still)])))
        XCTAssertEqual(try render([middle])[40, 20], Pixel(red: 128, green: 0, blue: 128), "on the outline")
        // `color` is the fill's, the stroke left red.
        layer.animations = [LayerAnimation(.color(Track(to: .black)), timing: timing)]
        guard case .path(let filled) = layer.snapshot(at: 1).content else { return XCTFail() }
        XCTAssertEqual(filled.fill, RGBAColor(red: 0.5, green: 0.5, blue: 0.5))
        XCTAssertEqual(filled.stroke?.color, RGBAColor(red: 1, green: 0, blue: 0))
    }
}
