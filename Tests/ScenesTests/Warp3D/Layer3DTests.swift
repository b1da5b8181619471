import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

final class Layer3DTests: XCTestCase {
    private let photo = TestImages.photoLike(width: 60, height: 40, seed: 4)
    private let card = Rect(x: 20, y: 12, width: 60, height: 40)
    private let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)

    private func render(_ layers: [Layer], threads: Int = 2, scale: Double = 2) -> Image {
        try! SceneRenderer(threads: threads).render(
            Scene(width: 100, height: 64, scale: scale, background: background, layers: layers))
    }

    private func cardLayer(_ transform3D: Transform3D?, doubleSided: Bool = true) -> Layer {
        var layer = Layer.image(photo, frame: card, filter: .bilinear)
        layer.transform3D = transform3D
        layer.isDoubleSided = doubleSided
        return layer
    }

    private func turn(_ degrees: Double, eye: Double = 300) -> Transform3D {
        Transform3D.rotation(angle: degrees * .pi / 180, x: 0, y: 1, z: 0).concatenating(.perspective(eyeDistance: eye))
    }

    func testAffineThreeDTransformsAreTheTwoDPathToTheBit() {
        let plain = render([Layer.image(photo, frame: card, filter: .bilinear)])
        XCTAssertTrue(render([cardLayer(nil)]).hasSamePixels(as: plain))
        XCTAssertTrue(render([cardLayer(.identity)]).hasSamePixels(as: plain))
        XCTAssertTrue(render([cardLayer(.perspective(eyeDistance: 500))]).hasSamePixels(as: plain))
        let affine = try! AffineTransform2D(parsing: "rotate(20deg) scale(0.7, 1.2)")
        var twoD = Layer.image(photo, frame: card, filter: .bilinear)
        twoD.transform = affine
        XCTAssertTrue(render([cardLayer(Transform3D(affine))]).hasSamePixels(as: render([twoD])))
    }

    func testEdgeOnShowsNothingAndBackFacesHideUnlessDoubleSided() {
        let empty = render([])
        XCTAssertTrue(render([cardLayer(turn(90))]).hasSamePixels(as: empty), "exactly 90°")
        XCTAssertTrue(render([cardLayer(turn(-90))]).hasSamePixels(as: empty), "exactly −90°")
        XCTAssertFalse(render([cardLayer(turn(89))]).hasSamePixels(as: empty), "89° still shows a sliver")
        XCTAssertTrue(render([cardLayer(turn(120), doubleSided: false)]).hasSamePixels(as: empty))
        XCTAssertTrue(render([cardLayer(turn(180), doubleSided: false)]).hasSamePixels(as: empty))
        XCTAssertFalse(render([cardLayer(turn(120))]).hasSamePixels(as: empty))
        // Double-sided and turned half way round, the card shows mirrored: its left column on the right.
        let mirrored = render([cardLayer(turn(180))], scale: 1)
        let upright = render([cardLayer(nil)], scale: 1)
        XCTAssertEqual(mirrored[20 + 59, 30], upright[20, 30])
        XCTAssertTrue(render([cardLayer(turn(60), doubleSided: false)]).hasSamePixels(as: render([cardLayer(turn(60))])))
    }

    func testPerspectiveCardStaysInsideItsBoxAndIsCosted() {
        let turned = render([cardLayer(turn(35))])
        let empty = render([])
        let renderer = SceneRenderer()
        let layer = cardLayer(turn(35))
        let placement = Placement(
            transform: AffineTransform2D(scaleX: 2, y: 2), bounds: Rect(x: 0, y: 0, width: 100, height: 64),
            width: 200, height: 128)
        let box = renderer.pixelBox(of: layer, in: placement)!
        var changed = 0
        for y in 0..<128 {
            for x in 0..<200 where turned[x, y] != empty[x, y] {
                changed += 1
                XCTAssertTrue(
                    x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height, "\((x, y)) in \(box)")
            }
        }
        XCTAssertGreaterThan(changed, 3000)
        // The middle column keeps the card's middle; the receding right side is narrower than the near left.
        let scene = Scene(width: 100, height: 64, scale: 2, background: background, layers: [layer])
        let flatScene = Scene(width: 100, height: 64, scale: 2, background: background, layers: [cardLayer(nil)])
        XCTAssertGreaterThan(renderer.cost(of: scene).work, renderer.cost(of: flatScene).work)
        XCTAssertGreaterThan(renderer.cost(of: scene).peakBytes, renderer.cost(of: flatScene).peakBytes)
    }

    func testSameForEveryThreadCountAndGroupsTurnAsOne() {
        var group = Layer.group([cardLayer(nil), .color(.white, frame: Rect(x: 30, y: 20, width: 10, height: 10))])
        group.transform3D = turn(40, eye: 200)
        group.opacity = 0.8
        let one = render([group], threads: 1)
        XCTAssertTrue(render([group], threads: 3).hasSamePixels(as: one))
        XCTAssertFalse(one.hasSamePixels(as: render([])))
    }

    func testBehindTheEyeIsClippedNotABlowUp() {
        // The eye 20 points from a 60-point-wide card turned 60°: its near edge passes behind the eye.
        let layer = cardLayer(turn(60, eye: 20))
        let image = render([layer])
        XCTAssertEqual(image.width, 200)
        let cost = SceneRenderer().cost(of: Scene(width: 100, height: 64, scale: 2, layers: [layer]))
        XCTAssertLessThan(cost.work, 1e7)
    }
}

/// Hostile 3D transforms draw or are refused cleanly: no trap, no hang, no unbounded picture.
final class Hostile3DTests: XCTestCase {
    func testExtremeTransformsRenderOrAreRefused() {
        let card = Rect(x: 10, y: 10, width: 80, height: 40)
        let transforms: [Transform3D] = [
            .perspective(eyeDistance: 1e-6), .perspective(eyeDistance: -300),
            Transform3D.translation(x: 0, y: 0, z: 2000).concatenating(.perspective(eyeDistance: 1000)),
            Transform3D.rotation(angle: 1.5, x: 1, y: 1, z: 0).concatenating(.perspective(eyeDistance: 1e-3)),
            Transform3D(rows: [[1e6, 0, 0, 1e6], [0, -1e6, 0, 0], [0, 0, 1, 0], [1e6, 1e6, 0, 1e-6]]),
            Transform3D(rows: [[1, 0, 0, .nan], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
            Transform3D(rows: [[1, 0, 0, 1e300], [0, 1, 0, 1e300], [0, 0, 1, 0], [1e300, 0, 0, 1]]),
            Transform3D.scale(x: 1e-300, y: 1, z: 1).concatenating(.perspective(eyeDistance: 10)),
        ]
        for transform in transforms {
            var layer = Layer.image(TestImages.photoLike(width: 20, height: 10, seed: 1), frame: card)
            layer.transform3D = transform
            var group = Layer.group([layer], frame: card)
            group.transform3D = transform
            for drawn in [layer, group] {
                let scene = Scene(width: 100, height: 60, scale: 2, layers: [drawn])
                do {
                    let image = try SceneRenderer(threads: 2).render(scene)
                    XCTAssertEqual(image.width, 200, "\(transform)")
                } catch {
                    XCTAssertTrue("\(error)".contains("scene"), "\(transform): \(error)")
                }
            }
        }
    }
}
