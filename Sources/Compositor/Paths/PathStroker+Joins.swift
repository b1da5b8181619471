#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PathStroker {
    /// Appends the corner at `point`, from direction `incoming` to `outgoing` (unit vectors), to both offsets.
    ///
    /// The outer side (left when the path turns clockwise on a y-down screen, and for a full reversal) gets
    /// the join: the two offset corners, with a miter's tip or a round join's arc between them. A corner inside
    /// a curve is joined round whatever the style, since the curve turns smoothly there. The inner side goes
    /// through the corner point itself, or through the point where the inner offsets meet when `innerMeets`.
    mutating func addJoin(
        at point: Vertex, from incoming: Vertex, to outgoing: Vertex, smooth: Bool, innerMeets: Bool,
        left: inout [Vertex], right: inout [Vertex]
    ) {
        let (inNormal, outNormal) = (Self.leftNormal(incoming), Self.leftNormal(outgoing))
        let cross = incoming.x * outgoing.y - incoming.y * outgoing.x
        let dot = incoming.x * outgoing.x + incoming.y * outgoing.y
        let outerIsLeft = cross > 0 || (cross == 0 && dot < 0)
        let corner = Corner(
            point: point, inNormal: inNormal, outNormal: outNormal, cross: cross, dot: dot,
            side: outerIsLeft ? 1.0 : -1.0)
        // Straight onto the two offsets: a corner's points in arrays of their own cost two allocations a vertex.
        if outerIsLeft {
            appendOuter(corner, smooth: smooth, to: &left)
            appendInner(corner, meets: innerMeets, to: &right)
        } else {
            appendOuter(corner, smooth: smooth, to: &right)
            appendInner(corner, meets: innerMeets, to: &left)
        }
    }

    /// A corner of the path: its point, the normals before and after it, the turn's cross and dot products, and
    /// the side its outer offset lies on (1 left, −1 right).
    private struct Corner {
        var point, inNormal, outNormal: Vertex
        var cross, dot, side: Double
    }

    /// The outer side's points: the two offset corners, with a miter's tip or a round join's arc between them.
    private func appendOuter(_ corner: Corner, smooth: Bool, to points: inout [Vertex]) {
        let (point, inNormal, outNormal, side) = (corner.point, corner.inNormal, corner.outNormal, corner.side)
        let round = smooth || join == .round
        if round, corner.dot >= roundAsMiterDot {
            // A small turn (most corners inside a flattened curve): the one point where the offset lines meet,
            // within the tolerance of the arc (`roundAsMiterDot`), rather than both offset corners and the chord.
            points.append(miterPoint(point, inNormal, outNormal, dot: corner.dot, distance: side * halfWidth))
            return
        }
        points.append(Self.offset(point, inNormal, side * halfWidth))
        switch round ? .round : join {
        case .miter:
            // SVG: the miter's length over the width is 1 / sin(θ/2), θ the interior angle; squared, 2 / (1 + dot).
            if corner.dot > -1 + 1e-12, 2 <= miterLimitSquared * (1 + corner.dot) {
                points.append(miterPoint(point, inNormal, outNormal, dot: corner.dot, distance: side * halfWidth))
            }
        case .round:
            // A turn within one chord's angle has no points between the offset corners: no trigonometry for it.
            guard corner.dot < chordCosine else { break }
            let turn = atan2(abs(corner.cross), corner.dot)
            let steps = arcSegments(turn)
            let stepAngle = turn / Double(steps)
            // Each point the last one turned by the step (a few steps: the rounding that adds up is ~10⁻¹⁶).
            let (sine, cosine) = (sin(side * stepAngle), cos(stepAngle))
            let radius = halfWidth * Self.straddle(stepAngle)
            var normal = inNormal
            for _ in 1..<steps {
                normal = (normal.x * cosine - normal.y * sine, normal.x * sine + normal.y * cosine)
                points.append(Self.offset(point, normal, side * radius))
            }
        case .bevel:
            break
        }
        points.append(Self.offset(point, outNormal, side * halfWidth))
    }

    /// The inner side's points: through the corner point itself, or the point where the inner offsets meet.
    private func appendInner(_ corner: Corner, meets: Bool, to points: inout [Vertex]) {
        let (point, inNormal, outNormal, side) = (corner.point, corner.inNormal, corner.outNormal, corner.side)
        if meets {
            points.append(miterPoint(point, inNormal, outNormal, dot: corner.dot, distance: -side * halfWidth))
        } else {
            points.append(Self.offset(point, inNormal, -side * halfWidth))
            points.append(point)
            points.append(Self.offset(point, outNormal, -side * halfWidth))
        }
    }

    /// Where the two offset lines at `distance` (signed: left positive) meet: the corner moved along the sum of
    /// the normals by distance / cos(α/2), which is distance · (n₁ + n₂) / (1 + cos α).
    private func miterPoint(_ point: Vertex, _ a: Vertex, _ b: Vertex, dot: Double, distance: Double) -> Vertex {
        let scale = distance / (1 + dot)
        return (point.x + (a.x + b.x) * scale, point.y + (a.y + b.y) * scale)
    }

    /// The points of the cap at an open end, between the offset corners (not included): `side` is the normal
    /// whose offset the cap starts from, `outward` the direction leaving the path.
    func capPoints(at point: Vertex, side: Vertex, outward: Vertex) -> [Vertex] {
        switch cap {
        case .butt:
            return []
        case .square:
            let beyond = Self.offset(point, outward, halfWidth)
            return [Self.offset(beyond, side, halfWidth), Self.offset(beyond, side, -halfWidth)]
        case .round:
            let steps = arcSegments(.pi)
            let radius = halfWidth * Self.straddle(.pi / Double(steps))
            return (1..<steps).map { step in
                let angle = Double.pi * Double(step) / Double(steps)
                let (sine, cosine) = (sin(angle), cos(angle))
                let direction = (side.x * cosine + outward.x * sine, side.y * cosine + outward.y * sine)
                return Self.offset(point, direction, radius)
            }
        }
    }

    /// A zero-length subpath or dash: a disc with round caps, a square facing `direction` with square caps, as
    /// SVG 2 draws one; nothing with butt caps.
    mutating func addDot(at point: Vertex, facing direction: Vertex) {
        switch cap {
        case .butt:
            return
        case .round:
            let steps = max(arcSegments(2 * .pi), 3)
            let radius = halfWidth * Self.straddle(2 * .pi / Double(steps))
            addPolygon(
                (0..<steps).map { step in
                    let angle = 2 * Double.pi * Double(step) / Double(steps)
                    return (point.x + radius * cos(angle), point.y + radius * sin(angle))
                })
        case .square:
            let length = (direction.x * direction.x + direction.y * direction.y).squareRoot()
            let along: Vertex = length > 0 && length.isFinite ? (direction.x / length, direction.y / length) : (1, 0)
            let normal = Self.leftNormal(along)
            let h = halfWidth
            // Back-left, front-left, front-right, back-right: clockwise on a y-down screen, wound +1 as the
            // segments' rectangles are.
            addPolygon([
                (point.x - along.x * h + normal.x * h, point.y - along.y * h + normal.y * h),
                (point.x + along.x * h + normal.x * h, point.y + along.y * h + normal.y * h),
                (point.x + along.x * h - normal.x * h, point.y + along.y * h - normal.y * h),
                (point.x - along.x * h - normal.x * h, point.y - along.y * h - normal.y * h),
            ])
        }
    }

    /// The factor on the radius of an arc's inner vertices so that its chords straddle the circle and each
    /// chord's triangle from the centre has its sector's area: √(step / sin step) for chords of `step` radians.
    /// Chords between points on the circle lie wholly inside and lose area all round (1.3 % of a 2 px dot at
    /// 0.02 px); straddling about halves the largest error and keeps the area.
    static func straddle(_ step: Double) -> Double {
        step > 1e-6 ? (step / sin(step)).squareRoot() : 1
    }

    /// How many lines an arc of `angle` radians at the half-width takes to stay within the tolerance: each
    /// chord spans at most `chordAngle`, and a full turn at most `maximumArcSegmentsPerTurn`.
    func arcSegments(_ angle: Double) -> Int {
        guard angle > 0 else { return 1 }
        let cap = (Double(Self.maximumArcSegmentsPerTurn) * angle / (2 * .pi)).rounded(.up)
        let wanted = chordAngle > 0 ? (angle / chordAngle).rounded(.up) : cap
        return max(1, Int(min(wanted, cap)))
    }
}
