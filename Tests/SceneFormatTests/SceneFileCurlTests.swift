import Compositor
import Motion
import Scenes
import XCTest

@testable import SceneFormat

/// `curled` layers, the `curl` animation and the curl transition styles, read as the library builds them; every
/// mistake a JSON path.
final class SceneFileCurlTests: XCTestCase {
    private func scene(_ layer: String) throws -> Scene { try OneLayerScene.read(layer) }

    private func message(_ layer: String) -> String? { OneLayerScene.error(layer) }

    private let red = #"{"type": "color", "color": "red"}"#
    private let blue = #"{"type": "color", "color": "blue"}"#

    func testACurledLayerReadsItsCurlAndLayers() throws {
        let read = try scene(
            #"{"type": "curled", "progress": 0.25, "direction": "down", "angle": -30, "radius": 0.2, "#
                + #""layers": [\#(red)]}"#)
        guard case .curled(let layers, let curl) = read.layers[0].content else { return XCTFail("not curled") }
        XCTAssertEqual(layers.count, 1)
        XCTAssertEqual(curl, PageCurl(progress: 0.25, direction: .down, angle: -Double.pi / 6, radius: 0.2))
        let defaults = try scene(#"{"type": "curled", "layers": []}"#)
        guard case .curled(_, let plain) = defaults.layers[0].content else { return XCTFail("not curled") }
        XCTAssertEqual(plain, PageCurl())
    }

    func testTheCurlAnimatesAndDrawsAsTheLibrarysLayer() throws {
        let read = try scene(
            #"{"type": "curled", "layers": [\#(red)], "animations": "#
                + #"[{"property": "curl", "to": 0.5, "duration": 1, "curve": "linear"}]}"#)
        var layer = Layer.curled([.color(RGBAColor(red: 1, green: 0, blue: 0))], curl: PageCurl())
        layer.animations = [
            LayerAnimation(.curl(Track(to: 0.5)), timing: AnimationTiming(curve: .linear, duration: 1))
        ]
        let expected = Scene(width: 40, height: 30, layers: [layer])
        let renderer = SceneRenderer(threads: 1)
        for time in [0, 0.5, 2] {
            XCTAssertTrue(
                try renderer.render(read.snapshot(at: time)).hasSamePixels(
                    as: try renderer.render(expected.snapshot(at: time))), "at \(time)")
        }
    }

    func testCurlStylesReadAsTheirTransitions() throws {
        let bounds = Rect(x: 0, y: 0, width: 40, height: 30)
        let old = Layer.color(RGBAColor(red: 1, green: 0, blue: 0))
        let new = Layer.color(RGBAColor(red: 0, green: 0, blue: 1))
        let styles: [(String, LayerTransition.Style)] = [
            (#""style": "curlUp""#, .curl(.up)), (#""style": "curlDown""#, .curl(.down)),
            (#""style": "partialCurl""#, .partialCurl(presenting: true)),
            (#""style": "partialCurl", "presenting": false"#, .partialCurl(presenting: false)),
        ]
        let renderer = SceneRenderer(threads: 1)
        for (json, style) in styles {
            let read = try scene(#"{"type": "transition", \#(json), "from": \#(red), "to": \#(blue)}"#)
            let transition = LayerTransition(style)
            let expected = Scene(width: 40, height: 30, layers: [transition.layer(from: old, to: new, in: bounds)])
            XCTAssertEqual(read.animationDuration, transition.endTime, accuracy: 1e-12, json)
            let middle = transition.endTime / 2
            XCTAssertTrue(
                try renderer.render(read.snapshot(at: middle)).hasSamePixels(
                    as: try renderer.render(expected.snapshot(at: middle))), json)
        }
    }

    func testMistakesNameTheirPath() {
        let cases: [(String, String)] = [
            (#"{"type": "curled", "progress": 2, "layers": []}"#, "layers[0].progress: expected a number from 0 to 1"),
            (#"{"type": "curled", "direction": "left", "layers": []}"#, "layers[0].direction: expected one of"),
            (#"{"type": "curled", "angle": 90, "layers": []}"#, "layers[0].angle: expected a number from -60 to 60"),
            (#"{"type": "curled", "radius": 0, "layers": []}"#, "layers[0].radius: expected a number from 0.01 to 1"),
            (#"{"type": "curled"}"#, "layers[0].layers: missing"),
            (#"{"type": "curled", "layers": [], "curl": 1}"#, "layers[0].curl: unknown key"),
            (
                #"{"type": "curled", "layers": [], "animations": [{"property": "curl", "to": 3, "duration": 1}]}"#,
                "layers[0].animations[0].to: expected a number from 0 to 1"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "curl", "to": 1, "duration": 1}]}"#,
                "layers[0].animations[0].property: curl does not animate a color layer"
            ),
            (
                #"{"type": "transition", "style": "curlUp", "presenting": true, "from": \#(red), "to": \#(blue)}"#,
                "layers[0].presenting: not an option of the curlUp style"
            ),
        ]
        for (layer, expected) in cases {
            let text = message(layer)
            XCTAssertTrue(text?.hasPrefix(expected) == true, "\(text ?? "no error") does not start with \(expected)")
        }
    }
}
