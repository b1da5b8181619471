#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 2-D affine transform with CGAffineTransform's fields and conventions: a point (x, y) maps to
/// (a·x + c·y + tx, b·x + d·y + ty), and `t1.concatenating(t2)` applies t1, then t2. (Not named
/// `AffineTransform`: Foundation has a type of that name, and users import both.)
public struct AffineTransform2D: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public init(translationX x: Double, y: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public init(scaleX x: Double, y: Double) {
        self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians; positive turns +x towards +y (clockwise on a y-down screen, as UIKit).
    public init(rotationAngle angle: Double) {
        let (sine, cosine) = (sin(angle), cos(angle))
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }

    /// This transform, then `other`.
    public func concatenating(_ other: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// A translation applied before this transform, as CGAffineTransform's `translatedBy(x:y:)`.
    public func translatedBy(x: Double, y: Double) -> AffineTransform2D {
        AffineTransform2D(translationX: x, y: y).concatenating(self)
    }

    /// A scale applied before this transform, as `scaledBy(x:y:)`.
    public func scaledBy(x: Double, y: Double) -> AffineTransform2D {
        AffineTransform2D(scaleX: x, y: y).concatenating(self)
    }

    /// A rotation applied before this transform, as `rotated(by:)`.
    public func rotatedBy(_ angle: Double) -> AffineTransform2D {
        AffineTransform2D(rotationAngle: angle).concatenating(self)
    }

    /// The inverse, or nil when there is none in Double: the transform squashes the plane onto a line or a point,
    /// or stretches it so far (`scale(1e308)`) that its determinant overflows.
    public func inverted() -> AffineTransform2D? {
        let determinant = a * d - b * c
        guard determinant.isFinite, abs(determinant) > 1e-12 else { return nil }
        return AffineTransform2D(
            a: d / determinant, b: -b / determinant, c: -c / determinant, d: a / determinant,
            tx: (c * ty - d * tx) / determinant, ty: (b * tx - a * ty) / determinant)
    }

    public func apply(to point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        (a * point.x + c * point.y + tx, b * point.x + d * point.y + ty)
    }

    /// The smallest axis-aligned rectangle holding the transformed rectangle, as `CGRect.applying(_:)`.
    public func apply(
        toRect rect: (x: Double, y: Double, width: Double, height: Double)
    )
        -> (x: Double, y: Double, width: Double, height: Double)
    {
        let corners = [
            (rect.x, rect.y), (rect.x + rect.width, rect.y), (rect.x, rect.y + rect.height),
            (rect.x + rect.width, rect.y + rect.height),
        ].map { apply(to: $0) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return (xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }

    public var description: String {
        "matrix(\(a), \(b), \(c), \(d), \(tx), \(ty))"
    }
}

extension AffineTransform2D {
    /// Why a text form could not be read: the part that failed and what was expected.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a transform written as CSS writes one, e.g. `translate(600,0) scale(5) rotate(30deg)`.
    ///
    /// The functions compose left to right as CSS and CGAffineTransform chaining do, so the rightmost one
    /// applies to the image first (the example rotates, then scales, then translates, like
    /// `CGAffineTransform(translationX: 600, y: 0).scaledBy(x: 5, y: 5).rotated(by: .pi / 6)`). Functions:
    /// `translate(x[, y])`, `translateX(x)`, `translateY(y)`, `scale(s[, sy])`, `scaleX(s)`, `scaleY(s)`,
    /// `rotate(angle)` (deg, rad or turn; a bare number is degrees), `skewX(angle)`, `skewY(angle)`,
    /// `matrix(a, b, c, d, tx, ty)`. Lengths may carry `px`. Arguments are separated by commas or spaces.
    /// `identity` (as `CGAffineTransform.identity` is written) and CSS's `none` stand alone for the identity.
    public init(parsing text: String) throws(ParseError) {
        let word = text.split(whereSeparator: \.isWhitespace)
        if word == ["identity"] || word == ["none"] {
            self = .identity
            return
        }
        var result = AffineTransform2D.identity
        var rest = Substring(text)
        var parsedAny = false
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else {
                throw ParseError(description: "expected name(arguments) at \(String(rest).quotedForMessage(limit: 40))")
            }
            let name = rest[..<open].filter { !$0.isWhitespace }.lowercased()
            let arguments = rest[rest.index(after: open)..<close]
                .split { $0 == "," || $0.isWhitespace }.map(String.init)
            let step = try AffineTransform2D.function(name, arguments)
            // Each function applies before everything written to its left.
            result = step.concatenating(result)
            parsedAny = true
            rest = rest[rest.index(after: close)...]
        }
        guard parsedAny else { throw ParseError(description: "empty transform") }
        self = result
    }

    private static func function(_ name: String, _ arguments: [String]) throws(ParseError) -> AffineTransform2D {
        func numbers(_ counts: ClosedRange<Int>) throws(ParseError) -> [Double] {
            guard counts.contains(arguments.count) else {
                let expected =
                    counts.count == 1 ? "\(counts.lowerBound)" : "\(counts.lowerBound) or \(counts.upperBound)"
                throw ParseError(description: "\(name)() takes \(expected) arguments, got \(arguments.count)")
            }
            var values: [Double] = []
            for argument in arguments {
                let trimmed = argument.lowercased().hasSuffix("px") ? String(argument.dropLast(2)) : argument
                guard let value = Double(decimalText: trimmed), value.isFinite else {
                    throw ParseError(description: "\(name)(): \(argument.quotedForMessage(limit: 40)) is not a number")
                }
                values.append(value)
            }
            return values
        }
        func angle() throws(ParseError) -> Double {
            guard arguments.count == 1 else { throw ParseError(description: "\(name)() takes 1 angle") }
            let text = arguments[0].lowercased()
            let units: [(String, Double)] = [("deg", .pi / 180), ("grad", .pi / 200), ("rad", 1), ("turn", 2 * .pi)]
            for (suffix, scale) in units where text.hasSuffix(suffix) {
                if let value = Double(decimalText: text.dropLast(suffix.count)), value.isFinite { return value * scale }
                throw ParseError(description: "\(name)(): \(arguments[0].quotedForMessage(limit: 40)) is not an angle")
            }
            guard let degrees = Double(decimalText: text), degrees.isFinite else {
                throw ParseError(description: "\(name)(): \(arguments[0].quotedForMessage(limit: 40)) is not an angle")
            }
            return degrees * .pi / 180
        }
        switch name {
        case "translate":
            let v = try numbers(1...2)
            return AffineTransform2D(translationX: v[0], y: v.count > 1 ? v[1] : 0)
        case "translatex": return AffineTransform2D(translationX: try numbers(1...1)[0], y: 0)
        case "translatey": return AffineTransform2D(translationX: 0, y: try numbers(1...1)[0])
        case "scale":
            let v = try numbers(1...2)
            return AffineTransform2D(scaleX: v[0], y: v.count > 1 ? v[1] : v[0])
        case "scalex": return AffineTransform2D(scaleX: try numbers(1...1)[0], y: 1)
        case "scaley": return AffineTransform2D(scaleX: 1, y: try numbers(1...1)[0])
        case "rotate": return AffineTransform2D(rotationAngle: try angle())
        case "skewx": return AffineTransform2D(a: 1, b: 0, c: tan(try angle()), d: 1, tx: 0, ty: 0)
        case "skewy": return AffineTransform2D(a: 1, b: tan(try angle()), c: 0, d: 1, tx: 0, ty: 0)
        case "matrix":
            let v = try numbers(6...6)
            return AffineTransform2D(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
        default:
            throw ParseError(
                description:
                    "unknown transform function \(name.quotedForMessage(limit: 40)); known: translate, translateX, "
                    + "translateY, scale, scaleX, scaleY, rotate, skewX, skewY, matrix")
        }
    }
}
