import Compositor
import Scenes

/// SVG's attributes and shapes for `SVGDrawing`: presentation attributes and `style` declarations, transform
/// lists, lengths, and the basic shapes as paths.
extension SVGDrawing {
    private static func failure(_ message: String) -> SceneFile.SVGFailure {
        SceneFile.SVGFailure(description: message)
    }

    /// Elements that draw something this reader does not: refused by name.
    static let refusedElements: Set<String> = [
        "text", "image", "use", "clipPath", "mask", "filter", "pattern", "symbol", "switch", "foreignObject",
        "script", "style", "a", "svg", "linearGradient", "radialGradient", "marker", "tspan",
    ]

    /// The element's presentation attributes and `style` declarations (the declarations win, as CSS's do), with
    /// those that would draw something unsupported refused.
    static func properties(of element: XMLElement) throws(SceneFile.SVGFailure) -> [String: String] {
        var properties: [String: String] = [:]
        for key in [
            "fill", "fill-rule", "fill-opacity", "opacity", "stroke", "stroke-width", "stroke-linecap",
            "stroke-linejoin",
            "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "clip-path", "mask",
            "filter",
        ] {
            if let value = element.attributes[key] { properties[key] = value }
        }
        for declaration in (element.attributes["style"] ?? "").split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            properties[parts[0].trimmed] = parts[1].trimmed
        }
        for key in ["clip-path", "mask", "filter"] where properties[key].map({ $0 != "none" }) ?? false {
            throw failure("<\(element.name)> has \(key), which is not drawn")
        }
        return properties
    }

    /// `fill`, `fill-rule` and `fill-opacity` onto what is inherited.
    static func apply(_ properties: [String: String], to paint: inout Paint) throws(SceneFile.SVGFailure) {
        if let fill = properties["fill"] { paint.fill = try color(fill, of: "fill") }
        if let rule = properties["fill-rule"] {
            guard rule == "nonzero" || rule == "evenodd" else { throw failure("fill-rule \(rule.quotedForMessage())") }
            paint.rule = rule == "evenodd" ? .evenOdd : .nonZero
        }
        if let opacity = properties["fill-opacity"] { paint.fillOpacity *= try unit(opacity) }
        try applyStroke(properties, to: &paint)
    }

    /// The stroke properties SVG inherits: `stroke` (a colour or none), its width, caps, joins, miter limit, dash
    /// array and offset, and opacity.
    private static func applyStroke(_ properties: [String: String], to paint: inout Paint) throws(SceneFile.SVGFailure)
    {
        if let stroke = properties["stroke"] { paint.stroke = try color(stroke, of: "stroke") }
        if let width = properties["stroke-width"] {
            guard let value = length(width), value >= 0 else {
                throw failure("stroke-width \(width.quotedForMessage())")
            }
            paint.style.width = value
        }
        if let cap = properties["stroke-linecap"] {
            guard let value = StrokeStyle.LineCap(rawValue: cap) else {
                throw failure("stroke-linecap \(cap.quotedForMessage())")
            }
            paint.style.cap = value
        }
        if let join = properties["stroke-linejoin"] {
            guard let value = StrokeStyle.LineJoin(rawValue: join) else {
                throw failure("stroke-linejoin \(join.quotedForMessage())")
            }
            paint.style.join = value
        }
        if let limit = properties["stroke-miterlimit"] {
            guard let value = Double(limit), value >= 1, value.isFinite else {
                throw failure("stroke-miterlimit \(limit.quotedForMessage())")
            }
            paint.style.miterLimit = value
        }
        if let opacity = properties["stroke-opacity"] { paint.strokeOpacity *= try unit(opacity) }
        if let dashes = properties["stroke-dasharray"] {
            paint.dashes = dashes == "none" ? [] : numbers(dashes)
        }
        if let offset = properties["stroke-dashoffset"] { paint.dashOffset = length(offset) ?? 0 }
    }

    /// A `fill` or `stroke` value: nil for `none`, black for `currentColor` (the layer has no colour of its own
    /// to give), else a colour; a paint by `url(…)` is refused.
    private static func color(_ value: String, of property: String) throws(SceneFile.SVGFailure) -> RGBAColor? {
        switch value {
        case "none": return nil
        case "currentColor", "currentcolor": return .black
        default:
            guard let color = RGBAColor(css: value) else {
                throw failure("\(property) \(value.quotedForMessage(limit: 40)) is not a colour this reader draws")
            }
            return color
        }
    }

    /// An opacity, 0…1 (clamped, as CSS clamps it), or a percentage.
    static func unit(_ text: String) throws(SceneFile.SVGFailure) -> Double {
        let percent = text.hasSuffix("%")
        guard let value = Double(percent ? String(text.dropLast()) : text), value.isFinite else {
            throw failure("opacity \(text.quotedForMessage(limit: 40))")
        }
        return min(max(percent ? value / 100 : value, 0), 1)
    }

    /// The numbers in a list separated by spaces and commas.
    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }).compactMap {
            Double($0).flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// A length in user units (`px` or no unit); nil for another unit.
    static func length(_ text: String) -> Double? {
        let number = text.hasSuffix("px") ? String(text.dropLast(2)) : text
        return Double(number.trimmed).flatMap { $0.isFinite ? $0 : nil }
    }

    /// An SVG transform list: the CSS spelling the compositor reads, `rotate(a cx cy)` turned about its centre.
    static func transform(_ text: String) throws(SceneFile.SVGFailure) -> AffineTransform2D {
        var written = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            let name = rest[..<open].trimmed.trimmingCommas
            let arguments = numbers(String(rest[rest.index(after: open)..<close]))
            if name == "rotate", arguments.count == 3 {
                let (a, x, y) = (arguments[0], arguments[1], arguments[2])
                written += " translate(\(x), \(y)) rotate(\(a)) translate(\(-x), \(-y))"
            } else {
                written += " \(name)(\(arguments.map { "\($0)" }.joined(separator: ", ")))"
            }
            rest = rest[rest.index(after: close)...]
        }
        guard rest.trimmed.isEmpty else { throw failure("transform \(text.quotedForMessage(limit: 40))") }
        do {
            return try AffineTransform2D(parsing: written.isEmpty ? "none" : written)
        } catch {
            throw failure("transform \(text.quotedForMessage(limit: 40)): \(error)")
        }
    }

    /// A basic shape's outline; nil for an element that draws nothing by itself; refused for one that draws what
    /// this reader does not.
    static func shape(_ element: XMLElement) throws(SceneFile.SVGFailure) -> Path? {
        let attributes = element.attributes
        func number(_ key: String, _ fallback: Double = 0) -> Double { attributes[key].flatMap(length) ?? fallback }
        var path = Path()
        switch element.name {
        case "path":
            do {
                // SVG draws up to an error in path data.
                path = Path.parsingSVGPathData(attributes["d"] ?? "").path
            }
        case "rect":
            let (width, height) = (number("width"), number("height"))
            guard width > 0, height > 0 else { return nil }
            let rx = attributes["rx"].flatMap(length) ?? attributes["ry"].flatMap(length) ?? 0
            let rect = Rect(x: number("x"), y: number("y"), width: width, height: height)
            if rx > 0 { path.addRoundedRect(in: rect, cornerRadius: rx) } else { path.addRect(rect) }
        case "circle":
            let r = number("r")
            guard r > 0 else { return nil }
            path.addEllipse(in: Rect(x: number("cx") - r, y: number("cy") - r, width: 2 * r, height: 2 * r))
        case "ellipse":
            let (rx, ry) = (number("rx"), number("ry"))
            guard rx > 0, ry > 0 else { return nil }
            path.addEllipse(in: Rect(x: number("cx") - rx, y: number("cy") - ry, width: 2 * rx, height: 2 * ry))
        case "polygon", "polyline":
            let points = numbers(attributes["points"] ?? "")
            guard points.count >= 4 else { return nil }
            path.move(to: Point(x: points[0], y: points[1]))
            for i in stride(from: 2, to: points.count - 1, by: 2) {
                path.line(to: Point(x: points[i], y: points[i + 1]))
            }
            if element.name == "polygon" { path.close() }
        case "line":
            path.move(to: Point(x: number("x1"), y: number("y1")))
            path.line(to: Point(x: number("x2"), y: number("y2")))
        default:
            if refusedElements.contains(element.name) { throw failure("<\(element.name)> is not drawn by this reader") }
            return nil  // unknown elements draw nothing, as SVG renderers skip them
        }
        return path
    }
}

extension StringProtocol {
    fileprivate var trimmed: String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }

    fileprivate var trimmingCommas: String { String(filter { $0 != "," }) }
}
