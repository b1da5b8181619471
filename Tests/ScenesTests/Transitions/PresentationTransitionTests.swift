import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// The iOS 13 card sheet and the navigation push, on solid screens where every pixel's value follows from the
/// reimplementations' constants in closed form (SPStorkController's for the sheet, LazyBackSwiper's for the push).
final class PresentationTransitionTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 390, height: 844)
    private let oldColor = RGBAColor(red: 200 / 255, green: 100 / 255, blue: 40 / 255)
    private let newColor = RGBAColor(red: 20 / 255, green: 120 / 255, blue: 220 / 255)

    private func render(_ transition: LayerTransition, at time: Double) throws -> Image {
        let layer = transition.layer(from: .color(oldColor), to: .color(newColor), in: bounds)
        let scene = Scene(width: 390, height: 844, scale: 1, background: .black, layers: [layer])
        return try SceneRenderer(threads: 2).render(scene.snapshot(at: time))
    }

    private func pixel(_ color: RGBAColor, dimmedBy dim: Double = 0) -> Pixel {
        func channel(_ value: Double) -> UInt8 { UInt8((value * 255 * (1 - dim)).rounded()) }
        return Pixel(red: channel(color.red), green: channel(color.green), blue: channel(color.blue))
    }

    private func assertClose(_ a: Pixel, _ b: Pixel, _ message: String, line: UInt = #line) {
        for (x, y) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)] {
            XCTAssertLessThanOrEqual(abs(Int(x) - Int(y)), 1, "\(message): \(a) against \(b)", line: line)
        }
    }

    /// Presented: the old screen scaled by 1 − 2·47/844 about its centre (so its top comes down to 47 pt, its sides
    /// in by 195·(1 − s)), corners rounded 10 pt and 0.51 black over it; the card from 60 pt down, top corners
    /// rounded 10 pt; black around. At the start, the old screen alone.
    func testThePageSheetEndsAsACardOverTheShrunkScreen() throws {
        let sheet = LayerTransition(.pageSheet(presenting: true))
        let start = try render(sheet, at: 0)
        XCTAssertEqual(start[195, 400], pixel(oldColor))
        XCTAssertEqual(start[2, 2], pixel(oldColor), "not yet rounded or shrunk")
        let end = try render(sheet, at: sheet.endTime)
        let scale = 1 - 2 * 47.0 / 844
        let left = 195 * (1 - scale)
        XCTAssertEqual(left, 21.72, accuracy: 0.01)
        XCTAssertEqual(end[Int(left) - 2, 52], Pixel(red: 0, green: 0, blue: 0), "left of the shrunk screen")
        XCTAssertEqual(end[100, 44], Pixel(red: 0, green: 0, blue: 0), "above it")
        assertClose(end[100, 53], pixel(oldColor, dimmedBy: 0.51), "the shrunk screen under its dim")
        // Its rounded corner: the corner pixel itself is outside the 10 pt arc.
        XCTAssertEqual(end[22, 47], Pixel(red: 0, green: 0, blue: 0), "cut by the corner")
        assertClose(end[22 + 10, 47 + 10], pixel(oldColor, dimmedBy: 0.51), "inside the corner")
        // The card from y = 60, its top corners rounded, its bottom edge square.
        XCTAssertEqual(end[195, 61], pixel(newColor))
        XCTAssertEqual(end[195, 843], pixel(newColor))
        XCTAssertEqual(end[0, 843], pixel(newColor), "no rounding at the bottom")
        XCTAssertNotEqual(end[0, 60], pixel(newColor), "the card's top corner is cut")
        XCTAssertEqual(end[12, 70], pixel(newColor))
        // Dismissing ends where presenting began, and starts where presenting ended.
        let dismiss = LayerTransition(.pageSheet(presenting: false))
        let layer = dismiss.layer(from: .color(newColor), to: .color(oldColor), in: bounds)
        let scene = Scene(width: 390, height: 844, scale: 1, background: .black, layers: [layer])
        let renderer = SceneRenderer(threads: 2)
        XCTAssertTrue(try renderer.render(scene.snapshot(at: dismiss.endTime)).hasSamePixels(as: start))
        XCTAssertTrue(try renderer.render(scene.snapshot(at: 0)).hasSamePixels(as: end))
    }

    /// A clipped group (`clipCornerRadius`) draws what a rounded rectangle of its frame covers: a solid colour in
    /// it equals the rounded shape, whose coverage has its own tests; rotated too.
    func testAClippedGroupEqualsTheRoundedShape() throws {
        let frame = Rect(x: 30.5, y: 40.25, width: 120, height: 90)
        for transform in [AffineTransform2D.identity, AffineTransform2D.identity.rotatedBy(0.3)] {
            var group = Layer.group(
                [.color(newColor, frame: Rect(x: -20, y: -20, width: 400, height: 400))], frame: frame)
            group.clipCornerRadius = 14
            group.transform = transform
            var shape = Layer.shape(.rectangle(cornerRadius: 14), color: newColor, frame: frame)
            shape.transform = transform
            let renderer = SceneRenderer(threads: 1)
            let scene = { (layer: Layer) in
                Scene(width: 200, height: 200, scale: 2, background: .black, layers: [layer])
            }
            XCTAssertTrue(try renderer.render(scene(group)).hasSamePixels(as: try renderer.render(scene(shape))))
        }
    }

    /// Half way through a push (ease-in-out is exactly 0.5 at half its time): the new screen's left edge at half
    /// the width, the old one 0.3 × 0.5 of the width to the left under 0.5 × 0.5 black. A pop at its half is the
    /// same picture; each ends with the other screen alone.
    func testThePushSlidesTheNewScreenOverTheDimmedOldOne() throws {
        let push = LayerTransition(.navigationPush(forward: true))
        XCTAssertEqual(push.timing.duration, 0.3)
        let half = try render(push, at: 0.15)
        assertClose(half[100, 400], pixel(oldColor, dimmedBy: 0.25), "the old screen, dimmed")
        XCTAssertEqual(half[194, 400], pixel(oldColor, dimmedBy: 0.25))
        XCTAssertEqual(half[196, 400], pixel(newColor))
        // The old screen's right edge has moved 58.5 pt left, under the new screen.
        XCTAssertEqual(half[389, 400], pixel(newColor))
        XCTAssertEqual(try render(push, at: 0.3)[10, 10], pixel(newColor))
        XCTAssertEqual(try render(push, at: 0)[389, 10], pixel(oldColor))
        let pop = LayerTransition(.navigationPush(forward: false))
        let popped = pop.layer(from: .color(newColor), to: .color(oldColor), in: bounds)
        let scene = Scene(width: 390, height: 844, scale: 1, background: .black, layers: [popped])
        let renderer = SceneRenderer(threads: 2)
        XCTAssertTrue(try renderer.render(scene.snapshot(at: 0.15)).hasSamePixels(as: half))
        XCTAssertEqual(try renderer.render(scene.snapshot(at: 0.3))[389, 10], pixel(oldColor))
    }
}
