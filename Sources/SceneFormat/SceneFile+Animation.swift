import Compositor
import Motion
import Scenes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A layer's `animations`: one object per animated property, as one line inside `UIView.animate { … }`:
///
///     { "property": "opacity", "to": 1, "duration": 0.4, "delay": 0.1, "curve": "easeInOut" }
///     { "property": "transform", "to": "scale(1)", "curve": "spring(damping: 0.2, velocity: 0.3, duration: 0.8)" }
///     { "property": "effect", "from": 0, "to": 1, "duration": 0.55, "curve": "cubic-bezier(0.57,-0.4,0.96,0.87)" }
///
/// Keys: `property`, `from` (default: the layer's value), `to` or `keyframes` ([{ "time": 0…1, "value": …,
/// "curve": … }]), `curve` (a timing curve's text, default `easeInOut` as `UIView.animate`), `duration`
/// (seconds; a spring lasts its own duration and ignores this one, as an animator does), `delay`, `delayFactor`
/// (`addAnimations(_:delayFactor:)`), `repeatCount` (a number or `"forever"`), `autoreverses`, `velocity` (a
/// spring's initial velocity: a number, or `[dx, dy]` for the two axes), `overlap` (`additive`, UIKit's and the
/// default; `presentation`, Core Animation's; `retarget`, SwiftUI's: see `OverlapMode`), `name` (free text, as a
/// layer's: the fixtures cite the seed line an animation comes from).
extension SceneFile {
    /// Animations in one file, keyframes counted one each: every frame evaluates them all.
    public static let maximumAnimations = 10_000

    static let animationKeys = [
        "property", "from", "to", "keyframes", "curve", "duration", "delay", "delayFactor", "repeatCount",
        "autoreverses", "velocity", "axis", "overlap", "name",
    ]

    /// Which layer types each property applies to.
    private static let propertyTypes: [String: [String]] = [
        "opacity": [], "transform": [], "rotation": [], "frame": [],
        "color": ["color", "shape", "text", "path", "symbol"],
        "cornerRadius": ["image", "shape", "backdrop", "group"], "effect": ["backdrop"], "blur": ["backdrop"],
        "dim": ["backdrop"], "image": ["image"], "curl": ["curled"], "strokeEnd": ["path"], "strokeColor": ["path"],
        "transform3D": [], "rotation3D": [],
    ]

    /// - Parameter hasFrame: whether the layer gives its frame (a frame animation without one needs `from`).
    mutating func animations(_ json: JSONValue, layerType: String, hasFrame: Bool, path: String)
        throws(SceneFileError) -> [LayerAnimation]
    {
        guard case .array(let elements) = json else {
            throw SceneFileError.invalid(
                path: path, message: "expected an array of animations, found \(json.kindDescription)")
        }
        var result: [LayerAnimation] = []
        for (index, element) in elements.enumerated() {
            result.append(
                try animation(element, layerType: layerType, hasFrame: hasFrame, path: "\(path)[\(index)]"))
        }
        return result
    }

    private mutating func animation(_ json: JSONValue, layerType: String, hasFrame: Bool, path: String)
        throws(SceneFileError) -> LayerAnimation
    {
        try countAnimation(path: path)
        let object = try JSONObject(json, path: path)
        try object.allowKeys(SceneFile.animationKeys)
        let names = SceneFile.propertyTypes.keys.sorted()
        let property = try object.string("property", oneOf: names)
        if let types = SceneFile.propertyTypes[property], !types.isEmpty, !types.contains(layerType) {
            throw SceneFileError.invalid(
                path: object.at("property"),
                message: "\(property) does not animate a \(layerType) layer (only \(types.joined(separator: ", ")))")
        }
        let duration = try object.optionalNumber("duration", atLeast: 0, atMost: SceneFile.maximumSeconds)
        var curve = try object.curve("curve", duration: duration) ?? .easeInOut
        try SceneFile.checkSpring(curve, against: duration, in: object)
        var positionVelocity: PositionVelocity?
        if let velocity = object.value("velocity") {
            guard curve.isSpring else {
                throw SceneFileError.invalid(
                    path: object.at("velocity"), message: "an initial velocity needs a spring curve")
            }
            let (dx, dy) = try velocityPair(velocity, path: object.at("velocity"))
            if let dy {
                // UIKit's vector: the centre's axes each on their own, everything else on the magnitude.
                let vector = PositionVelocity(dx: dx, dy: dy)
                curve = curve.withInitialVelocity(vector.magnitude)
                positionVelocity = vector
            } else {
                curve = curve.withInitialVelocity(dx)
            }
        }
        let repeatCount: Double
        if case .string("forever") = object.value("repeatCount") {
            repeatCount = .infinity
        } else {
            repeatCount = try object.optionalNumber("repeatCount", above: 0, atMost: 1e6) ?? 1
        }
        // A spring lasts its own duration (a damping-ratio one the animation's, solved for it); any other curve
        // the animation's, or SwiftUI's 0.35 s for `.easeOut` and the other named curves when none is written.
        let timing = AnimationTiming(
            curve: curve,
            duration: curve.intrinsicDuration == nil ? duration ?? SceneFile.defaultCurveDuration : nil,
            delay: try object.optionalNumber("delay", atLeast: 0, atMost: SceneFile.maximumSeconds) ?? 0,
            delayFactor: try object.optionalNumber("delayFactor", atLeast: 0, atMost: 0.999) ?? 0,
            repeatCount: repeatCount, autoreverses: try object.optionalBool("autoreverses") ?? false)
        let values = try PropertyValues(property: property, object: object, hasFrame: hasFrame)
        let animated = try values.animatedProperty(&self)
        return LayerAnimation(
            animated, timing: timing, positionVelocity: positionVelocity,
            overlap: try overlapMode(object, startsExplicitly: animated.startsExplicitly))
    }

    /// `overlap`: what the animation does when it begins while the one before it is still running (see
    /// `OverlapMode`); refused on one that says where it starts, where no mode applies.
    private func overlapMode(_ object: JSONObject, startsExplicitly: Bool) throws(SceneFileError) -> OverlapMode {
        let names = OverlapMode.allCases.map(\.rawValue)
        guard let name = try object.optionalString("overlap", oneOf: names) else { return .additive }
        if startsExplicitly {
            throw SceneFileError.invalid(
                path: object.at("overlap"),
                message: "an animation with from (or a keyframe at time 0) starts there: overlap does not apply")
        }
        return OverlapMode(rawValue: name) ?? .additive
    }

    /// Seconds a duration or delay may be: an hour.
    static let maximumSeconds = 3600.0

    /// SwiftUI's duration for `.easeIn`, `.easeOut`, `.easeInOut`, `.linear` given none (MOTION.md).
    static let defaultCurveDuration = 0.35

    /// One rule for springs and durations, in animations and transitions alike, as the APIs have it: UIKit's
    /// damping-ratio spring lasts the duration it is given (`TimingCurve(parsing:duration:)` solves it for that);
    /// a physical spring settles in its own time (UIKit ignores an animator's duration for one) and a SwiftUI
    /// spring has no duration. So a duration that disagrees with a spring's own is refused: cutting the spring
    /// short would end on a jump, stretching it would change the spring.
    static func checkSpring(
        _ curve: TimingCurve, against duration: Double?, in object: JSONObject
    ) throws(SceneFileError) {
        guard curve.isSpring, let duration, let own = curve.intrinsicDuration, abs(own - duration) > 1e-9 * own else {
            return
        }
        throw SceneFileError.invalid(
            path: object.at("duration"),
            message: "this spring settles in its own time (\(((own * 1000).rounded() / 1000).plainDescription) s), "
                + "which a duration cannot "
                + "change: drop duration, or write spring(dampingRatio: x) (UIKit's, lasting the duration) or "
                + "spring(duration: d, bounce: b) (SwiftUI's)")
    }

    mutating func countAnimation(path: String) throws(SceneFileError) {
        animationCount += 1
        guard animationCount <= SceneFile.maximumAnimations else {
            throw SceneFileError.invalid(
                path: path, message: "more than \(SceneFile.maximumAnimations) animations and keyframes")
        }
    }

    private func velocityPair(_ json: JSONValue, path: String) throws(SceneFileError) -> (Double, Double?) {
        let expected = "expected a number or [dx, dy] (distances per second, at most 1000)"
        switch json {
        case .number(let v) where abs(v) <= 1000: return (v, nil)
        case .array(let items) where items.count == 2:
            guard case .number(let dx) = items[0], case .number(let dy) = items[1], abs(dx) <= 1000, abs(dy) <= 1000
            else { break }
            return (dx, dy)
        default: break
        }
        throw SceneFileError.invalid(path: path, message: "\(expected), found \(json.kindDescription)")
    }
}

/// The `from`, `to` and `keyframes` of one animation, read as the property's kind of value.
private struct PropertyValues {
    let property: String
    let object: JSONObject

    init(property: String, object: JSONObject, hasFrame: Bool) throws(SceneFileError) {
        self.property = property
        self.object = object
        let hasTo = object.value("to") != nil
        let hasKeyframes = object.value("keyframes") != nil
        guard hasTo != hasKeyframes else {
            throw SceneFileError.invalid(
                path: object.path,
                message: hasTo ? "give either to or keyframes, not both" : "missing to (or keyframes)")
        }
        var startsAtAKeyframe = false
        if case .array(let items) = object.value("keyframes"), case .object(let first)? = items.first {
            startsAtAKeyframe = first.contains { $0.key == "time" && $0.value == .number(0) }
        }
        if property == "frame", object.value("from") == nil, !hasFrame, !startsAtAKeyframe {
            throw SceneFileError.invalid(
                path: object.path, message: "a layer without a frame needs from (where the frame starts)")
        }
        if property != "rotation3D", object.value("axis") != nil {
            throw SceneFileError.invalid(path: object.at("axis"), message: "only a rotation3D animation has an axis")
        }
        if property == "image", hasKeyframes || object.value("from") != nil {
            throw SceneFileError.invalid(
                path: object.path, message: "an image cross-dissolves from the layer's picture to one given by to")
        }
    }

    func animatedProperty(_ file: inout SceneFile) throws(SceneFileError) -> AnimatedProperty {
        switch property {
        case "opacity": return .opacity(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1) })
        case "effect": return .effect(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1) })
        case "dim": return .dim(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1) })
        case "curl": return .curl(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1) })
        case "strokeEnd":
            return .strokeEnd(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1) })
        case "blur": return .blur(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1000) })
        case "cornerRadius":
            return .cornerRadius(try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, 0...1e6) })
        case "rotation":
            // Degrees, as a number: turns of any size, the long way round included.
            return .rotation(
                try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, -1e6...1e6) * .pi / 180 })
        case "transform": return .transform(try track(&file, transform))
        case "transform3D":
            return .transform3D(
                try track(&file) { (j, p) throws(SceneFileError) in try SceneFile.transform3D(j, path: p) })
        case "rotation3D":
            // Degrees about `axis`, through the frame's centre, before the layer's transform3D.
            let axis = try SceneFile.rotationAxis(object.value("axis"), path: object.at("axis"))
            return .rotation3D(
                axis: axis,
                try track(&file) { (j, p) throws(SceneFileError) in try number(j, p, -1e6...1e6) * .pi / 180 })
        case "frame": return .frame(try track(&file, rect))
        case "color": return .color(try track(&file, color))
        case "strokeColor": return .strokeColor(try track(&file, color))
        default:
            let to = try object.required("to")
            guard case .string(let name) = to else {
                throw SceneFileError.invalid(
                    path: object.at("to"), message: "expected an image file's path, found \(to.kindDescription)")
            }
            return .image(to: try file.image(name, path: object.at("to")))
        }
    }

    private func track<Value>(
        _ file: inout SceneFile, _ read: (JSONValue, String) throws(SceneFileError) -> Value
    ) throws(SceneFileError) -> Track<Value> {
        let from = try object.value("from").map { (json) throws(SceneFileError) in try read(json, object.at("from")) }
        if let to = object.value("to") { return Track(from: from, to: try read(to, object.at("to"))) }
        let path = object.at("keyframes")
        guard case .array(let items) = try object.required("keyframes"), !items.isEmpty else {
            throw SceneFileError.invalid(path: path, message: "expected a non-empty array of keyframes")
        }
        var keyframes: [Keyframe<Value>] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            try file.countAnimation(path: itemPath)
            let keyframe = try JSONObject(item, path: itemPath)
            try keyframe.allowKeys(["time", "value", "curve"])
            _ = try keyframe.required("time")
            let time = try keyframe.optionalNumber("time", atLeast: keyframes.last?.time ?? 0, atMost: 1)!
            keyframes.append(
                Keyframe(
                    time: time, value: try read(try keyframe.required("value"), keyframe.at("value")),
                    curve: try keyframe.curve("curve")))
        }
        return Track(from: from, keyframes: keyframes)
    }

    private func number(_ json: JSONValue, _ path: String, _ range: ClosedRange<Double>) throws(SceneFileError)
        -> Double
    {
        guard case .number(let value) = json, range.contains(value) else {
            throw SceneFileError.invalid(
                path: path,
                message: "expected a number from \(range.lowerBound.plainDescription) to "
                    + "\(range.upperBound.plainDescription), found \(object.describe(json))")
        }
        return value
    }

    private func transform(_ json: JSONValue, _ path: String) throws(SceneFileError) -> AffineTransform2D {
        guard case .string(let text) = json else {
            throw SceneFileError.invalid(
                path: path, message: "expected a transform such as \"scale(5) translate(600, 0)\", found "
                    + object.describe(json))
        }
        do {
            return try AffineTransform2D(parsing: text)
        } catch {
            throw SceneFileError.invalid(path: path, message: error.description)
        }
    }

    private func rect(_ json: JSONValue, _ path: String) throws(SceneFileError) -> Rect {
        try JSONObject.rect(json, path: path)
    }

    private func color(_ json: JSONValue, _ path: String) throws(SceneFileError) -> RGBAColor {
        guard case .string(let text) = json, let color = RGBAColor(css: text) else {
            throw SceneFileError.invalid(
                path: path, message: "expected a colour (#rgb, #rrggbb, #rrggbbaa or a name), found "
                    + object.describe(json))
        }
        return color
    }
}
