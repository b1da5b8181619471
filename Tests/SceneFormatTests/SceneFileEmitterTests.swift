import Compositor
import Scenes
import XCTest

@testable import SceneFormat

/// `emitter` layers: every key read into the `ParticleEmitter` it names (angles from degrees), presets, and
/// every mistake or hostile number an error with its JSON path.
final class SceneFileEmitterTests: XCTestCase {
    private func scene(_ layer: String) throws -> Scene { try OneLayerScene.read(layer, imageSize: (6, 4)) }

    private func emitter(_ layer: String) throws -> ParticleEmitter {
        guard case .emitter(let emitter) = try scene(layer).layers[0].content else {
            throw SceneFileError.invalid(path: "", message: "not an emitter")
        }
        return emitter
    }

    private func message(_ layer: String) -> String? { OneLayerScene.error(layer, imageSize: (6, 4)) }

    func testEveryKeyReachesTheModel() throws {
        let emitter = try emitter(
            #"""
            {"type": "emitter", "emitterPosition": [20, -5], "emitterSize": [30, 4], "emitterShape": "rectangle",
             "emitterMode": "outline", "birthRate": 2, "lifetime": 1.5, "seed": 4294967295, "timeOffset": 3,
             "emitterCells": [
               {"name": "flake", "image": "flake.png", "contentsScale": 2, "birthRate": 5, "lifetime": 4,
                "lifetimeRange": 1, "velocity": -30, "velocityRange": 10, "emissionLongitude": 90,
                "emissionRange": 45, "xAcceleration": 1.5, "yAcceleration": -2, "scale": 0.5, "scaleRange": 0.25,
                "scaleSpeed": -0.1, "spin": 180, "spinRange": 90, "color": "#ff800080", "alphaRange": 0.2,
                "alphaSpeed": -0.3},
               {"shape": "circle", "diameter": 3}, {"shape": "circle"}]}
            """#)
        XCTAssertEqual(emitter.emitterPosition, Point(x: 20, y: -5))
        XCTAssertEqual(emitter.emitterSize, Size(width: 30, height: 4))
        XCTAssertEqual(emitter.emitterShape, .rectangle)
        XCTAssertEqual(emitter.emitterMode, .outline)
        XCTAssertEqual(emitter.birthRate, 2)
        XCTAssertEqual(emitter.lifetime, 1.5)
        XCTAssertEqual(emitter.seed, .max)
        XCTAssertEqual(emitter.timeOffset, 3)
        XCTAssertEqual(emitter.emitterCells.count, 3)
        let cell = emitter.emitterCells[0]
        XCTAssertEqual(cell.name, "flake")
        guard case .image(let image) = cell.contents else { return XCTFail("an image") }
        XCTAssertEqual(image.width, 6)
        XCTAssertEqual(cell.contentsScale, 2)
        let numbers = [
            cell.birthRate, cell.lifetime, cell.lifetimeRange, cell.velocity, cell.velocityRange, cell.xAcceleration,
            cell.yAcceleration, cell.scale, cell.scaleRange, cell.scaleSpeed, cell.alphaRange, cell.alphaSpeed,
        ]
        XCTAssertEqual(numbers, [5, 4, 1, -30, 10, 1.5, -2, 0.5, 0.25, -0.1, 0.2, -0.3])
        XCTAssertEqual(cell.emissionLongitude, .pi / 2, accuracy: 1e-15)
        XCTAssertEqual(cell.emissionRange, .pi / 4, accuracy: 1e-15)
        XCTAssertEqual(cell.spin, .pi, accuracy: 1e-15)
        XCTAssertEqual(cell.spinRange, .pi / 2, accuracy: 1e-15)
        XCTAssertEqual(cell.color, RGBAColor(red8: 255, green8: 128, blue8: 0, alpha: 128.0 / 255))
        guard case .circle(let diameter, let color) = emitter.emitterCells[1].contents else { return XCTFail() }
        XCTAssertEqual(diameter, 3)
        XCTAssertEqual(color, .white)
        guard case .circle(8, _) = emitter.emitterCells[2].contents else { return XCTFail("default diameter") }
        // A default cell is Core Animation's: emits nothing until given a birth rate and a lifetime.
        XCTAssertEqual(emitter.emitterCells[2].birthRate, 0)
        XCTAssertEqual(emitter.emitterCells[2].scale, 1)
    }

    /// The file's snow is the library's over the layer's frame, with a key overriding it.
    func testSnowPresetFillsTheFrame() throws {
        let snow = try emitter(
            #"{"type": "emitter", "preset": "snow", "seed": 9, "frame": {"x": 0, "y": 0, "width": 30, "height": 20}}"#)
        var expected = ParticleEmitter.snow(width: 30, height: 20)
        expected.seed = 9
        XCTAssertEqual(snow.particles(), expected.particles())
        XCTAssertFalse(snow.particles().isEmpty)
        let whole = try emitter(#"{"type": "emitter", "preset": "snow"}"#)
        XCTAssertEqual(whole.particles(), ParticleEmitter.snow(width: 40, height: 30).particles())
        // Fading in as the fixture's does: an ordinary opacity animation of the layer.
        let fading = try scene(
            #"""
            {"type": "emitter", "preset": "snow",
             "animations": [{"property": "opacity", "from": 0, "to": 1, "duration": 1, "curve": "linear"}]}
            """#)
        XCTAssertEqual(fading.animationDuration, 1)
        XCTAssertEqual(fading.snapshot(at: 0.25).layers[0].opacity, 0.25, accuracy: 1e-12)
        guard case .emitter(let moved) = fading.snapshot(at: 0.25).layers[0].content else { return XCTFail() }
        XCTAssertEqual(moved.time, 0.25)
    }

    func testMistakesNameTheirPath() {
        let cases: [(String, String)] = [
            (#"{"type": "emitter", "emitterShape": "circle"}"#, "layers[0].emitterShape: expected one of point, line"),
            (#"{"type": "emitter", "preset": "rain"}"#, "layers[0].preset: expected one of snow"),
            (#"{"type": "emitter", "seed": 1.5}"#, "layers[0].seed: expected a whole number"),
            (#"{"type": "emitter", "seed": -1}"#, "layers[0].seed: expected a number from 0 to 4294967295"),
            (#"{"type": "emitter", "emitterPosition": [1]}"#, "layers[0].emitterPosition: expected [a, b]"),
            (#"{"type": "emitter", "emitterSize": [-1, 2]}"#, "layers[0].emitterSize: expected [a, b]"),
            (#"{"type": "emitter", "emitterCells": {}}"#, "layers[0].emitterCells: expected an array"),
            (#"{"type": "emitter", "emitterCells": [{}]}"#, "layers[0].emitterCells[0]: missing image or shape"),
            (
                #"{"type": "emitter", "emitterCells": [{"shape": "circle", "velocty": 3}]}"#,
                "layers[0].emitterCells[0].velocty: unknown key"
            ),
            (
                #"{"type": "emitter", "emitterCells": [{"shape": "square"}]}"#,
                "layers[0].emitterCells[0].shape: expected one of circle"
            ),
            (
                #"{"type": "emitter", "emitterCells": [{"shape": "circle", "image": "a.png"}]}"#,
                "layers[0].emitterCells[0].shape: a cell shows an image or a shape, not both"
            ),
            (
                #"{"type": "emitter", "emitterCells": [{"image": "a.png", "diameter": 3}]}"#,
                "layers[0].emitterCells[0].diameter: only a circle has a diameter"
            ),
            (
                #"{"type": "emitter", "emitterCells": [{"shape": "circle", "color": "snow"}]}"#,
                "layers[0].emitterCells[0].color: expected a colour"
            ),
            (
                #"{"type": "emitter", "emitterCells": [{"shape": "circle", "emissionRange": 720}]}"#,
                "layers[0].emitterCells[0].emissionRange: expected a number from 0 to 360"
            ),
        ]
        for (layer, expected) in cases {
            let text = message(layer) ?? "read without an error"
            XCTAssertTrue(text.hasPrefix(expected), "\(layer): \(text)")
        }
    }

    /// Hostile numbers are refused by range, and a birth rate times lifetime beyond the particle cap as a whole.
    func testHostileNumbersAreRefused() {
        for key in ["birthRate", "lifetime", "velocity", "xAcceleration", "scale", "spin", "alphaSpeed", "diameter"] {
            for value in ["1e300", "-1e300"] {
                let layer = #"{"type": "emitter", "emitterCells": [{"shape": "circle", "\#(key)": \#(value)}]}"#
                let text = message(layer) ?? "read without an error"
                XCTAssertTrue(text.hasPrefix("layers[0].emitterCells[0].\(key): expected a number"), text)
            }
        }
        XCTAssertTrue(
            message(#"{"type": "emitter", "timeOffset": 1e300}"#)?.hasPrefix("layers[0].timeOffset: expected") ?? false)
        let crowded = #"""
            {"type": "emitter", "birthRate": 1000, "lifetime": 1000,
             "emitterCells": [{"shape": "circle", "birthRate": 10000, "lifetime": 3600}]}
            """#
        XCTAssertEqual(
            message(crowded),
            "layers[0]: the emitter would keep 36000000000000 particles alive at once (birth rate times lifetime); "
                + "at most 10000")
        let tooMany =
            #"{"type": "emitter", "emitterCells": ["#
            + Array(repeating: #"{"shape": "circle"}"#, count: 65).joined(separator: ",") + "]}"
        XCTAssertTrue(message(tooMany)?.hasPrefix("layers[0].emitterCells: expected an array of at most 64") ?? false)
    }
}
