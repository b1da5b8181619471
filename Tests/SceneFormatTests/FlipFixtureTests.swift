import Compositor
import Foundation
import Scenes
import TestSupport
import Typesetting
import XCTest

@testable import SceneFormat

/// `fixtures/flip.json`: a boarding card flipping from the left to its back, through an edge-on moment.
final class FlipFixtureTests: XCTestCase {
    func testTheCardFlipsToItsBackShowingNothingEdgeOn() throws {
        var file = SceneFile(
            directory: Fixtures.root + "fixtures/", maxPixels: 4_000_000, typesetter: FontTypesetter(),
            loadImage: loadImageFile)
        let scene = try file.scene(fromJSON: Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("flip.json")))))
        XCTAssertEqual(scene.animationDuration, 0.6, accuracy: 1e-12)
        let renderer = SceneRenderer(threads: 2)
        let empty = try renderer.render(Scene(width: 390, height: 300, scale: 2, background: scene.background))
        // Half way through the 0.4 s after the 0.2 s delay the card is edge on.
        XCTAssertTrue(try renderer.render(scene.snapshot(at: 0.4)).hasSamePixels(as: empty))
        let front = try renderer.render(scene.snapshot(at: 0))
        let back = try renderer.render(scene.snapshot(at: 0.6))
        XCTAssertFalse(front.hasSamePixels(as: empty))
        XCTAssertNotEqual(front[390, 300], back[390, 300], "the middle of the card changes colour")
    }
}
