// Structural mutation of the real animated scenes in fixtures/*.json: the scenes are read once into a small JSON
// tree (kept in order, so a seed gives the same text on every run), and each case changes a few of its animated
// surfaces to hostile values: timing curves and springs of every spelling, keyframes, repeat counts, delays and
// durations, text (long runs of soft hyphens, zero-width spaces, combining marks, bidi mixes, huge sizes, labels
// under near-singular transforms), emitters at and past their caps, 3D transforms, curls and `transition` layers
// of every style. The scene is mostly drawn small (its canvas scale lowered) so that the frames, not the limits,
// are what is tested.
import Compositor
import Foundation

/// A JSON value that keeps its members in order; numbers (and anything else written raw) are kept as text, so a
/// mutation can write numbers the parser refuses ("1e400", "nan").
enum JSONTree: Sendable {
    case object([(String, JSONTree)])
    case array([JSONTree])
    case string(String)
    case raw(String)

    subscript(key: String) -> JSONTree? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.last { $0.0 == key }?.1
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.lastIndex(where: { $0.0 == key }) {
                if let newValue { members[index].1 = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
            self = .object(members)
        }
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .raw(let text): out += text
        case .string(let text): out += text.quotedForJSON
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                out += member.0.quotedForJSON
                out += ": "
                member.1.write(to: &out)
            }
            out += "}"
        }
    }

    /// A small parser for the fixtures (well-formed JSON): nil when the text is not.
    static func parse(_ text: String) -> JSONTree? {
        var parser = TreeParser(bytes: Array(text.utf8))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.at == parser.bytes.count ? value : nil
    }
}

struct TreeParser {
    let bytes: [UInt8]
    var at = 0

    mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[at]) { at += 1 }
    }

    mutating func value() -> JSONTree? {
        skipSpace()
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            var members: [(String, JSONTree)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                guard let member = value() else { return nil }
                members.append((key, member))
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
                return nil
            }
        case UInt8(ascii: "["):
            at += 1
            var items: [JSONTree] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            while true {
                guard let item = value() else { return nil }
                items.append(item)
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
                return nil
            }
        case UInt8(ascii: "\""):
            return string().map { .string($0) }
        default:
            let start = at
            while at < bytes.count, !",]} \n\r\t".utf8.contains(bytes[at]) { at += 1 }
            return at > start ? .raw(String(decoding: bytes[start..<at], as: UTF8.self)) : nil
        }
    }

    mutating func string() -> String? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        at += 1
        var out: [UInt8] = []
        var units: [UInt16] = []
        func flushUnits(_ out: inout [UInt8], _ units: inout [UInt16]) {
            if !units.isEmpty { out += Array(String(decoding: units, as: UTF16.self).utf8); units = [] }
        }
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if byte == UInt8(ascii: "\"") {
                flushUnits(&out, &units)
                return String(decoding: out, as: UTF8.self)
            }
            if byte != UInt8(ascii: "\\") {
                flushUnits(&out, &units)
                out.append(byte)
                continue
            }
            guard at < bytes.count else { return nil }
            let escape = bytes[at]
            at += 1
            switch escape {
            case UInt8(ascii: "u"):
                guard at + 4 <= bytes.count, let unit = UInt16(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
                else { return nil }
                at += 4
                units.append(unit)
                continue
            case UInt8(ascii: "n"): flushUnits(&out, &units); out.append(0x0A)
            case UInt8(ascii: "r"): flushUnits(&out, &units); out.append(0x0D)
            case UInt8(ascii: "t"): flushUnits(&out, &units); out.append(0x09)
            case UInt8(ascii: "b"): flushUnits(&out, &units); out.append(0x08)
            case UInt8(ascii: "f"): flushUnits(&out, &units); out.append(0x0C)
            default: flushUnits(&out, &units); out.append(escape)
            }
        }
        return nil
    }
}

/// A step from a value to one inside it.
enum TreeStep {
    case key(String)
    case index(Int)
}

extension JSONTree {
    func value(at path: [TreeStep]) -> JSONTree? {
        guard let step = path.first else { return self }
        switch (self, step) {
        case (.object, .key(let key)): return self[key]?.value(at: Array(path.dropFirst()))
        case (.array(let items), .index(let index)) where items.indices.contains(index):
            return items[index].value(at: Array(path.dropFirst()))
        default: return nil
        }
    }

    mutating func update(at path: [TreeStep], _ body: (inout JSONTree) -> Void) {
        guard let step = path.first else { return body(&self) }
        switch (self, step) {
        case (.object, .key(let key)):
            guard var inner = self[key] else { return }
            inner.update(at: Array(path.dropFirst()), body)
            self[key] = inner
        case (.array(var items), .index(let index)) where items.indices.contains(index):
            items[index].update(at: Array(path.dropFirst()), body)
            self = .array(items)
        default: return
        }
    }

    /// The paths of every layer (an object with a "type"), including a transition's `from` and `to`.
    func layerPaths(_ prefix: [TreeStep] = [], into paths: inout [[TreeStep]]) {
        switch self {
        case .object(let members):
            if self["type"]?.stringValue != nil, !prefix.isEmpty { paths.append(prefix) }
            for (key, value) in members where key != "emitterCells" && key != "animations" {
                value.layerPaths(prefix + [.key(key)], into: &paths)
            }
        case .array(let items):
            for (index, item) in items.enumerated() { item.layerPaths(prefix + [.index(index)], into: &paths) }
        default: return
        }
    }

    /// Every raw number's path, for the mutation that swaps one for a hostile number.
    func numberPaths(_ prefix: [TreeStep] = [], into paths: inout [[TreeStep]]) {
        switch self {
        case .raw(let text) where text != "true" && text != "false" && text != "null": paths.append(prefix)
        case .object(let members):
            for (key, value) in members { value.numberPaths(prefix + [.key(key)], into: &paths) }
        case .array(let items):
            for (index, item) in items.enumerated() { item.numberPaths(prefix + [.index(index)], into: &paths) }
        default: return
        }
    }
}

/// The animated fixtures, read once at start (sorted by name, so a seed means the same cases everywhere).
struct FixtureScenes: Sendable {
    var scenes: [(name: String, tree: JSONTree)] = []

    init(directory: String) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name),
                let tree = JSONTree.parse(String(decoding: data, as: UTF8.self)), tree["layers"] != nil
            else { continue }
            scenes.append((name, tree))
        }
    }
}

extension SceneWriter {
    static let hostileNumbers = [
        "0", "-0", "1e-9", "1e-300", "5e-324", "1e300", "-1e300", "1e308", "1e6", "1000000.0001", "-1e6", "3600",
        "3599.999", "3600.0001", "4294967295", "4294967296", "9007199254740993", "0.5", "2", "72", "1e400", "nan",
        "-1e400", "0x1p3", "1e16", "16384", "16384.0001", "10000", "10001",
    ]

    /// A number for a mutation: mostly one from the hostile list that the parser reads, now and then one it does
    /// not ("1e400", "nan", hex).
    mutating func hostileNumber() -> String {
        let value = random.pick(SceneWriter.hostileNumbers)
        if ["1e400", "nan", "-1e400", "0x1p3"].contains(value), random.chance(0.7) { return "1e6" }
        return value
    }

    /// Timing curves in every spelling README documents, from ordinary to hostile, some built from hostile numbers.
    mutating func hostileCurve() -> String {
        let fixed = [
            "linear", "easeIn", "easeOut", "easeInOut", "ease-in", "ease-out", "ease-in-out", "ease", "default",
            "step-start", "step-end", "cubic-bezier(0.57, -0.4, 0.96, 0.87)", "cubic-bezier(0, 1e300, 1, -1e300)",
            "cubic-bezier(1, 0, 0, 1)", "cubic-bezier(0,0,0,0)", "cubic-bezier(1,1,1,1)",
            "cubic-bezier(0.5, 5e-324, 0.5, 1e-300)", "cubic-bezier(1.0000001, 0, 0, 1)", "cubic-bezier(-0, -0, 1, 1)",
            "cubic-bezier(0.1, 1e6, 0.9, -1e6)", "cubic-bezier(nan, 0, 1, 1)", "cubic-bezier(0, 0, 1)",
            "cubic-bezier(0.99999999, 1e9, 0.00000001, -1e9)", "steps(1)", "steps(0)", "steps(1, jump-none)",
            "steps(2, jump-none)", "steps(1000000000, jump-both)", "steps(4294967296)", "steps(3, start)", "steps(-1)",
            "steps(2.5)", "steps(3, jump-start)", "spring", "smooth", "snappy", "bouncy", "interactiveSpring",
            "spring(dampingRatio: 0.5)", "spring(dampingRatio: 0)", "spring(dampingRatio: 1e300)",
            "spring(damping: 0.2, velocity: 0.3, duration: 0.8)", "spring(damping: 0, duration: 1e-9)",
            "spring(damping: 1, velocity: 1e300, duration: 3600)", "spring(damping: 0.01, duration: 3600)",
            "spring(damping: 0.01, velocity: -1e6, duration: 1e-300)", "spring(mass: 1, stiffness: 100, damping: 10)",
            "spring(mass: 1e-300, stiffness: 1e300, damping: 0)", "spring(mass: 1e8, stiffness: 1e-8, damping: 0)",
            "spring(mass: 1, stiffness: 1, damping: 1e-9)", "spring(stiffness: 0)", "spring(mass: 0)",
            "spring(damping: -1)", "spring(mass: 1, stiffness: 100, damping: 10, velocity: 1e300)",
            "spring(mass: 1e6, stiffness: 1e-6, damping: 1e-6)", "spring(response: 0.5, dampingFraction: 0.825)",
            "spring(response: 1e-300, dampingFraction: 1e6)", "spring(response: 3600, dampingFraction: 0)",
            "spring(response: 0, dampingFraction: 0)", "spring(response: 1e6, dampingFraction: 1e-9)",
            "interpolatingSpring(mass: 1, stiffness: 1e-6, damping: 0, velocity: 0)",
            "interpolatingSpring(stiffness: 1e300, damping: 1e-300)", "spring(duration: 0.5, bounce: 0.3)",
            "spring(duration: 1e-9, bounce: -1)", "spring(duration: 3600, bounce: 0.999999)",
            "spring(duration: 0.5, bounce: 1)", "spring(mass: nan)", "spring(response: inf)", "spring(damping: 1e400)",
            "spring(mass: 0x1p3)", "spring(mass: 1, mass: 2)", "spring(", "wobble",
        ]
        switch random.below(5) {
        case 0:
            return "spring(mass: \(hostileNumber()), stiffness: \(hostileNumber()), damping: \(hostileNumber()))"
        case 1: return "spring(response: \(hostileNumber()), dampingFraction: \(hostileNumber()))"
        case 2:
            return random.pick([
                "spring(damping: \(hostileNumber()), velocity: \(hostileNumber()), duration: \(hostileNumber()))",
                "spring(dampingRatio: \(hostileNumber()))", "spring(duration: \(hostileNumber()), bounce: \(hostileNumber()))",
                "cubic-bezier(\(random.pick(["0", "1", "0.5", "1e-300"])), \(hostileNumber()), \(random.pick(["0", "1", "0.99999999"])), \(hostileNumber()))",
                "steps(\(hostileNumber()), \(random.pick(["jump-none", "jump-both", "end"])))",
            ])
        default: return random.pick(fixed)
        }
    }

    /// Hostile text for a label.
    mutating func hostileText() -> String {
        switch random.below(12) {
        case 0: return String(repeating: "\u{00AD}", count: 100_000)
        case 1: return String(repeating: "\u{200B}", count: 300_000)
        case 2: return "Rate" + String(repeating: "\u{00AD}", count: random.pick([1_000, 100_000])) + "it"
        case 3: return "e" + String(repeating: "\u{0301}", count: random.pick([100, 10_000, 60_000]))
        case 4:
            let parts = ["abc ", "שלום ", "123 ", "مرحبا ", "\u{202E}", "\u{2066}", "\u{2069}", "\u{200F}", "\u{200E}",
                         "ffi ", "👩‍👩‍👧‍👦", "\u{FEFF}", "\u{0000}", "\n"]
            return (0..<random.pick([10, 1_000, 20_000])).map { _ in random.pick(parts) }.joined()
        case 5: return String(repeating: "Show More ", count: random.pick([100, 20_000]))
        case 6: return String(repeating: "\n", count: 10_000)
        case 7: return String(repeating: "x", count: 200_000)
        case 8: return String(repeating: "a\u{200B}\u{00AD}", count: 50_000)
        case 9: return String(repeating: "\u{0E01}\u{0E31}\u{0E49}", count: 5_000)  // Thai with stacked marks
        case 10: return ""
        default: return random.pick(["Rate it", "ZY 2014", "✈ → 漢字 😀", "مرحبا بالعالم 123 abc", "office ffl"])
        }
    }

    static let singularTransforms = [
        "skewX(89.999deg)", "skewY(-89.999deg)", "scale(100000, 0.00001)", "scale(0.00001, 100000)",
        "scale(1, -0.000001)", "matrix(1,1,1,1.000001,0,0)", "rotate(90deg) scale(100000, 0.00001)", "scale(1e-7)",
        "scale(0)", "skewX(89.9999999deg) scale(1e5)", "translate(1e6, -1e6) scale(1e-6)", "scale(-1e6, 1e-6)",
    ]

    static let hostileTransforms3D = [
        #"[{"perspective": 1e-6}, {"rotate": 90, "axis": [0, 1, 0]}]"#, #"[{"perspective": 1e-300}]"#,
        #"[{"perspective": 1}, {"rotate": 89.99999, "axis": [1, 0, 0]}]"#, #"[{"rotate": 90, "axis": [0, 1, 0]}]"#,
        #"[{"rotate": 270, "axis": [1, 0, 0]}]"#, #"[{"perspective": 500}, {"translate": [0, 0, 499.9999]}]"#,
        #"[{"perspective": 500}, {"translate": [0, 0, 1000000]}]"#, #"[{"scale": [100000, 0.00001]}]"#,
        #"[{"scale": [0, 0, 0]}]"#, #"[{"scale": -1000000}]"#,
        #"[{"matrix": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}]"#,
        #"[{"matrix": [1000000, 0, 0, 1000000, 0, -1000000, 0, 0, 0, 0, 1, 0, 1000000, 1000000, 0, 0.000001]}]"#,
        #"[{"matrix": [1, 0, 0, 0.001, 0, 1, 0, 0.001, 0, 0, 1, 0, 0, 0, 0, 1e-9]}]"#,
        #"[{"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.000001, 0, 0, 0, 1]}]"#,
        #"[{"rotate": 1000000, "axis": [1e-300, 0, 0]}]"#, #"[{"rotate": 45, "axis": [1000000, 1000000, 1000000]}]"#,
        #"[{"rotate": 45, "axis": [0, 0, 0]}]"#, #"[{"perspective": 0}]"#, #"[{"perspective": 1000, "rotate": 3}]"#,
        #"[{"perspective": 1200}, {"rotate": 180, "axis": [0, 1, 0]}]"#,
        #"[{"perspective": 1200}, {"rotate": -90.000001, "axis": [1, 0, 0]}, {"translate": [0, 0, -1000000]}]"#,
    ]

    mutating func hostileTransform3D() -> JSONTree {
        if random.chance(0.6) { return JSONTree.parse(random.pick(SceneWriter.hostileTransforms3D))! }
        // Composed from hostile operations.
        let operations = (0..<(1 + random.below(4))).map { _ -> String in
            switch random.below(5) {
            case 0: return #"{"perspective": \#(random.pick(["1e-6", "0.5", "1", "500", "1000000", "1e-300"]))}"#
            case 1:
                return #"{"rotate": \#(random.pick(["90", "-90", "89.9999", "270", "180", "1e6", "0"])), "axis": [\#(random.pick(["0", "1"])), \#(random.pick(["0", "1", "1e-300"])), \#(random.pick(["0", "1", "1e6"]))]}"#
            case 2: return #"{"translate": [\#(random.pick(["0", "1e6", "-1e6"])), 0, \#(random.pick(["0", "499.9999", "1e6", "-1e6"]))]}"#
            case 3: return #"{"scale": [\#(random.pick(["1e5", "1e-5", "0", "-1"])), \#(random.pick(["1e5", "1e-5", "0", "1"]))]}"#
            default:
                let values = (0..<16).map { index in
                    random.chance(0.6) ? (index % 5 == 0 ? "1" : "0") : random.pick(["1e6", "-1e6", "1e-6", "0", "1e-300"])
                }
                return #"{"matrix": [\#(values.joined(separator: ", "))]}"#
            }
        }
        return JSONTree.parse("[" + operations.joined(separator: ", ") + "]")!
    }

    /// Hostile timing for an animation: durations, delays, repeat counts, autoreverses.
    mutating func hostileTiming(_ animation: inout JSONTree) {
        for _ in 0..<(1 + random.below(3)) {
            switch random.below(6) {
            case 0:
                animation["duration"] = .raw(random.pick(["72", "3600", "3599.999", "1e-9", "5e-324", "0", "0.001",
                                                          "1e-300", "3600.0001", "0.3", "-1"]))
            case 1: animation["delay"] = .raw(random.pick(["0", "3599", "3600", "1e-9", "1800", "0.1", "3600.0001"]))
            case 2:
                animation["repeatCount"] = random.chance(0.2) ? .string(random.pick(["forever", "Forever", "∞"]))
                    : .raw(random.pick(["1000000", "999999.999", "1000000.0001", "0.5", "1e-9", "2", "3.7", "0", "-1",
                                        "1e300", "100000"]))
            case 3: animation["autoreverses"] = .raw(random.pick(["true", "false", "1"]))
            case 4: animation["delayFactor"] = .raw(random.pick(["0", "0.5", "0.999", "0.9999999", "1", "-0"]))
            default:
                // Overlaps: a mode on an animation that may or may not overlap (or that has `from`, refused).
                animation["overlap"] = .string(random.pick(["additive", "presentation", "retarget", "blend", ""]))
            }
        }
        // The earlier hidden fuzzer's case: 72 s repeated a million times, more than 2^32 frames at 60 fps.
        if random.chance(0.1) {
            animation["duration"] = .raw("72")
            animation["repeatCount"] = .raw("1000000")
            if random.chance(0.5) { animation["autoreverses"] = .raw("true") }
        }
    }

    /// A value an animation of `property` takes: mostly one the reader takes, now and then a hostile one.
    mutating func mutationValue(_ property: String) -> JSONTree {
        switch property {
        case "opacity", "effect", "dim", "curl":
            return .raw(random.chance(0.8) ? String(Double(random.below(11)) / 10) : hostileNumber())
        case "blur", "cornerRadius": return .raw(random.chance(0.8) ? String(random.below(60)) : hostileNumber())
        case "rotation", "rotation3D":
            return .raw(random.chance(0.7) ? String(random.below(1000) - 500) : random.pick(["1e6", "-1e6", "1e300", "90"]))
        case "transform":
            return .string(random.chance(0.5) ? random.pick(SceneWriter.singularTransforms)
                           : random.pick(["scale(1)", "translate(600, 0) scale(5)", "rotate(350deg)", "scale(0.1)"]))
        case "transform3D": return hostileTransform3D()
        case "frame":
            let values = (0..<4).map { _ in random.chance(0.8) ? String(random.below(300)) : hostileNumber() }
            return JSONTree.parse(#"{"x": \#(values[0]), "y": \#(values[1]), "width": \#(values[2]), "height": \#(values[3])}"#)
                ?? .raw("0")
        case "color": return .string(random.pick(["#000", "#ffffff80", "red", "transparent", "#ＦＦＦ"]))
        default: return .string(random.pick(["coffee.jpg", "table.jpg", "missing.jpg"]))
        }
    }

    /// Keyframes: many, unsorted, duplicated, out of range, each with its own hostile curve now and then.
    mutating func hostileKeyframes(_ property: String) -> JSONTree {
        let count = random.pick([1, 2, 3, 7, 200, 2_000, 5_000])
        let order = random.below(4)
        let keyframes = (0..<count).map { index -> JSONTree in
            var time: String
            switch order {
            case 0: time = String(Double(index + 1) / Double(count))  // sorted, as written
            case 1: time = String(Double(count - index) / Double(count))  // descending
            case 2: time = random.pick(["0", "1", "0.5", "-0", "1e-300"])  // duplicates
            default: time = random.chance(0.8) ? String(Double(random.below(1001)) / 1000) : hostileNumber()
            }
            var keyframe: JSONTree = .object([("time", .raw(time)), ("value", mutationValue(property))])
            if random.chance(0.2) { keyframe["curve"] = .string(hostileCurve()) }
            return keyframe
        }
        return .array(keyframes)
    }

    mutating func newAnimation(_ type: String) -> JSONTree {
        let property = random.pick((SceneWriter.properties[type] ?? ["opacity"]) + ["transform3D", "rotation3D"])
        var animation: JSONTree = .object([("property", .string(property)), ("to", mutationValue(property)),
                                           ("duration", .raw(String(Double(1 + random.below(6)) / 10)))])
        if property == "frame" { animation["from"] = mutationValue(property) }
        if property == "rotation3D", random.chance(0.7) {
            animation["axis"] = JSONTree.parse(random.pick(["[0, 1, 0]", "[1, 0, 0]", "[0, 0, 0]", "[1e6, 1e-300, 0]"]))
        }
        return animation
    }

    mutating func emitterNumbers(_ emitter: inout JSONTree) {
        for _ in 0..<(1 + random.below(4)) {
            switch random.below(7) {
            case 0: emitter["birthRate"] = .raw(random.pick(["1000", "1000.0001", "0", "500", "1"]))
            case 1: emitter["lifetime"] = .raw(random.pick(["1000", "10", "1e-9", "1000.5", "100"]))
            case 2: emitter["timeOffset"] = .raw(random.pick(["3600", "3599", "0", "1e-9", "3600.5", "1000"]))
            case 3: emitter["seed"] = .raw(random.pick(["4294967295", "4294967296", "0", "0.5"]))
            case 4:
                emitter["emitterPosition"] = JSONTree.parse(random.pick(["[-1e6, -1e6]", "[1e6, 1e6]", "[0, 0]", "[195, -10]"]))
            case 5: emitter["emitterSize"] = JSONTree.parse(random.pick(["[1e6, 1e6]", "[0, 0]", "[390, 0]", "[1e-300, 1e6]"]))
            default:
                emitter["emitterShape"] = .string(random.pick(["point", "line", "rectangle", "circle", "cuboid"]))
                emitter["emitterMode"] = .string(random.pick(["points", "outline", "surface", "volume"]))
            }
        }
    }

    /// A cell at or past the caps: at the 10,000-particle limit (rate × lifetime), huge speeds and sizes.
    mutating func hostileCell() -> JSONTree {
        let (rate, life) = random.pick([("100", "100"), ("1000", "10"), ("10000", "1"), ("10001", "1"), ("10000", "3600"),
                                        ("10", "1000"), ("1", "3600"), ("9999", "1.0001")])
        let contents: (String, JSONTree) =
            random.chance(0.8) ? ("shape", JSONTree.string("circle")) : ("image", JSONTree.string("coffee.jpg"))
        var cell: JSONTree = .object([contents, ("birthRate", .raw(rate)), ("lifetime", .raw(life))])
        let numbers: [(String, [String])] = [
            ("velocity", ["100000", "-100000", "0", "100001"]), ("velocityRange", ["100000", "0"]),
            ("xAcceleration", ["100000", "-100000"]), ("yAcceleration", ["100000", "-100000", "1e-300"]),
            ("scale", ["1000", "0", "1e-9"]), ("scaleRange", ["1000"]), ("scaleSpeed", ["1000", "-1000"]),
            ("spin", ["36000", "-36000"]), ("spinRange", ["36000"]), ("alphaSpeed", ["-1000", "1000"]),
            ("alphaRange", ["1", "0"]), ("contentsScale", ["0.01", "100", "0"]), ("emissionRange", ["360", "0"]),
            ("emissionLongitude", ["3600", "-3600"]), ("lifetimeRange", ["3600", "0"]),
        ]
        for (key, values) in numbers where random.chance(0.25) { cell[key] = .raw(random.pick(values)) }
        if cell["shape"] != nil, random.chance(0.3) { cell["diameter"] = .raw(random.pick(["10000", "1e-9", "10000.1"])) }
        return cell
    }

    mutating func newEmitter(tiny: Bool) -> JSONTree {
        var emitter: JSONTree = .object([("type", .string("emitter"))])
        if random.chance(0.4) { emitter["preset"] = .string("snow") }
        if tiny || random.chance(0.6) {
            emitter["emitterCells"] = .array((0..<random.pick([1, 1, 2, 64, 65])).map { _ in hostileCell() })
            emitter["birthRate"] = .raw(random.pick(["1", "1", "1000"]))
        }
        emitterNumbers(&emitter)
        if tiny { emitter["emitterPosition"] = JSONTree.parse(random.pick(["[0, 0]", "[1, 1]", "[-5, 2]"])) }
        return emitter
    }

    mutating func transitionOptions(_ style: String, into layer: inout JSONTree) {
        switch style {
        case "cube": layer["direction"] = .string(random.pick(["up", "down", "up", "left", ""]))
        case "fadeAndBounce":
            layer["offset"] = JSONTree.parse(random.pick(["[-80, 0]", "[1000000, -1000000]", "[0, 0]", "[1e-300, 0]",
                                                          "[1000001, 0]", "[5]"]))
        case "grow", "shrink":
            if random.chance(0.9) {
                layer["point"] = JSONTree.parse(random.pick(["[0, 0]", "[-1000000, 1000000]", "[195, 422]", "[1e-300, 5e-324]",
                                                             "[390, 844]", "[\"a\", 1]"]))
            }
        case "coverVertical", "partialCurl", "flipHorizontal", "pageSheet":
            layer["presenting"] = .raw(random.pick(["true", "false", "true", "1"]))
        case "navigationPush": layer["forward"] = .raw(random.pick(["true", "false", "0"]))
        case "flip", "cube3D": layer["edge"] = .string(random.pick(["left", "right", "top", "bottom", "front"]))
        case "swiftUI":
            let items = ["move(top)", "move(bottom)", "move(leading)", "move(trailing)", "opacity", "scale", "scale(0.5)",
                         "scale(0)", "scale(1e6)", "scale(-1)", "slide", "move(up)", "scale(1e400)", "opacity"]
            for key in ["insertion", "removal"] where random.chance(0.7) {
                layer[key] = .array((0..<random.pick([0, 1, 2, 3, 8, 9])).map { _ in .string(random.pick(items)) })
            }
        default: return
        }
    }

    static let transitionStyles = [
        "crossDissolve", "cube", "fadeAndBounce", "grow", "shrink", "coverVertical", "flip", "flipHorizontal",
        "cube3D", "curlUp", "curlDown", "partialCurl", "swiftUI", "pageSheet", "navigationPush",
    ]

    /// A transition from one layer to another, every style, hostile timing and options.
    mutating func transition(from: JSONTree, to: JSONTree) -> JSONTree {
        let style = random.chance(0.97) ? random.pick(SceneWriter.transitionStyles) : random.pick(["fade", "Cube", ""])
        var layer: JSONTree = .object([("type", .string("transition")), ("style", .string(style)), ("from", from), ("to", to)])
        transitionOptions(style, into: &layer)
        if random.chance(0.4) {
            layer["duration"] = .raw(random.pick(["0", "1e-9", "3600", "72", "0.5", "-1", "3600.0001", "5e-324"]))
        }
        if random.chance(0.3) { layer["delay"] = .raw(random.pick(["0", "3599", "1e-9", "0.2", "3600"])) }
        if random.chance(0.4) { layer["curve"] = .string(hostileCurve()) }
        return layer
    }

    /// One of the animated fixtures, mutated structurally, as scene text.
    mutating func fixtureScene(_ fixtures: FixtureScenes) -> String {
        var tree = random.pick(fixtures.scenes).tree
        // Mostly drawn small: at 3 pixels a point the fixtures are 3 megapixels a frame, refused by the fuzzer's
        // work limit before any mutation is drawn.
        let scale = random.chance(0.85) ? random.pick(["0.1", "0.2", "0.25", "0.5", "1"]) : random.pick(["3", "16", "1e-9"])
        tree.update(at: [.key("canvas")]) { $0["scale"] = .raw(scale) }
        for _ in 0..<(1 + random.below(random.chance(0.2) ? 8 : 3)) { mutateFixture(&tree) }
        return tree.text
    }

    mutating func mutateFixture(_ tree: inout JSONTree) {
        var layers: [[TreeStep]] = []
        tree.layerPaths(into: &layers)
        guard !layers.isEmpty else { return }
        func paths(ofType types: [String]) -> [[TreeStep]] {
            layers.filter { types.contains(tree.value(at: $0)?["type"]?.stringValue ?? "") }
        }
        let animated = layers.filter { tree.value(at: $0)?["animations"] != nil }
        switch random.below(14) {
        case 0, 1:  // an animation's curve, keyframes or timing
            let path = animated.isEmpty ? random.pick(layers) : random.pick(animated)
            let type = tree.value(at: path)?["type"]?.stringValue ?? "color"
            let newAnimation = newAnimation(type)
            var choice = random.below(4)
            tree.update(at: path) { layer in
                guard case .array(var animations)? = layer["animations"], !animations.isEmpty else {
                    layer["animations"] = .array([newAnimation])
                    return
                }
                let index = random.below(animations.count)
                var animation = animations[index]
                let property = animation["property"]?.stringValue ?? "opacity"
                if choice == 3, animation["keyframes"] == nil, animation["to"] == nil { choice = 0 }
                switch choice {
                case 0: animation["curve"] = .string(hostileCurve())
                case 1:
                    animation["to"] = nil
                    animation["keyframes"] = hostileKeyframes(property)
                case 2: hostileTiming(&animation)
                default:
                    if property == "image" { animation["curve"] = .string(hostileCurve()); break }
                    animation["to"] = mutationValue(property)
                    if random.chance(0.3) { animation["velocity"] = JSONTree.parse(random.pick(["[1, 0.2]", "1e300", "[1e6, -1e6]", "0"])) }
                }
                animations[index] = animation
                layer["animations"] = .array(animations)
            }
        case 2:  // many animations on one layer over a long scene
            let path = random.pick(layers)
            let count = random.pick([50, 500, 2_000, 2_000, 5_000])
            let last = random.pick(["3599", "3600", "1800"])
            var animations: [JSONTree] = []
            for index in 0..<count {
                let delay = count > 1 ? Double(index) * (Double(last)! - 0.5) / Double(count - 1) : 0
                animations.append(.object([("property", .string(index % 2 == 0 ? "opacity" : "transform")),
                                           ("to", index % 2 == 0 ? .raw(index % 4 == 0 ? "0.2" : "1") : .string("scale(1.1)")),
                                           ("duration", .raw("0.5")), ("delay", .raw(String(delay)))]))
            }
            tree.update(at: path) { $0["animations"] = .array(animations) }
        case 3, 4:  // text
            var texts = paths(ofType: ["text"])
            if texts.isEmpty || random.chance(0.1) {
                tree.update(at: [.key("layers")]) { layers in
                    if case .array(var items) = layers {
                        items.append(JSONTree.parse(#"{"type": "text", "text": "Rate it", "frame": {"x": 40, "y": 430, "width": 180, "height": 44}}"#)!)
                        layers = .array(items)
                    }
                }
                layers = []
                tree.layerPaths(into: &layers)
                texts = paths(ofType: ["text"])
            }
            guard let path = texts.isEmpty ? nil : random.pick(texts) else { return }
            let which = random.below(6)
            let text = which == 0 ? hostileText() : ""
            let transform3D = hostileTransform3D()
            tree.update(at: path) { label in
                switch which {
                case 0: label["text"] = .string(text)
                case 1:
                    label["size"] = .raw(random.pick(["16384", "16384.0001", "1e-300", "5e-324", "0.001", "4000", "2000"]))
                    if random.chance(0.5) { label["lineLimit"] = .raw(random.pick(["0", "1000000", "1"])) }
                case 2:
                    label["tracking"] = .raw(random.pick(["-1000", "1000", "-1000.1", "0.5"]))
                    label["lineSpacing"] = .raw(random.pick(["10000", "0", "1e-300"]))
                case 3: label["transform"] = .string(random.pick(SceneWriter.singularTransforms))
                case 4:
                    label["transform3D"] = random.chance(0.5) ? JSONTree.parse(#"[{"scale": [100000, 0.00001]}]"#)! : transform3D
                default:
                    var animations: [JSONTree] = []
                    if case .array(let items)? = label["animations"] { animations = items }
                    animations.append(.object([("property", .string("transform")), ("to", .string(random.pick(SceneWriter.singularTransforms))),
                                               ("duration", .raw(random.pick(["0.3", "1", "0"])))]))
                    label["animations"] = .array(animations)
                }
            }
        case 5, 6:  // emitters: at and past the caps, or a flood of them on a tiny canvas
            if random.chance(0.25) {
                let count = random.pick([200, 250, 400])
                var emitters: [JSONTree] = []
                for _ in 0..<count { emitters.append(newEmitter(tiny: true)) }
                tree.update(at: [.key("layers")]) { layers in
                    if case .array(let items) = layers { layers = .array(items + emitters) }
                }
                let (w, h) = random.pick([("1", "1"), ("4", "3"), ("10", "10")])
                tree.update(at: [.key("canvas")]) { canvas in
                    canvas["width"] = .raw(w)
                    canvas["height"] = .raw(h)
                    canvas["scale"] = .raw("1")
                }
                return
            }
            let emitters = paths(ofType: ["emitter"])
            if emitters.isEmpty || random.chance(0.3) {
                let emitter = newEmitter(tiny: false)
                tree.update(at: [.key("layers")]) { layers in
                    if case .array(let items) = layers { layers = .array(items + [emitter]) }
                }
                return
            }
            let path = random.pick(emitters)
            let cell = hostileCell()
            let replaceCells = random.chance(0.4)
            tree.update(at: path) { emitter in
                emitterNumbers(&emitter)
                if replaceCells { emitter["emitterCells"] = .array([cell]) }
            }
        case 7, 8:  // 3D transforms and their animations
            let path = random.pick(layers)
            let transform3D = hostileTransform3D()
            let animation = random.chance(0.5) ? newAnimation("group") : nil
            var rotation: JSONTree = .object([("property", .string(random.pick(["rotation3D", "transform3D"]))),
                                              ("duration", .raw(random.pick(["0.4", "1e-9", "3600"])))])
            if rotation["property"]?.stringValue == "rotation3D" {
                rotation["to"] = .raw(random.pick(["180", "90", "1e6", "-90.000001"]))
                rotation["axis"] = JSONTree.parse(random.pick(["[0, 1, 0]", "[1, 0, 0]", "[1, 1, 1e-300]"]))
            } else {
                rotation["to"] = hostileTransform3D()
                if random.chance(0.5) { rotation["from"] = hostileTransform3D() }
            }
            let doubleSided = random.chance(0.3)
            tree.update(at: path) { layer in
                if random.chance(0.7) { layer["transform3D"] = transform3D }
                if doubleSided { layer["doubleSided"] = .raw("false") }
                var animations: [JSONTree] = []
                if case .array(let items)? = layer["animations"] { animations = items }
                animations.append(rotation)
                if let animation { animations.append(animation) }
                layer["animations"] = .array(animations)
            }
        case 9:  // curls: a layer wrapped in a curled page, or a curled layer's numbers
            let curled = paths(ofType: ["curled"])
            let path = !curled.isEmpty && random.chance(0.5) ? random.pick(curled) : random.pick(layers)
            let progress = random.pick(["0", "1", "0.3", "0.999999", "1e-300", "1.0001"])
            let angle = random.pick(["60", "-60", "0", "15", "60.0001", "-59.9999"])
            let radius = random.pick(["0.01", "1", "0.1", "0.0099", "1e-300"])
            let direction = random.pick(["up", "down", "left"])
            let curl: JSONTree = .object([("property", .string("curl")), ("to", .raw(random.pick(["1", "0", "0.5"]))),
                                          ("duration", .raw(random.pick(["1", "1e-9", "3600"]))), ("curve", .string(hostileCurve()))])
            tree.update(at: path) { layer in
                if layer["type"]?.stringValue != "curled" {
                    let frame = layer["frame"]
                    layer = .object([("type", .string("curled")), ("layers", .array([layer]))])
                    if let frame, random.chance(0.5) { layer["frame"] = frame }
                }
                layer["progress"] = .raw(progress)
                if random.chance(0.6) { layer["angle"] = .raw(angle) }
                if random.chance(0.6) { layer["radius"] = .raw(radius) }
                if random.chance(0.6) { layer["direction"] = .string(direction) }
                if random.chance(0.6) { layer["animations"] = .array([curl]) }
            }
        case 10, 11:  // transitions: an existing one changed, or a layer turned into one to another layer
            let transitions = paths(ofType: ["transition"])
            if !transitions.isEmpty, random.chance(0.5) {
                let path = random.pick(transitions)
                let style = random.pick(SceneWriter.transitionStyles)
                var options: JSONTree = .object([])
                transitionOptions(style, into: &options)
                let duration = random.pick(["0", "1e-9", "3600", "72", "-1", "0.5"])
                let curve = hostileCurve()
                let which = random.below(3)
                tree.update(at: path) { layer in
                    layer["style"] = .string(style)
                    if case .object(let members) = options { for (key, value) in members { layer[key] = value } }
                    if which == 0 { layer["duration"] = .raw(duration) }
                    if which == 1 { layer["curve"] = .string(curve) }
                }
                return
            }
            let path = random.pick(layers)
            guard let from = tree.value(at: path) else { return }
            var to = tree.value(at: random.pick(layers)) ?? from
            if to["type"]?.stringValue == "text", random.chance(0.5) { to["text"] = .string(hostileText()) }
            let nested = random.chance(0.15) ? transition(from: to, to: from) : to
            let layer = transition(from: from, to: nested)
            tree.update(at: path) { $0 = layer }
        case 12:  // any number in the scene made hostile
            var numbers: [[TreeStep]] = []
            tree.numberPaths(into: &numbers)
            guard !numbers.isEmpty else { return }
            let value = hostileNumber()
            tree.update(at: random.pick(numbers)) { $0 = .raw(value) }
        default:  // a layer duplicated many times, or one key removed
            let path = random.pick(layers)
            guard case .index(let index)? = path.last, let layer = tree.value(at: path) else { return }
            let parent = Array(path.dropLast())
            let copies = random.pick([2, 10, 100])
            let removeKey = random.chance(0.3)
            tree.update(at: parent) { list in
                guard case .array(var items) = list else { return }
                if removeKey, case .object(var members) = layer, members.count > 1 {
                    members.remove(at: 1 + random.below(members.count - 1))
                    items[index] = .object(members)
                } else {
                    items.insert(contentsOf: Array(repeating: layer, count: copies), at: index)
                }
                list = .array(items)
            }
        }
    }
}
