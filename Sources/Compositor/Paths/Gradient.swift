#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A linear or radial gradient as SVG defines one (`linearGradient`, `radialGradient` with its focal point) and
/// CSS and Core Graphics draw it: colours at stops along a parameter t, spread past the ends by padding, reflecting
/// or repeating.
///
/// Stops are read as SVG says: each offset clamped to 0…1 and to at least the one before it; before the first
/// stop the first colour, after the last the last. Between two stops the colour is interpolated in straight
/// (not premultiplied) sRGB components, SVG's `color-interpolation: sRGB`, then premultiplied.
public struct Gradient: Hashable, Sendable {
    public struct Stop: Hashable, Sendable {
        public var offset: Double
        public var color: RGBAColor

        public init(offset: Double, color: RGBAColor) {
            self.offset = offset
            self.color = color
        }
    }

    /// What lies past t = 0 and t = 1 (`spreadMethod`).
    public enum Spread: String, CaseIterable, Sendable {
        case pad, reflect, `repeat`
    }

    public enum Geometry: Hashable, Sendable {
        /// t = 0 at `from`, 1 at `to`, constant across the line between them.
        case linear(from: Point, to: Point)
        /// t = 1 on the circle of `radius` about `center`, 0 at `focus` (nil: the centre); a focus outside the
        /// circle is moved onto it, a hair inside, as SVG 1.1 says.
        case radial(center: Point, radius: Double, focus: Point?)
    }

    public var geometry: Geometry
    public var stops: [Stop]
    public var spread: Spread

    public init(_ geometry: Geometry, stops: [Stop], spread: Spread = .pad) {
        self.geometry = geometry
        self.stops = stops
        self.spread = spread
    }

    /// The parameter at `point` (gradient coordinates) before spreading; nil where the gradient is undefined (a
    /// linear gradient whose ends coincide, a radial one of no radius: SVG then paints the last stop's colour).
    func parameter(at point: Point) -> Double? {
        switch geometry {
        case .linear(let from, let to):
            let (dx, dy) = (to.x - from.x, to.y - from.y)
            let length = dx * dx + dy * dy
            guard length > 0, length.isFinite else { return nil }
            return ((point.x - from.x) * dx + (point.y - from.y) * dy) / length
        case .radial(let center, let radius, let focus):
            guard radius > 0, radius.isFinite else { return nil }
            var f = focus ?? center
            let (fx, fy) = (f.x - center.x, f.y - center.y)
            let distance = (fx * fx + fy * fy).squareRoot()
            if distance > radius * 0.999 {
                let scale = radius * 0.999 / distance
                f = Point(x: center.x + fx * scale, y: center.y + fy * scale)
            }
            // The circle through the point, its centre at f + t·(c − f) and its radius t·r: solve
            // |q − t·d|² = t²·r² for t ≥ 0, with q = point − f and d = c − f (|d| < r, so one root is positive).
            let (qx, qy) = (point.x - f.x, point.y - f.y)
            let (dx, dy) = (center.x - f.x, center.y - f.y)
            let a = dx * dx + dy * dy - radius * radius
            let b = qx * dx + qy * dy
            let c = qx * qx + qy * qy
            let discriminant = max(b * b - a * c, 0)
            return (b - discriminant.squareRoot()) / a
        }
    }

    /// t mapped into 0…1 by the spread method.
    func spread(_ t: Double) -> Double {
        switch spread {
        case .pad: return min(max(t, 0), 1)
        case .repeat: return t - t.rounded(.down)
        case .reflect:
            let period = t - 2 * (t / 2).rounded(.down)
            return period <= 1 ? period : 2 - period
        }
    }

    /// The straight colour at a spread parameter in 0…1.
    func color(at t: Double) -> RGBAColor {
        guard let first = stops.first else { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
        var previous = Stop(offset: min(max(first.offset, 0), 1), color: first.color)
        if t <= previous.offset { return previous.color }
        for stop in stops.dropFirst() {
            let offset = min(max(stop.offset, previous.offset), 1)
            if t <= offset {
                guard offset > previous.offset else { return stop.color }
                let x = (t - previous.offset) / (offset - previous.offset)
                let (a, b) = (previous.color, stop.color)
                func mix(_ p: Double, _ q: Double) -> Double { p + (q - p) * x }
                return RGBAColor(
                    red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue),
                    alpha: mix(a.alpha, b.alpha))
            }
            previous = Stop(offset: offset, color: stop.color)
        }
        return previous.color
    }

    /// The colour at a point of gradient space, premultiplied and rounded to bytes.
    func pixel(at point: Point) -> Pixel {
        let color =
            parameter(at: point).map { self.color(at: spread($0)) }
            ?? (stops.last?.color ?? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        let alpha = min(max(color.alpha, 0), 1)
        func byte(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * alpha * 255).rounded()) }
        return Pixel(
            red: byte(color.red), green: byte(color.green), blue: byte(color.blue),
            alpha: UInt8((alpha * 255).rounded()))
    }
}

extension Image {
    /// Paints `gradient` through `mask` (coverage, the mask's size) with the mask's top-left corner at (x, y), the
    /// gradient's coordinates mapped to this image's pixels by `transform` (each pixel takes the gradient's colour
    /// at its centre); operator, opacity and working space as `draw(_:x:y:…)`. Nothing is drawn when the transform
    /// cannot be inverted. The same bytes for every thread count.
    public func fill(
        _ gradient: Gradient, mask: Plane, x: Int, y: Int, transform: AffineTransform2D,
        operator op: CompositeOperator = .sourceOver, opacity: Double = 1, space: WorkingSpace = .srgb,
        threads: Int = Parallel.processorCount
    ) {
        guard let inverse = transform.inverted(), mask.width > 0, mask.height > 0 else { return }
        let source = Image(uninitializedWidth: mask.width, height: mask.height)
        Parallel.forEach(mask.height, threads: threads) { row, _ in
            let pixels = UnsafeMutableRawPointer(source.row(row)).assumingMemoryBound(to: Pixel.self)
            for column in 0..<mask.width {
                let centre = inverse.apply(to: (Double(x + column) + 0.5, Double(y + row) + 0.5))
                pixels[column] = gradient.pixel(at: Point(x: centre.x, y: centre.y))
            }
        }
        draw(source, x: x, y: y, operator: op, opacity: opacity, mask: mask, space: space, threads: threads)
    }
}
