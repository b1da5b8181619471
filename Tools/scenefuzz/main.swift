// A seeded, structure-aware fuzzer for scene files: it writes scenes as JSON text (every layer type, hostile
// numbers, strings, transforms, nesting and animations), mutates some of them byte by byte, and reads and draws
// each one in this process through SceneFile and SceneRenderer, as `blurtool compose` would; an animated one
// is also drawn as a few frames with the frame cache, and each of them alone, which must be the same pixels. Every case must end in a
// scene drawn or a SceneFileError / SceneRenderError: a trap kills the process, and the case is then left in
// the state folder (`current.json`) to reproduce. A case that runs past the time cap is reported and the run
// stops with status 1, the case kept the same way.
//
// A share of the cases (`--fixture-share`, half by default) starts from the animated fixtures in the images folder
// (fixtures/*.json, their images resolved there) and mutates their animated surfaces: curves, springs, keyframes,
// repeat counts, delays, text, emitters, 3D transforms, curls and transitions (FixtureMutator.swift). An animated
// case is also checked whole at 60 fps, as `animate` checks it before drawing, and drawn once at a late time.
//
// Time: a case draws at most 16 pictures, each within this fuzzer's work limit of 3·10⁸ (4.8·10⁹ together,
// under half the default 10¹⁰ that README gives about 15 s on one core), so every case must end within
// that one default still's bound, `--slow-seconds` 15: a case past it is reported as SLOW and kept
// (case-N.json), and the run goes on; one past `--seconds-per-case` (60) is a HANG and stops the run.
//
//     scenefuzz [--seed N] [--count N] [--state DIR] [--images DIR] [--fixture-share P] [--slow-seconds S]
//               [--seconds-per-case S] [--verbose 1] [--dump DIR]
//     scenefuzz --replay case-N.json [--number N] [--late SECONDS]   (one kept case again, timed)
import Compositor
import Dispatch
import Foundation
import ImageCodecs
import SceneFormat
import Scenes
import Typesetting
import TestSupport

struct Options {
    var seed: UInt64 = 1
    var count = 500
    var state = ".build/scenefuzz"
    var images = "fixtures"
    var secondsPerCase = 60.0
    var slowSeconds = 15.0
    var fixtureShare = 0.5
    var verbose = false
    var dump: String?
    var replay: String?
    var replayNumber = 0
    var replayLate = 1e9

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fatalError("\(flag) needs a value") }
            switch flag {
            case "--seed": seed = UInt64(value) ?? seed
            case "--count": count = Int(value) ?? count
            case "--state": state = value
            case "--images": images = value
            case "--seconds-per-case": secondsPerCase = Double(value) ?? secondsPerCase
            case "--slow-seconds": slowSeconds = Double(value) ?? slowSeconds
            case "--fixture-share": fixtureShare = Double(value) ?? fixtureShare
            case "--verbose": verbose = value == "1"
            case "--dump": dump = value
            case "--replay": replay = value
            case "--number": replayNumber = Int(value) ?? 0
            case "--late": replayLate = Double(value) ?? replayLate
            default: fatalError("unknown option \(flag)")
            }
        }
    }
}

/// SplitMix64: small, fast, and the same sequence from the same seed on every machine.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}

/// Scene text from the generator: plausible structure, hostile values.
struct SceneWriter {
    var random: Random
    /// Layers this scene may still get: wide groups inside wide groups would otherwise grow without bound.
    private var layersLeft = 0
    /// Whether this scene may hold values the JSON parser refuses (decided once a scene: a scene has hundreds
    /// of values, so a per-value chance would leave few scenes for the renderer).
    private var mayBeInvalid = false

    init(random: Random) { self.random = random }

    static let numbers = [
        "0", "-0", "1", "0.5", "-1", "2", "3", "16", "16.0001", "390", "844", "1e-300", "5e-324", "1e300", "-1e300",
        "1e308", "2147483647", "2147483648", "9007199254740993", "1e16", "0.0000001", "100000", "-1e-7",
    ]
    static let strings = [
        "", "thin", "dark", "light", "fill", "fit", "stretch", "#fff", "#ＦＦＦ", "#ffffff3c", "#12345", "red",
        "capsule", "rectangle", "lanczos3", "bilinear", "nearest", "color-burn", "plus-lighter", "copy", "clear",
        "\\u0000", "\\u001b[31m", "\\n", "\\u202e", "ultraThin", "systemThinMaterialDark", "xor", "linear",
    ]
    static let transforms = [
        "rotate(30deg)", "rotate(1e300deg)", "scale(1e-300)", "scale(1e300)", "scale(0)", "skewX(89.9999999deg)",
        "skewY(-89.99999deg)", "translate(1e308,0)", "translate(600,0) scale(5)", "matrix(1,2,2,4,0,0)",
        "matrix(1e-300,0,0,1e300,0,0)", "scale(-1,1)", "rotate(90deg) scale(0.05)", "scaleX(1e-7)", "spin(3)", "",
        "translate(10px, 20px)", "rotate(nan)", "scale(１)",
    ]

    /// Hostile but valid JSON numbers; now and then one out of Double's range, which the parser refuses.
    mutating func number() -> String {
        mayBeInvalid && random.chance(0.1) ? "1e400" : random.pick(SceneWriter.numbers)
    }

    mutating func string() -> String {
        if random.chance(0.02) { return String(repeating: "x", count: 100_000 + random.below(10)) }
        if mayBeInvalid, random.chance(0.1) { return "\\ud800" }  // an unpaired surrogate: a syntax error
        return random.pick(SceneWriter.strings)
    }

    mutating func frame() -> String {
        let values = (0..<4).map { _ in random.chance(0.6) ? String(random.below(900) - 100) : number() }
        return #"{"x": \#(values[0]), "y": \#(values[1]), "width": \#(values[2]), "height": \#(values[3])}"#
    }

    mutating func value(for key: String) -> String {
        switch key {
        case "frame": return frame()
        case "opacity", "dim", "progress": return random.chance(0.7) ? String(Double(random.below(11)) / 10) : number()
        case "radius": return random.chance(0.7) ? String(Double(1 + random.below(10)) / 10) : number()
        case "angle": return random.chance(0.7) ? String(random.below(121) - 60) : number()
        case "direction": return "\"" + random.pick(["up", "down", "left"]) + "\""
        case "cornerRadius", "blur": return random.chance(0.7) ? String(random.below(60)) : number()
        case "transform": return "\"" + random.pick(SceneWriter.transforms) + "\""
        case "transform3D": return random.pick(SceneWriter.transforms3D)
        case "doubleSided": return random.pick(["true", "false", "0"])
        case "blend": return "\"" + random.pick(CompositeOperator.allCases.map(\.rawValue) + ["burn"]) + "\""
        case "material": return "\"" + random.pick(MaterialCatalog.knownNames + ["frosted", ""]) + "\""
        case "path":
            return "\"" + random.pick(["photo.jpg", "photo.png", "tiny.png", "missing.jpg", "/dev/zero"]) + "\""
        case "color":
            // A shape's or color layer's may be a gradient (a text's or cell's then refuses it).
            if random.chance(0.15) { return random.pick(SceneWriter.gradients) }
            return "\"" + random.pick(["#000", "#ffffff80", "red", "#ＦＦＦ", "transparent", "#0000"]) + "\""
        case "text":
            let samples = ["Rate it", "Awesome", "", "fi AV ffl office", "שלום עולם", "مرحبا بالعالم", "✈ → 漢字 😀",
                           #"e\u0301\u0301\u0301"#, "Show More Show More Show More Show More", #"a\nb\r\nc\u2029d"#]
            return "\"" + (random.chance(0.8) ? random.pick(samples) : string()) + "\""
        case "font":
            return "\"" + random.pick(["Inter", "DejaVu Sans", "DejaVu Serif", "Helvetca", "photo.png", "/dev/null",
                                       "missing.ttf", "sans-serif", ""]) + "\""
        case "size": return random.chance(0.7) ? random.pick(["11", "17", "34", "60"]) : number()
        case "style": return "\"" + random.pick(TextStyleName.allNames + ["huge"]) + "\""
        case "design": return "\"" + random.pick(FontDesign.allCases.map(\.rawValue) + ["italic"]) + "\""
        case "weight": return "\"" + random.pick(FontWeight.allCases.map { "\($0)" } + ["fat"]) + "\""
        case "italic": return random.pick(["true", "false", "1"])
        case "alignment": return "\"" + random.pick(TextAlignment.allCases.map(\.rawValue) + ["left"]) + "\""
        case "lineLimit": return random.chance(0.7) ? String(random.below(4)) : number()
        case "lineSpacing", "tracking": return random.chance(0.7) ? String(random.below(8)) : number()
        case "preset": return random.chance(0.9) ? #""snow""# : #""rain""#
        case "d": return "\"" + pathData() + "\""
        case "viewBox":
            return random.pick([#"{"x": 0, "y": 0, "width": 24, "height": 24}"#, #"{"x": 0, "y": 0, "width": 0, "height": 24}"#,
                                #"{"x": -1e300, "y": 0, "width": 1e-300, "height": 1}"#, #"{"x": 1, "y": 2, "width": 3}"#])
        case "fill":
            if random.chance(0.3) { return random.pick(SceneWriter.gradients) }
            return "\"" + random.pick(["#fff", "none", "red", "#00000000", "nope"]) + "\""
        case "tint":
            if random.chance(0.6) { return random.pick(SceneWriter.gradients) }
            return "\"" + random.pick(["#00000080", "#fff", "nope"]) + "\""
        case "stroke":
            return random.pick([
                ##"{"color": "#fff", "width": 2, "cap": "round", "join": "round", "dash": [4, 2]}"##,
                #"{"width": 1e300, "join": "miter", "miterLimit": 1e6}"#, #"{"width": 0}"#,
                #"{"dash": [1e-300, 1e-300], "dashPhase": 1e9}"#, #"{"dash": [0, 0]}"#, #"{"cap": "pointy"}"#,
            ])
        case "strokeEnd": return random.pick(["0", "0.5", "1", "1.5", "-1"])
        case "fillRule": return "\"" + random.pick(["nonzero", "evenodd", "evenOdd", ""]) + "\""
        case "emitterPosition", "emitterSize":
            return random.chance(0.7) ? "[\(random.below(400) - 50), \(random.below(300))]" : "[\(number()), \(number())]"
        case "emitterShape": return "\"" + random.pick(["point", "line", "rectangle", "circle"]) + "\""
        case "emitterMode": return "\"" + random.pick(["points", "outline", "surface", "volume", "edge"]) + "\""
        case "birthRate", "lifetime", "timeOffset", "seed": return random.chance(0.6) ? String(random.below(30)) : number()
        case "emitterCells": return "[" + (0..<random.below(4)).map { _ in emitterCell() }.joined(separator: ", ") + "]"
        default: return "\"" + string() + "\""
        }
    }

    /// Gradients for a path's fill, a shape's colour and a backdrop's tint: plausible, huge, degenerate, empty.
    static let gradients = [
        ##"{"linearGradient": {"x2": 1e300}, "stops": [{"offset": 0, "color": "#fff"}, {"offset": 1, "color": "red"}], "spread": "repeat"}"##,
        ##"{"radialGradient": {"r": 0, "fx": 1e9}, "stops": [{"color": "#000", "opacity": 2}]}"##,
        ##"{"radialGradient": {"cx": 0.5, "r": 0.5, "fx": 0.9}, "stops": [{"offset": 0.5, "color": "#fff"}], "spread": "reflect", "units": "userSpaceOnUse"}"##,
        ##"{"linearGradient": {"x2": 0, "y2": 1}, "stops": [{"color": "#000", "opacity": 0.5}, {"offset": 1, "color": "#000", "opacity": 0}]}"##,
        ##"{"linearGradient": {}, "stops": []}"##,
    ]

    static let cellNumbers = [
        "birthRate", "lifetime", "lifetimeRange", "velocity", "velocityRange", "emissionLongitude", "emissionRange",
        "xAcceleration", "yAcceleration", "scale", "scaleRange", "scaleSpeed", "spin", "spinRange", "alphaRange",
        "alphaSpeed", "contentsScale", "diameter",
    ]

    /// An emitter cell: a circle or a picture, some of Core Animation's numbers, mostly plausible.
    mutating func emitterCell() -> String {
        var members = [random.chance(0.5) ? #""shape": "circle""# : #""image": \#(value(for: "path"))"#]
        for key in SceneWriter.cellNumbers where random.chance(0.4) {
            members.append("\"\(key)\": " + (random.chance(0.7) ? String(random.below(60)) : number()))
        }
        if random.chance(0.3) { members.append(#""color": \#(value(for: "color"))"#) }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// Perspectives from ordinary to hostile: an eye a millionth of a point away, a plane behind it, edge on.
    static let transforms3D = [
        #"[{"perspective": 500}, {"rotate": 30, "axis": [0, 1, 0]}]"#,
        #"[{"perspective": 1e-6}, {"rotate": 89, "axis": [1, 1, 0]}]"#,
        #"[{"perspective": 100}, {"translate": [0, 0, 200]}]"#, #"[{"perspective": 300}, {"rotate": 90, "axis": [0, 1, 0]}]"#,
        #"[{"matrix": [1e6, 0, 0, 1e6, 0, -1e6, 0, 0, 0, 0, 1, 0, 1e6, 1e6, 0, 1e-6]}]"#, #"[{"scale": [0, 1]}]"#,
        #"[{"rotate": 180, "axis": [0, 1, 0]}]"#, #"[{"skew": 1}]"#, "[]",
    ]

    static let keys = [
        "image": ["path", "fit", "filter", "cornerRadius"], "color": ["color"],
        "shape": ["shape", "color", "cornerRadius"],
        "backdrop": ["material", "appearance", "dim", "cornerRadius", "blur", "tint"],
        "group": ["cornerRadius"], "curled": ["progress", "direction", "angle", "radius"],
        "emitter": ["preset", "emitterPosition", "emitterSize", "emitterShape", "emitterMode", "birthRate", "lifetime",
                    "seed", "timeOffset", "emitterCells"],
        "text": ["text", "font", "size", "style", "weight", "italic", "color", "alignment", "lineLimit", "lineSpacing",
                 "tracking", "design"],
        "path": ["d", "viewBox", "fill", "fillRule", "stroke", "strokeEnd"],
    ]

    /// SVG path data: well-formed shapes, hostile numbers (NaN spelled out, 1e300, a million-step zig-zag's
    /// start), packed arc flags, and broken commands.
    mutating func pathData() -> String {
        let samples = [
            "M6 6 L18 18 M18 6 L6 18", "M12 2 A10 10 0 1 1 11.99 2 Z", "M0 0 h10 v10 h-10 z m2 2 h6 v6 h-6 z",
            "M10 0 L12 7 L20 7 L14 12 L16 20 L10 15 L4 20 L6 12 L0 7 L8 7 Z", "M0 0 C1e300 1e300 -1e300 0 5 5",
            "M0 0 L1e308 1e308 L-1e308 0 Z", "M0 0 a1 1 0 00.5.5", "M 1 1 Q", "M0 0 L NaN 1", "L 5 5", "M1e400 0",
            "M0,0 c0,0 0,0 0,0 s1,1 1,1 t2,2 q3,3 3,3 z", "",
        ]
        if random.chance(0.85) { return random.pick(samples) }
        // A long zig-zag: many segments, bounded by the format's byte limit and the cost model.
        let count = random.pick([10, 1000, 100_000])
        return "M0 0" + String(repeating: " l3 9 l3 -9", count: count / 2)
    }

    mutating func layer(depth: Int) -> String {
        let type =
            depth > 40
            ? "color"
            : random.pick(["image", "color", "shape", "backdrop", "group", "group", "text", "curled", "emitter",
                           "transition", "path"])
        if type == "transition" { return transitionLayer(depth: depth) }
        var members = [#""type": "\#(type)""#]
        let common = ["frame", "opacity", "blend", "transform", "transform3D", "doubleSided", "name"]
        for key in SceneWriter.keys[type]! + common
        where random.chance(["path", "color", "material", "text", "d"].contains(key) ? 0.95 : 0.35) {
            members.append("\"\(key)\": \(value(for: key))")
        }
        if type == "group" { members.append(#""isolated": \#(random.chance(0.5))"#) }
        if type == "group" || type == "curled" { members.append(#""layers": \#(layers(depth: depth + 1))"#) }
        if random.chance(0.5) { members.append(#""animations": \#(animations(for: type))"#) }
        if random.chance(0.02) { members.append(#""unknownKey": 1"#) }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A `transition` layer between two generated layers: every style, hostile options and timing, the common
    /// keys and animations as any layer has them.
    mutating func transitionLayer(depth: Int) -> String {
        layersLeft = max(0, layersLeft - 2)
        let from = layer(depth: depth + 1)
        let to = layer(depth: depth + 1)
        var result: JSONTree = transition(from: .raw(from), to: .raw(to))
        for key in ["frame", "opacity", "blend", "transform", "transform3D", "name"] where random.chance(0.25) {
            result[key] = .raw(value(for: key))
        }
        if random.chance(0.3) { result["animations"] = .raw(animations(for: "transition")) }
        return result.text
    }

    static let curves = [
        "linear", "easeInOut", "ease-out", "cubic-bezier(0.57,-0.4,0.96,0.87)", "cubic-bezier(0,2,1,-1)",
        "steps(3, jump-both)", "steps(2, jump-none)", "bouncy", "spring(damping: 0.2, velocity: 0.3, duration: 0.8)",
        "steps(1, jump-none)", "spring(damping: 0, duration: 1e-9)", "spring(mass: 1e8, stiffness: 1e-8, damping: 0)",
        "spring(response: 1e-300, dampingFraction: 1e6)", "spring(mass: 1, stiffness: 100, damping: 10)", "wobble",
    ]
    static let properties = [
        "image": ["opacity", "transform", "rotation", "frame", "cornerRadius", "image"],
        "color": ["opacity", "color", "frame", "transform"], "shape": ["opacity", "color", "cornerRadius", "rotation"],
        "backdrop": ["effect", "blur", "dim", "frame", "cornerRadius", "opacity"],
        "group": ["opacity", "transform", "rotation", "frame", "cornerRadius"], "curled": ["curl", "opacity", "frame"],
        "path": ["opacity", "color", "transform", "rotation", "frame", "strokeEnd", "strokeColor"],
        "text": ["opacity", "color", "transform", "rotation", "frame"],
        "emitter": ["opacity", "transform", "rotation", "frame"],
        "transition": ["opacity", "transform", "rotation", "frame", "transform3D", "rotation3D"],
    ]

    /// A property's value in an animation: mostly one the reader takes (a scene with one bad value is refused
    /// whole, and the frames are what this tests), now and then the layer key's hostile ones.
    mutating func animationValue(_ property: String) -> String {
        guard random.chance(0.9) else { return property == "image" ? value(for: "path") : value(for: property) }
        switch property {
        case "opacity", "effect", "dim", "curl": return String(Double(random.below(11)) / 10)
        case "cornerRadius", "blur": return String(random.below(60))
        case "rotation": return String(random.below(1000) - 500)
        case "transform": return "\"" + random.pick(["scale(1)", "translate(600,0) scale(5)", "rotate(350deg)",
            "scale(-1,1)", "scale(0.1)", "skewX(30deg) translate(-20, 7)"]) + "\""
        case "frame":
            let values = (0..<4).map { _ in String(random.below(300)) }
            return #"{"x": \#(values[0]), "y": \#(values[1]), "width": \#(values[2]), "height": \#(values[3])}"#
        case "color", "strokeColor": return "\"" + random.pick(["#000", "#ffffff80", "red", "transparent"]) + "\""
        case "transform3D": return random.pick(SceneWriter.transforms3D)
        case "rotation3D": return String(random.below(361) - 180)
        default: return "\"" + random.pick(["photo.jpg", "photo.png", "tiny.png"]) + "\""
        }
    }

    /// A layer's animations: plausible timing, hostile values, curves and keyframes.
    mutating func animations(for type: String) -> String {
        var items: [String] = []
        for _ in 0..<(1 + random.below(random.chance(0.05) ? 50 : 3)) {
            let property = random.pick(SceneWriter.properties[type]! + (random.chance(0.05) ? ["alpha"] : []))
            let curve = random.chance(0.9) ? random.pick(Array(SceneWriter.curves.prefix(9))) : random.pick(SceneWriter.curves)
            var members = [#""property": "\#(property)""#, #""curve": "\#(curve)""#]
            if property == "frame" || random.chance(0.3) { members.append(#""from": \#(animationValue(property))"#) }
            if random.chance(0.8) {
                members.append(#""to": \#(animationValue(property))"#)
            } else {
                let count = 1 + random.below(random.chance(0.1) ? 200 : 4)
                let keyframes = (0..<count).map { index in
                    let time = random.chance(0.9) ? String(Double(index + 1) / Double(count)) : number()
                    return #"{"time": \#(time), "value": \#(animationValue(property))}"#
                }
                members.append(#""keyframes": [\#(keyframes.joined(separator: ", "))]"#)
            }
            let duration = random.chance(0.95) ? String(Double(1 + random.below(6)) / 10) : number()
            members.append(#""duration": \#(duration)"#)
            if random.chance(0.3) { members.append(#""delay": \#(random.chance(0.8) ? "0.1" : number())"#) }
            if random.chance(0.1) { members.append(#""delayFactor": \#(random.chance(0.8) ? "0.5" : number())"#) }
            if random.chance(0.1) { members.append(#""repeatCount": \#(random.chance(0.5) ? "\"forever\"" : number())"#) }
            if random.chance(0.1) { members.append(#""autoreverses": true"#) }
            if curve.hasPrefix("spring") || curve == "bouncy" || random.chance(0.02) {
                members.append(#""velocity": \#(random.chance(0.5) ? "[1, 0.2]" : number())"#)
            }
            items.append("{" + members.joined(separator: ", ") + "}")
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    mutating func layers(depth: Int) -> String {
        // Mostly short stacks; sometimes one child deep (long chains of nested groups) or many siblings.
        let count = min(layersLeft, random.chance(0.1) ? 1 + random.below(300) : random.below(depth > 3 ? 2 : 5))
        layersLeft -= count
        return "[" + (0..<count).map { _ in layer(depth: depth) }.joined(separator: ", ") + "]"
    }

    mutating func scene() -> String {
        layersLeft = 2_000
        mayBeInvalid = random.chance(0.05)
        let width = random.chance(0.8) ? String(1 + random.below(400)) : number()
        let height = random.chance(0.8) ? String(1 + random.below(400)) : number()
        let scale = random.chance(0.8) ? String(1 + random.below(3)) : number()
        let space = random.pick(["srgb", "linear"])
        return ##"{"canvas": {"width": \##(width), "height": \##(height), "scale": \##(scale), "background": "#123", "##
            + #""space": "\#(space)"}, "layers": \#(layers(depth: 0))}"#
    }

    /// Byte-level damage to a scene's text: flips, cuts, repeats and hostile insertions.
    mutating func mutate(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        for _ in 0..<(1 + random.below(4)) where !bytes.isEmpty {
            let at = random.below(bytes.count)
            switch random.below(5) {
            case 0: bytes[at] ^= UInt8(1 << random.below(8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + random.below(20)))
            case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + random.below(40))], at: at)
            case 3:
                bytes.insert(
                    contentsOf: random.pick([
                        [0xFF], [0xC3], [0xED, 0xA0, 0x80], Array("[[[[".utf8), Array("\\u+041".utf8),
                    ]), at: at)
            default: bytes = Array(bytes[..<at])
            }
        }
        return bytes
    }
}

/// Kills the run when one case takes longer than the cap, leaving it in the state folder.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var started = DispatchTime.now()
    private var caseNumber = -1

    func start(_ number: Int) { lock.withLock { (started, caseNumber) = (.now(), number) } }

    func watch(cap seconds: Double) {
        Thread.detachNewThread {
            while true {
                Thread.sleep(forTimeInterval: 1)
                let (since, number) = self.lock.withLock { (self.started, self.caseNumber) }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - since.uptimeNanoseconds) / 1e9
                if number >= 0, elapsed > seconds {
                    FileHandle.standardError.write(Data("scenefuzz: HANG: case \(number) ran \(Int(elapsed)) s\n".utf8))
                    exit(1)
                }
            }
        }
    }
}

let options = Options(CommandLine.arguments)
/// A line on standard output, written at once: findings show as they happen when the output goes to a log.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
try FileManager.default.createDirectory(atPath: options.state, withIntermediateDirectories: true)
func decodeFile(_ path: String) throws -> Image {
    try ImageDecoder.decode(
        Array(try Data(contentsOf: URL(fileURLWithPath: path))), options: DecodeOptions(maxPixels: 4_000_000)
    ).image
}
// The images scenes may name, decoded once (a loader that reads a file per layer would time the disk).
let images: [String: Image] = [
    "photo.jpg": try decodeFile(options.images + "/coffee.jpg"),
    "photo.png": TestImages.photoLike(width: 37, height: 23),
    "tiny.png": TestImages.photoLike(width: 1, height: 1),
    // The fixtures' own images, named as the fixtures name them.
    "coffee.jpg": try decodeFile(options.images + "/coffee.jpg"),
    "table.jpg": try decodeFile(options.images + "/table.jpg"),
]
let fixtures = FixtureScenes(directory: options.images)
struct MissingImage: Error {}

/// Whether every pixel where `image` and `previous` differ lies inside `bound` (nil: they differ nowhere).
func changesOnlyInside(_ bound: PixelBox?, _ image: Image, _ previous: Image) -> Bool {
    for y in 0..<image.height {
        for x in 0..<image.width where image[x, y] != previous[x, y] {
            guard let bound, bound.x <= x, x < bound.x + bound.width, bound.y <= y, y < bound.y + bound.height
            else { return false }
        }
    }
    return true
}

/// A few frames of an animated scene drawn as an animation (with the frame cache, on two threads, later frames on
/// released canvases) and drawn alone: they must be the same pixels, and each must differ from the one before
/// only inside the box the renderer hands on with it.
func animate(_ scene: Scene, number: Int, lateTime: Double) throws -> String {
    let duration = min(scene.animationDuration, 2)
    let animator = AnimationRenderer(framesPerSecond: 6 / max(duration, 0.05), renderer: renderer)
    let count = min(animator.frameCount(duration: duration), 7)
    let frames = Locked([Int: Image]())
    let outsideBound = Locked([Int]())
    try animator.renderFrames(
        of: scene, count: count,
        processFrame: { frame in
            // Copied, so that the frame's canvas is free to be drawn on again.
            frames.withLock { $0[frame.index] = frame.image.copy() }
            guard let previous = frame.previous, !changesOnlyInside(frame.changeBound, frame.image, previous) else {
                return
            }
            outsideBound.withLock { $0.append(frame.index) }
        },
        deliver: { _, _ in })
    if let index = outsideBound.withLock({ $0.first }) {
        say("scenefuzz: CHANGE OUTSIDE ITS BOUND in case \(number) at frame \(index); kept in \(options.state)")
        _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(
            (try? Data(contentsOf: URL(fileURLWithPath: options.state + "/current.json"))) ?? Data()))
        return "CHANGE OUTSIDE ITS BOUND"
    }
    // Every frame drawn alone, the case's own first (as before: a frame drawn from the cache that differs only at
    // one time, as at a flip's edge-on midpoint, is found whichever frame the case number names).
    for step in 0..<count {
        let index = (number + step) % count
        let alone = try animator.frame(of: scene, at: animator.time(ofFrame: index))
        guard let frame = frames.withLock({ $0[index] }), frame.hasSamePixels(as: alone) else {
            say("scenefuzz: ANIMATION MISMATCH in case \(number) at frame \(index) of \(count) (t = \(animator.time(ofFrame: index)) s); kept in \(options.state)")
            _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(
                (try? Data(contentsOf: URL(fileURLWithPath: options.state + "/current.json"))) ?? Data()))
            return "ANIMATION MISMATCH"
        }
    }
    // One frame at a late or hostile time (past the end, an hour in, 10⁹ s): a refusal by the limits is fine.
    var result = "animated"
    do {
        let late = try animator.frame(of: scene, at: lateTime)
        if late.width != scene.pixelWidth || late.height != scene.pixelHeight { return "WRONG SIZE (late frame)" }
    } catch {
        if case .outOfMemory = error { result += ", late frame: OUT OF MEMORY" } else { result += ", late frame refused" }
    }
    // The whole animation at 60 fps, checked as `animate` checks it before drawing: frames past 2^32, thousands
    // of animations over an hour or emitters at their limit over thousands of frames must be refused at once.
    let whole = AnimationRenderer(framesPerSecond: 60, renderer: renderer)
    do {
        try whole.check(scene, frames: whole.frameCount(duration: scene.animationDuration))
    } catch {
        switch error {
        case .tooManyFrames: result += ", whole refused: frames"
        case .tooMuchAnimationWork, .tooMuchWork: result += ", whole refused: work"
        case .tooMuchAnimationMemory, .tooMuchMemory: result += ", whole refused: memory"
        case .outOfMemory: result += ", whole: OUT OF MEMORY"
        }
    }
    return result
}

/// A value behind a lock, for the frames the animation's threads hand over.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
let renderer = SceneRenderer(threads: 2, limits: SceneRenderer.Limits(peakBytes: 1 << 30, work: 3e8))
var writer = SceneWriter(random: Random(state: options.seed))
let watchdog = Watchdog()
watchdog.watch(cap: options.secondsPerCase)
var outcomes: [String: Int] = [:]
var slowCases: [(number: Int, seconds: Double, cpu: Double)] = []
var slowest = (number: -1, seconds: 0.0)
let clock = ContinuousClock()
let began = clock.now

/// The process's CPU time (user and system) in seconds, to tell a slow case from a busy machine.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// A scene reader whose images are the ones decoded above.
func sceneFile() -> SceneFile {
    SceneFile(directory: "", maxPixels: 4_000_000, typesetter: FontTypesetter()) { path in
        guard let image = images[path] else { throw MissingImage() }
        return image
    }
}

// --replay FILE: one kept case again (its number and late time as given), timed, for a finding's reproduction.
if let replay = options.replay {
    let bytes = Array(FileManager.default.contents(atPath: replay) ?? Data())
    watchdog.start(options.replayNumber)
    let began = clock.now
    let cpuBegan = cpuSeconds()
    let outcome = run(number: options.replayNumber, bytes: bytes, lateTime: options.replayLate)
    say("scenefuzz: \(replay): \(outcome) in \(clock.now - began) (\(String(format: "%.1f", cpuSeconds() - cpuBegan)) s of CPU)")
    exit(0)
}

for number in 0..<options.count {
    watchdog.start(number)
    let caseBegan = clock.now
    let cpuBegan = cpuSeconds()
    let fromFixture = !fixtures.scenes.isEmpty && writer.random.chance(options.fixtureShare)
    var text = fromFixture ? writer.fixtureScene(fixtures) : writer.scene()
    // A mutation of a fixture is refused whole for one value out of range, and most mutations could write one:
    // seven in ten fixture cases take the first of up to four mutated scenes that the reader takes, so that most
    // of them are drawn (the rest, and the cases whose four tries were all refused, test the refusals).
    if fromFixture, writer.random.chance(0.7) {
        for _ in 0..<3 {
            _ = FileManager.default.createFile(atPath: options.state + "/current.json", contents: Data(text.utf8))
            var reader = sceneFile()
            if (try? reader.scene(fromJSON: Array(text.utf8))) != nil { break }
            text = writer.fixtureScene(fixtures)
        }
    }
    let bytes = writer.random.chance(fromFixture ? 0.05 : 0.3) ? writer.mutate(text) : Array(text.utf8)
    let lateTime = writer.random.pick([0.0, 0.5, 1.05, 72, 3599.5, 3600, 4e6, 1e9, 1e300])
    _ = FileManager.default.createFile(atPath: options.state + "/current.json", contents: Data(bytes))
    if let dump = options.dump {  // every case kept, to look at what a seed generates
        _ = FileManager.default.createFile(atPath: dump + "/case-\(number).json", contents: Data(bytes))
    }
    let outcome = run(number: number, bytes: bytes, lateTime: lateTime)
    let seconds = (clock.now - caseBegan) / .seconds(1)
    if seconds > slowest.seconds { slowest = (number, seconds) }
    if seconds > options.slowSeconds {
        let cpu = cpuSeconds() - cpuBegan
        say(
            "scenefuzz: SLOW: case \(number) took \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", cpu)) s of CPU),"
                + " over the \(options.slowSeconds) s bound (\(outcome)); kept in \(options.state)/case-\(number).json")
        _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(bytes))
        slowCases.append((number, seconds, cpu))
        outcomes["SLOW", default: 0] += 1
    }
    outcomes[(fromFixture ? "fixture   " : "generated ") + outcome, default: 0] += 1
}
try? FileManager.default.removeItem(atPath: options.state + "/current.json")
say(
    "scenefuzz: seed \(options.seed), \(options.count) cases in \(clock.now - began) (\(fixtures.scenes.count) fixtures);"
        + " the slowest, case \(slowest.number), took \(String(format: "%.2f", slowest.seconds)) s"
        + " (bound \(options.slowSeconds) s):")
for (outcome, count) in outcomes.sorted(by: { $0.key < $1.key }) { say("  \(count)\t\(outcome)") }

/// One case: the scene read, drawn, and (animated) drawn as frames; its outcome. A finding is printed and kept.
func run(number: Int, bytes: [UInt8], lateTime: Double) -> String {
    var file = sceneFile()
    var outcome: String
    do {
        let scene = try file.scene(fromJSON: bytes)
        let image = try renderer.render(scene)
        outcome = image.width == scene.pixelWidth && image.height == scene.pixelHeight ? "drawn" : "WRONG SIZE"
        if outcome == "drawn", scene.isAnimated {
            outcome = try animate(
                scene, number: number, lateTime: lateTime < 1.1 ? scene.animationDuration * lateTime : lateTime)
        }
    } catch let error as SceneFileError {
        if options.verbose { say("case \(number): \(error.description.prefix(300))") }
        switch error {
        case .syntax: outcome = "refused: JSON syntax"
        case .invalid: outcome = "refused: invalid value"
        case .font: outcome = "refused: font"
        case .image: outcome = "refused: image"
        }
        // A message is one line of reasonable length, whatever the scene said.
        if error.description.contains(where: { $0.isNewline }) || error.description.utf8.count > 2_000 {
            say("scenefuzz: MESSY MESSAGE in case \(number): \(error.description.prefix(200).debugDescription)")
            _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(bytes))
        }
    } catch let error as SceneRenderError {
        if options.verbose { say("case \(number): \(error)") }
        switch error {
        case .tooMuchMemory: outcome = "refused: memory limit"
        case .tooMuchWork: outcome = "refused: work limit"
        case .tooManyFrames, .tooMuchAnimationWork, .tooMuchAnimationMemory: outcome = "refused: animation limit"
        case .outOfMemory:
            // Within the limits the system should not refuse memory: a finding, kept to look at.
            outcome = "OUT OF MEMORY"
            _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(bytes))
        }
    } catch {
        outcome = "UNEXPECTED ERROR"
        say("scenefuzz: UNEXPECTED ERROR in case \(number): \(String(describing: error).prefix(200))")
        _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(bytes))
    }
    if outcome.contains("WRONG SIZE") || outcome.contains("OUT OF MEMORY") {
        say("scenefuzz: \(outcome) in case \(number); kept in \(options.state)/case-\(number).json")
        _ = FileManager.default.createFile(atPath: options.state + "/case-\(number).json", contents: Data(bytes))
    }
    return outcome
}
