import Compositor
import Scenes

/// Why a scene file could not be read.
public enum SceneFileError: Error, CustomStringConvertible {
    /// The bytes are not JSON (RFC 8259, UTF-8): where, and what was wrong.
    case syntax(JSONSyntaxError)
    /// A value is wrong: where (a JSON path such as `layers[2].opacity`) and what was expected.
    case invalid(path: String, message: String)
    /// An image layer's file could not be loaded: its JSON path, the resolved file path and the loader's error.
    case image(path: String, file: String, underlying: any Error)
    /// A text layer's font could not be had (the typesetter's error: a family that is not installed, a font
    /// file that is missing or is not a font): the JSON path of its `font` (or of the layer).
    case font(path: String, underlying: any Error)

    public var description: String {
        switch self {
        case .syntax(let error): return "not valid JSON: \(error)"
        case .invalid(let path, let message): return path.isEmpty ? message : "\(path): \(message)"
        case .image(let path, let file, let underlying): return "\(path): \(file.quotedForMessage()): \(underlying)"
        case .font(let path, let underlying): return "\(path): \(underlying)"
        }
    }
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
public struct SceneFile {
    /// Layers in one file, groups' children included: more is refused before any is drawn.
    public static let maximumLayers = 10_000
    /// Scene files above this are refused: a scene is a page of text.
    public static let maximumBytes = 16 << 20

    /// Decodes an image path, already resolved against the scene's folder; its errors carry their own text.
    let loadImage: (String) throws -> Image
    /// The folder relative image paths start from ("" for the current one).
    let directory: String
    let maxPixels: Int
    /// Sets text layers' strings (nil: a scene with text is refused).
    let typesetter: (any Typesetter)?
    private var layerCount = 0
    var animationCount = 0

    /// A reader for scene files whose relative image paths start from `directory` ("" for the current one).
    /// - Parameters:
    ///   - maxPixels: the largest canvas (in pixels, after `scale`) a file may ask for.
    ///   - loadImage: decodes an image file, given its path resolved against `directory`; what it throws comes
    ///     back inside `SceneFileError.image`. Called once per layer: cache in it when paths repeat.
    ///   - typesetter: sets text layers (`FontTypesetter()` from the `Typesetting` module); without one a scene
    ///     with a text layer is refused.
    public init(
        directory: String, maxPixels: Int, typesetter: (any Typesetter)? = nil,
        loadImage: @escaping (String) throws -> Image
    ) {
        self.directory = directory
        self.maxPixels = maxPixels
        self.typesetter = typesetter
        self.loadImage = loadImage
    }

    /// Reads a scene from the bytes of a scene file (UTF-8 JSON, at most `maximumBytes`).
    public mutating func scene(fromJSON bytes: [UInt8]) throws(SceneFileError) -> Scene {
        guard bytes.count <= SceneFile.maximumBytes else {
            throw .invalid(path: "", message: "larger than \(SceneFile.maximumBytes >> 20) MiB; not a scene file")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(error)
        }
        (layerCount, animationCount) = (0, 0)
        return try scene(from: json)
    }

    mutating func scene(from json: JSONValue) throws(SceneFileError) -> Scene {
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
            throw SceneFileError.invalid(
                path: "canvas",
                message: "\(scene.pixelWidth)x\(scene.pixelHeight) pixels is outside 1 to \(maxPixels) pixels "
                    + "(see --max-pixels)")
        }
        scene.layers = try layers(
            root.required("layers"), path: "layers", bounds: Rect(x: 0, y: 0, width: scene.width, height: scene.height))
        return scene
    }

    /// - Parameter bounds: the parent's bounds, which a layer without a frame fills (transitions need them).
    mutating func layers(_ json: JSONValue, path: String, bounds: Rect) throws(SceneFileError) -> [Layer] {
        guard case .array(let elements) = json else {
            throw SceneFileError.invalid(
                path: path, message: "expected an array of layers, found \(json.kindDescription)")
        }
        var result: [Layer] = []
        for (index, element) in elements.enumerated() {
            result.append(try layer(element, path: "\(path)[\(index)]", bounds: bounds))
        }
        return result
    }

    private static let commonKeys =
        ["type", "name", "frame", "opacity", "blend", "transform", "animations"] + SceneFile.transform3DKeys
    private static let keysByType: [String: [String]] = [
        "image": ["path", "fit", "filter", "cornerRadius"],
        "color": ["color"],
        "shape": ["shape", "color", "cornerRadius"],
        "backdrop": ["material", "appearance", "dim", "cornerRadius", "blur", "effect", "tint"],
        "group": ["layers", "isolated", "cornerRadius"],
        "text": SceneFile.textKeys,
        "path": SceneFile.pathKeys,
        "symbol": SceneFile.symbolKeys,
        "transition": SceneFile.transitionKeys,
        "curled": SceneFile.curlKeys,
        "emitter": SceneFile.emitterKeys,
    ]

    mutating func layer(_ json: JSONValue, path: String, bounds: Rect) throws(SceneFileError) -> Layer {
        layerCount += 1
        guard layerCount <= SceneFile.maximumLayers else {
            throw SceneFileError.invalid(path: path, message: "more than \(SceneFile.maximumLayers) layers")
        }
        let object = try JSONObject(json, path: path)
        let types = SceneFile.keysByType.keys.sorted()
        let type = try object.string("type", oneOf: types)
        try object.allowKeys(SceneFile.commonKeys + SceneFile.keysByType[type]!)
        let frame = try object.frame("frame")
        // What the layer's own layers see as their parent's bounds (a group's or a transition's).
        let inner = frame.map { Rect(x: 0, y: 0, width: $0.width, height: $0.height) } ?? bounds
        var isolatedByContent = false
        let content: Layer.Content
        switch type {
        case "image" where try object.string("path").lowercased().hasSuffix(".svg"):
            content = try svg(try object.string("path"), path: "\(path).path")
        case "image":
            content = .image(
                try image(try object.string("path"), path: "\(path).path"),
                fit: try object.choice("fit", FitMode.self) ?? .fill,
                filter: try object.choice("filter", ResampleFilter.self) ?? .lanczos3,
                cornerRadius: try object.optionalNumber("cornerRadius", atLeast: 0) ?? 0)
        case "color":
            content = try shapeContent(.rectangle(cornerRadius: 0), object)
        case "shape":
            let shape = try object.optionalString("shape", oneOf: ["rectangle", "capsule"]) ?? "rectangle"
            content = try shapeContent(
                shape == "capsule"
                    ? .capsule : .rectangle(cornerRadius: try object.optionalNumber("cornerRadius", atLeast: 0) ?? 0),
                object)
        case "backdrop":
            let name = try object.string("material")
            guard let (material, forced) = MaterialCatalog.lookup(name) else {
                throw SceneFileError.invalid(
                    path: "\(path).material",
                    message: "unknown material \(name.quotedForMessage()); expected one of "
                        + MaterialCatalog.knownNames.joined(separator: ", "))
            }
            let appearance = try object.choice("appearance", Appearance.self)
            var recipe = material.recipe(for: forced ?? appearance ?? .light)
            if let blur = try object.optionalNumber("blur", atLeast: 0, atMost: 1000) { recipe.blurPoints = blur }
            var backdrop = BackdropMaterial(
                recipe: recipe, dim: try object.optionalNumber("dim", atLeast: 0, atMost: 1) ?? 0,
                cornerRadius: try object.optionalNumber("cornerRadius", atLeast: 0) ?? 0,
                effect: try object.optionalNumber("effect", atLeast: 0, atMost: 1) ?? 1)
            try addTint(object, to: &backdrop)
            content = .backdrop(backdrop)
        case "text":
            content = try text(object, path: path)
        case "path":
            content = try self.path(object)
        case "symbol":
            content = try symbol(object, path: path)
        case "curled":
            content = try curled(object, path: path, bounds: inner)
        case "emitter":
            content = .emitter(try emitter(object, path: path, bounds: inner))
        case "transition":
            let group = try transition(object, path: path, bounds: inner)
            (content, isolatedByContent) = (group.content, group.isolated)
        default:
            content = .group(try layers(try object.required("layers"), path: "\(path).layers", bounds: inner))
        }
        var result = Layer(content, name: try object.optionalString("name"))
        result.frame = frame
        result.opacity = try object.optionalNumber("opacity", atLeast: 0, atMost: 1) ?? 1
        if let blend = try object.optionalString("blend") {
            guard let op = CompositeOperator(name: blend) else {
                throw SceneFileError.invalid(
                    path: "\(path).blend",
                    message: "unknown operator \(blend.quotedForMessage()); expected one of "
                        + CompositeOperator.allCases.map(\.rawValue).joined(separator: ", "))
            }
            result.blend = op
        }
        if let text = try object.optionalString("transform") {
            do {
                result.transform = try AffineTransform2D(parsing: text)
            } catch {
                throw SceneFileError.invalid(path: "\(path).transform", message: error.description)
            }
        }
        if let json = object.value("transform3D") {
            result.transform3D = try SceneFile.transform3D(json, path: "\(path).transform3D")
        }
        result.isDoubleSided = try object.optionalBool("doubleSided") ?? true
        result.isolated = try object.optionalBool("isolated") ?? isolatedByContent
        if type == "group" {
            // A group with corners is clipped to its frame, as a view with masksToBounds.
            result.clipCornerRadius = try object.optionalNumber("cornerRadius", atLeast: 0, atMost: 1e6)
        }
        if let animations = object.value("animations") {
            result.animations = try self.animations(
                animations, layerType: type, hasFrame: result.frame != nil, path: "\(path).animations")
            try SceneFile.checkPaintAnimations(result.animations, of: content, path: "\(path).animations")
        }
        return result
    }

    /// A file path from the scene, resolved against the scene's folder.
    func resolve(_ file: String) -> String {
        file.hasPrefix("/") || directory.isEmpty ? file : directory + (directory.hasSuffix("/") ? "" : "/") + file
    }

    /// The image a layer names, its path resolved against the scene's folder.
    func image(_ file: String, path: String) throws(SceneFileError) -> Image {
        let resolved = resolve(file)
        do {
            return try loadImage(resolved)
        } catch {
            throw .image(path: path, file: resolved, underlying: error)
        }
    }
}
