import Compositor
import Scenes

/// A path's `fill` as a gradient, as SVG writes `linearGradient` and `radialGradient` (also a shape's `color` and a
/// backdrop's `tint`: see `SceneFile+Paint`):
///
///     "fill": { "linearGradient": { "x1": 0, "y1": 0, "x2": 1, "y2": 0 },
///               "stops": [{ "offset": 0, "color": "#ff9f43" }, { "offset": 1, "color": "#1dd1a1" }],
///               "spread": "pad", "units": "objectBoundingBox" }
///     "fill": { "radialGradient": { "cx": 0.5, "cy": 0.5, "r": 0.5, "fx": 0.3, "fy": 0.3 }, "stops": [ … ] }
///
/// Coordinates default as SVG's (x2 1, the others 0; cx, cy, r 0.5, the focus at the centre); `units`
/// `objectBoundingBox` (the default: 0…1 across the path's bounds, or a layer's frame) or `userSpaceOnUse` (path
/// coordinates, or points from the frame's corner; `GradientFill.Units`); `spread`
/// `pad`, `reflect` or `repeat`; at most 256 stops, each an `offset` and a `color` (with `opacity` multiplying
/// its alpha).
extension SceneFile {
    static let maximumGradientStops = 256

    func gradientFill(_ json: JSONValue, path: String) throws(SceneFileError) -> GradientFill {
        let object = try JSONObject(json, path: path)
        try object.allowKeys(["linearGradient", "radialGradient", "stops", "spread", "units"])
        let geometry: Gradient.Geometry
        if let linear = object.value("linearGradient") {
            let line = try JSONObject(linear, path: object.at("linearGradient"))
            try line.allowKeys(["x1", "y1", "x2", "y2"])
            func coordinate(_ key: String, _ fallback: Double) throws(SceneFileError) -> Double {
                try line.optionalNumber(key, atLeast: -1e9, atMost: 1e9) ?? fallback
            }
            geometry = .linear(
                from: Point(x: try coordinate("x1", 0), y: try coordinate("y1", 0)),
                to: Point(x: try coordinate("x2", 1), y: try coordinate("y2", 0)))
        } else if let radial = object.value("radialGradient") {
            let circle = try JSONObject(radial, path: object.at("radialGradient"))
            try circle.allowKeys(["cx", "cy", "r", "fx", "fy"])
            func coordinate(_ key: String, _ fallback: Double) throws(SceneFileError) -> Double {
                try circle.optionalNumber(key, atLeast: -1e9, atMost: 1e9) ?? fallback
            }
            let center = Point(x: try coordinate("cx", 0.5), y: try coordinate("cy", 0.5))
            let focus = Point(x: try coordinate("fx", center.x), y: try coordinate("fy", center.y))
            geometry = .radial(
                center: center, radius: try circle.optionalNumber("r", atLeast: 0, atMost: 1e9) ?? 0.5,
                focus: focus == center ? nil : focus)
        } else {
            throw SceneFileError.invalid(
                path: path, message: "expected a colour, \"none\", or a linearGradient or radialGradient")
        }
        guard case .array(let list) = try object.required("stops"), !list.isEmpty,
            list.count <= SceneFile.maximumGradientStops
        else {
            throw SceneFileError.invalid(
                path: object.at("stops"), message: "expected 1 to \(SceneFile.maximumGradientStops) stops")
        }
        var stops: [Gradient.Stop] = []
        for (index, element) in list.enumerated() {
            let stop = try JSONObject(element, path: "\(object.at("stops"))[\(index)]")
            try stop.allowKeys(["offset", "color", "opacity"])
            var color = try stop.requiredColor("color")
            color.alpha *= try stop.optionalNumber("opacity", atLeast: 0, atMost: 1) ?? 1
            stops.append(
                Gradient.Stop(offset: try stop.optionalNumber("offset", atLeast: -1e9, atMost: 1e9) ?? 0, color: color))
        }
        let spread = try object.choice("spread", Gradient.Spread.self) ?? .pad
        // Resolved against the box when drawn: a frame may animate (an empty box paints nothing, as SVG says).
        let units = try object.choice("units", GradientFill.Units.self) ?? .objectBoundingBox
        return GradientFill(Gradient(geometry, stops: stops, spread: spread), units: units)
    }
}
