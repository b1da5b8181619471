import Compositor
import Motion

/// One JSON object being read, with its path for messages.
struct JSONObject {
    let members: [(key: String, value: JSONValue)]
    let path: String

    init(_ json: JSONValue, path: String) throws(SceneFileError) {
        guard case .object(let members) = json else {
            throw SceneFileError.invalid(path: path, message: "expected an object, found \(json.kindDescription)")
        }
        self.members = members
        self.path = path
    }

    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func allowKeys(_ allowed: [String]) throws(SceneFileError) {
        for member in members where !allowed.contains(member.key) {
            throw SceneFileError.invalid(
                path: at(member.key), message: "unknown key; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    func value(_ key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    func required(_ key: String) throws(SceneFileError) -> JSONValue {
        guard let value = value(key) else { throw SceneFileError.invalid(path: at(key), message: "missing") }
        return value
    }

    func optionalNumber(
        _ key: String, above lower: Double? = nil, atLeast floor: Double? = nil, atMost ceiling: Double? = nil
    ) throws(SceneFileError) -> Double? {
        guard let json = value(key) else { return nil }
        var expectation = "a number"
        switch (lower, floor, ceiling) {
        case (_, let floor?, let ceiling?):
            expectation += " from \(floor.plainDescription) to \(ceiling.plainDescription)"
        case (let lower?, _, let ceiling?):
            expectation += " above \(lower.plainDescription) and at most \(ceiling.plainDescription)"
        case (let lower?, _, nil): expectation += " above \(lower.plainDescription)"
        case (_, let floor?, nil): expectation += " of at least \(floor.plainDescription)"
        default: break
        }
        guard case .number(let number) = json, lower.map({ number > $0 }) ?? true,
            floor.map({ number >= $0 }) ?? true, ceiling.map({ number <= $0 }) ?? true
        else {
            throw SceneFileError.invalid(path: at(key), message: "expected \(expectation), found \(describe(json))")
        }
        return number
    }

    func number(_ key: String, above lower: Double) throws(SceneFileError) -> Double {
        _ = try required(key)
        return try optionalNumber(key, above: lower)!
    }

    func optionalString(_ key: String, oneOf choices: [String]? = nil) throws(SceneFileError) -> String? {
        guard let json = value(key) else { return nil }
        let expectation = choices.map { "one of " + $0.joined(separator: ", ") } ?? "a string"
        guard case .string(let text) = json, choices.map({ $0.contains(text) }) ?? true else {
            throw SceneFileError.invalid(path: at(key), message: "expected \(expectation), found \(describe(json))")
        }
        return text
    }

    func string(_ key: String, oneOf choices: [String]? = nil) throws(SceneFileError) -> String {
        _ = try required(key)
        return try optionalString(key, oneOf: choices)!
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(SceneFileError) -> T?
    where T.RawValue == String {
        try optionalString(key, oneOf: T.allCases.map(\.rawValue)).flatMap { T(rawValue: $0) }
    }

    func color(_ key: String) throws(SceneFileError) -> RGBAColor? {
        guard let text = try optionalString(key) else { return nil }
        guard let color = RGBAColor(css: text) else {
            throw SceneFileError.invalid(
                path: at(key),
                message:
                    "expected a colour (#rgb, #rrggbb, #rrggbbaa or a name), found \(text.quotedForMessage(limit: 40))")
        }
        return color
    }

    func requiredColor(_ key: String) throws(SceneFileError) -> RGBAColor {
        _ = try required(key)
        return try color(key)!
    }

    func frame(_ key: String) throws(SceneFileError) -> Rect? {
        guard let json = value(key) else { return nil }
        return try JSONObject.rect(json, path: at(key))
    }

    /// A rectangle `{x, y, width, height}` in points.
    static func rect(_ json: JSONValue, path: String) throws(SceneFileError) -> Rect {
        let frame = try JSONObject(json, path: path)
        try frame.allowKeys(["x", "y", "width", "height"])
        func coordinate(_ name: String) throws(SceneFileError) -> Double {
            _ = try frame.required(name)
            return try frame.optionalNumber(name)!
        }
        func extent(_ name: String) throws(SceneFileError) -> Double {
            _ = try frame.required(name)
            return try frame.optionalNumber(name, atLeast: 0)!
        }
        return Rect(
            x: try coordinate("x"), y: try coordinate("y"), width: try extent("width"), height: try extent("height"))
    }

    /// A timing curve's text (`TimingCurve(parsing:duration:)`; `duration` is the animation's, which UIKit's
    /// `spring(dampingRatio:)` takes).
    func curve(_ key: String, duration: Double? = nil) throws(SceneFileError) -> TimingCurve? {
        guard let text = try optionalString(key) else { return nil }
        do {
            return try TimingCurve(parsing: text, duration: duration)
        } catch {
            throw SceneFileError.invalid(path: at(key), message: error.description)
        }
    }

    func optionalBool(_ key: String) throws(SceneFileError) -> Bool? {
        guard let json = value(key) else { return nil }
        guard case .bool(let flag) = json else {
            throw SceneFileError.invalid(path: at(key), message: "expected true or false, found \(describe(json))")
        }
        return flag
    }

    func describe(_ json: JSONValue) -> String {
        switch json {
        case .number(let number): return number.plainDescription
        case .string(let text): return text.quotedForMessage(limit: 40)
        default: return json.kindDescription
        }
    }
}
