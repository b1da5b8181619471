import Compositor
import Scenes

/// Path layers: SVG path data filled in the frame, as `CAShapeLayer` draws a path.
///
///     { "type": "path", "d": "M6 6 L18 18 M18 6 L6 18", "viewBox": { "x": 0, "y": 0, "width": 24, "height": 24 },
///       "fill": "#fff", "fillRule": "evenodd", "frame": { "x": 20, "y": 60, "width": 24, "height": 24 } }
///
/// `d` is SVG 1.1 / SVG 2 path data (a mistake names its offset); `viewBox` maps that box of path coordinates
/// into the frame, scaled uniformly and centred (without one, path coordinates are points from the frame's corner);
/// `fill` a colour, `"none"` or a gradient (see `gradientFill`; default black, as SVG's); `fillRule` `nonzero` (default) or `evenodd`.
extension SceneFile {
    static let pathKeys = ["d", "viewBox", "fill", "fillRule"]

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
            shape.gradient = try gradientFill(object.value("fill")!, path: object.at("fill"), bounds: path.bounds)
        default: if let fill = try object.color("fill") { shape.fill = fill }
        }
        let rule = try object.optionalString("fillRule", oneOf: ["nonzero", "evenodd"]) ?? "nonzero"
        shape.fillRule = rule == "evenodd" ? .evenOdd : .nonZero
        return .path(shape)
    }
}
