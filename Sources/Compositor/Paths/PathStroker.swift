#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One subpath to stroke, flattened: its points, which lie inside a curve (joined round, as the curve turns
/// smoothly there), whether it is closed, and for a lone point (a zero-length subpath or dash) the direction
/// its square cap faces.
struct StrokePolyline {
    typealias Vertex = (x: Double, y: Double)
    var points: [Vertex] = []
    var smooth: [Bool] = []
    var closed = false
    /// The direction of a lone point's square: SVG 2 aligns a zero-length subpath's with the x axis, and a
    /// zero-length dash's follows the path.
    var direction: Vertex = (1, 0)

    /// Each subpath of a stroke's flattening (`PathFlattener.polylines`).
    static func all(in flattened: FlattenedPath) -> [StrokePolyline] {
        flattened.polygons.enumerated().map { index, range in
            StrokePolyline(
                points: range.map { (flattened.xs[$0], flattened.ys[$0]) }, smooth: Array(flattened.smooth[range]),
                closed: flattened.closed[index])
        }
    }
}

/// Turns polylines into the outline of their stroke, which filled by the non-zero rule is the stroke: for each
/// subpath, the left offset (at half the width) forward, the end cap, the right offset backward and the start
/// cap, one polygon; a closed subpath is two, the left offset forward and the right backward.
///
/// Why non-zero filling gives exactly the stroke, however the outline loops: the stroke is the union of a
/// rectangle per segment, a join piece per corner (bevel triangle, miter quadrilateral, disc sector) and the
/// caps, each wound once the same way. As chains, their boundaries sum to this outline: a rectangle's end and
/// the next one's start meet the join piece's sides and cancel, leaving on the inner side of a corner the path
/// from one offset through the corner point to the other (as Skia's stroker goes). So the outline winds round
/// each point as many times as pieces cover it: at least once inside the stroke, never outside. Where two
/// consecutive segments are long enough that the kite between the corner, its two inner offset points and the
/// offsets' meeting point lies within both rectangles, the inner side takes the meeting point instead, which
/// removes that kite once. Kites may overlap (a curve tighter than the width, flattened into short segments,
/// has one at every vertex): a point in the kites of corners K lies in the rectangles on both sides of each,
/// at least |K| + 1 of them, so it keeps a winding of at least one; unless K is every corner of a closed
/// subpath (a ring narrower than the stroke, n kites in n rectangles), so one corner of a closed subpath small
/// enough for that goes through its point.
///
/// Work is bounded: round joins and caps take at most `maximumArcSegmentsPerTurn` lines per full turn, and the
/// outline at most `maximumOutlineVertices` vertices, after which further subpaths are left out.
struct PathStroker {
    typealias Vertex = (x: Double, y: Double)

    /// The most lines a full turn of a round join, cap or dot is flattened into: enough for the tolerance at a
    /// radius of 10,000 px (0.02 px needs 1,111 per turn at 1,000 px, 3,512 at 10,000 px).
    static let maximumArcSegmentsPerTurn = 4096
    /// The most vertices one stroke's outline may have (a million-segment path of curves needs a few million).
    static let maximumOutlineVertices = 1 << 24

    let halfWidth: Double
    let cap: StrokeStyle.LineCap
    let join: StrokeStyle.LineJoin
    /// The miter limit squared, at least 1.
    let miterLimitSquared: Double
    /// How far a round join or cap may stray from its circle, in the polylines' units.
    let tolerance: Double
    /// The largest angle one chord of a round join or cap spans: 2·acos(1 − tolerance / half-width), or a
    /// quarter turn when the tolerance is the half-width or more; and its cosine.
    let chordAngle: Double
    let chordCosine: Double
    /// The least cosine of a turn whose round join is drawn as one miter point: the offset lines meet at
    /// half-width / cos(θ/2) from the corner, within the tolerance of the arc while cos²(θ/2) = (1 + cos θ) / 2
    /// is at least (half-width / (half-width + tolerance))².
    let roundAsMiterDot: Double
    /// The outline so far: closed polygons, filled by non-zero.
    var outline = FlattenedPath()
    private var work = WorkLists()

    init(halfWidth: Double, style: StrokeStyle, tolerance: Double) {
        self.halfWidth = halfWidth
        (cap, join) = (style.cap, style.join)
        let limit = style.miterLimit >= 1 ? style.miterLimit : 1
        miterLimitSquared = limit * limit
        self.tolerance = tolerance
        chordAngle = tolerance < halfWidth ? 2 * acos(1 - tolerance / halfWidth) : .pi / 2
        chordCosine = cos(chordAngle)
        let ratio = halfWidth / (halfWidth + tolerance)
        roundAsMiterDot = halfWidth > 0 ? max(2 * ratio * ratio - 1, 0) : 1
    }

    /// Makes room in the outline and the working lists for the stroke of `polylines`, so that they do not grow
    /// from nothing a reallocation at a time (an icon's stroke is one call).
    mutating func reserve(for polylines: FlattenedPath) {
        let vertices = polylines.xs.count
        outline.xs.reserveCapacity(3 * vertices + 16)
        outline.ys.reserveCapacity(3 * vertices + 16)
        outline.ends.reserveCapacity(2 * polylines.ends.count)
        var longest = 0
        var start = 0
        for end in polylines.ends {
            longest = max(longest, end - start)
            start = end
        }
        work.reserve(points: longest)
    }

    /// Adds the outline of `line`'s stroke.
    mutating func add(_ line: StrokePolyline) {
        add(
            count: line.points.count, point: { line.points[$0] }, smooth: { line.smooth[$0] }, closed: line.closed,
            direction: line.direction)
    }

    /// Adds the outline of the stroke of subpath `index` of `polylines` (`PathFlattener.polylines`), read in
    /// place.
    mutating func add(_ polylines: FlattenedPath, subpath index: Int) {
        let start = index == 0 ? 0 : polylines.ends[index - 1]
        add(
            count: polylines.ends[index] - start, point: { (polylines.xs[start + $0], polylines.ys[start + $0]) },
            smooth: { polylines.smooth[start + $0] }, closed: polylines.closed[index], direction: (1, 0))
    }

    /// Adds the outline of the stroke of a polyline of `count` points, `point(i)` and `smooth(i)` the i-th's.
    @inline(__always)
    private mutating func add(
        count pointCount: Int, point: (Int) -> Vertex, smooth: (Int) -> Bool, closed: Bool, direction: Vertex
    ) {
        // The lists are kept between subpaths for their capacity (an icon's stroke is a few dozen subpaths).
        var work = self.work
        self.work = WorkLists()
        defer { self.work = work }
        work.clear()
        // Points closer than this to the last are dropped: a segment too short to give a direction. (Compared
        // squared: a square root a point was a fifth of this loop.)
        let shortest = tolerance * 1e-3
        let shortestSquared = shortest * shortest
        for index in 0..<pointCount {
            let point = point(index)
            if let last = work.points.last, Self.distanceSquared(last, point) <= shortestSquared {
                // The corner that stays must keep its join if the one dropped had one.
                if !smooth(index) { work.smooth[work.smooth.count - 1] = false }
                continue
            }
            work.points.append(point)
            work.smooth.append(smooth(index))
        }
        if closed, work.points.count > 1,
            Self.distanceSquared(work.points[work.points.count - 1], work.points[0]) <= shortestSquared
        {
            work.points.removeLast()
            work.smooth.removeLast()
        }
        let count = work.points.count
        guard count > 1 else {
            if let point = work.points.first { addDot(at: point, facing: direction) }
            return
        }
        let segmentCount = closed ? count : count - 1
        for index in 0..<segmentCount {
            let (from, to) = (work.points[index], work.points[(index + 1) % count])
            let length = Self.distance(from, to)
            work.directions.append(((to.x - from.x) / length, (to.y - from.y) / length))
            work.lengths.append(length)
        }
        innerOffsetsMeet(&work, closed: closed)
        if !closed {
            let normal = Self.leftNormal(work.directions[0])
            work.left.append(Self.offset(work.points[0], normal, halfWidth))
            work.right.append(Self.offset(work.points[0], normal, -halfWidth))
        }
        for corner in closed ? 0..<count : 1..<(count - 1) {
            let incoming = work.directions[(corner + segmentCount - 1) % segmentCount]
            addJoin(
                at: work.points[corner], from: incoming, to: work.directions[corner], smooth: work.smooth[corner],
                innerMeets: work.meets[corner], left: &work.left, right: &work.right)
        }
        if closed {
            addPolygon(work.left)
            addPolygon(work.right.reversed())
            return
        }
        let end = work.points[count - 1]
        let lastDirection = work.directions[segmentCount - 1]
        let lastNormal = Self.leftNormal(lastDirection)
        work.left.append(Self.offset(end, lastNormal, halfWidth))
        work.left += capPoints(at: end, side: lastNormal, outward: lastDirection)
        work.left.append(Self.offset(end, lastNormal, -halfWidth))
        work.left += work.right.reversed()
        let firstNormal = Self.leftNormal(work.directions[0])
        work.left += capPoints(
            at: work.points[0], side: (-firstNormal.x, -firstNormal.y),
            outward: (-work.directions[0].x, -work.directions[0].y))
        addPolygon(work.left)
    }

    /// `add`'s lists, kept for their capacity.
    struct WorkLists {
        var points: [Vertex] = []
        var smooth: [Bool] = []
        var directions: [Vertex] = []
        var lengths: [Double] = []
        var left: [Vertex] = []
        var right: [Vertex] = []
        /// Per corner, whether its inner offsets meet (`innerOffsetsMeet`).
        var meets: [Bool] = []

        /// Room for a polyline of `count` points (and its offsets, a few points a corner).
        mutating func reserve(points count: Int) {
            points.reserveCapacity(count)
            smooth.reserveCapacity(count)
            directions.reserveCapacity(count)
            lengths.reserveCapacity(count)
            left.reserveCapacity(3 * count + 8)
            right.reserveCapacity(3 * count + 8)
            meets.reserveCapacity(count + 1)
        }

        mutating func clear() {
            points.removeAll(keepingCapacity: true)
            smooth.removeAll(keepingCapacity: true)
            directions.removeAll(keepingCapacity: true)
            lengths.removeAll(keepingCapacity: true)
            left.removeAll(keepingCapacity: true)
            right.removeAll(keepingCapacity: true)
        }
    }

    /// For each corner (indexed by its point), whether the inner offsets of its two segments meet near enough
    /// that the kite the meeting removes lies within both segments' rectangles (see the type's comment): the
    /// inner side then takes the meeting point. From `work`'s directions and lengths into its `meets`.
    private func innerOffsetsMeet(_ work: inout WorkLists, closed: Bool) {
        let count = work.directions.count
        work.meets.removeAll(keepingCapacity: true)
        work.meets.append(contentsOf: repeatElement(false, count: closed ? count : count + 1))
        // The sharpest turn's dot product, for the largest kite's radius below.
        var sharpestDot = 1.0
        for corner in closed ? 0..<count : 1..<count {
            let (incoming, outgoing) = (corner == 0 ? count - 1 : corner - 1, corner)
            let (a, b) = (work.directions[incoming], work.directions[outgoing])
            let cross = abs(a.x * b.y - a.y * b.x)
            let dot = a.x * b.x + a.y * b.y
            guard dot > -1 + 1e-9 else { continue }
            // How far along each segment the kite reaches: h·max(sin α, tan(α/2)), α the turn (the far corner of
            // the other segment's rectangle, and the meeting point).
            let reach = halfWidth * max(cross, cross / (1 + dot))
            work.meets[corner] = reach <= work.lengths[incoming] && reach <= work.lengths[outgoing]
            sharpestDot = min(sharpestDot, dot)
        }
        // Never every corner of a ring whose kites could all hold one point (see the type's comment): only where
        // every corner lies within a kite's radius of that point, so within a box twice that wide.
        guard closed, !work.meets.contains(false) else { return }
        // A kite's farthest point from its corner, the meeting point, lies h / cos(α/2) = h·√(2 / (1 + cos α)) away.
        let kiteRadius = halfWidth * (2 / (1 + sharpestDot)).squareRoot()
        var (minX, minY, maxX, maxY) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for point in work.points {
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }
        if maxX - minX <= 2 * kiteRadius, maxY - minY <= 2 * kiteRadius { work.meets[0] = false }
    }

    /// Appends a closed polygon to the outline, unless the outline is full.
    mutating func addPolygon<Points: Collection>(_ points: Points) where Points.Element == Vertex {
        guard points.count >= 3, outline.xs.count + points.count <= Self.maximumOutlineVertices else { return }
        for point in points {
            outline.xs.append(point.x)
            outline.ys.append(point.y)
        }
        outline.ends.append(outline.xs.count)
    }

    static func distance(_ a: Vertex, _ b: Vertex) -> Double { distanceSquared(a, b).squareRoot() }

    @inline(__always)
    static func distanceSquared(_ a: Vertex, _ b: Vertex) -> Double {
        (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)
    }

    /// The unit normal to the left of a direction on a y-down screen (x towards y turns clockwise there).
    @inline(__always)
    static func leftNormal(_ direction: Vertex) -> Vertex { (direction.y, -direction.x) }

    @inline(__always)
    static func offset(_ point: Vertex, _ direction: Vertex, _ distance: Double) -> Vertex {
        (point.x + direction.x * distance, point.y + direction.y * distance)
    }
}
