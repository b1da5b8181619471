import Compositor

/// A mistake in a scene file: where (a JSON path such as `layers[2].opacity`) and what was expected.
struct SceneError: Error, Equatable, CustomStringConvertible {
    let path: String
    let message: String

    var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Reads a scene file (JSON) into a `Scene`: the format is the library's model with the same names.
///
///     { "canvas": { "width": 390, "height": 844, "scale": 3, "background": "#000", "space": "srgb" },
///       "layers": [ { "type": "image", "path": "photo.jpg", "fit": "fill" },
///                   { "type": "backdrop", "material": "thin", "frame": { "x": 0, "y": 600, ... } },
///                   { "type": "color", "color": "black", "opacity": 0.6 }, ... ] }
///
/// Every layer takes `type`, `name`, `frame` ({x, y, width, height} in points; default: the parent's
/// bounds), `opacity` (0...1), `blend` (a compositing operator) and `transform` (CSS-like text, about the
/// frame's centre). Unknown keys are errors, so a misspelt option is never silently ignored.
struct SceneFile {
    static let maximumLayers = 10_000

    /// Decodes an image path, already resolved against the scene's folder; its errors carry their own text.
    let loadImage: (String) throws -> Image
    /// The folder relative image paths start from ("" for the current one).
    let directory: String
    let maxPixels: Int
    private var layerCount = 0

    init(directory: String, maxPixels: Int, loadImage: @escaping (String) throws -> Image) {
        self.directory = directory
        self.maxPixels = maxPixels
        self.loadImage = loadImage
    }

    mutating func scene(from json: JSONValue) throws -> Scene {
        let root = try JSONObject(json, path: "")
        try root.allowKeys(["canvas", "layers"])
        let canvas = try JSONObject(try root.required("canvas"), path: "canvas")
        try canvas.allowKeys(["width", "height", "scale", "background", "space"])
        var scene = Scene(
            width: try canvas.number("width", above: 0), height: try canvas.number("height", above: 0),
            scale: try canvas.optionalNumber("scale", above: 0, atMost: 16) ?? 1)
        scene.background = try canvas.color("background") ?? .clear
        scene.space = try canvas.choice("space", WorkingSpace.self) ?? .srgb
        let pixels = Double(scene.pixelWidth) * Double(scene.pixelHeight)
        guard scene.pixelWidth > 0, scene.pixelHeight > 0, pixels <= Double(maxPixels) else {
            throw SceneError(
                path: "canvas",
                message: "\(scene.pixelWidth)x\(scene.pixelHeight) pixels is outside 1 to \(maxPixels) pixels "
                    + "(see --max-pixels)")
        }
        scene.layers = try layers(root.required("layers"), path: "layers")
        return scene
    }

    private mutating func layers(_ json: JSONValue, path: String) throws -> [Layer] {
        guard case .array(let elements) = json else {
            throw SceneError(path: path, message: "expected an array of layers, found \(json.kindDescription)")
        }
        return try elements.enumerated().map { index, element in try layer(element, path: "\(path)[\(index)]") }
    }

    private static let commonKeys = ["type", "name", "frame", "opacity", "blend", "transform"]
    private static let keysByType: [String: [String]] = [
        "image": ["path", "fit", "filter", "cornerRadius"],
        "color": ["color"],
        "shape": ["shape", "color", "cornerRadius"],
        "backdrop": ["material", "appearance", "dim", "cornerRadius", "blur"],
        "group": ["layers"],
    ]

    private mutating func layer(_ json: JSONValue, path: String) throws -> Layer {
        layerCount += 1
        guard layerCount <= SceneFile.maximumLayers else {
            throw SceneError(path: path, message: "more than \(SceneFile.maximumLayers) layers")
        }
        let object = try JSONObject(json, path: path)
        let types = SceneFile.keysByType.keys.sorted()
        let type = try object.string("type", oneOf: types)
        try object.allowKeys(SceneFile.commonKeys + SceneFile.keysByType[type]!)
        let content: Layer.Content
        switch type {
        case "image":
            let file = try object.string("path")
            let resolved = file.hasPrefix("/") || directory.isEmpty ? file : directory + "/" + file
            do {
                content = .image(
                    try loadImage(resolved), fit: try object.choice("fit", FitMode.self) ?? .fill,
                    filter: try object.choice("filter", ResampleFilter.self) ?? .lanczos3,
                    cornerRadius: try object.optionalNumber("cornerRadius", atLeast: 0) ?? 0)
            } catch let failure as ToolFailure {
                throw ToolFailure(
                    failure.code, "\(path).path", (failure.subject.map { "\($0): " } ?? "") + failure.reason)
            }
        case "color":
            content = .shape(.rectangle(cornerRadius: 0), color: try object.requiredColor("color"))
        case "shape":
            let shape = try object.optionalString("shape", oneOf: ["rectangle", "capsule"]) ?? "rectangle"
            content = .shape(
                shape == "capsule"
                    ? .capsule : .rectangle(cornerRadius: try object.optionalNumber("cornerRadius", atLeast: 0) ?? 0),
                color: try object.requiredColor("color"))
        case "backdrop":
            let name = try object.string("material")
            guard let (material, forced) = MaterialCatalog.lookup(name) else {
                throw SceneError(
                    path: "\(path).material",
                    message: "unknown material '\(name)'; expected one of "
                        + MaterialCatalog.knownNames.joined(separator: ", "))
            }
            let appearance = try object.choice("appearance", Appearance.self)
            var recipe = material.recipe(for: forced ?? appearance ?? .light)
            if let blur = try object.optionalNumber("blur", atLeast: 0, atMost: 1000) { recipe.blurPoints = blur }
            content = .backdrop(
                BackdropMaterial(
                    recipe: recipe, dim: try object.optionalNumber("dim", atLeast: 0, atMost: 1) ?? 0,
                    cornerRadius: try object.optionalNumber("cornerRadius", atLeast: 0) ?? 0))
        default:
            content = .group(try layers(try object.required("layers"), path: "\(path).layers"))
        }
        var result = Layer(content, name: try object.optionalString("name"))
        result.frame = try object.frame("frame")
        result.opacity = try object.optionalNumber("opacity", atLeast: 0, atMost: 1) ?? 1
        if let blend = try object.optionalString("blend") {
            guard let op = CompositeOperator(name: blend) else {
                throw SceneError(
                    path: "\(path).blend",
                    message: "unknown operator '\(blend)'; expected one of "
                        + CompositeOperator.allCases.map(\.rawValue).joined(separator: ", "))
            }
            result.blend = op
        }
        if let text = try object.optionalString("transform") {
            do {
                result.transform = try AffineTransform2D(parsing: text)
            } catch {
                throw SceneError(path: "\(path).transform", message: error.description)
            }
        }
        return result
    }
}

/// One JSON object being read, with its path for messages.
private struct JSONObject {
    let members: [(key: String, value: JSONValue)]
    let path: String

    init(_ json: JSONValue, path: String) throws(SceneError) {
        guard case .object(let members) = json else {
            throw SceneError(path: path, message: "expected an object, found \(json.kindDescription)")
        }
        self.members = members
        self.path = path
    }

    private func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func allowKeys(_ allowed: [String]) throws(SceneError) {
        for member in members where !allowed.contains(member.key) {
            throw SceneError(
                path: at(member.key), message: "unknown key; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    func value(_ key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    func required(_ key: String) throws(SceneError) -> JSONValue {
        guard let value = value(key) else { throw SceneError(path: at(key), message: "missing") }
        return value
    }

    func optionalNumber(
        _ key: String, above lower: Double? = nil, atLeast floor: Double? = nil, atMost ceiling: Double? = nil
    ) throws(SceneError) -> Double? {
        guard let json = value(key) else { return nil }
        var expectation = "a number"
        switch (lower, floor, ceiling) {
        case (_, let floor?, let ceiling?): expectation += " from \(plain(floor)) to \(plain(ceiling))"
        case (let lower?, _, let ceiling?): expectation += " above \(plain(lower)) and at most \(plain(ceiling))"
        case (let lower?, _, nil): expectation += " above \(plain(lower))"
        case (_, let floor?, nil): expectation += " of at least \(plain(floor))"
        default: break
        }
        guard case .number(let number) = json, lower.map({ number > $0 }) ?? true,
            floor.map({ number >= $0 }) ?? true, ceiling.map({ number <= $0 }) ?? true
        else {
            throw SceneError(path: at(key), message: "expected \(expectation), found \(describe(json))")
        }
        return number
    }

    func number(_ key: String, above lower: Double) throws(SceneError) -> Double {
        _ = try required(key)
        return try optionalNumber(key, above: lower)!
    }

    func optionalString(_ key: String, oneOf choices: [String]? = nil) throws(SceneError) -> String? {
        guard let json = value(key) else { return nil }
        let expectation = choices.map { "one of " + $0.joined(separator: ", ") } ?? "a string"
        guard case .string(let text) = json, choices.map({ $0.contains(text) }) ?? true else {
            throw SceneError(path: at(key), message: "expected \(expectation), found \(describe(json))")
        }
        return text
    }

    func string(_ key: String, oneOf choices: [String]? = nil) throws(SceneError) -> String {
        _ = try required(key)
        return try optionalString(key, oneOf: choices)!
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(SceneError) -> T?
    where T.RawValue == String {
        try optionalString(key, oneOf: T.allCases.map(\.rawValue)).flatMap { T(rawValue: $0) }
    }

    func color(_ key: String) throws(SceneError) -> RGBAColor? {
        guard let text = try optionalString(key) else { return nil }
        guard let color = RGBAColor(css: text) else {
            throw SceneError(
                path: at(key), message: "expected a colour (#rgb, #rrggbb, #rrggbbaa or a name), found \"\(text)\"")
        }
        return color
    }

    func requiredColor(_ key: String) throws(SceneError) -> RGBAColor {
        _ = try required(key)
        return try color(key)!
    }

    func frame(_ key: String) throws(SceneError) -> Rect? {
        guard let json = value(key) else { return nil }
        let frame = try JSONObject(json, path: at(key))
        try frame.allowKeys(["x", "y", "width", "height"])
        func coordinate(_ name: String) throws(SceneError) -> Double {
            _ = try frame.required(name)
            return try frame.optionalNumber(name)!
        }
        func extent(_ name: String) throws(SceneError) -> Double {
            _ = try frame.required(name)
            return try frame.optionalNumber(name, atLeast: 0)!
        }
        return Rect(
            x: try coordinate("x"), y: try coordinate("y"), width: try extent("width"), height: try extent("height"))
    }

    private func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private func describe(_ json: JSONValue) -> String {
        switch json {
        case .number(let number): return plain(number)
        case .string(let text): return "\"\(text.prefix(40))\""
        default: return json.kindDescription
        }
    }
}
