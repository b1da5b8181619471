import Compositor
import Scenes
import XCTest

@testable import SceneFormat

/// `transform3D`, `doubleSided`, the 3D animations and the 3D transition styles, and their mistakes as JSON paths.
final class SceneFileTransform3DTests: XCTestCase {
    private func scene(_ layer: String) throws -> Scene { try OneLayerScene.read(layer) }

    private func message(_ layer: String) -> String { OneLayerScene.error(layer) ?? "no error" }

    private func color(_ extra: String) -> String {
        extra.isEmpty ? #"{"type": "color", "color": "red"}"# : #"{"type": "color", "color": "red", \#(extra)}"#
    }

    func testOperationsComposeAsCSSDoesTheLastFirst() throws {
        let read = try scene(color(
            #""transform3D": [{"perspective": 1000}, {"rotate": 30, "axis": [0, 1, 0]}, {"translate": [0, 0, 10]}], "doubleSided": false"#))
        let expected = Transform3D.translation(x: 0, y: 0, z: 10)
            .concatenating(.rotation(angle: .pi / 6, x: 0, y: 1, z: 0))
            .concatenating(.perspective(eyeDistance: 1000))
        XCTAssertEqual(read.layers[0].transform3D, expected)
        XCTAssertFalse(read.layers[0].isDoubleSided)
        let plain = try scene(color(#""transform3D": [{"scale": 2}, {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]}]"#))
        XCTAssertEqual(
            plain.layers[0].transform3D,
            Transform3D.translation(x: 5, y: 6, z: 7).concatenating(.scale(x: 2, y: 2, z: 1)))
        XCTAssertNil(try scene(color("")).layers[0].transform3D)
        XCTAssertTrue(try scene(color("")).layers[0].isDoubleSided)
    }

    func testMistakesNameTheirPath() {
        let cases: [(String, String)] = [
            (#""transform3D": {"rotate": 3}"#, "layers[0].transform3D"),
            (#""transform3D": [{"rotate": 3, "translate": [1, 2]}]"#, "layers[0].transform3D[0]"),
            (#""transform3D": [{"perspective": 0}]"#, "layers[0].transform3D[0].perspective"),
            (#""transform3D": [{"rotate": 3, "axis": [0, 0, 0]}]"#, "layers[0].transform3D[0].axis"),
            (#""transform3D": [{"rotate": 3, "axis": [0, 1]}]"#, "layers[0].transform3D[0].axis"),
            (#""transform3D": [{"translate": [1, "x"]}]"#, "layers[0].transform3D[0].translate"),
            (#""transform3D": [{"matrix": [1, 2]}]"#, "layers[0].transform3D[0].matrix"),
            (#""transform3D": [{"skew": 1}]"#, "layers[0].transform3D[0]"),
            (#""doubleSided": 1"#, "layers[0].doubleSided"),
            (#""animations": [{"property": "opacity", "to": 1, "duration": 1, "axis": [0, 1, 0]}]"#, "layers[0].animations[0].axis"),
            (#""animations": [{"property": "transform3D", "to": 3, "duration": 1}]"#, "layers[0].animations[0].to"),
        ]
        for (extra, path) in cases {
            let text = message(color(extra))
            XCTAssertTrue(text.contains(path), "\(extra): \(text)")
        }
    }

    func testThreeDAnimationsAndStylesRead() throws {
        let animated = try scene(color(
            #""animations": [{"property": "rotation3D", "axis": [1, 0, 0], "from": 0, "to": 180, "duration": 1, "curve": "linear"},"#
                + #" {"property": "transform3D", "to": [{"perspective": 500}], "duration": 1}]"#))
        let layer = animated.layers[0]
        guard case .rotation3D(let axis, let track) = layer.animations[0].property else { return XCTFail() }
        XCTAssertEqual(axis, .x)
        XCTAssertEqual(track.keyframes.last!.value, .pi, accuracy: 1e-15)
        guard case .transform3D(let track3D) = layer.animations[1].property else { return XCTFail() }
        XCTAssertEqual(track3D.keyframes.last!.value, .perspective(eyeDistance: 500))
        let frame = #""frame": {"x": 0, "y": 0, "width": 40, "height": 30}"#
        for (style, expected) in [
            (#""style": "flip", "edge": "top""#, LayerTransition.Style.flip(from: .top)),
            (#""style": "flip""#, .flip(from: .left)), (#""style": "flipHorizontal", "presenting": false"#, .flipHorizontal(presenting: false)),
            (#""style": "cube3D", "edge": "right""#, .cube3D(.right)), (#""style": "cube3D""#, .cube3D(.bottom)),
        ] {
            let read = try scene(#"{"type": "transition", \#(style), "from": \#(color(frame)), "to": \#(color(frame))}"#)
            XCTAssertEqual(read.animationDuration, LayerTransition(expected).endTime, accuracy: 1e-12, style)
            guard case .group(let faces) = read.layers[0].content else { return XCTFail() }
            XCTAssertFalse(faces[1].isDoubleSided, style)
        }
        XCTAssertTrue(message(#"{"type": "transition", "style": "flip", "edge": "up", "from": \#(color(frame)), "to": \#(color(frame))}"#).contains("layers[0].edge"))
        XCTAssertTrue(message(#"{"type": "transition", "style": "cube", "edge": "top", "from": \#(color(frame)), "to": \#(color(frame))}"#).contains("not an option of the cube style"))
    }
}
