import Compositor
import Scenes

/// A layer's `transform3D`: a list of operations composed as CSS composes `transform` (the last applies to the
/// layer first), about the frame's centre after `transform`, in points and degrees:
///
///     "transform3D": [{ "perspective": 1000 }, { "rotate": 30, "axis": [0, 1, 0] }, { "translate": [0, 0, 10] }]
///
/// Operations: `perspective` (the eye's distance, m34 = −1/d), `rotate` (degrees about `axis`, default [0, 0, 1]),
/// `translate` ([x, y] or [x, y, z]), `scale` (a number or [x, y] or [x, y, z]), `matrix` (16 numbers, row by
/// row as `CATransform3D`'s m11 … m44). `doubleSided` (default true) says whether the layer shows from behind.
extension SceneFile {
    static let transform3DKeys = ["transform3D", "doubleSided"]

    static func transform3D(_ json: JSONValue, path: String) throws(SceneFileError) -> Transform3D {
        let example = "a list of operations such as [{\"perspective\": 1000}, {\"rotate\": 30, \"axis\": [0, 1, 0]}]"
        guard case .array(let items) = json, !items.isEmpty, items.count <= 64 else {
            throw SceneFileError.invalid(path: path, message: "expected \(example) (1 to 64), found \(json.kindDescription)")
        }
        var result = Transform3D.identity
        for (index, item) in items.enumerated() {
            // Each operation applies before everything written to its left.
            result = try operation(JSONObject(item, path: "\(path)[\(index)]")).concatenating(result)
        }
        return result
    }

    private static func operation(_ object: JSONObject) throws(SceneFileError) -> Transform3D {
        let names = ["perspective", "rotate", "translate", "scale", "matrix"]
        let given = object.members.map(\.key).filter { names.contains($0) }
        guard given.count == 1, let name = given.first else {
            throw SceneFileError.invalid(
                path: object.path, message: "expected one operation of \(names.joined(separator: ", ")) per object")
        }
        try object.allowKeys(name == "rotate" ? ["rotate", "axis"] : [name])
        let limit = 1e6
        // The operation's key is present: the reads below unwrap what they were just told exists.
        switch name {
        case "perspective":
            return .perspective(eyeDistance: try object.optionalNumber("perspective", above: 0, atMost: limit)!)
        case "rotate":
            let degrees = try object.optionalNumber("rotate", atLeast: -limit, atMost: limit)!
            let axis = try object.value("axis").map { (json) throws(SceneFileError) in
                try numbers(json, path: object.at("axis"), counts: [3], limit: limit)
            } ?? [0, 0, 1]
            guard axis.contains(where: { $0 != 0 }) else {
                throw SceneFileError.invalid(path: object.at("axis"), message: "the axis must not be [0, 0, 0]")
            }
            return .rotation(angle: degrees * .pi / 180, x: axis[0], y: axis[1], z: axis[2])
        case "translate":
            let v = try numbers(object.value("translate")!, path: object.at("translate"), counts: [2, 3], limit: limit)
            return .translation(x: v[0], y: v[1], z: v.count > 2 ? v[2] : 0)
        case "scale":
            if case .number = object.value("scale")! {
                let s = try object.optionalNumber("scale", atLeast: -limit, atMost: limit)!
                return .scale(x: s, y: s, z: 1)
            }
            let v = try numbers(object.value("scale")!, path: object.at("scale"), counts: [2, 3], limit: limit)
            return .scale(x: v[0], y: v[1], z: v.count > 2 ? v[2] : 1)
        default:
            let v = try numbers(object.value("matrix")!, path: object.at("matrix"), counts: [16], limit: limit)
            return Transform3D(
                m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6], m24: v[7],
                m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13], m43: v[14], m44: v[15])
        }
    }

    /// A `rotation3D` animation's `axis`: [x, y, z], default the vertical axis (a flip from the left or right).
    static func rotationAxis(_ json: JSONValue?, path: String) throws(SceneFileError) -> RotationAxis {
        guard let json else { return .y }
        let v = try numbers(json, path: path, counts: [3], limit: 1e6)
        guard v.contains(where: { $0 != 0 }) else {
            throw SceneFileError.invalid(path: path, message: "the axis must not be [0, 0, 0]")
        }
        return RotationAxis(x: v[0], y: v[1], z: v[2])
    }

    private static func numbers(_ json: JSONValue, path: String, counts: [Int], limit: Double) throws(SceneFileError)
        -> [Double]
    {
        let expected = "expected " + counts.map { "\($0)" }.joined(separator: " or ")
            + " numbers (each within ±\(Int(limit)))"
        guard case .array(let items) = json, counts.contains(items.count) else {
            throw SceneFileError.invalid(path: path, message: "\(expected), found \(json.kindDescription)")
        }
        var values: [Double] = []
        for item in items {
            guard case .number(let value) = item, value.magnitude <= limit else {
                throw SceneFileError.invalid(path: path, message: "\(expected), found \(item.kindDescription)")
            }
            values.append(value)
        }
        return values
    }
}
