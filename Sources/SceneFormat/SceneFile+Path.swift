import Compositor
import Scenes

/// Path layers: SVG path data filled in the frame, as `CAShapeLayer` draws a path.
///
///     { "type": "path", "d": "M6 6 L18 18 M18 6 L6 18", "viewBox": { "x": 0, "y": 0, "width": 24, "height": 24 },
///       "fill": "#fff", "fillRule": "evenodd", "frame": { "x": 20, "y": 60, "width": 24, "height": 24 } }
///
/// `d` is SVG 1.1 / SVG 2 path data (a mistake names its offset); `viewBox` maps that box of path coordinates
/// into the frame, scaled uniformly and centred (without one, path coordinates are points from the frame's corner);
/// `fill` a colour, `"none"` or a gradient (see `gradientFill`; default black, as SVG's); `fillRule` `nonzero`
/// (default) or `evenodd`. Animations: `color` is the fill's colour (a path with no fill at all: the stroke's; a
/// gradient fill refuses it), `strokeColor` the stroke's on its own, `strokeEnd` the stroke's length.
extension SceneFile {
    static let pathKeys = ["d", "viewBox", "fill", "fillRule", "stroke", "strokeEnd"]

    /// Path data longer than this many bytes is refused before it is read (a million segments fit in less).
    static let maximumPathDataBytes = 16 << 20

    func path(_ object: JSONObject) throws(SceneFileError) -> Layer.Content {
        let data = try object.string("d")
        guard data.utf8.count <= SceneFile.maximumPathDataBytes else {
            throw SceneFileError.invalid(
                path: object.at("d"), message: "path data over \(SceneFile.maximumPathDataBytes >> 20) MiB")
        }
        let path: Path
        do {
            path = try Path(svgPathData: data)
        } catch {
            throw SceneFileError.invalid(path: object.at("d"), message: error.description)
        }
        var shape = VectorShape(path, viewBox: try object.frame("viewBox"))
        if let box = shape.viewBox, !(box.width > 0 && box.height > 0) {
            throw SceneFileError.invalid(path: object.at("viewBox"), message: "a viewBox needs a positive size")
        }
        switch object.value("fill") {
        case .string("none")?: shape.fill = nil
        case .object?:
            shape.fill = nil
            shape.gradient = try gradientFill(object.value("fill")!, path: object.at("fill"))
        default: if let fill = try object.color("fill") { shape.fill = fill }
        }
        let rule = try object.optionalString("fillRule", oneOf: ["nonzero", "evenodd"]) ?? "nonzero"
        shape.fillRule = rule == "evenodd" ? .evenOdd : .nonZero
        if let stroke = object.value("stroke") { shape.stroke = try self.stroke(stroke, path: object.at("stroke")) }
        shape.strokeEnd = try object.optionalNumber("strokeEnd", atLeast: 0, atMost: 1) ?? 1
        return .path(shape)
    }

    /// `stroke`: `{ "color": "#fff", "width": 2, "cap": "round", "join": "round", "miterLimit": 4, "dash": [4, 2],
    /// "dashPhase": 0 }`, as SVG's stroke properties (width 1, butt caps, miter joins with limit 4 by default; a
    /// width of 0 is a one-pixel hairline; a dash array of zeros or with a negative entry refused).
    private func stroke(_ json: JSONValue, path: String) throws(SceneFileError) -> PathStroke {
        let object = try JSONObject(json, path: path)
        try object.allowKeys(["color", "width", "cap", "join", "miterLimit", "dash", "dashPhase"])
        var style = StrokeStyle(
            width: try object.optionalNumber("width", atLeast: 0, atMost: 1e6) ?? 1,
            cap: try object.choice("cap", StrokeStyle.LineCap.self) ?? .butt,
            join: try object.choice("join", StrokeStyle.LineJoin.self) ?? .miter,
            miterLimit: try object.optionalNumber("miterLimit", atLeast: 1, atMost: 1e6) ?? 4)
        if let dash = object.value("dash") {
            guard case .array(let items) = dash, items.count <= 256 else {
                throw SceneFileError.invalid(
                    path: object.at("dash"), message: "expected an array of at most 256 lengths")
            }
            var lengths: [Double] = []
            for item in items {
                guard case .number(let length) = item else {
                    throw SceneFileError.invalid(path: object.at("dash"), message: "expected lengths")
                }
                lengths.append(length)
            }
            do {
                style = try style.dashed(
                    lengths, phase: try object.optionalNumber("dashPhase", atLeast: -1e9, atMost: 1e9) ?? 0)
            } catch {
                throw SceneFileError.invalid(path: object.at("dash"), message: "\(error)")
            }
        }
        return PathStroke(color: try object.color("color") ?? .black, style: style)
    }
}
