import Compositor
import Foundation
import Scenes
import Typesetting
import XCTest

@testable import SceneFormat

/// `path` and `symbol` layers as scene files write them, and every mistake a JSON path.
final class SceneFilePathTests: XCTestCase {
    private func scene(_ layer: String) throws -> Scene { try OneLayerScene.read(layer) }
    private func message(_ layer: String) -> String? { OneLayerScene.error(layer) }

    func testAPathReadsItsDataViewBoxFillAndRule() throws {
        let read = try scene(
            ##"{"type": "path", "d": "M0 0 h24 v24 h-24 z", "viewBox": {"x": 0, "y": 0, "width": 24, "height": 24}, "fill": "#ff0000", "fillRule": "evenodd"}"##
        )
        guard case .path(let shape) = read.layers[0].content else { return XCTFail("not a path") }
        XCTAssertEqual(shape.path, try Path(svgPathData: "M0 0 h24 v24 h-24 z"))
        XCTAssertEqual(shape.viewBox, Rect(x: 0, y: 0, width: 24, height: 24))
        XCTAssertEqual(shape.fill, RGBAColor(red: 1, green: 0, blue: 0))
        XCTAssertEqual(shape.fillRule, .evenOdd)
        guard case .path(let plain) = try scene(#"{"type": "path", "d": "M0 0 L1 1"}"#).layers[0].content else {
            return XCTFail()
        }
        XCTAssertEqual(plain.fill, .black, "SVG's default fill")
        XCTAssertEqual(plain.fillRule, .nonZero)
        guard
            case .path(let unfilled) = try scene(#"{"type": "path", "d": "M0 0 L1 1", "fill": "none"}"#).layers[0]
                .content
        else { return XCTFail() }
        XCTAssertNil(unfilled.fill)
    }

    /// A gradient `fill` in SVG's spelling: its geometry, stops, spread and the bounding box its units span.
    func testAGradientFillReads() throws {
        let read = try scene(
            ##"{"type": "path", "d": "M10 20 h30 v10 h-30 z", "fill": {"radialGradient": {"r": 0.5, "fx": 0.25}, "stops": [{"offset": 0, "color": "#fff"}, {"offset": 1, "color": "#000", "opacity": 0.5}], "spread": "reflect"}}"##
        )
        guard case .path(let shape) = read.layers[0].content, let paint = shape.gradient else { return XCTFail() }
        XCTAssertNil(shape.fill)
        XCTAssertEqual(
            paint.gradient.geometry, .radial(center: Point(x: 0.5, y: 0.5), radius: 0.5, focus: Point(x: 0.25, y: 0.5)))
        XCTAssertEqual(paint.gradient.spread, .reflect)
        XCTAssertEqual(paint.gradient.stops[1].color, RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        // In the bounding box's units, resolved against the path's bounds when drawn (PathLayerTests).
        XCTAssertEqual(paint.units, .objectBoundingBox)
        XCTAssertEqual(paint.transform, .identity)
        XCTAssertEqual(
            message(#"{"type": "path", "d": "M0 0 h1 v1 z", "fill": {"linearGradient": {}, "stops": []}}"#),
            "layers[0].fill.stops: expected 1 to 256 stops")
        XCTAssertNotNil(message(#"{"type": "path", "d": "M0 0 h1 v1 z", "fill": {"conicGradient": {}}}"#))
    }

    /// `stroke` in SVG's terms, `strokeEnd` and its animation; bad dashes refused with the reason.
    func testAStrokeReads() throws {
        let read = try scene(
            ##"{"type": "path", "d": "M0 0 L10 10", "fill": "none", "stroke": {"color": "#fff", "width": 2, "cap": "round", "join": "bevel", "miterLimit": 2, "dash": [4, 2], "dashPhase": 1}, "strokeEnd": 0.5, "animations": [{"property": "strokeEnd", "to": 1, "duration": 1}]}"##
        )
        guard case .path(let shape) = read.layers[0].content, let stroke = shape.stroke else { return XCTFail() }
        XCTAssertEqual(stroke.color, .white)
        XCTAssertEqual(
            stroke.style,
            try StrokeStyle(width: 2, cap: .round, join: .bevel, miterLimit: 2).dashed([4, 2], phase: 1))
        XCTAssertEqual(shape.strokeEnd, 0.5)
        guard case .path(let done) = read.snapshot(at: 1).layers[0].content else { return XCTFail() }
        XCTAssertEqual(done.strokeEnd, 1)
        XCTAssertNotNil(message(#"{"type": "path", "d": "M0 0", "stroke": {"dash": [0, 0]}}"#))
        XCTAssertNotNil(message(#"{"type": "path", "d": "M0 0", "stroke": {"dash": [1, -1]}}"#))
        XCTAssertNotNil(message(#"{"type": "path", "d": "M0 0", "stroke": {"cap": "pointy"}}"#))
    }

    func testPathMistakesNameTheirPathAndOffset() {
        XCTAssertEqual(
            message(#"{"type": "path", "d": "M0 0 L 5 x"}"#),
            "layers[0].d: expected a number at offset 9, found \"x\"")
        XCTAssertNotNil(message(#"{"type": "path"}"#))
        XCTAssertEqual(
            message(#"{"type": "path", "d": "M0 0", "viewBox": {"x": 0, "y": 0, "width": 0, "height": 1}}"#),
            "layers[0].viewBox: a viewBox needs a positive size")
        XCTAssertNotNil(message(#"{"type": "path", "d": "M0 0", "fillRule": "evenOdd"}"#))
        XCTAssertNotNil(message(#"{"type": "path", "d": "M0 0 L 1e400 0"}"#))
    }

    /// `UIImage(systemName: "xmark")` at a point size and tint: the catalogue's icon set by the typesetter; an unknown
    /// name is refused with the closest ones.
    func testASymbolIsTheCataloguesIcon() throws {
        var file = SceneFile(
            directory: "", maxPixels: 1_000_000, typesetter: FontTypesetter(),
            loadImage: { _ in Image(width: 1, height: 1) })
        let read = try file.scene(
            fromJSON: Array(
                ##"{"canvas": {"width": 40, "height": 30}, "layers": [{"type": "symbol", "name": "xmark", "size": 20, "color": "#fff"}]}"##
                    .utf8))
        guard case .text(_, let color) = read.layers[0].content else { return XCTFail("a symbol is set as text") }
        XCTAssertEqual(color, .white)
        XCTAssertEqual(read.layers[0].name, "xmark")
        func error(_ layer: String) -> String? {
            do {
                _ = try file.scene(
                    fromJSON: Array(#"{"canvas": {"width": 40, "height": 30}, "layers": [\#(layer)]}"#.utf8))
                return nil
            } catch { return "\(error)" }
        }
        XCTAssertEqual(
            error(#"{"type": "symbol", "name": "xmrk"}"#)?.hasPrefix(
                "layers[0].name: no symbol \"xmrk\" in the catalogue; closest: xmark"), true)
        XCTAssertEqual(
            error(#"{"type": "symbol", "name": "xmark", "weight": "fat"}"#),
            "layers[0].weight: expected one of ultraLight, thin, light, regular, medium, semibold, bold, heavy, black, "
                + "found \"fat\"")
        XCTAssertNotNil(error(#"{"type": "symbol"}"#))
    }

    /// The issue's own example reads, and each weight draws more ink than the one before (SymbolWeightTests checks
    /// by how much).
    func testASymbolTakesSFSymbolsWeights() throws {
        var file = SceneFile(
            directory: "", maxPixels: 1_000_000, typesetter: FontTypesetter(),
            loadImage: { _ in Image(width: 1, height: 1) })
        func ink(_ weight: String) throws -> Int {
            let scene = try file.scene(
                fromJSON: Array(
                    (#"{"canvas": {"width": 40, "height": 30, "scale": 3}, "layers": [{"type": "symbol", "#
                        + ##""name": "xmark", "weight": "\##(weight)", "size": 17, "color": "#fff"}]}"##).utf8))
            let drawn = try SceneRenderer().render(scene)
            return (0..<drawn.height).reduce(0) { sum, y in
                sum + (0..<drawn.width).reduce(0) { $0 + Int(drawn[$1, y].alpha) }
            }
        }
        let inks = try ["light", "regular", "semibold"].map(ink)
        XCTAssertLessThan(inks[0], inks[1])
        XCTAssertLessThan(inks[1], inks[2])
    }
}
