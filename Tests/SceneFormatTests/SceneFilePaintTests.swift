import Compositor
import Scenes
import XCTest

@testable import SceneFormat

/// Gradients as a shape's `color` and a backdrop's `tint`, a path's `strokeColor` animation, and the animations a
/// paint refuses, each with its JSON path.
final class SceneFilePaintTests: XCTestCase {
    private let ramp =
        ##"{"linearGradient": {"x1": 0, "y1": 0, "x2": 1, "y2": 0}, "stops": [{"offset": 0, "color": "#000"}, "##
        + ##"{"offset": 1, "color": "#fff"}]}"##

    func testAShapeOrColorLayerTakesAGradientColor() throws {
        for layer in [
            ##"{"type": "shape", "shape": "capsule", "color": \##(ramp)}"##,
            ##"{"type": "color", "color": \##(ramp)}"##,
        ] {
            guard case .gradientShape(_, let fill) = try OneLayerScene.read(layer).layers[0].content else {
                return XCTFail(layer)
            }
            XCTAssertEqual(fill.units, .objectBoundingBox)
            XCTAssertEqual(fill.gradient.geometry, .linear(from: Point(x: 0, y: 0), to: Point(x: 1, y: 0)))
            XCTAssertEqual(fill.gradient.stops.last?.color, .white)
        }
        let points = try OneLayerScene.read(
            ##"{"type": "shape", "cornerRadius": 4, "color": {"linearGradient": {"x2": 40}, "units": "userSpaceOnUse", "##
                + ##""stops": [{"color": "red"}]}}"##)
        guard case .gradientShape(.rectangle(4), let fill) = points.layers[0].content else { return XCTFail() }
        XCTAssertEqual(fill.units, .userSpaceOnUse)
        XCTAssertEqual(
            OneLayerScene.error(##"{"type": "shape", "color": {"linearGradient": {}, "stops": []}}"##),
            "layers[0].color.stops: expected 1 to 256 stops")
        XCTAssertEqual(
            OneLayerScene.error(##"{"type": "color", "color": {"conicGradient": {}}}"##),
            "layers[0].color.conicGradient: unknown key; expected one of linearGradient, radialGradient, stops, "
                + "spread, units")
    }

    func testABackdropTakesATintColourOrGradient() throws {
        let fade =
            ##"{"linearGradient": {"x2": 0, "y2": 1}, "stops": [{"color": "#000", "opacity": 0.5}, "##
            + ##"{"offset": 1, "color": "#000", "opacity": 0}]}"##
        let tinted = try OneLayerScene.read(##"{"type": "backdrop", "material": "regular", "tint": \##(fade)}"##)
        guard case .backdrop(let material) = tinted.layers[0].content, let tint = material.tintGradient else {
            return XCTFail()
        }
        XCTAssertEqual(tint.gradient.stops[0].color, RGBAColor(white: 0, alpha: 0.5))
        XCTAssertEqual(tint.gradient.geometry, .linear(from: Point(x: 0, y: 0), to: Point(x: 0, y: 1)))
        let plain = try OneLayerScene.read(##"{"type": "backdrop", "material": "regular"}"##)
        let coloured = try OneLayerScene.read(##"{"type": "backdrop", "material": "regular", "tint": "#ff000040"}"##)
        guard case .backdrop(let own) = plain.layers[0].content, case .backdrop(let more) = coloured.layers[0].content
        else { return XCTFail() }
        XCTAssertEqual(more.recipe.tints.dropLast(), own.recipe.tints[...], "the material's own tints stay")
        XCTAssertEqual(more.recipe.tints.last, TintLayer(RGBAColor(red: 1, green: 0, blue: 0, alpha: 64 / 255)))
        XCTAssertNil(more.tintGradient)
        XCTAssertEqual(
            OneLayerScene.error(##"{"type": "backdrop", "material": "regular", "tint": 3}"##)?.hasPrefix(
                "layers[0].tint: "), true)
    }

    /// `strokeColor` reads and animates the stroke alone; `color` still the fill.
    func testAPathsStrokeColourAnimates() throws {
        let scene = try OneLayerScene.read(
            ##"{"type": "path", "d": "M2 2 H20 V20 Z", "fill": "#fff", "stroke": {"color": "#f00", "width": 2}, "##
                + ##""animations": [{"property": "strokeColor", "to": "#00f", "duration": 2, "curve": "linear"}]}"##)
        guard case .path(let half) = scene.snapshot(at: 1).layers[0].content else { return XCTFail() }
        XCTAssertEqual(half.stroke?.color, RGBAColor(red: 0.5, green: 0, blue: 0.5))
        XCTAssertEqual(half.fill, .white)
    }

    /// What a paint cannot animate is refused where the animation names it.
    func testAnimationsAPaintCannotTakeAreRefused() {
        let cases: [(String, String)] = [
            (
                ##"{"type": "shape", "color": \##(ramp), "animations": [{"property": "color", "to": "red"}]}"##,
                "layers[0].animations[0].property: color animates a solid colour; this layer's color is a gradient, "
                    + "which does not animate"
            ),
            (
                ##"{"type": "path", "d": "M0 0 H9 V9 Z", "fill": \##(ramp), "stroke": {"color": "#fff"}, "##
                    + ##""animations": [{"property": "opacity", "to": 0}, {"property": "color", "to": "red"}]}"##,
                "layers[0].animations[1].property: color animates the fill, a gradient here, which does not animate "
                    + "(strokeColor animates the stroke)"
            ),
            (
                ##"{"type": "path", "d": "M0 0 H9 V9 Z", "animations": [{"property": "strokeColor", "to": "red"}]}"##,
                "layers[0].animations[0].property: strokeColor animates a stroke, and this path has none"
            ),
            (
                ##"{"type": "shape", "color": "red", "animations": [{"property": "strokeColor", "to": "red"}]}"##,
                "layers[0].animations[0].property: strokeColor does not animate a shape layer (only path)"
            ),
            (
                ##"{"type": "path", "d": "M0 0 H9", "stroke": {}, "animations": [{"property": "strokeColor", "to": 1}]}"##,
                "layers[0].animations[0].to: expected a colour (#rgb, #rrggbb, #rrggbbaa or a name), found 1"
            ),
        ]
        for (layer, message) in cases { XCTAssertEqual(OneLayerScene.error(layer), message, layer) }
        // A gradient layer's opacity animates.
        XCTAssertNil(
            OneLayerScene.error(
                ##"{"type": "shape", "color": \##(ramp), "animations": [{"property": "opacity", "to": 0}]}"##))
    }
}
