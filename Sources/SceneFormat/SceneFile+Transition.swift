import Compositor
import Scenes

/// Transition layers: a change from one layer to another, animated as a seed's screen does it (`LayerTransition`).
///
///     { "type": "transition", "style": "cube", "direction": "up",
///       "from": { "type": "text", "text": "ZY 2014", … }, "to": { "type": "text", "text": "ZY 2015", … } }
///
/// `style` is one of crossDissolve, cube (`direction` up or down), fadeAndBounce (`offset` [x, y] points,
/// default [-80, 0] as the seed's departing label), grow and shrink (`point` [x, y], the tapped button's centre
/// in the transition's coordinates), coverVertical (`presenting`, default true) and swiftUI (`insertion` and
/// `removal`: lists of "move(top|bottom|leading|trailing)", "opacity", "scale" or "scale(0.5)", "slide",
/// combined), curlUp and curlDown (the old layer curls away as a page, revealing the new), partialCurl
/// (`presenting`, default true: the old screen curls up a third of the way over the new; false: the new one
/// uncurls back over the old), flip (`edge` left, right, top or bottom, default left: UIKit's flip from that
/// edge), flipHorizontal (the modal style; `presenting`, default true), cube3D (a true cube, the new face
/// coming from `edge`, default bottom), pageSheet (the iOS 13 card; `presenting`, default true) and navigationPush
/// (`forward`, default true; false is the pop). `duration`, `delay`, `delayFactor` and `curve` override the style's
/// defaults.
extension SceneFile {
    /// Every style with the options only it takes; the keys, the names and the option check all come from here.
    private static let styleOptions: [(style: String, options: [String])] = [
        ("crossDissolve", []), ("cube", ["direction"]), ("fadeAndBounce", ["offset"]), ("grow", ["point"]),
        ("shrink", ["point"]), ("coverVertical", ["presenting"]), ("swiftUI", ["insertion", "removal"]),
        ("curlUp", []), ("curlDown", []), ("partialCurl", ["presenting"]),
        ("flip", ["edge"]), ("flipHorizontal", ["presenting"]), ("cube3D", ["edge"]),
        ("pageSheet", ["presenting"]), ("navigationPush", ["forward"]),
    ]
    private static let optionKeys = styleOptions.flatMap(\.options).reduce(into: [String]()) { keys, key in
        if !keys.contains(key) { keys.append(key) }
    }
    static let transitionKeys = ["style", "from", "to", "duration", "delay", "delayFactor", "curve"] + optionKeys

    mutating func transition(_ object: JSONObject, path: String, bounds: Rect) throws(SceneFileError) -> Layer {
        let name = try object.string("style", oneOf: SceneFile.styleOptions.map(\.style))
        let style: LayerTransition.Style
        switch name {
        case "crossDissolve": style = .crossDissolve
        case "cube": style = .cube(try object.choice("direction", LayerTransition.CubeDirection.self) ?? .up)
        case "fadeAndBounce":
            let offset = try pair(object, "offset") ?? (-80, 0)
            style = .fadeAndBounce(x: offset.x, y: offset.y)
        case "grow", "shrink":
            guard let point = try pair(object, "point") else {
                throw SceneFileError.invalid(path: object.at("point"), message: "missing (the point to \(name) \(name == "grow" ? "from" : "into"))")
            }
            style = name == "grow" ? .grow(fromX: point.x, y: point.y) : .shrink(toX: point.x, y: point.y)
        case "coverVertical": style = .coverVertical(presenting: try object.optionalBool("presenting") ?? true)
        case "curlUp", "curlDown": style = .curl(name == "curlUp" ? .up : .down)
        case "partialCurl": style = .partialCurl(presenting: try object.optionalBool("presenting") ?? true)
        case "pageSheet": style = .pageSheet(presenting: try object.optionalBool("presenting") ?? true)
        case "navigationPush": style = .navigationPush(forward: try object.optionalBool("forward") ?? true)
        case "flip": style = .flip(from: try object.choice("edge", LayerTransition.FlipEdge.self) ?? .left)
        case "flipHorizontal": style = .flipHorizontal(presenting: try object.optionalBool("presenting") ?? true)
        case "cube3D": style = .cube3D(try object.choice("edge", LayerTransition.FlipEdge.self) ?? .bottom)
        default:
            style = .swiftUI(
                insertion: try swiftUITransitions(object, "insertion"), removal: try swiftUITransitions(object, "removal"))
        }
        let own = SceneFile.styleOptions.first { $0.style == name }!.options
        for key in SceneFile.optionKeys where object.value(key) != nil && !own.contains(key) {
            throw SceneFileError.invalid(path: object.at(key), message: "not an option of the \(name) style")
        }
        var timing = LayerTransition.defaultTiming(of: style)
        let duration = try object.optionalNumber("duration", atLeast: 0, atMost: 3_600)
        if let curve = try object.curve("curve", duration: duration ?? timing.duration) {
            timing.curve = curve
            if let own = curve.intrinsicDuration { timing.duration = own }
        }
        // The style's spring (SwiftUI's) or the one written: a duration may not cut it short (see checkSpring).
        try SceneFile.checkSpring(timing.curve, against: duration, in: object)
        if let duration { timing.duration = duration }
        timing.delay = try object.optionalNumber("delay", atLeast: 0, atMost: 3_600) ?? 0
        // UIKit's `addAnimations(_:delayFactor:)`: the change starts at that fraction of the animator's duration
        // and ends with it.
        timing.delayFactor = try object.optionalNumber("delayFactor", atLeast: 0, atMost: 0.999) ?? 0
        let old = try layer(try object.required("from"), path: object.at("from"), bounds: bounds)
        let new = try layer(try object.required("to"), path: object.at("to"), bounds: bounds)
        return LayerTransition(style, timing: timing).layer(from: old, to: new, in: bounds)
    }

    private func pair(_ object: JSONObject, _ key: String) throws(SceneFileError) -> (x: Double, y: Double)? {
        guard let json = object.value(key) else { return nil }
        guard case .array(let items) = json, items.count == 2, case .number(let x) = items[0],
            case .number(let y) = items[1], x.magnitude <= 1e6, y.magnitude <= 1e6
        else {
            throw SceneFileError.invalid(
                path: object.at(key), message: "expected [x, y] in points (each within ±1000000), found \(object.describe(json))")
        }
        return (x, y)
    }

    private func swiftUITransitions(_ object: JSONObject, _ key: String) throws(SceneFileError)
        -> [LayerTransition.SwiftUITransition]
    {
        guard let json = object.value(key) else { return [.opacity] }  // SwiftUI's default transition
        guard case .array(let items) = json, items.count <= 8 else {
            throw SceneFileError.invalid(
                path: object.at(key), message: "expected a list of transitions, found \(object.describe(json))")
        }
        var result: [LayerTransition.SwiftUITransition] = []
        for (index, item) in items.enumerated() {
            let expected = "move(top|bottom|leading|trailing), opacity, scale, scale(S) or slide"
            guard case .string(let text) = item else {
                throw SceneFileError.invalid(
                    path: "\(object.at(key))[\(index)]", message: "expected \(expected), found \(object.describe(item))")
            }
            let compact = text.filter { $0 != " " }
            if compact == "opacity" { result.append(.opacity); continue }
            if compact == "slide" { result.append(.slide); continue }
            if compact == "scale" { result.append(.scale(0)); continue }
            if compact.hasPrefix("move("), compact.hasSuffix(")"),
                let edge = LayerTransition.Edge(rawValue: String(compact.dropFirst(5).dropLast()))
            {
                result.append(.move(edge))
                continue
            }
            if compact.hasPrefix("scale("), compact.hasSuffix(")"),
                let amount = Double(decimalText: compact.dropFirst(6).dropLast()), amount >= 0, amount <= 100
            {
                result.append(.scale(amount))
                continue
            }
            throw SceneFileError.invalid(
                path: "\(object.at(key))[\(index)]", message: "expected \(expected), found \(text.quotedForMessage())")
        }
        return result
    }
}
