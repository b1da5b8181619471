import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// The scene renderer's side of text layers, with a stand-in typesetter: whatever typesets the text, the
/// renderer hands it the frame's coordinates mapped to the mask, draws it where its ink lies (also outside the
/// frame), and fills the coverage with the layer's colour, opacity and operator.
final class TextLayerTests: XCTestCase {
    /// "Text" whose ink is one rectangle in frame coordinates, covered fully at every pixel centre inside it;
    /// it records the transforms it is drawn through.
    private final class BlockText: TypesetText, @unchecked Sendable {
        let block: Rect
        private let lock = Locked<[AffineTransform2D]>([])
        var transforms: [AffineTransform2D] { lock.withLock { $0 } }

        init(_ block: Rect) { self.block = block }

        func inkBounds(frameWidth width: Double, height: Double) -> Rect? { block }

        func addCoverage(
            frameWidth width: Double, height: Double, through transform: AffineTransform2D, into mask: Plane
        ) {
            lock.withLock { $0.append(transform) }
            guard let inverse = transform.inverted() else { return }
            for y in 0..<mask.height {
                for x in 0..<mask.width {
                    let p = inverse.apply(to: (Double(x) + 0.5, Double(y) + 0.5))
                    let inside =
                        p.x >= block.x && p.x < block.x + block.width && p.y >= block.y
                        && p.y < block.y + block.height
                    if inside { mask[x, y] = 255 }
                }
            }
        }
    }

    private let red = RGBAColor(red: 1, green: 0, blue: 0)

    func testTextIsDrawnInFrameCoordinatesAtTheScenesScale() throws {
        let text = BlockText(Rect(x: 1, y: 1, width: 4, height: 3))
        let scene = Scene(
            width: 20, height: 20, scale: 2,
            layers: [.text(text, color: red, frame: Rect(x: 10, y: 5, width: 8, height: 6))])
        let canvas = try SceneRenderer(threads: 1).render(scene)
        // The block covers points (11…15, 6…9), pixels 22..<30 across and 12..<18 down.
        for y in 0..<40 {
            for x in 0..<40 {
                let inside = (22..<30).contains(x) && (12..<18).contains(y)
                XCTAssertEqual(canvas[x, y], inside ? Pixel(red: 255, green: 0, blue: 0) : .transparent, "(\(x), \(y))")
            }
        }
        // The mask starts at the ink's first pixel: the frame's origin (10, 5) is (20, 10) px, the mask's (-2, -2).
        XCTAssertEqual(text.transforms, [AffineTransform2D(a: 2, b: 0, c: 0, d: 2, tx: -2, ty: -2)])
    }

    func testInkOutsideTheFrameIsDrawnAndMarksTheIsolatedGroupsPicture() throws {
        // A label that overflows its frame to the left and below, inside a half-transparent group.
        let text = BlockText(Rect(x: -4, y: 2, width: 10, height: 6))
        let group = Layer.group(
            [.text(text, color: red, frame: Rect(x: 6, y: 2, width: 4, height: 4))], opacity: 0.5)
        let canvas = try SceneRenderer(threads: 1).render(Scene(width: 16, height: 12, layers: [group]))
        XCTAssertEqual(canvas[2, 4].alpha, 128, "left of the frame")
        XCTAssertEqual(canvas[7, 9].alpha, 128, "below the frame")
        XCTAssertEqual(canvas[12, 4], .transparent)
    }

    func testRotatedTextGetsTheRotationItIsSeenThrough() throws {
        let text = BlockText(Rect(x: 0, y: 0, width: 10, height: 2))
        let layer = Layer.text(
            text, color: red, frame: Rect(x: 5, y: 5, width: 10, height: 10),
            transform: AffineTransform2D(rotationAngle: .pi / 2))
        let canvas = try SceneRenderer(threads: 1).render(Scene(width: 20, height: 20, layers: [layer]))
        let transform = try XCTUnwrap(text.transforms.first)
        XCTAssertEqual(transform.a, 0, accuracy: 1e-12)
        XCTAssertEqual(transform.b, 1, accuracy: 1e-12)
        // The bar along the frame's top edge, turned a quarter about the frame's centre, stands at its right.
        XCTAssertEqual(canvas[14, 10].alpha, 255)
        XCTAssertEqual(canvas[10, 6], .transparent)
    }

    func testTextColourAnimates() throws {
        let text = BlockText(Rect(x: 0, y: 0, width: 4, height: 4))
        var layer = Layer.text(text, color: .clear, frame: Rect(x: 0, y: 0, width: 4, height: 4))
        layer.animations = [
            LayerAnimation(
                .color(Track(from: RGBAColor(red: 0, green: 0, blue: 0), to: RGBAColor(red: 1, green: 1, blue: 1))),
                timing: AnimationTiming(curve: .linear, duration: 1))
        ]
        let middle = Scene(width: 4, height: 4, layers: [layer]).snapshot(at: 0.5)
        guard case .text(_, let color) = middle.layers[0].content else { return XCTFail("not text any more") }
        XCTAssertEqual(color.red, 0.5, accuracy: 1e-9)
    }

    func testEmptyTextDrawsNothingAndCostsNothing() throws {
        final class Empty: TypesetText {
            func inkBounds(frameWidth width: Double, height: Double) -> Rect? { nil }
            func addCoverage(frameWidth: Double, height: Double, through: AffineTransform2D, into mask: Plane) {
                XCTFail("empty text asked to draw")
            }
        }
        let scene = Scene(width: 8, height: 8, layers: [.text(Empty(), frame: Rect(x: 0, y: 0, width: 8, height: 8))])
        let canvas = try SceneRenderer(threads: 1).render(scene)
        XCTAssertTrue(canvas.hasSamePixels(as: Image(width: 8, height: 8)))
    }
}
