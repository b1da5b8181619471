import XCTest

@testable import Compositor

/// Gradients against SVG's definitions written out here: the linear projection, the radial circle through the
/// point (and its focal point), stops clamped and ordered, the three spread methods, straight interpolation.
final class GradientTests: XCTestCase {
    private let black = RGBAColor(red: 0, green: 0, blue: 0)
    private let white = RGBAColor(red: 1, green: 1, blue: 1)

    private func ramp(_ geometry: Gradient.Geometry, spread: Gradient.Spread = .pad) -> Gradient {
        Gradient(geometry, stops: [.init(offset: 0, color: black), .init(offset: 1, color: white)], spread: spread)
    }

    /// Black to white across 256 pixels: pixel x has t = (x + ½)/256 at its centre.
    func testALinearRampAcrossAnImage() {
        let image = Image(width: 256, height: 4, fill: .transparent)
        image.fill(
            ramp(.linear(from: Point(x: 0, y: 0), to: Point(x: 256, y: 0))),
            mask: Plane(width: 256, height: 4, fill: 255), x: 0, y: 0, transform: .identity, threads: 3)
        for x in [0, 1, 100, 127, 128, 255] {
            let value = UInt8((255 * (Double(x) + 0.5) / 256).rounded())
            XCTAssertEqual(image[x, 2], Pixel(red: value, green: value, blue: value), "x = \(x)")
        }
        // The same bytes on one thread, and through a transform: the gradient's space scaled 2× into pixels.
        let one = Image(width: 256, height: 4, fill: .transparent)
        one.fill(
            ramp(.linear(from: Point(x: 0, y: 0), to: Point(x: 128, y: 0))),
            mask: Plane(width: 256, height: 4, fill: 255), x: 0, y: 0,
            transform: AffineTransform2D(scaleX: 2, y: 2), threads: 1)
        XCTAssertTrue(one.hasSamePixels(as: image))
    }

    /// Past the ends: pad holds them, repeat starts again, reflect runs back.
    func testSpreadMethods() {
        let line = Gradient.Geometry.linear(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0))
        for (spread, expected) in [
            (Gradient.Spread.pad, [0.0, 1, 1]), (.repeat, [0.75, 0.25, 0.5]), (.reflect, [0.25, 0.75, 0.5]),
        ] {
            let gradient = ramp(line, spread: spread)
            for (x, value) in zip([-0.25, 1.25, 2.5], expected) {
                let t = gradient.spread(gradient.parameter(at: Point(x: x, y: 7))!)
                XCTAssertEqual(t, value, accuracy: 1e-12, "\(spread) at \(x)")
            }
        }
    }

    /// A radial gradient is 0 at the centre and 1 on the circle, the distance over the radius between; with a focal
    /// point, 0 there and still 1 on the circle.
    func testRadialParameterIsTheDistanceRatioAndTheFocusMovesZero() {
        let centred = ramp(.radial(center: Point(x: 10, y: 20), radius: 8, focus: nil))
        XCTAssertEqual(centred.parameter(at: Point(x: 10, y: 20))!, 0, accuracy: 1e-12)
        XCTAssertEqual(centred.parameter(at: Point(x: 13, y: 24))!, 5.0 / 8, accuracy: 1e-12)
        let focal = ramp(.radial(center: Point(x: 0, y: 0), radius: 10, focus: Point(x: 4, y: 0)))
        XCTAssertEqual(focal.parameter(at: Point(x: 4, y: 0))!, 0, accuracy: 1e-12)
        for angle in stride(from: 0.0, to: 6.28, by: 0.5) {
            XCTAssertEqual(focal.parameter(at: Point(x: 10 * cos(angle), y: 10 * sin(angle)))!, 1, accuracy: 1e-9)
        }
        // Half way from the focus to the circle along the axis: t = ½.
        XCTAssertEqual(focal.parameter(at: Point(x: 7, y: 0))!, 0.5, accuracy: 1e-12)
        XCTAssertEqual(focal.parameter(at: Point(x: -3, y: 0))!, 0.5, accuracy: 1e-12)
    }

    /// Stops as SVG reads them: offsets clamped and never decreasing, a hard edge where two share an offset,
    /// interpolation of straight components.
    func testStopsAreClampedOrderedAndInterpolatedStraight() {
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let clearBlue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 0)
        let gradient = Gradient(
            .linear(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0)),
            stops: [
                .init(offset: -1, color: red), .init(offset: 0.5, color: white), .init(offset: 0.2, color: black),
                .init(offset: 2, color: clearBlue),
            ])
        XCTAssertEqual(gradient.color(at: 0), red)
        XCTAssertEqual(gradient.color(at: 0.25), RGBAColor(red: 1, green: 0.5, blue: 0.5))
        XCTAssertEqual(gradient.color(at: 0.5), white, "the later stop moved up to 0.5: a hard edge after it")
        XCTAssertEqual(gradient.color(at: 0.75), RGBAColor(red: 0, green: 0, blue: 0.5, alpha: 0.5))
        XCTAssertEqual(gradient.pixel(at: Point(x: 0.75, y: 0)), Pixel(red: 0, green: 0, blue: 64, alpha: 128))
        // Degenerate geometry paints the last stop.
        let point = Gradient(.linear(from: Point(x: 1, y: 1), to: Point(x: 1, y: 1)), stops: gradient.stops)
        XCTAssertEqual(point.pixel(at: Point(x: 5, y: 5)), Pixel(red: 0, green: 0, blue: 0, alpha: 0))
    }
}
