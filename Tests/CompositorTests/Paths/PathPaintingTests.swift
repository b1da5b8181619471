import TestSupport
import XCTest

@testable import Compositor

/// `Image.fill(_ path:…)` and `Image.stroke` paint each row of coverage as the rasteriser makes it; these hold
/// them to the two-step route they replace (the coverage plane, then `fill(_:mask:…)`), bit for bit, with every
/// operator family, opacity, working space, kernel set, a path cut by the image's edges and both thread counts.
final class PathPaintingTests: XCTestCase {
    /// A photo-like canvas with transparent and translucent pixels, so every operator has something to mix.
    private func canvas(width: Int = 97, height: Int = 83, seed: UInt64 = 7) -> Image {
        let image = Image(width: width, height: height)
        var random = SeededGenerator(seed: seed)
        for y in 0..<height {
            for x in 0..<width {
                let alpha = UInt8.random(in: 0...255, using: &random)
                func channel() -> UInt8 { UInt8.random(in: 0...alpha, using: &random) }
                image[x, y] = Pixel(red: channel(), green: channel(), blue: channel(), alpha: alpha)
            }
        }
        return image
    }

    private func shapes() -> [(name: String, path: Path, transform: AffineTransform2D)] {
        let star = PathTestSupport.star(points: 7, step: 3, center: Point(x: 40, y: 38), radius: 37)
        var rings = Path()
        rings.addEllipse(in: Rect(x: 10, y: 12, width: 70, height: 60))
        rings.addEllipse(in: Rect(x: 25, y: 27, width: 40, height: 30))
        // Cut by every side of the canvas.
        let overhang = AffineTransform2D(a: 1.6, b: 0.3, c: -0.2, d: 1.4, tx: -20, ty: -15)
        return [("star", star, .identity), ("rings", rings, .identity), ("star-overhang", star, overhang)]
    }

    private func assertSame(
        _ painted: Image, _ twoStep: Image, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var differing = 0
        for y in 0..<painted.height {
            for x in 0..<painted.width where painted[x, y] != twoStep[x, y] { differing += 1 }
        }
        XCTAssertEqual(differing, 0, "\(what): \(differing) pixels differ", file: file, line: line)
    }

    func testFillPaintsTheCoveragePlaneBitForBit() throws {
        let color = RGBAColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)
        let cases: [(CompositeOperator, Double, WorkingSpace)] = [
            (.sourceOver, 1, .srgb), (.sourceOver, 0.55, .srgb), (.multiply, 0.7, .srgb), (.sourceIn, 1, .srgb),
            (.copy, 1, .srgb), (.luminosity, 0.9, .srgb), (.sourceOver, 0.8, .linear),
        ]
        for (name, path, transform) in shapes() {
            for rule in FillRule.allCases {
                for (op, opacity, space) in cases {
                    for threads in [1, 2] {
                        let painted = canvas()
                        painted.fill(
                            path, color: color, rule: rule, transform: transform, operator: op, opacity: opacity,
                            space: space, threads: threads)
                        let twoStep = canvas()
                        let clip = PixelBox(x: 0, y: 0, width: twoStep.width, height: twoStep.height)
                        let (box, mask) = try XCTUnwrap(
                            Coverage.path(path, rule: rule, through: transform, within: clip, threads: threads))
                        twoStep.fill(
                            color, mask: mask, x: box.x, y: box.y, operator: op, opacity: opacity, space: space,
                            threads: threads)
                        assertSame(painted, twoStep, "\(name) \(rule) \(op) \(opacity) \(space) \(threads) threads")
                    }
                }
            }
        }
    }

    func testStrokePaintsTheCoveragePlaneBitForBit() throws {
        let color = RGBAColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)
        let styles = [
            StrokeStyle(width: 3, cap: .round, join: .round), StrokeStyle(width: 0),
            try StrokeStyle(width: 5, cap: .square, join: .miter).dashed([6, 3], phase: 1),
        ]
        for (name, path, transform) in shapes() {
            for style in styles {
                for op in [CompositeOperator.sourceOver, .screen] {
                    let painted = canvas()
                    painted.stroke(path, style: style, color: color, transform: transform, operator: op, opacity: 0.9)
                    let twoStep = canvas()
                    let clip = PixelBox(x: 0, y: 0, width: twoStep.width, height: twoStep.height)
                    let (box, mask) = try XCTUnwrap(
                        Coverage.stroke(path, style: style, through: transform, within: clip))
                    twoStep.fill(color, mask: mask, x: box.x, y: box.y, operator: op, opacity: 0.9)
                    assertSame(painted, twoStep, "\(name) width \(style.width) \(op)")
                }
            }
        }
    }

    /// A shape running off the canvas's right side covers its rows to the edge though no edge of it lies there
    /// (the part right of the canvas is dropped): the painted rows must be filled to the edge, whatever an
    /// earlier path left in the rasteriser's row buffers (a narrow shape first, then the wide one).
    func testRowsRunningOffTheRightSideAreFilledToTheEdge() throws {
        var narrow = Path()
        narrow.addRect(Rect(x: 1, y: 1, width: 3, height: 80))
        var wide = Path()
        wide.addRect(Rect(x: 10, y: 5, width: 2000, height: 60))
        let wedge = PathTestSupport.star(points: 3, step: 1, center: Point(x: 120, y: 40), radius: 100)
        for path in [wide, wedge] {
            let painted = canvas()
            painted.fill(narrow, color: .black, threads: 1)
            painted.fill(path, color: .white, threads: 1)
            let twoStep = canvas()
            twoStep.fill(narrow, color: .black, threads: 1)
            let clip = PixelBox(x: 0, y: 0, width: twoStep.width, height: twoStep.height)
            let (box, mask) = try XCTUnwrap(Coverage.path(path, rule: .nonZero, through: .identity, within: clip))
            twoStep.fill(.white, mask: mask, x: box.x, y: box.y)
            assertSame(painted, twoStep, "off the right side")
        }
    }

    /// A box large enough for the rasteriser's threads gives the same bytes on one and on two.
    func testLargePathOnThreadsMatchesOneThread() {
        // Above the rasteriser's threading threshold (2¹⁷ pixels of box).
        let star = PathTestSupport.star(points: 11, step: 4, center: Point(x: 300, y: 260), radius: 250)
        let one = canvas(width: 620, height: 540, seed: 3)
        one.fill(star, color: .white, opacity: 0.7, threads: 1)
        let two = canvas(width: 620, height: 540, seed: 3)
        two.fill(star, color: .white, opacity: 0.7, threads: 2)
        assertSame(one, two, "threads")
    }
}
