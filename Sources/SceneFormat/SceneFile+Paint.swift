import Compositor
import Scenes

/// Gradients beyond paths: a `color` or `shape` layer's `color` and a backdrop's `tint` take the gradient object a
/// path's `fill` takes (`gradientFill`), lying in the layer's frame (`objectBoundingBox`, the default: 0…1 across
/// the frame, as `CAGradientLayer`'s `startPoint` and `endPoint`; `userSpaceOnUse`: points from its corner):
///
///     { "type": "shape", "shape": "capsule", "frame": { … },
///       "color": { "linearGradient": { "x1": 0, "y1": 0, "x2": 1, "y2": 0 },
///                  "stops": [{ "offset": 0, "color": "#ff9f43" }, { "offset": 1, "color": "#ee5253" }] } }
///     { "type": "backdrop", "material": "regular", "appearance": "dark",
///       "tint": { "linearGradient": { "x2": 0, "y2": 1 },
///                 "stops": [{ "offset": 0, "color": "#000", "opacity": 0.5 }, { "offset": 1, "color": "#000",
///                             "opacity": 0 }] } }
///
/// A backdrop's `tint` may also be a colour: one more tint layer over the material's own (as `--tint` is for a
/// photo, except that it adds rather than replaces). A gradient tint is drawn over the material's tints and under
/// its `dim`; both kinds fade with `effect` as the material's tints do.
extension SceneFile {
    /// A `color` or `shape` layer's content: its `color` a colour or a gradient.
    func shapeContent(_ shape: Shape, _ object: JSONObject) throws(SceneFileError) -> Layer.Content {
        guard case .object? = object.value("color") else {
            return .shape(shape, color: try object.requiredColor("color"))
        }
        return .gradientShape(shape, try gradientFill(object.value("color")!, path: object.at("color")))
    }

    /// A backdrop's `tint`, if it has one, added to its material.
    func addTint(_ object: JSONObject, to material: inout BackdropMaterial) throws(SceneFileError) {
        switch object.value("tint") {
        case nil: return
        case .object?: material.tintGradient = try gradientFill(object.value("tint")!, path: object.at("tint"))
        default: material.recipe.tints.append(TintLayer(try object.requiredColor("tint")))
        }
    }

    /// Refuses animations a layer's paint cannot take: `color` where the fill is a gradient (whose colours do not
    /// animate), `strokeColor` on a path without a stroke.
    static func checkPaintAnimations(
        _ animations: [LayerAnimation], of content: Layer.Content, path: String
    ) throws(SceneFileError) {
        for (index, animation) in animations.enumerated() {
            let at = "\(path)[\(index)].property"
            switch (animation.property, content) {
            case (.color, .gradientShape):
                throw SceneFileError.invalid(
                    path: at,
                    message: "color animates a solid colour; this layer's color is a gradient, which does not animate")
            case (.color, .path(let shape)) where shape.gradient != nil:
                throw SceneFileError.invalid(
                    path: at,
                    message: "color animates the fill, a gradient here, which does not animate"
                        + (shape.stroke == nil ? "" : " (strokeColor animates the stroke)"))
            case (.strokeColor, .path(let shape)) where shape.stroke == nil:
                throw SceneFileError.invalid(path: at, message: "strokeColor animates a stroke, and this path has none")
            default: continue
            }
        }
    }
}
