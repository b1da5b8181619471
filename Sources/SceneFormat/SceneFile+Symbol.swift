import Compositor
import Scenes

/// Symbol layers: an SF Symbol by name, as `UIImage(systemName: "xmark")` with a point size and a tint, drawn from
/// the open icon font `SymbolCatalog` maps the name to, centred in the frame (the parent's bounds by default).
///
///     { "type": "symbol", "name": "xmark", "size": 20, "color": "#fff",
///       "frame": { "x": 326, "y": 55, "width": 44, "height": 44 } }
///
/// `name` (required: here it names the symbol, and is the layer's name too), `size` (points, default 17, the body
/// style's), `color` (black), `weight` (SF Symbols' nine, `ultraLight` … `black`, default `regular`: the font's one
/// outline grown or thinned as `SymbolCatalog.outlineGrowth(for:)` says). An unknown name is refused with the
/// catalogue's closest names.
extension SceneFile {
    static let symbolKeys = ["size", "weight", "color"]

    func symbol(_ object: JSONObject, path: String) throws(SceneFileError) -> Layer.Content {
        let name = try object.string("name")
        guard let icon = SymbolCatalog.iconName(for: name) else {
            throw SceneFileError.invalid(
                path: object.at("name"),
                message: "no symbol \(name.quotedForMessage(limit: 40)) in the catalogue; closest: "
                    + SymbolCatalog.closestNames(to: name).joined(separator: ", "))
        }
        let weightName = try object.optionalString("weight", oneOf: FontWeight.allCases.map { "\($0)" })
        let weight = weightName.flatMap(FontWeight.init(name:)) ?? .regular
        let size = try object.optionalNumber("size", above: 0, atMost: SceneFile.maximumTextSize) ?? 17
        guard let typesetter else {
            throw SceneFileError.invalid(path: path, message: "symbol layers need a typesetter, and none was given")
        }
        var style = TextStyle(font: .family(SymbolCatalog.family), size: size, alignment: .center, lineLimit: 1)
        style.outlineGrowth = SymbolCatalog.outlineGrowth(for: weight)
        do {
            return .text(try typesetter.typeset(icon, style: style), color: try object.color("color") ?? .black)
        } catch {
            throw SceneFileError.font(path: path, underlying: error)
        }
    }
}
