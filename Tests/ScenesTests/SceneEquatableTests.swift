import Compositor
import Motion
import Scenes
import XCTest

/// Scenes compare by value; the pictures and set texts they share by reference compare by identity.
final class SceneEquatableTests: XCTestCase {
    private func scene(photo: Image, opacityTo: Double = 1, position: Point = Point(x: 20, y: 0)) -> Scene {
        var face = Layer.color(.white, frame: Rect(x: 10, y: 10, width: 20, height: 20))
        face.animations = [
            LayerAnimation(.opacity(from: 0, to: opacityTo), timing: AnimationTiming(curve: .easeInOut, duration: 0.4)),
            LayerAnimation(.image(to: photo), timing: AnimationTiming(duration: 1)),
        ]
        var snow = ParticleEmitter(cells: [EmitterCell(contents: .image(photo))])
        snow.emitterPosition = position
        return Scene(width: 40, height: 30, layers: [.image(photo), .backdrop(.thin, .dark), face, .emitter(snow)])
    }

    func testScenesCompareByValueAndSharedPicturesByIdentity() {
        let photo = Image(width: 4, height: 4, fill: Pixel(red: 9, green: 9, blue: 9))
        XCTAssertEqual(scene(photo: photo), scene(photo: photo))
        XCTAssertNotEqual(scene(photo: photo), scene(photo: photo, opacityTo: 0.5), "an animation's target")
        XCTAssertNotEqual(scene(photo: photo), scene(photo: photo, position: Point(x: 21, y: 0)), "an emitter")
        XCTAssertNotEqual(scene(photo: photo), scene(photo: photo.copy()), "the same pixels, another picture")
        // A snapshot has no animations left: unequal to the animated scene, equal to another at that time.
        XCTAssertNotEqual(scene(photo: photo).snapshot(at: 0.2), scene(photo: photo))
        XCTAssertEqual(scene(photo: photo).snapshot(at: 0.2), scene(photo: photo).snapshot(at: 0.2))
        XCTAssertNotEqual(scene(photo: photo).snapshot(at: 0.2), scene(photo: photo).snapshot(at: 0.3))
    }
}
