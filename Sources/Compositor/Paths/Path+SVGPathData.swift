extension Path {
    /// The most elements path data may make unless the caller says otherwise: an icon has tens, a detailed
    /// map hundreds of thousands; each element is 56 bytes, so the default bounds a path at 56 MB.
    public static let defaultMaximumSVGSegments = 1_000_000

    /// Reads SVG path data, the `d` attribute (SVG 1.1 § 8.3, kept by SVG 2): `M m L l H h V v C c S s Q q T t
    /// A a Z z`, absolute (upper case) and relative (lower case) to the current point.
    ///
    /// As the grammar says: the data begins with a moveto; a command's arguments may repeat without the letter
    /// (after a moveto, the repeats are linetos, relative after `m`); `S` and `T` reflect the previous `C`/`S` or
    /// `Q`/`T` control point and take the current point after any other command; relative commands after `Z`
    /// start from the closed subpath's start; arc flags need no separator (`a1 1 0 00.5.5`); numbers are read as
    /// `SVGPathDataScanner` describes, separated by whitespace, one comma or nothing where the next sign or
    /// point ends the number. Arcs become cubics (`arc(to:…)`, with SVG's radius corrections). Empty or
    /// all-whitespace data is an empty path, which draws nothing, as SVG says.
    ///
    /// - Parameters:
    ///   - maximumSegments: the most elements the path may have (moves and closes count, an arc counts its
    ///     cubics); more is an error at the command that passes the limit, so hostile data is bounded.
    ///   - stopAtError: keep the path up to the command in error, as SVG renders such data, instead of throwing.
    /// - Throws: `SVGPathDataError` with the offset of the first character that breaks the grammar, of a number
    ///   too large for a Double, of a command whose relative coordinates add up to one, or of the command that
    ///   passes `maximumSegments`.
    public init(
        svgPathData text: String, maximumSegments: Int = Path.defaultMaximumSVGSegments, stopAtError: Bool = false
    ) throws(SVGPathDataError) {
        let (path, error) = Path.parsingSVGPathData(text, maximumSegments: maximumSegments)
        if let error, !stopAtError { throw error }
        self = path
    }

    /// The path SVG path data describes up to its first error (all of it when there is none), and that error:
    /// what an SVG renderer draws, and what it would report.
    public static func parsingSVGPathData(
        _ text: String, maximumSegments: Int = Path.defaultMaximumSVGSegments
    ) -> (path: Path, error: SVGPathDataError?) {
        var reader = SVGPathDataReader(text, maximumSegments: maximumSegments)
        do {
            try reader.read()
            return (reader.path, nil)
        } catch {
            return (reader.path, error)
        }
    }
}

/// The command level of SVG path data: letters, their argument sets and implicit repeats, the smooth curves'
/// reflections. Appends to `path` only after a whole argument set is read and checked, so that the path holds
/// every command before the first error.
private struct SVGPathDataReader {
    var scanner: SVGPathDataScanner
    var path = Path()
    let maximumSegments: Int
    /// The second control point of the previous command when it was `C` or `S`, for `S` to reflect.
    var previousCubicControl: Point?
    /// The control point of the previous command when it was `Q` or `T`, for `T` to reflect.
    var previousQuadControl: Point?

    init(_ text: String, maximumSegments: Int) {
        scanner = SVGPathDataScanner(text)
        self.maximumSegments = max(maximumSegments, 0)
    }

    mutating func read() throws(SVGPathDataError) {
        scanner.skipWhitespace()
        guard let first = scanner.current else { return }
        guard first == UInt8(ascii: "M") || first == UInt8(ascii: "m") else {
            throw scanner.error(expected: "a moveto (M or m) to begin the path data")
        }
        while let letter = scanner.current {
            guard Self.commands.contains(letter | 0x20) else {
                throw scanner.error(expected: "a command letter (M L H V C S Q T A Z, or lower case)")
            }
            scanner.advance()
            scanner.skipWhitespace()
            if letter | 0x20 == UInt8(ascii: "z") {
                try checkRoom(for: 1, at: scanner.index - 1, drawing: false)
                path.close()
                (previousCubicControl, previousQuadControl) = (nil, nil)
                continue
            }
            var repeated = false
            while true {
                try readArguments(of: letter, repeated: repeated)
                repeated = true
                let comma = scanner.skipSeparator()
                guard comma || scanner.isAtNumber else { break }
                guard scanner.isAtNumber else { throw scanner.error(expected: "a number after the comma") }
            }
        }
    }

    /// The lower-case command letters.
    private static let commands: Set<UInt8> = Set("mlhvcsqtaz".utf8)

    /// Reads one argument set of `letter` and appends what it draws. `repeated`: an implicit repeat.
    private mutating func readArguments(of letter: UInt8, repeated: Bool) throws(SVGPathDataError) {
        let start = scanner.index
        let relative = letter >= UInt8(ascii: "a")
        let current = path.currentPoint
        let origin = relative ? current : Point.zero
        var cubicControl: Point?
        var quadControl: Point?
        switch letter | 0x20 {
        case UInt8(ascii: "m"):
            let point = try pair(from: origin, at: start)
            try checkRoom(for: 1, at: start, drawing: repeated)
            if repeated { path.line(to: point) } else { path.move(to: point) }
        case UInt8(ascii: "l"):
            let point = try pair(from: origin, at: start)
            try checkRoom(for: 1, at: start)
            path.line(to: point)
        case UInt8(ascii: "h"):
            let x = try checked(origin.x + scanner.number(), at: start)
            try checkRoom(for: 1, at: start)
            path.line(to: Point(x: x, y: current.y))
        case UInt8(ascii: "v"):
            let y = try checked(origin.y + scanner.number(), at: start)
            try checkRoom(for: 1, at: start)
            path.line(to: Point(x: current.x, y: y))
        case UInt8(ascii: "c"), UInt8(ascii: "s"):
            let control1: Point
            if letter | 0x20 == UInt8(ascii: "c") {
                control1 = try pair(from: origin, at: start)
                separator()
            } else {
                control1 = try reflection(of: previousCubicControl, about: current, at: start)
            }
            let control2 = try pair(from: origin, at: start)
            separator()
            let point = try pair(from: origin, at: start)
            try checkRoom(for: 1, at: start)
            path.curve(to: point, control1: control1, control2: control2)
            cubicControl = control2
        case UInt8(ascii: "q"), UInt8(ascii: "t"):
            let control: Point
            if letter | 0x20 == UInt8(ascii: "q") {
                control = try pair(from: origin, at: start)
                separator()
            } else {
                control = try reflection(of: previousQuadControl, about: current, at: start)
            }
            let point = try pair(from: origin, at: start)
            try checkRoom(for: 1, at: start)
            path.quadCurve(to: point, control: control)
            quadControl = control
        default:  // "a"
            try readArc(from: origin, at: start)
        }
        (previousCubicControl, previousQuadControl) = (cubicControl, quadControl)
    }

    /// An arc's seven arguments: rx ry x-axis-rotation (degrees) large-arc-flag sweep-flag x y.
    private mutating func readArc(from origin: Point, at start: Int) throws(SVGPathDataError) {
        let radiusX = try scanner.number()
        separator()
        let radiusY = try scanner.number()
        separator()
        let degrees = try scanner.number()
        separator()
        let largeArc = try scanner.flag()
        separator()
        let sweep = try scanner.flag()
        separator()
        let end = try pair(from: origin, at: start)
        let shape = Path.arcShape(
            from: path.currentPoint, to: end, radiusX: radiusX, radiusY: radiusY,
            rotation: (degrees.truncatingRemainder(dividingBy: 360)) * .pi / 180, largeArc: largeArc, sweep: sweep)
        switch shape {
        case .omitted:
            break
        case .line:
            try checkRoom(for: 1, at: start)
            path.line(to: end)
        case .curves(let curves):
            for piece in curves {
                for point in [piece.control1, piece.control2, piece.end] {
                    _ = try checkedPoint(x: point.x, y: point.y, at: start)
                }
            }
            try checkRoom(for: curves.count, at: start)
            for piece in curves { path.curve(to: piece.end, control1: piece.control1, control2: piece.control2) }
        }
    }

    /// A coordinate pair, relative to `origin`.
    private mutating func pair(from origin: Point, at start: Int) throws(SVGPathDataError) -> Point {
        let x = try scanner.number()
        separator()
        let y = try scanner.number()
        return try checkedPoint(x: origin.x + x, y: origin.y + y, at: start)
    }

    /// The optional comma-wsp between two arguments of one set.
    private mutating func separator() {
        _ = scanner.skipSeparator()
    }

    /// `value`, or the error for a coordinate that overflowed (a relative step added to a huge current point).
    private func checked(_ value: Double, at start: Int) throws(SVGPathDataError) -> Double {
        guard value.isFinite else {
            throw SVGPathDataError(
                offset: start, description: "coordinate out of range (beyond ±1.8e308) at offset \(start)")
        }
        return value
    }

    private func checkedPoint(x: Double, y: Double, at start: Int) throws(SVGPathDataError) -> Point {
        Point(x: try checked(x, at: start), y: try checked(y, at: start))
    }

    /// The smooth curves' first control point: the previous curve's last one reflected about the current point,
    /// or the current point when the previous command was not a curve of that kind.
    private func reflection(
        of previous: Point?, about current: Point, at start: Int
    ) throws(SVGPathDataError) -> Point {
        guard let previous else { return current }
        return try checkedPoint(x: 2 * current.x - previous.x, y: 2 * current.y - previous.y, at: start)
    }

    /// Refuses a command that would take the path past `maximumSegments` elements: `count` of its own, and for
    /// a `drawing` command the move that begins a subpath when none is open (after a close).
    private func checkRoom(for count: Int, at start: Int, drawing: Bool = true) throws(SVGPathDataError) {
        let implicitMove = drawing && !path.subpathIsOpen ? 1 : 0
        guard path.elements.count + count + implicitMove <= maximumSegments else {
            throw SVGPathDataError(
                offset: start, description: "more than \(maximumSegments) path segments at offset \(start)")
        }
    }
}
