import Compositor
import Scenes

/// Text layers: a string set in a font, size and paragraph style by the reader's typesetter.
///
///     { "type": "text", "text": "Rate it", "style": "headline", "color": "#fff", "alignment": "center",
///       "frame": { "x": 40, "y": 700, "width": 310, "height": 50 } }
///
/// `font` is a family name ("Inter"; default: the system face) or, when it has a "/" or a font file's
/// extension, a font file resolved against the scene's folder. `style` (an iOS text style by UIKit's or SwiftUI's
/// name: `title1` or `title`) gives a size and weight that `size` and `weight` override. `design` (`default`,
/// `rounded`, `serif`, `monospaced`) picks the system face's design, as `.font(.system(.title, design: .rounded))`
/// does; it cannot go with `font`.
extension SceneFile {
    static let textKeys = [
        "text", "font", "size", "style", "weight", "italic", "color", "alignment", "lineLimit", "lineSpacing",
        "tracking", "design",
    ]
    /// The largest point size (a glyph then spans about 49,000 pixels at scale 3); larger is surely a mistake.
    static let maximumTextSize = 16_384.0
    private static let fontFileExtensions = [".ttf", ".otf", ".ttc", ".otc", ".pfb", ".woff", ".woff2"]

    func text(_ object: JSONObject, path: String) throws(SceneFileError) -> Layer.Content {
        let string = try object.string("text")
        var style = TextStyle()
        if let name = try object.optionalString("style", oneOf: TextStyleName.allNames) {
            style = TextStyle(TextStyleName(swiftUI: name)!)
        }
        if let design = try object.choice("design", FontDesign.self) {
            guard object.value("font") == nil else {
                throw SceneFileError.invalid(
                    path: object.at("design"), message: "design picks a design of the system face: drop font, or design")
            }
            style.design = design
        }
        if let size = try object.optionalNumber("size", above: 0, atMost: SceneFile.maximumTextSize) {
            style.size = size
        }
        if let name = try object.optionalString("weight", oneOf: FontWeight.allCases.map { "\($0)" }) {
            style.weight = FontWeight(name: name)!
        }
        if let font = try object.optionalString("font") {
            let lowered = font.lowercased()
            let isFile = font.contains("/") || SceneFile.fontFileExtensions.contains { lowered.hasSuffix($0) }
            style.font = isFile ? .file(resolve(font)) : .family(font)
        }
        style.italic = try object.optionalBool("italic") ?? false
        style.alignment = try object.choice("alignment", TextAlignment.self) ?? .natural
        if let limit = try object.optionalNumber("lineLimit", atLeast: 0, atMost: 1_000_000) {
            guard limit == limit.rounded() else {
                throw SceneFileError.invalid(
                    path: object.at("lineLimit"), message: "expected a whole number of lines, found \(limit)")
            }
            style.lineLimit = Int(limit)
        }
        style.lineSpacing = try object.optionalNumber("lineSpacing", atLeast: 0, atMost: 10_000) ?? 0
        style.tracking = try object.optionalNumber("tracking", atLeast: -1_000, atMost: 1_000) ?? 0
        let color = try object.color("color") ?? .black
        guard let typesetter else {
            throw SceneFileError.invalid(path: path, message: "text layers need a typesetter, and none was given")
        }
        do {
            return .text(try typesetter.typeset(string, style: style), color: color)
        } catch {
            // The typesetter's errors are about the font (a family that is not installed, a file that is not one).
            throw SceneFileError.font(path: object.value("font") == nil ? path : object.at("font"), underlying: error)
        }
    }
}
