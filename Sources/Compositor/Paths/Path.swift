/// An outline as Core Graphics, Skia and SVG describe one: subpaths of straight lines and quadratic and cubic
/// Bézier curves, each begun by a move and perhaps closed.
///
/// Elliptical arcs are stored as the cubics that approximate them (`arc(to:…)`, `addArc(center:…)`), so every
/// element is a polynomial curve, which an affine transform maps exactly onto another: a path can be built in
/// any unit (points, an SVG viewBox's user units) and drawn through a transform (`Image.fill(_:color:…)`), where
/// curves are flattened in pixels, after the transform.
///
/// ```swift
/// var check = Path()
/// check.move(to: Point(x: 4, y: 12))
/// check.line(to: Point(x: 9, y: 17))
/// check.line(to: Point(x: 20, y: 6))
/// let chevron = try Path(svgPathData: "M9 6l6 6-6 6")
/// ```
///
/// Segments join the current point as SVG's path commands do: a segment added when no subpath is open (at the
/// start, or after `close()`) begins one at the current point, which is the origin at first and the closed
/// subpath's start after a close (SVG 1.1 § 8.3.3). So every element list begins with a move. Coordinates are
/// not checked here: drawing refuses a path whose coordinates are not finite (`Coverage.path`), and
/// `Path(svgPathData:)` refuses numbers that are not.
public struct Path: Hashable, Sendable {
    /// One step of an outline. Curves name their end point first, then their control points in order.
    public enum Element: Hashable, Sendable {
        /// Begins a subpath at the point.
        case move(to: Point)
        /// A straight segment from the current point.
        case line(to: Point)
        /// A quadratic Bézier segment from the current point.
        case quadCurve(to: Point, control: Point)
        /// A cubic Bézier segment from the current point.
        case curve(to: Point, control1: Point, control2: Point)
        /// A straight segment back to the subpath's start, which ends the subpath.
        case close
    }

    /// The outline, in the order it was built; always begins with a move when not empty.
    public internal(set) var elements: [Element] = []
    /// Where the next segment starts: the end of the last one, a closed subpath's start, or the origin.
    public private(set) var currentPoint = Point.zero
    /// The start of the open subpath, or of the last one closed.
    private var subpathStart = Point.zero
    /// Whether the last subpath is open, so that a segment continues it rather than beginning another.
    private(set) var subpathIsOpen = false

    /// An empty path.
    public init() {}

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Begins a subpath at `point`.
    public mutating func move(to point: Point) {
        elements.append(.move(to: point))
        currentPoint = point
        subpathStart = point
        subpathIsOpen = true
    }

    /// A straight segment from the current point to `point`.
    public mutating func line(to point: Point) {
        beginSubpathIfNeeded()
        elements.append(.line(to: point))
        currentPoint = point
    }

    /// A quadratic Bézier segment from the current point to `point`, bent towards `control`.
    public mutating func quadCurve(to point: Point, control: Point) {
        beginSubpathIfNeeded()
        elements.append(.quadCurve(to: point, control: control))
        currentPoint = point
    }

    /// A cubic Bézier segment from the current point to `point`, leaving towards `control1` and arriving from
    /// `control2`.
    public mutating func curve(to point: Point, control1: Point, control2: Point) {
        beginSubpathIfNeeded()
        elements.append(.curve(to: point, control1: control1, control2: control2))
        currentPoint = point
    }

    /// Closes the open subpath with a straight segment to its start, where the current point returns. Does
    /// nothing when no subpath is open (a second close in a row).
    public mutating func close() {
        guard subpathIsOpen else { return }
        elements.append(.close)
        currentPoint = subpathStart
        subpathIsOpen = false
    }

    /// Appends `other`'s subpaths after this path's (its first element is a move, so nothing joins them).
    public mutating func addPath(_ other: Path) {
        guard !other.isEmpty else { return }
        elements += other.elements
        currentPoint = other.currentPoint
        subpathStart = other.subpathStart
        subpathIsOpen = other.subpathIsOpen
    }

    /// A closed rectangle: from the top-left corner towards +x first (clockwise on a y-down screen).
    public mutating func addRect(_ rect: Rect) {
        move(to: Point(x: rect.x, y: rect.y))
        line(to: Point(x: rect.x + rect.width, y: rect.y))
        line(to: Point(x: rect.x + rect.width, y: rect.y + rect.height))
        line(to: Point(x: rect.x, y: rect.y + rect.height))
        close()
    }

    /// Every point of the path mapped through `transform`, as `CGPath`'s `copy(using:)`. Curves map exactly.
    public func transformed(by transform: AffineTransform2D) -> Path {
        func map(_ point: Point) -> Point {
            let mapped = transform.apply(to: (point.x, point.y))
            return Point(x: mapped.x, y: mapped.y)
        }
        var result = self
        result.elements = elements.map { element in
            switch element {
            case .move(let point): .move(to: map(point))
            case .line(let point): .line(to: map(point))
            case .quadCurve(let point, let control): .quadCurve(to: map(point), control: map(control))
            case .curve(let point, let control1, let control2):
                .curve(to: map(point), control1: map(control1), control2: map(control2))
            case .close: .close
            }
        }
        result.currentPoint = map(currentPoint)
        result.subpathStart = map(subpathStart)
        return result
    }

    /// SVG's rule for a segment after a close: it starts a new subpath at the closed one's start.
    private mutating func beginSubpathIfNeeded() {
        if !subpathIsOpen { move(to: currentPoint) }
    }
}

extension Path {
    /// The smallest rectangle holding the outline: every point it passes through, curves at their extremes
    /// (not their control points, as `CGPath`'s `boundingBoxOfPath`), and lone moves. Nil for an empty path.
    public var bounds: Rect? {
        var box = BoundsAccumulator()
        var current = Point.zero
        for element in elements {
            switch element {
            case .move(let point), .line(let point):
                box.add(point)
                current = point
            case .quadCurve(let point, let control):
                box.add(point)
                for t in Self.extremes(current.x, control.x, point.x) + Self.extremes(current.y, control.y, point.y) {
                    let s = 1 - t
                    box.add(
                        Point(
                            x: s * s * current.x + 2 * s * t * control.x + t * t * point.x,
                            y: s * s * current.y + 2 * s * t * control.y + t * t * point.y))
                }
                current = point
            case .curve(let point, let control1, let control2):
                box.add(point)
                let xs = (current.x, control1.x, control2.x, point.x)
                let ys = (current.y, control1.y, control2.y, point.y)
                for t in Self.extremes(xs) + Self.extremes(ys) {
                    box.add(Point(x: Self.cubic(xs, at: t), y: Self.cubic(ys, at: t)))
                }
                current = point
            case .close:
                break
            }
        }
        return box.rect
    }

    /// The parameters in (0, 1) where a quadratic's coordinate turns (its derivative is zero).
    private static func extremes(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
        let denominator = a - 2 * b + c
        guard denominator != 0 else { return [] }
        let t = (a - b) / denominator
        return t > 0 && t < 1 ? [t] : []
    }

    /// The parameters in (0, 1) where a cubic's coordinate turns: the roots of its derivative, a quadratic.
    private static func extremes(_ p: (Double, Double, Double, Double)) -> [Double] {
        // d/dt = 3·(A·t² + B·t + C)
        let a = -p.0 + 3 * p.1 - 3 * p.2 + p.3
        let b = 2 * (p.0 - 2 * p.1 + p.2)
        let c = p.1 - p.0
        var roots: [Double] = []
        if abs(a) <= 1e-12 * (abs(b) + abs(c)) {
            if b != 0 { roots.append(-c / b) }
        } else {
            let discriminant = b * b - 4 * a * c
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                roots += [(-b + root) / (2 * a), (-b - root) / (2 * a)]
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    /// A cubic Bézier coordinate at parameter `t`, in Bernstein form (no differences that could overflow).
    static func cubic(_ p: (Double, Double, Double, Double), at t: Double) -> Double {
        let s = 1 - t
        return s * s * s * p.0 + 3 * s * s * t * p.1 + 3 * s * t * t * p.2 + t * t * t * p.3
    }

    /// The extent of the points seen so far.
    private struct BoundsAccumulator {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity

        mutating func add(_ point: Point) {
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }

        var rect: Rect? {
            minX <= maxX ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
        }
    }
}
