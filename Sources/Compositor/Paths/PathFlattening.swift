extension Path {
    /// How far (in output pixels) a flattened curve may stray from the true one unless the caller says
    /// otherwise: 0.02 px. The rasteriser's coverage is exact for the polygon it is given, so flattening is the
    /// error that remains, and the polygon's chords lie inside a convex curve: 0.02 px moves an edge pixel's
    /// coverage by at most 5 of 255 levels (cairo's default of 0.1 px would allow 25). Lines cost little in the
    /// rasteriser (its work follows the rows and columns an edge crosses, not the number of pieces), and a
    /// curve's line count grows only as the inverse square root of the tolerance.
    public static let defaultFlatteningTolerance = 0.02

    /// The smallest tolerance honoured, so that a caller's 0 cannot ask for endless lines.
    static let minimumFlatteningTolerance = 0.001

    /// The largest coordinate magnitude, in pixels after the transform, that drawing accepts: a path with a
    /// point beyond it (or not finite) draws nothing. Double keeps an eighth of a pixel at 10¹⁵, and within it
    /// every difference and product of the clipping arithmetic stays far from overflow; a shape that size is an
    /// error, not a drawing.
    static let maximumPixelCoordinate = 1e15
}

/// A path's outline as closed polygons in pixels: what the rasteriser and its reference twin fill.
struct FlattenedPath {
    /// The vertices, polygon after polygon (each implicitly closed: fill closes open subpaths).
    var xs: [Double] = []
    var ys: [Double] = []
    /// Where each polygon's vertices end (exclusive); polygon i spans `ends[i - 1]..<ends[i]`.
    var ends: [Int] = []
    /// For a stroke (`PathFlattener.polylines`) only: whether each subpath was closed, and whether each vertex
    /// lies inside a curve, where the outline turns smoothly.
    var closed: [Bool] = []
    var smooth: [Bool] = []

    /// The polygons' vertex ranges.
    var polygons: [Range<Int>] {
        ends.indices.map { (($0 == 0 ? 0 : ends[$0 - 1])..<ends[$0]) }
    }

    /// The vertices' extent (minX, minY, maxX, maxY), nil when there are none.
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        return (minX, minY, maxX, maxY)
    }
}

/// Flattening: the path mapped through its transform, then curves cut into lines within a tolerance in pixels,
/// so that a path drawn at scale 3 is as smooth as at 1.
///
/// The number of lines for a Bézier of degree d comes from the bound on its second differences (Wang's
/// formula): with M = maxᵢ |Pᵢ − 2Pᵢ₊₁ + Pᵢ₊₂|, n chords at equal steps of t stay within d(d−1)/8 · M/n² of the
/// curve, so n = ⌈√(d(d−1)·M / (8·tolerance))⌉. A curve needing more than `linesPerPiece` is halved (de
/// Casteljau) and each half decided again, and a piece whose control points all lie on one side of the clip
/// is replaced by its chord: the region between a curve and its chord lies inside their convex hull, so no
/// pixel of the clip changes winding. So a cubic with control points 10¹⁵ pixels away costs the pieces near
/// the clip, not 10⁸ lines.
enum PathFlattener {
    /// The most lines one piece of a curve becomes before it is halved instead.
    static let linesPerPiece = 64
    /// The most halvings of one curve: past it, a piece takes `linesPerPiece` lines whatever its tolerance, which
    /// only a curve reaching far beyond any clip (a second difference of 10⁸ pixels) comes to.
    static let maximumDepth = 10
    /// The most vertices curves may add to one path; after that, curves are chords. A million-segment path of
    /// curves inside the clip needs a few million.
    static let maximumCurveVertices = 1 << 24

    /// `path` through `transform`, curves flattened to `tolerance` pixels, pieces outside `clip` (pixels:
    /// minX, minY, maxX, maxY) replaced by chords. Nil when a point is not finite or beyond
    /// `Path.maximumPixelCoordinate` after the transform: such a path draws nothing.
    static func flatten(
        _ path: Path, through transform: AffineTransform2D, tolerance: Double,
        clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) -> FlattenedPath? {
        flatten(path, through: transform, tolerance: tolerance, clip: clip, forStroking: false)
    }

    /// Like `flatten`, for a stroke: every subpath kept as a polyline, open or closed (`FlattenedPath.closed`),
    /// with which vertices lie inside a curve (`FlattenedPath.smooth`, where the stroker joins round); a lone
    /// move is dropped, but a subpath of one point that was closed or drawn to itself is kept (a dot with round
    /// or square caps). The tolerance is honoured as given, NaN meaning the default: the stroker scales it.
    static func polylines(
        _ path: Path, tolerance: Double, clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) -> FlattenedPath? {
        flatten(path, through: .identity, tolerance: tolerance, clip: clip, forStroking: true)
    }

    private static func flatten(
        _ path: Path, through transform: AffineTransform2D, tolerance: Double,
        clip: (minX: Double, minY: Double, maxX: Double, maxY: Double), forStroking: Bool
    ) -> FlattenedPath? {
        var flattener = Flattener(
            transform: transform, clip: clip,
            tolerance: tolerance.isNaN
                ? Path.defaultFlatteningTolerance
                : forStroking ? tolerance : max(tolerance, Path.minimumFlatteningTolerance))
        flattener.forStroking = forStroking
        flattener.reserve(elements: path.elements.count)
        for element in path.elements {
            switch element {
            case .move(let point):
                flattener.finishPolygon()
                guard let p = flattener.map(point) else { return nil }
                flattener.append(p)
            case .line(let point):
                guard let p = flattener.map(point) else { return nil }
                flattener.append(p)
                flattener.segments += 1
            case .quadCurve(let point, let control):
                guard let p1 = flattener.map(control), let p2 = flattener.map(point) else { return nil }
                flattener.addCurve(BezierPiece(flattener.last, p1, p2))
            case .curve(let point, let control1, let control2):
                guard let p1 = flattener.map(control1), let p2 = flattener.map(control2), let p3 = flattener.map(point)
                else { return nil }
                flattener.addCurve(BezierPiece(flattener.last, p1, p2, p3))
            case .close:
                flattener.finishPolygon(closing: true)
            }
        }
        flattener.finishPolygon()
        return flattener.result
    }
}

/// The state of one flattening: the polygons so far and the open one's start.
private struct Flattener {
    typealias Vertex = (x: Double, y: Double)
    let transform: AffineTransform2D
    let clip: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    let tolerance: Double
    var result = FlattenedPath()
    /// The index of the open polygon's first vertex.
    var polygonStart = 0
    /// The vertices curves have added so far, against `PathFlattener.maximumCurveVertices`.
    var curveVertices = 0
    /// Whether subpaths are kept as polylines for a stroke, with their flags, rather than as polygons to fill.
    var forStroking = false
    /// The segments (lines and curves) of the open subpath, to tell a lone move from a subpath drawn to itself.
    var segments = 0
    /// `addCurve`'s stack of pieces, kept for its capacity.
    private var pieces: [(piece: BezierPiece, depth: Int)] = []

    init(
        transform: AffineTransform2D, clip: (minX: Double, minY: Double, maxX: Double, maxY: Double), tolerance: Double
    ) {
        (self.transform, self.clip, self.tolerance) = (transform, clip, tolerance)
    }

    /// Room for about as many vertices as a path of `elements` elements gives with a few lines per curve: an
    /// icon's lists would otherwise grow from nothing, reallocating a dozen times each.
    mutating func reserve(elements: Int) {
        let vertices = 4 * elements
        result.xs.reserveCapacity(vertices)
        result.ys.reserveCapacity(vertices)
        if forStroking { result.smooth.reserveCapacity(vertices) }
    }

    /// The point in pixels, or nil when it is out of range.
    func map(_ point: Point) -> Vertex? {
        let mapped = transform.apply(to: (point.x, point.y))
        let limit = Path.maximumPixelCoordinate
        // Written so that NaN fails too.
        guard abs(mapped.x) <= limit, abs(mapped.y) <= limit else { return nil }
        return mapped
    }

    /// The last vertex (the current point), which every curve starts from: `Path` begins every subpath with a
    /// move, so there is one.
    var last: Vertex { (result.xs[result.xs.count - 1], result.ys[result.ys.count - 1]) }

    mutating func append(_ vertex: Vertex, insideCurve: Bool = false) {
        result.xs.append(vertex.x)
        result.ys.append(vertex.y)
        if forStroking { result.smooth.append(insideCurve) }
    }

    /// Ends the open polygon; to fill, one of fewer than three vertices encloses nothing and is dropped; to
    /// stroke, only a lone move is.
    mutating func finishPolygon(closing: Bool = false) {
        let count = result.xs.count - polygonStart
        let kept = forStroking ? count >= 2 || (count == 1 && (closing || segments > 0)) : count >= 3
        if kept {
            result.ends.append(result.xs.count)
            if forStroking { result.closed.append(closing) }
        } else if count > 0 {
            result.xs.removeLast(count)
            result.ys.removeLast(count)
            if forStroking { result.smooth.removeLast(count) }
        }
        segments = 0
        polygonStart = result.xs.count
    }

    /// A quadratic (three points) or cubic (four), its first point already appended.
    mutating func addCurve(_ curve: BezierPiece) {
        segments += 1
        let degree = Double(curve.count - 1)
        // Pieces still to flatten, the next one last, each with its depth of halving: a stack kept between
        // curves, so that flattening allocates nothing per curve.
        pieces.removeAll(keepingCapacity: true)
        pieces.append((curve, 0))
        while let (piece, depth) = pieces.popLast() {
            let end = piece.end
            if curveVertices >= PathFlattener.maximumCurveVertices || !hullMeetsClip(piece) {
                append(end, insideCurve: !pieces.isEmpty)
                continue
            }
            let lines = (degree * (degree - 1) * piece.secondDifference / (8 * tolerance)).squareRoot().rounded(.up)
            if lines > Double(PathFlattener.linesPerPiece), depth < PathFlattener.maximumDepth {
                let (first, second) = piece.halves()
                pieces.append((second, depth + 1))
                pieces.append((first, depth + 1))
                continue
            }
            let count = max(1, min(Int(lines), PathFlattener.linesPerPiece))
            for step in 1..<count {
                append(piece.point(at: Double(step) / Double(count)), insideCurve: true)
            }
            append(end, insideCurve: !pieces.isEmpty)
            curveVertices += count
        }
    }

    /// Whether the control points' box meets the clip (else the piece, inside that box, cannot change a pixel's
    /// winding and its chord will do).
    private func hullMeetsClip(_ piece: BezierPiece) -> Bool {
        var (minX, minY, maxX, maxY) = (piece.p0.x, piece.p0.y, piece.p0.x, piece.p0.y)
        for i in 1..<piece.count {
            let point = piece[i]
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }
        return maxX > clip.minX && minX < clip.maxX && maxY > clip.minY && minY < clip.maxY
    }
}

/// A quadratic (`count` 3: p0, p1, p2) or cubic (4: p0…p3) Bézier in pixels, held in place rather than in an
/// array: the flattener makes and halves millions of them.
struct BezierPiece {
    typealias Vertex = (x: Double, y: Double)
    var p0, p1, p2, p3: Vertex
    let count: Int

    init(_ p0: Vertex, _ p1: Vertex, _ p2: Vertex) { (self.p0, self.p1, self.p2, self.p3, count) = (p0, p1, p2, p2, 3) }
    init(_ p0: Vertex, _ p1: Vertex, _ p2: Vertex, _ p3: Vertex) {
        (self.p0, self.p1, self.p2, self.p3, count) = (p0, p1, p2, p3, 4)
    }

    subscript(index: Int) -> Vertex {
        switch index {
        case 0: p0
        case 1: p1
        case 2: p2
        default: p3
        }
    }

    var end: Vertex { count == 3 ? p2 : p3 }

    /// maxᵢ |Pᵢ − 2Pᵢ₊₁ + Pᵢ₊₂|, for Wang's bound.
    var secondDifference: Double {
        func length(_ a: Vertex, _ b: Vertex, _ c: Vertex) -> Double {
            let (dx, dy) = (a.x - 2 * b.x + c.x, a.y - 2 * b.y + c.y)
            return (dx * dx + dy * dy).squareRoot()
        }
        let first = length(p0, p1, p2)
        return count == 3 ? first : max(first, length(p1, p2, p3))
    }

    /// The point at `t`, in Bernstein form.
    func point(at t: Double) -> Vertex {
        let s = 1 - t
        if count == 3 {
            let (a, b, c) = (s * s, 2 * s * t, t * t)
            return (a * p0.x + b * p1.x + c * p2.x, a * p0.y + b * p1.y + c * p2.y)
        }
        return (Path.cubic((p0.x, p1.x, p2.x, p3.x), at: t), Path.cubic((p0.y, p1.y, p2.y, p3.y), at: t))
    }

    /// The two halves at t = ½ (de Casteljau).
    func halves() -> (BezierPiece, BezierPiece) {
        func middle(_ a: Vertex, _ b: Vertex) -> Vertex { ((a.x + b.x) * 0.5, (a.y + b.y) * 0.5) }
        let (m01, m12) = (middle(p0, p1), middle(p1, p2))
        let m012 = middle(m01, m12)
        if count == 3 { return (BezierPiece(p0, m01, m012), BezierPiece(m012, m12, p2)) }
        let m23 = middle(p2, p3)
        let m123 = middle(m12, m23)
        let m0123 = middle(m012, m123)
        return (BezierPiece(p0, m01, m012, m0123), BezierPiece(m0123, m123, m23, p3))
    }
}
