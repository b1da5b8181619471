#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Elliptical arcs, and the shapes made of them, as cubic Béziers.
///
/// Each cubic spans at most 30° of the ellipse (`maximumArcStep`), with the usual handle length 4/3·tan(δ/4)
/// of the radius: its distance from the true ellipse stays within 4·10⁻⁷ of the radius (measured in
/// `PathGeometryTests`), 0.004 px for a radius of 10,000 px. Quarter circles, as most libraries cut them, err
/// by 2.7·10⁻⁴ of the radius, which is a quarter of a pixel at a radius of 1,000 px: arcs are converted before
/// the transform, so their error must be small at any scale the path is later drawn at.
extension Path {
    /// The widest angle one cubic of an arc spans (radians).
    static let maximumArcStep = Double.pi / 6

    /// One cubic of an arc: its control points and end.
    struct ArcCurve: Equatable {
        var control1, control2, end: Point
    }

    /// What an SVG arc from one point to another becomes.
    enum ArcShape: Equatable {
        /// Start and end are the same point: SVG omits the arc.
        case omitted
        /// A radius is zero (or not finite): SVG draws a straight line.
        case line
        case curves([ArcCurve])
    }

    /// An elliptical arc from the current point to `end`, as SVG's `A` command draws one: of the (up to) two
    /// ellipses with these radii, rotated by `rotation` radians (SVG writes degrees), that pass through both
    /// points, the arc that is larger than 180° or not (`largeArc`) and runs towards increasing angles or not
    /// (`sweep`: SVG's sweep-flag 1, clockwise on a y-down screen).
    ///
    /// As SVG 1.1's implementation notes (F.6) say: the arc is omitted when `end` is the current point; a
    /// radius of zero (or one not finite) makes a straight line; negative radii count as positive; and radii
    /// too small to reach from one point to the other are scaled up, keeping their ratio, until they just do.
    public mutating func arc(
        to end: Point, radiusX: Double, radiusY: Double, rotation: Double = 0, largeArc: Bool, sweep: Bool
    ) {
        let shape = Path.arcShape(
            from: currentPoint, to: end, radiusX: radiusX, radiusY: radiusY, rotation: rotation, largeArc: largeArc,
            sweep: sweep)
        switch shape {
        case .omitted: break
        case .line: line(to: end)
        case .curves(let curves):
            for piece in curves { curve(to: piece.end, control1: piece.control1, control2: piece.control2) }
        }
    }

    /// A circular arc about `center` from `startAngle` to `endAngle` (radians, from +x towards +y), as
    /// `UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:)` draws one on a y-down screen: clockwise
    /// means towards increasing angles, going round once at most. Joined to an open subpath by a straight line,
    /// else begun with a move.
    public mutating func addArc(
        center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool
    ) {
        var sweep = (endAngle - startAngle).truncatingRemainder(dividingBy: 2 * .pi)
        if clockwise, sweep < 0 { sweep += 2 * .pi }
        if !clockwise, sweep > 0 { sweep -= 2 * .pi }
        // A whole turn asked for stays one, as UIKit draws it (the remainder alone would be nothing).
        if sweep == 0, endAngle != startAngle { sweep = clockwise ? 2 * .pi : -2 * .pi }
        let radius = abs(radius)
        let start = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if subpathIsOpen { line(to: start) } else { move(to: start) }
        let curves = Path.ellipticalArc(
            center: center, radiusX: radius, radiusY: radius, rotation: 0, startAngle: startAngle, sweep: sweep)
        for piece in curves { curve(to: piece.end, control1: piece.control1, control2: piece.control2) }
    }

    /// A closed ellipse filling `rect`, begun at its rightmost point and drawn towards increasing angles
    /// (clockwise on a y-down screen), as `CGPath`'s `addEllipse(in:)`.
    public mutating func addEllipse(in rect: Rect) {
        let center = rect.center
        let (radiusX, radiusY) = (abs(rect.width) / 2, abs(rect.height) / 2)
        move(to: Point(x: center.x + radiusX, y: center.y))
        let curves = Path.ellipticalArc(
            center: center, radiusX: radiusX, radiusY: radiusY, rotation: 0, startAngle: 0, sweep: 2 * .pi)
        for piece in curves { curve(to: piece.end, control1: piece.control1, control2: piece.control2) }
        close()
    }

    /// A closed rectangle with circular corners of `cornerRadius`, clamped to half the shorter side as
    /// `Coverage.roundedRectangle` clamps it (a radius of half the height makes a capsule); clockwise on a
    /// y-down screen from the end of the top-left corner. A radius of zero or less makes `addRect`'s rectangle.
    public mutating func addRoundedRect(in rect: Rect, cornerRadius: Double) {
        let (left, right) = (min(rect.x, rect.x + rect.width), max(rect.x, rect.x + rect.width))
        let (top, bottom) = (min(rect.y, rect.y + rect.height), max(rect.y, rect.y + rect.height))
        let radius = min(cornerRadius, (right - left) / 2, (bottom - top) / 2)
        guard radius > 0 else {
            addRect(rect)
            return
        }
        func corner(_ x: Double, _ y: Double, from angle: Double) {
            let curves = Path.ellipticalArc(
                center: Point(x: x, y: y), radiusX: radius, radiusY: radius, rotation: 0, startAngle: angle,
                sweep: .pi / 2)
            for piece in curves { curve(to: piece.end, control1: piece.control1, control2: piece.control2) }
        }
        move(to: Point(x: left + radius, y: top))
        line(to: Point(x: right - radius, y: top))
        corner(right - radius, top + radius, from: -.pi / 2)
        line(to: Point(x: right, y: bottom - radius))
        corner(right - radius, bottom - radius, from: 0)
        line(to: Point(x: left + radius, y: bottom))
        corner(left + radius, bottom - radius, from: .pi / 2)
        line(to: Point(x: left, y: top + radius))
        corner(left + radius, top + radius, from: .pi)
        close()
    }
}

extension Path {
    /// SVG's endpoint arc as cubics: the conversion to centre form of SVG 1.1's implementation notes (F.6.5),
    /// with out-of-range radii corrected as F.6.6 says.
    static func arcShape(
        from start: Point, to end: Point, radiusX: Double, radiusY: Double, rotation: Double, largeArc: Bool,
        sweep: Bool
    ) -> ArcShape {
        if start == end { return .omitted }
        var rx = abs(radiusX)
        var ry = abs(radiusY)
        guard rx > 0, ry > 0, rx.isFinite, ry.isFinite else { return .line }
        let (cosine, sine) = (cos(rotation), sin(rotation))
        // Step 1: the half-chord in the ellipse's axes. Halves taken before subtracting, so that coordinates near
        // the largest Double do not overflow.
        let halfX = start.x / 2 - end.x / 2
        let halfY = start.y / 2 - end.y / 2
        let x1 = cosine * halfX + sine * halfY
        let y1 = -sine * halfX + cosine * halfY
        // F.6.6: Λ > 1 means the radii cannot reach; scaled by √Λ they just do, with the centre at the midpoint.
        // Written as ratios (x1/rx)², not x1²/rx², so that large or tiny coordinates neither overflow nor vanish.
        let lambda = (x1 / rx) * (x1 / rx) + (y1 / ry) * (y1 / ry)
        guard lambda.isFinite, lambda > 0 else { return .line }
        var centerX = 0.0
        var centerY = 0.0
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        } else {
            // Step 2: the centre in the ellipse's axes; the radicand (rx²ry² − rx²y1² − ry²x1²)/(rx²y1² + ry²x1²)
            // divided through by rx²ry² is (1 − Λ)/Λ.
            let coefficient = ((1 - lambda) / lambda).squareRoot() * (largeArc != sweep ? 1 : -1)
            centerX = coefficient * rx * (y1 / ry)
            centerY = -coefficient * ry * (x1 / rx)
        }
        guard rx.isFinite, ry.isFinite, centerX.isFinite, centerY.isFinite else { return .line }
        // Step 3: the centre in user space.
        let center = Point(
            x: cosine * centerX - sine * centerY + (start.x / 2 + end.x / 2),
            y: sine * centerX + cosine * centerY + (start.y / 2 + end.y / 2))
        // Step 4: the start angle and the sweep, on the unit circle the ellipse is scaled from.
        let startAngle = atan2((y1 - centerY) / ry, (x1 - centerX) / rx)
        let endAngle = atan2((-y1 - centerY) / ry, (-x1 - centerX) / rx)
        var sweepAngle = endAngle - startAngle
        if sweep, sweepAngle < 0 { sweepAngle += 2 * .pi }
        if !sweep, sweepAngle > 0 { sweepAngle -= 2 * .pi }
        var curves = ellipticalArc(
            center: center, radiusX: rx, radiusY: ry, rotation: rotation, startAngle: startAngle, sweep: sweepAngle)
        guard !curves.isEmpty else { return .line }
        // The arc ends exactly where SVG says, not where the trigonometry lands (a few ulps away).
        curves[curves.count - 1].end = end
        return .curves(curves)
    }

    /// Cubics along an ellipse from `startAngle` through `sweep` radians (signed), each spanning at most
    /// `maximumArcStep`; angles are on the unit circle the ellipse is scaled and rotated from.
    static func ellipticalArc(
        center: Point, radiusX: Double, radiusY: Double, rotation: Double, startAngle: Double, sweep: Double
    ) -> [ArcCurve] {
        guard sweep.isFinite, sweep != 0 else { return [] }
        let count = max(1, Int((abs(sweep) / maximumArcStep - 1e-9).rounded(.up)))
        let step = sweep / Double(count)
        // The handle length that makes a cubic's midpoint lie on the circle.
        let handle = 4.0 / 3.0 * tan(step / 4)
        let (cosine, sine) = (cos(rotation), sin(rotation))
        func map(_ u: Double, _ v: Double) -> Point {
            let (x, y) = (radiusX * u, radiusY * v)
            return Point(x: center.x + cosine * x - sine * y, y: center.y + sine * x + cosine * y)
        }
        var curves: [ArcCurve] = []
        curves.reserveCapacity(count)
        for index in 0..<count {
            let from = startAngle + step * Double(index)
            let to = index == count - 1 ? startAngle + sweep : from + step
            let (c0, s0, c1, s1) = (cos(from), sin(from), cos(to), sin(to))
            curves.append(
                ArcCurve(
                    control1: map(c0 - handle * s0, s0 + handle * c0),
                    control2: map(c1 + handle * s1, s1 - handle * c1),
                    end: map(c1, s1)))
        }
        return curves
    }
}
