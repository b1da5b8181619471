import Compositor
import Motion
import Scenes
import XCTest

@testable import SceneFormat

/// `transition` layers: each style read into the `LayerTransition` it names, and every mistake a JSON path.
final class SceneFileTransitionTests: XCTestCase {
    private func scene(_ layer: String) throws -> Scene { try OneLayerScene.read(layer) }

    private func message(_ layer: String) -> String? { OneLayerScene.error(layer) }

    private let old = #"{"type": "color", "color": "red", "frame": {"x": 10, "y": 10, "width": 20, "height": 8}}"#
    private let new = #"{"type": "color", "color": "blue", "frame": {"x": 10, "y": 10, "width": 20, "height": 8}}"#

    private func pair(_ scene: Scene) -> [Layer] {
        guard case .group(let layers) = scene.layers[0].content else { return [] }
        return layers
    }

    func testCubeReadsAsTheSeedWritesIt() throws {
        let read = try scene(#"{"type": "transition", "style": "cube", "direction": "down", "from": \#(old), "to": \#(new)}"#)
        let expected = LayerTransition(.cube(.down)).layer(
            from: .color(RGBAColor(red: 1, green: 0, blue: 0), frame: Rect(x: 10, y: 10, width: 20, height: 8)),
            to: .color(RGBAColor(red: 0, green: 0, blue: 1), frame: Rect(x: 10, y: 10, width: 20, height: 8)),
            in: Rect(x: 0, y: 0, width: 40, height: 30))
        guard case .group(let layers) = expected.content else { return XCTFail() }
        XCTAssertEqual(pair(read).map(\.transform), layers.map(\.transform))
        XCTAssertEqual(pair(read).map(\.animations.count), layers.map(\.animations.count))
        XCTAssertEqual(read.animationDuration, 0.5, accuracy: 1e-12)
        // Everything the layers carry (3D transforms, opacities, curves, the cube's turn), as drawn: the file's
        // frames are the seed's frames, pixel for pixel, through the whole turn.
        let built = Scene(width: 40, height: 30, layers: [expected])
        let renderer = SceneRenderer(threads: 1)
        for time in [0, 0.1, 0.2, 0.25, 0.3, 0.45, 0.5] {
            XCTAssertTrue(
                try renderer.render(read.snapshot(at: time)).hasSamePixels(as: renderer.render(built.snapshot(at: time))),
                "t \(time)")
        }
        // And what the seed's turn shows, independently of either: the old face alone at the start, the new one
        // alone at the end, both (squashed by the turn) in between.
        func colours(at time: Double) throws -> Set<String> {
            let image = try renderer.render(read.snapshot(at: time))
            var seen = Set<String>()
            for y in 10..<18 {
                for x in 10..<30 {
                    let pixel = image[x, y]
                    if pixel.red > 200, pixel.blue < 50 { seen.insert("red") }
                    if pixel.blue > 200, pixel.red < 50 { seen.insert("blue") }
                }
            }
            return seen
        }
        XCTAssertEqual(try colours(at: 0), ["red"])
        XCTAssertEqual(try colours(at: 0.25), ["red", "blue"])
        XCTAssertEqual(try colours(at: 0.5), ["blue"])
    }

    func testTimingOverridesAndTheCrossDissolveIsIsolated() throws {
        let read = try scene(
            #"{"type": "transition", "style": "crossDissolve", "duration": 2, "delay": 0.5, "curve": "linear", "from": \#(old), "to": \#(new)}"#)
        XCTAssertTrue(read.layers[0].isolated)
        XCTAssertEqual(read.animationDuration, 2.5, accuracy: 1e-12)
        XCTAssertEqual(pair(read)[1].blend, .plusLighter)
        let spring = try scene(
            #"{"type": "transition", "style": "grow", "point": [5, 5], "curve": "bouncy", "from": \#(old), "to": \#(new)}"#)
        let settles = try XCTUnwrap(try TimingCurve(parsing: "bouncy").intrinsicDuration)
        XCTAssertEqual(spring.animationDuration, settles, accuracy: 1e-9, "a spring lasts until it settles")
    }

    /// The SwiftUI style lasts `Animation.default` (MOTION.md: a spring of response 0.55 s, damping fraction 1
    /// since iOS 17), as its documentation says; a UIKit damping-ratio spring takes the transition's duration.
    func testSwiftUIStyleUsesAnimationDefaultAndAUIKitSpringTakesTheDuration() throws {
        let read = try scene(
            #"{"type": "transition", "style": "swiftUI", "insertion": ["move(bottom)"], "from": \#(old), "to": \#(new)}"#)
        let expected = Spring(response: 0.55, dampingFraction: 1).settlingDuration()
        XCTAssertEqual(read.animationDuration, expected, accuracy: 1e-9)
        let uiKit = try scene(
            #"{"type": "transition", "style": "grow", "point": [5, 5], "curve": "spring(dampingRatio: 0.6)", "duration": 0.7, "from": \#(old), "to": \#(new)}"#)
        XCTAssertEqual(uiKit.animationDuration, 0.7, accuracy: 1e-12)
    }

    /// The seed's `animator.addAnimations({ … cross-dissolve … }, delayFactor: 0.5)` in a 1 s animator: the change
    /// starts at 0.5 s and ends with the animator at 1 s (UIKit's `addAnimations(_:delayFactor:)`). A spring added
    /// so runs in that half and comes to rest, with no jump in its last frame.
    func testDelayFactorStartsAtThatShareAndEndsWithTheAnimator() throws {
        let read = try scene(
            #"{"type": "transition", "style": "crossDissolve", "duration": 1, "delayFactor": 0.5, "curve": "linear", "from": \#(old), "to": \#(new)}"#)
        XCTAssertEqual(read.animationDuration, 1, accuracy: 1e-12)
        func newOpacity(_ time: Double) -> Double {
            guard case .group(let layers) = read.snapshot(at: time).layers[0].content else { return .nan }
            return layers[1].opacity
        }
        XCTAssertEqual(newOpacity(0.5), 0)
        XCTAssertEqual(newOpacity(0.75), 0.5, accuracy: 1e-12)
        XCTAssertEqual(newOpacity(1), 1)
        let spring = try scene(
            #"{"type": "transition", "style": "grow", "point": [5, 5], "curve": "spring(dampingRatio: 1)", "duration": 1, "delayFactor": 0.5, "from": \#(old), "to": \#(new)}"#)
        XCTAssertEqual(spring.animationDuration, 1, accuracy: 1e-12)
        func scale(_ time: Double) -> Double {
            guard case .group(let layers) = spring.snapshot(at: time).layers[0].content else { return .nan }
            return layers[1].transform.a
        }
        // Critically damped, UIKit's 1 s spring compressed into 0.5 s: at 0.99 s within a hair of its end.
        XCTAssertEqual(scale(0.99), 1, accuracy: 0.01, "no jump into the last frame")
        XCTAssertEqual(scale(1), 1)
        XCTAssertEqual(scale(0.5), 0.05, accuracy: 1e-12)
    }

    func testSwiftUICombinations() throws {
        let read = try scene(
            #"{"type": "transition", "style": "swiftUI", "insertion": ["move(bottom)", "opacity"], "removal": ["scale(0.5)", "opacity"], "curve": "linear", "duration": 1, "from": \#(old), "to": \#(new)}"#)
        let start = read.snapshot(at: 0)
        guard case .group(let layers) = start.layers[0].content else { return XCTFail() }
        XCTAssertEqual(layers[1].transform, AffineTransform2D(translationX: 0, y: 8), "below by its own height")
        XCTAssertEqual(layers[1].opacity, 0)
        let middle = read.snapshot(at: 0.5)
        guard case .group(let halfway) = middle.layers[0].content else { return XCTFail() }
        XCTAssertEqual(halfway[0].transform.a, 0.75, accuracy: 1e-9)
        XCTAssertEqual(halfway[0].opacity, 0.5, accuracy: 1e-9)
    }

    /// Inside a group with a frame, a layer without one fills the group: the cover slides by the group's height.
    func testCoverVerticalUsesTheParentsBounds() throws {
        let read = try scene(
            #"{"type": "group", "frame": {"x": 0, "y": 0, "width": 20, "height": 12}, "layers": [{"type": "transition", "style": "coverVertical", "from": {"type": "color", "color": "red"}, "to": {"type": "color", "color": "blue"}}]}"#)
        guard case .group(let inner) = read.snapshot(at: 0).layers[0].content,
            case .group(let layers) = inner[0].content
        else { return XCTFail() }
        XCTAssertEqual(layers[1].transform, AffineTransform2D(translationX: 0, y: 12))
    }

    /// The iOS 13 card sheet and the navigation push read as the library's styles, with their sources' timings;
    /// a group's `cornerRadius` clips it.
    func testSheetAndPushStyles() throws {
        let sheet = try scene(#"{"type": "transition", "style": "pageSheet", "from": \#(old), "to": \#(new)}"#)
        let expected = LayerTransition(.pageSheet(presenting: true)).layer(
            from: try scene(old).layers[0], to: try scene(new).layers[0], in: Rect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertEqual(sheet.layers[0], expected)
        let pop = try scene(
            #"{"type": "transition", "style": "navigationPush", "forward": false, "from": \#(old), "to": \#(new)}"#)
        XCTAssertEqual(
            pop.layers[0],
            LayerTransition(.navigationPush(forward: false)).layer(
                from: try scene(old).layers[0], to: try scene(new).layers[0], in: Rect(x: 0, y: 0, width: 40, height: 30)))
        XCTAssertEqual(LayerTransition.defaultTiming(of: .navigationPush(forward: true)).duration, 0.3)
        XCTAssertEqual(LayerTransition.defaultTiming(of: .pageSheet(presenting: true)).duration, 0.6)
        let clipped = try scene(#"{"type": "group", "cornerRadius": 12, "layers": [\#(old)]}"#)
        XCTAssertEqual(clipped.layers[0].clipCornerRadius, 12)
        XCTAssertNil(try scene(#"{"type": "group", "layers": [\#(old)]}"#).layers[0].clipCornerRadius)
        XCTAssertNotNil(message(#"{"type": "transition", "style": "pageSheet", "forward": true, "from": \#(old), "to": \#(new)}"#))
    }

    func testMistakesNameTheirPath() {
        let cases: [(String, String)] = [
            (#"{"type": "transition", "style": "spin", "from": \#(old), "to": \#(new)}"#, "layers[0].style: expected one of"),
            (#"{"type": "transition", "style": "cube", "to": \#(new)}"#, "layers[0].from: missing"),
            (#"{"type": "transition", "style": "grow", "from": \#(old), "to": \#(new)}"#, "layers[0].point: missing"),
            (
                #"{"type": "transition", "style": "cube", "offset": [1, 2], "from": \#(old), "to": \#(new)}"#,
                "layers[0].offset: not an option of the cube style"
            ),
            (
                #"{"type": "transition", "style": "fadeAndBounce", "offset": [1], "from": \#(old), "to": \#(new)}"#,
                "layers[0].offset: expected [x, y]"
            ),
            (
                #"{"type": "transition", "style": "swiftUI", "insertion": ["move(left)"], "from": \#(old), "to": \#(new)}"#,
                "layers[0].insertion[0]: expected move(top|bottom|leading|trailing)"
            ),
            (
                #"{"type": "transition", "style": "cube", "from": {"type": "color", "color": 3}, "to": \#(new)}"#,
                "layers[0].from.color: expected"
            ),
            (#"{"type": "transition", "style": "cube", "duration": -1, "from": \#(old), "to": \#(new)}"#, "layers[0].duration"),
            // The SwiftUI style's spring (Animation.default) has no duration: 0.2 s would cut it short (a jump of
            // 23 % of the height in the last frame, as the issue measured).
            (
                #"{"type": "transition", "style": "swiftUI", "insertion": ["move(bottom)"], "duration": 0.2, "from": \#(old), "to": \#(new)}"#,
                "layers[0].duration: this spring settles in its own time ("
            ),
            (
                #"{"type": "transition", "style": "grow", "point": [5, 5], "curve": "bouncy", "duration": 0.3, "from": \#(old), "to": \#(new)}"#,
                "layers[0].duration: this spring settles in its own time ("
            ),
        ]
        for (layer, expected) in cases {
            let text = message(layer)
            XCTAssertTrue(text?.hasPrefix(expected) == true, "\(text ?? "no error") does not start with \(expected)")
        }
    }
}
