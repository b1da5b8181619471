import Compositor

// The curve's text form, shared by scene files and `blurtool curve`. Names are matched ignoring case, `-` and
// `_`, so Swift's `easeInOut`, CSS's `ease-in-out` and Core Animation's `easeInEaseOut` all read; argument
// labels ignore case. Numbers are ASCII decimals (`Double(decimalText:)`).
extension TimingCurve {
    /// Reads a curve: `linear`, `easeIn`, `easeOut`, `easeInOut`, `ease` / `default` (Core Animation's default),
    /// `cubic-bezier(x1, y1, x2, y2)`, `steps(n[, jump-start | jump-end | jump-none | jump-both | start | end])`,
    /// `step-start`, `step-end`, `spring(dampingRatio:, velocity:[, duration:])` (UIKit; without `duration:`,
    /// `duration` here: the animation's or the animator's, as `UISpringTimingParameters(dampingRatio:)` takes
    /// it), `spring(damping:, velocity:, duration:)` (UIKit's ratio too),
    /// `spring(mass:, stiffness:, damping:, velocity:)` (physical, Core Animation's defaults for mass or stiffness
    /// left out; `damping:` alone is refused: a ratio or a coefficient?), `spring(response:, dampingFraction:)`
    /// (SwiftUI; `spring` alone is its default),
    /// `spring(duration:, bounce:)`, `smooth`, `snappy`, `bouncy` (each optionally `(duration:, extraBounce:)`),
    /// `interactiveSpring`, `interpolatingSpring(mass:, stiffness:, damping:, velocity:)`.
    /// Every spring also takes `velocity:` (or `initialVelocity:`).
    public init(parsing spec: String, duration: Double? = nil) throws(ParseError) {
        let text = spec.trimmingWhitespace()
        let name: Substring
        var arguments: [Substring]? = nil
        if let open = text.firstIndex(of: "(") {
            guard text.last == ")" else {
                throw ParseError(
                    description: "expected a closing ) at the end of \(String(text).quotedForMessage(limit: 40))")
            }
            name = text[..<open].trimmingWhitespace()
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
            let trimmed = inside.trimmingWhitespace()
            arguments =
                trimmed.isEmpty
                ? []
                : trimmed.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.trimmingWhitespace() }
        } else {
            name = text
        }
        self = try TimingCurve.curve(named: String(name), arguments, duration: duration)
    }

    private static let knownCurves =
        "linear, easeIn, easeOut, easeInOut, ease, cubic-bezier(x1, y1, x2, y2), steps(n, jump-end), step-start, "
        + "step-end, spring(...), smooth, snappy, bouncy, interactiveSpring or interpolatingSpring(...)"

    private static func key(_ text: some StringProtocol) -> String {
        String(text.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    /// Curves named without arguments, by `key`. `step-start` and `step-end` are CSS's steps(1, start | end).
    private static let bare: [String: TimingCurve] = [
        "linear": .linear, "easein": .easeIn, "easeout": .easeOut, "easeinout": .easeInOut,
        "easeineaseout": .easeInOut, "ease": .coreAnimationDefault, "default": .coreAnimationDefault,
        "stepstart": TimingCurve(shape: .steps(count: 1, position: .jumpStart)),
        "stepend": TimingCurve(shape: .steps(count: 1, position: .jumpEnd)),
    ]

    private static func curve(
        named name: String, _ arguments: [Substring]?, duration: Double?
    ) throws(ParseError) -> TimingCurve {
        let lowered = key(name)
        if let curve = bare[lowered] {
            guard arguments == nil else {
                throw ParseError(description: "\(name.quotedForMessage(limit: 40)) takes no arguments")
            }
            return curve
        }
        switch lowered {
        case "cubicbezier":
            let values = try numbers(arguments ?? [], count: 4, function: "cubic-bezier")
            return try cubicBezier(values[0], values[1], values[2], values[3])
        case "steps":
            return try steps(arguments ?? [])
        case "spring":
            return try spring(try labelled(arguments ?? [], function: "spring"), duration: duration)
        case "interpolatingspring":
            return try interpolatingSpring(try labelled(arguments ?? [], function: "interpolatingSpring"))
        case "interactivespring":
            let values = try labelled(arguments ?? [], function: "interactiveSpring")
            try values.allow(["response", "dampingfraction", "velocity"], "interactiveSpring takes")
            return try spring(
                response: values["response"] ?? 0.15, dampingFraction: values["dampingfraction"] ?? 0.86,
                initialVelocity: values["velocity"] ?? 0)
        case "smooth", "snappy", "bouncy":
            let values = try labelled(arguments ?? [], function: lowered)
            try values.allow(["duration", "extrabounce", "velocity"], "\(lowered) takes")
            let base = ["smooth": 0, "snappy": 0.15, "bouncy": 0.3][lowered]!
            return try spring(
                duration: values["duration"] ?? 0.5, bounce: base + (values["extrabounce"] ?? 0),
                initialVelocity: values["velocity"] ?? 0)
        default:
            throw ParseError(
                description: "unknown timing curve \(name.quotedForMessage(limit: 40)); expected \(knownCurves)")
        }
    }

    private static func number(_ text: Substring, _ label: String, function: String) throws(ParseError) -> Double {
        guard let value = Double(decimalText: text), value.isFinite else {
            throw ParseError(
                description:
                    "\(function)(): \(label) must be a decimal number, got \(String(text).quotedForMessage(limit: 40))")
        }
        return value
    }

    private static func numbers(
        _ arguments: [Substring], count: Int, function: String
    ) throws(ParseError)
        -> [Double]
    {
        guard arguments.count == count else {
            throw ParseError(description: "\(function)() takes \(count) numbers, got \(arguments.count)")
        }
        var values: [Double] = []
        for (index, argument) in arguments.enumerated() {
            values.append(try number(argument, "argument \(index + 1)", function: function))
        }
        return values
    }

    private static func steps(_ arguments: [Substring]) throws(ParseError) -> TimingCurve {
        guard (1...2).contains(arguments.count) else {
            throw ParseError(description: "steps() takes a count and optionally a position, e.g. steps(4, jump-end)")
        }
        let count = try number(arguments[0], "the count", function: "steps")
        guard count == count.rounded(), count >= 1, count <= Double(Limits.maximumStepCount) else {
            throw ParseError(
                description: "steps(): the count must be a whole number from 1 to \(Limits.maximumStepCount), "
                    + "got \(String(arguments[0]).quotedForMessage(limit: 40))")
        }
        var position = StepPosition.jumpEnd
        if arguments.count == 2 {
            let positions: [String: StepPosition] = [
                "jumpstart": .jumpStart, "start": .jumpStart, "jumpend": .jumpEnd, "end": .jumpEnd,
                "jumpnone": .jumpNone, "jumpboth": .jumpBoth,
            ]
            guard let named = positions[key(arguments[1])] else {
                throw ParseError(
                    description: "steps(): the position must be jump-start, jump-end, jump-none, jump-both, start "
                        + "or end, got \(String(arguments[1]).quotedForMessage(limit: 40))")
            }
            position = named
        }
        return try steps(Int(count), position)
    }

    /// `label: number` arguments, labels lowered, `initialVelocity` read as `velocity`.
    struct Labelled {
        var values: [String: Double] = [:]
        let function: String

        subscript(label: String) -> Double? { values[label] }

        func has(_ label: String) -> Bool { values[label] != nil }

        /// Refuses a label outside `allowed`, saying which labels the chosen form takes.
        func allow(_ allowed: [String], _ form: String) throws(ParseError) {
            for label in values.keys.sorted() where !allowed.contains(label) {
                throw ParseError(
                    description: "\(function)(): \(label.quotedForMessage(limit: 40)) does not belong here; "
                        + "\(form) \(allowed.joined(separator: ", "))")
            }
        }
    }

    private static func labelled(_ arguments: [Substring], function: String) throws(ParseError) -> Labelled {
        var result = Labelled(function: function)
        for argument in arguments {
            guard let colon = argument.firstIndex(of: ":") else {
                throw ParseError(
                    description:
                        "\(function)(): expected label: number, got \(String(argument).quotedForMessage(limit: 40))")
            }
            var label = argument[..<colon].trimmingWhitespace().lowercased()
            if label == "initialvelocity" { label = "velocity" }
            let value = try number(
                argument[argument.index(after: colon)...].trimmingWhitespace(), label,
                function: function)
            guard result.values.updateValue(value, forKey: label) == nil else {
                throw ParseError(description: "\(function)(): \(label.quotedForMessage(limit: 40)) is given twice")
            }
        }
        return result
    }

    /// `spring(...)`: the labels choose the parametrisation (see `init(parsing:)`); `duration` is the
    /// animation's, for UIKit's damping-ratio form.
    private static func spring(_ values: Labelled, duration: Double?) throws(ParseError) -> TimingCurve {
        let velocity = values["velocity"] ?? 0
        if let ratio = values["dampingratio"] {
            try values.allow(["dampingratio", "velocity", "duration"], "UIKit's spring(dampingRatio:) takes")
            guard let seconds = values["duration"] ?? duration else {
                throw ParseError(
                    description: "spring(dampingRatio:) is UIKit's spring and lasts its animation's duration: give "
                        + "the animation a duration (or the spring duration:)")
            }
            return try spring(dampingRatio: ratio, initialVelocity: velocity, duration: seconds)
        }
        if values.has("response") || values.has("dampingfraction") {
            try values.allow(["response", "dampingfraction", "velocity"], "a SwiftUI spring takes")
            return try spring(
                response: values["response"] ?? 0.5, dampingFraction: values["dampingfraction"] ?? 0.825,
                initialVelocity: velocity)
        }
        if values.has("bounce") || (values.has("duration") && !values.has("damping")) {
            try values.allow(["duration", "bounce", "velocity"], "spring(duration:, bounce:) takes")
            return try spring(
                duration: values["duration"] ?? 0.5, bounce: values["bounce"] ?? 0, initialVelocity: velocity)
        }
        if values.has("duration") {
            try values.allow(["damping", "velocity", "duration"], "a UIKit spring takes")
            return try spring(
                dampingRatio: values["damping"]!, initialVelocity: velocity, duration: values["duration"]!)
        }
        if values.has("damping"), !values.has("mass"), !values.has("stiffness") {
            // UIKit writes a damping ratio (0.2), Core Animation a damping coefficient (10): alone, either could be
            // meant, and they give springs apart by a factor of ten in time.
            throw ParseError(
                description: "spring(damping:) alone could be UIKit's damping ratio or a physical damping "
                    + "coefficient: write spring(dampingRatio: x) for UIKit's (it lasts the animation's duration) or "
                    + "give mass: and stiffness: with damping: for a physical spring")
        }
        if values.has("mass") || values.has("stiffness") {
            try values.allow(["mass", "stiffness", "damping", "velocity"], "a physical spring takes")
            return try spring(
                mass: values["mass"] ?? 1, stiffness: values["stiffness"] ?? 100, damping: values["damping"] ?? 10,
                initialVelocity: velocity)
        }
        try values.allow(
            ["velocity"], "spring takes dampingRatio (UIKit), response, dampingFraction (SwiftUI), mass, stiffness, or")
        return try spring(response: 0.5, dampingFraction: 0.825, initialVelocity: velocity)
    }

    /// SwiftUI's `interpolatingSpring(mass:stiffness:damping:initialVelocity:)` (stiffness and damping required,
    /// as there), iOS 17's `interpolatingSpring(duration:bounce:)`, or alone, its default (0.5 s, no bounce).
    private static func interpolatingSpring(_ values: Labelled) throws(ParseError) -> TimingCurve {
        let velocity = values["velocity"] ?? 0
        if values.has("mass") || values.has("stiffness") || values.has("damping") {
            try values.allow(["mass", "stiffness", "damping", "velocity"], "interpolatingSpring takes")
            guard let stiffness = values["stiffness"], let damping = values["damping"] else {
                throw ParseError(description: "interpolatingSpring(): give both stiffness: and damping:")
            }
            return try spring(
                mass: values["mass"] ?? 1, stiffness: stiffness, damping: damping, initialVelocity: velocity)
        }
        try values.allow(["duration", "bounce", "velocity"], "interpolatingSpring takes mass, stiffness, damping, or")
        return try spring(duration: values["duration"] ?? 0.5, bounce: values["bounce"] ?? 0, initialVelocity: velocity)
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !$0.isWhitespace })!
        return text[first...last]
    }
}
