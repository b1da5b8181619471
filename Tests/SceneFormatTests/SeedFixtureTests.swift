import Compositor
import Foundation
import ImageCodecs
import Motion
import Scenes
import TestSupport
import Typesetting
import XCTest

@testable import SceneFormat

/// The fixtures that follow the seeds (`../shared/SEEDS.md`) line by line: each expectation is the seed's own
/// numbers, and each layer and animation names the seed line it comes from.
final class SeedFixtureTests: XCTestCase {
    private func fixture(_ name: String) throws -> Scene {
        var file = SceneFile(
            directory: Fixtures.root + "fixtures/", maxPixels: 4_000_000, typesetter: FontTypesetter(),
            loadImage: loadImageFile)
        return try file.scene(fromJSON: Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name)))))
    }

    private func backdrop(_ layer: Layer) -> BackdropMaterial? {
        if case .backdrop(let material) = layer.content { return material }
        return nil
    }

    /// FoodPin's review screen: `UIBlurEffect(style: .dark)` over the photo, the view's bounds, and no dim.
    func testTheUIKitReviewScreenIsDarkBlurWithoutADim() throws {
        let scene = try fixture("review-screen.json")
        let blur = try XCTUnwrap(backdrop(scene.layers[1]))
        XCTAssertEqual(blur.recipe, Material.legacyDark.recipe(for: .dark))
        XCTAssertNil(scene.layers[1].frame, "blurEffectView.frame = view.bounds")
        XCTAssertFalse(
            scene.layers.contains { if case .shape = $0.content { $0.frame == nil } else { false } },
            "no full-screen colour over the blur")
        XCTAssertTrue(scene.layers[0].name?.contains("backgroundImageView") ?? false)
    }

    /// The SwiftUI review: `Color.black.opacity(0.6).background(.ultraThinMaterial)`, the light material (SwiftUI's
    /// default appearance) under a 0.6 black.
    func testTheSwiftUIReviewIsUltraThinLightUnderABlack60() throws {
        let scene = try fixture("review-entrance-swiftui.json")
        let blur = try XCTUnwrap(backdrop(scene.layers[1]))
        XCTAssertEqual(blur.recipe, Material.ultraThin.recipe(for: .light))
        guard case .shape(_, let color) = scene.layers[2].content else { return XCTFail("the black layer") }
        XCTAssertEqual(color, .black)
        XCTAssertEqual(scene.layers[2].opacity, 0.6)
        // Rows: opacity 0 → 1 and offset 1000 → 0 on .easeOut (SwiftUI's 0.35 s), row n after n × 0.05 s.
        guard case .group(let rows) = scene.layers[4].content else { return XCTFail("the rating column") }
        XCTAssertEqual(rows.count, 5)
        for (index, row) in rows.enumerated() {
            XCTAssertEqual(row.opacity, 0)
            XCTAssertEqual(row.transform, AffineTransform2D(translationX: 1000, y: 0))
            for animation in row.animations {
                XCTAssertEqual(animation.timing.curve, .easeOut)
                XCTAssertEqual(animation.timing.duration, 0.35)
                XCTAssertEqual(animation.timing.delay, 0.05 * Double(index), accuracy: 1e-12)
            }
            guard case .group(let parts) = row.content, case .text = parts[1].content else { return XCTFail() }
        }
        let settled = scene.snapshot(at: 1)
        guard case .group(let done) = settled.layers[4].content else { return XCTFail() }
        XCTAssertTrue(done.allSatisfy { $0.opacity == 1 && $0.transform == .identity })
    }

    /// The entrance as viewDidLoad and viewWillAppear write it: every button starts at alpha 0, scaled 5× then
    /// moved 600 pt right; rateButtons[0] springs home (0.8 s, delay 0.1, damping 0.2, velocity 0.3), the others
    /// ease in and out over 0.4 s from 0.15 s, 0.05 s apart; alpha and transform in one block, so on one timing,
    /// ending at alpha 1 and the identity.
    func testTheReviewEntranceFollowsViewWillAppear() throws {
        let scene = try fixture("review-entrance.json")
        guard case .group(let buttons) = scene.layers[3].content else { return XCTFail("the rating stack") }
        XCTAssertEqual(buttons.count, 5)
        let start = AffineTransform2D(scaleX: 5, y: 5).concatenating(AffineTransform2D(translationX: 600, y: 0))
        for (index, button) in buttons.enumerated() {
            XCTAssertEqual(button.opacity, 0)
            XCTAssertEqual(button.transform, start, "scaleUpTransform.concatenating(moveRightTransform)")
            XCTAssertEqual(button.animations.count, 2)
            let (fade, move) = (button.animations[0].timing, button.animations[1].timing)
            XCTAssertEqual(fade, move, "one animation block")
            if index == 0 {
                XCTAssertEqual(fade.delay, 0.1)
                XCTAssertEqual(fade.duration, 0.8)
                XCTAssertEqual(
                    fade.curve, try TimingCurve.spring(dampingRatio: 0.2, initialVelocity: 0.3, duration: 0.8))
            } else {
                XCTAssertEqual(fade.delay, 0.1 + 0.05 * Double(index), accuracy: 1e-12)
                XCTAssertEqual(fade.duration, 0.4)
                XCTAssertEqual(fade.curve, .easeInOut, "options [] is .curveEaseInOut")
            }
        }
        XCTAssertEqual(scene.animationDuration, 0.9, accuracy: 1e-12)
        guard case .group(let settled) = scene.snapshot(at: 2).layers[3].content else { return XCTFail() }
        XCTAssertTrue(settled.allSatisfy { $0.opacity == 1 && $0.transform == .identity })
    }

    /// The rating pop in the dismiss completion: the header's icon (right 20, bottom 20, 52 × 50) from scale 0.1
    /// and alpha 0 to the identity and 1, 0.4 s, damping 0.3, velocity 0.7: nothing of it shows at t = 0.
    func testTheRatingPopStartsInvisible() throws {
        var scene = try fixture("rating-pop.json")
        scene.scale = 1
        let icon = scene.layers[2]
        XCTAssertEqual(icon.frame, Rect(x: 390 - 20 - 52, y: 445 - 20 - 50, width: 52, height: 50))
        XCTAssertEqual(icon.transform, AffineTransform2D(scaleX: 0.1, y: 0.1))
        XCTAssertEqual(icon.opacity, 0)
        let spring = try TimingCurve.spring(dampingRatio: 0.3, initialVelocity: 0.7, duration: 0.4)
        XCTAssertEqual(icon.animations.map(\.timing.curve), [spring, spring])
        XCTAssertEqual(icon.animations.map(\.timing.delay), [0, 0])
        var without = scene
        without.layers.remove(at: 2)
        let renderer = SceneRenderer(threads: 1)
        XCTAssertTrue(try renderer.render(scene.snapshot(at: 0)).hasSamePixels(as: try renderer.render(without)))
        XCTAssertFalse(try renderer.render(scene.snapshot(at: 0.2)).hasSamePixels(as: try renderer.render(without)))
        let end = scene.snapshot(at: 0.4).layers[2]
        XCTAssertEqual(end.opacity, 1)
        XCTAssertEqual(end.transform, .identity)
    }

    /// The flight change when taking off (direction +1): the snow fades on `.curveEaseOut` over 1 s; the departure
    /// code leaves 80 pt sideways and the arrival code 50 pt down, each new code coming back from that offset over
    /// 0.25 s after 0.1 s on `.curveEaseIn`.
    func testTheFlightChangeMovesTheCodesAsTheSeedDoes() throws {
        let scene = try fixture("flight-transitions.json")
        let snow = scene.layers[2].animations[0].timing
        XCTAssertEqual(snow.curve, .easeOut)
        XCTAssertEqual(snow.duration, 1)
        XCTAssertEqual(scene.snapshot(at: 0.5).layers[2].opacity, cssBezier(0, 0, 0.58, 1, at: 0.5), accuracy: 1e-6)
        let easeIn = cssBezier(0.42, 0, 1, 1, at: 0.5)
        for (index, offset) in [(11, (80.0, 0.0)), (16, (0.0, 50.0))] {
            guard case .group(let pair) = scene.snapshot(at: 0.1 + 0.125).layers[index].content else {
                return XCTFail("layer \(index) is a transition")
            }
            // Within the library's Bézier solver (about 1e-7 of progress, so 1e-5 pt here).
            let arriving = pair[1].transform
            XCTAssertEqual(arriving.tx, offset.0 * (1 - easeIn), accuracy: 1e-4, "layer \(index)")
            XCTAssertEqual(arriving.ty, offset.1 * (1 - easeIn), accuracy: 1e-4, "layer \(index)")
            XCTAssertEqual(pair[1].opacity, easeIn, accuracy: 1e-6)
            guard case .group(let leaving) = scene.snapshot(at: 0.25).layers[index].content else { return XCTFail() }
            XCTAssertEqual(leaving[0].transform.tx, offset.0 * easeIn, accuracy: 1e-4)
            XCTAssertEqual(leaving[0].transform.ty, offset.1 * easeIn, accuracy: 1e-4)
        }
    }

    /// The presentation fixtures: the card sheet over the review screen and the push to the flight summary.
    func testTheSheetAndPushFixturesAnimate() throws {
        XCTAssertEqual(try fixture("sheet.json").animationDuration, 0.8, accuracy: 1e-9)
        XCTAssertEqual(try fixture("push.json").animationDuration, 0.5, accuracy: 1e-9)
    }

    /// The Widgets screen's springs (seed 004): the date drops 100 pt and springs back on `dampingRatio: 0.2` in a
    /// 2 s animator; the widget grows from 130 to 230 pt on the physical spring with the vector (5, 0), its size
    /// launched at the vector's magnitude; the button's title cross-dissolves in 0.25 s from half way through that
    /// animator (`delayFactor: 0.5`).
    func testTheWidgetsSpringsAreTheSeeds() throws {
        let scene = try fixture("widgets.json")
        let date = scene.layers[1]
        XCTAssertEqual(date.animations[0].timing.curve, try TimingCurve.spring(dampingRatio: 0.2, duration: 2))
        XCTAssertEqual(scene.snapshot(at: 0).layers[1].frame?.y, 70 - 100)
        XCTAssertEqual(scene.snapshot(at: 2).layers[1].frame?.y, 70)
        let widget = scene.layers[2]
        let grow = widget.animations[0]
        XCTAssertEqual(
            grow.timing.curve.spring,
            Spring(mass: 30, stiffness: 1000, damping: 300, initialVelocity: 5), "the size takes |(5, 0)| = 5")
        XCTAssertEqual(grow.positionVelocity, PositionVelocity(dx: 5, dy: 0))
        XCTAssertEqual(scene.snapshot(at: 0).layers[2].frame?.height, 130)
        XCTAssertEqual(scene.snapshot(at: 5).layers[2].frame?.height, 230)
        XCTAssertEqual(widget.clipCornerRadius, 14)
        guard case .group(let parts) = widget.content, case .group(let titles) = parts[3].content else {
            return XCTFail("the title's cross-dissolve")
        }
        let fadeIn = titles[1].animations[0].timing
        XCTAssertEqual(fadeIn.duration, 0.25)
        XCTAssertEqual(fadeIn.delay, 0.3 + 0.5 * grow.timing.passDuration, accuracy: 1e-4)
    }

    /// SwiftUI's close (seed 001): the overlay leaves on `.easeOut(duration: 0.3)`, the detail view beneath.
    func testTheSwiftUICloseFadesTheOverlayOut() throws {
        let scene = try fixture("review-close-swiftui.json")
        let overlay = scene.layers[2]
        XCTAssertEqual(overlay.animations[0].timing.curve, .easeOut)
        XCTAssertEqual(overlay.animations[0].timing.duration, 0.3)
        XCTAssertEqual(scene.snapshot(at: 0.2).layers[2].opacity, 1)
        XCTAssertEqual(scene.snapshot(at: 0.5).layers[2].opacity, 0)
        XCTAssertEqual(
            scene.snapshot(at: 0.35).layers[2].opacity, 1 - cssBezier(0, 0, 0.58, 1, at: 0.5), accuracy: 1e-6)
        XCTAssertEqual(try fixture("cover-vertical.json").animationDuration, 0.6, accuracy: 1e-9)
    }

    /// Every layer (to the rows of a stack) and every animation of a seed-following fixture names where it comes
    /// from, as the file says it (read as plain JSON: the scene keeps no animation names).
    func testEveryLayerAndAnimationIsNamed() throws {
        for name in [
            "review-screen.json", "review-entrance.json", "review-entrance-swiftui.json", "rating-pop.json",
            "blur-animator.json", "widgets.json", "review-close-swiftui.json",
        ] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name)))
            let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            func check(_ layers: [[String: Any]], depth: Int, _ path: String) {
                for (index, layer) in layers.enumerated() {
                    let place = "\(name) \(path)[\(index)]"
                    if depth <= 1 { XCTAssertFalse((layer["name"] as? String ?? "").isEmpty, place) }
                    for animation in layer["animations"] as? [[String: Any]] ?? [] {
                        XCTAssertTrue((animation["name"] as? String ?? "").contains("seed"), place)
                    }
                    check(layer["layers"] as? [[String: Any]] ?? [], depth: depth + 1, "\(path)[\(index)].layers")
                }
            }
            check(try XCTUnwrap(root["layers"] as? [[String: Any]]), depth: 0, "layers")
        }
    }
}
