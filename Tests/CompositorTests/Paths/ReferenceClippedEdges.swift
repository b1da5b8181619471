import CKernels

@testable import Compositor

/// The Swift twin of `bt_path_clip_edges`: a path's polygons cut to a box into the rasteriser's edges, the same
/// steps in the same order (`PathRasterizer.Scratch.clipEdges` says what they are and why).
enum ReferenceClippedEdges {
    typealias Edge = PathRasterizer.Edge

    /// The polygons' edges in the box's pixels (origin at its top-left corner), cut to it.
    static func clippedEdges(_ polygons: FlattenedPath, to box: PixelBox) -> [Edge] {
        var edges: [Edge] = []
        let (left, top) = (Double(box.x), Double(box.y))
        let (width, height) = (Double(box.width), Double(box.height))
        var chain: Int32 = 0
        var start = 0
        for end in polygons.ends {
            // A new chain at each polygon and wherever the direction in y turns; each polygon is walked from a
            // vertex where it turns, so that its first and last chains are not one chain cut in two.
            chain &+= 1
            var goingDown: Bool?
            var j = turningVertex(polygons, start..<end)
            for _ in start..<end {
                let i = j
                j = i + 1 == end ? start : i + 1
                let a = (polygons.xs[i] - left, polygons.ys[i] - top)
                let b = (polygons.xs[j] - left, polygons.ys[j] - top)
                if a.1 != b.1 {
                    let down = b.1 > a.1
                    if let goingDown, goingDown != down { chain &+= 1 }
                    goingDown = down
                    // Most edges of a path lie wholly inside its own box: kept as they are.
                    if min(a.0, b.0) >= 0, max(a.0, b.0) < width, min(a.1, b.1) >= 0, max(a.1, b.1) <= height {
                        edges.append(
                            down
                                ? Edge(x0: a.0, y0: a.1, x1: b.0, y1: b.1, winding: 1, chain: chain)
                                : Edge(x0: b.0, y0: b.1, x1: a.0, y1: a.1, winding: -1, chain: chain))
                        continue
                    }
                }
                addEdge(from: a, to: b, width: width, height: height, chain: chain, into: &edges)
            }
            start = end
        }
        return edges
    }

    /// The first vertex of `polygon` (indices into `polygons`) where the outline turns in y (its edge before and
    /// its edge after, horizontal ones skipped, go opposite ways), or its start when it never turns.
    private static func turningVertex(_ polygons: FlattenedPath, _ polygon: Range<Int>) -> Int {
        var lastDown: Bool?
        // Around once and on to the first turn: the edge before the start is the polygon's last.
        var i = polygon.lowerBound
        for _ in 0..<(2 * polygon.count) {
            let j = i + 1 == polygon.upperBound ? polygon.lowerBound : i + 1
            let (a, b) = (polygons.ys[i], polygons.ys[j])
            if a != b {
                if let lastDown, lastDown != (b > a) { return i }
                lastDown = b > a
            }
            i = j
        }
        return polygon.lowerBound
    }

    /// One polygon edge cut to 0…width × 0…height: split where it crosses x = 0 and x = width, the parts right
    /// of the box dropped (a pixel's coverage depends only on edges left of its right side) and the parts left
    /// of it moved onto x = 0 (the same winding for every pixel of those rows).
    private static func addEdge(
        from a: (x: Double, y: Double), to b: (x: Double, y: Double), width: Double, height: Double, chain: Int32,
        into edges: inout [Edge]
    ) {
        guard a.y != b.y else {
            // A horizontal edge adds no area but parts windings above and below it; it is kept, with winding 0,
            // for its cells' chain stamps only, where it runs through a row (not along a row's boundary).
            let (from, to) = (min(max(a.x, 0), width), min(max(b.x, 0), width))
            if a.y > 0, a.y < height, a.y != a.y.rounded(.down), from != to {
                edges.append(Edge(x0: from, y0: a.y, x1: to, y1: a.y, winding: 0, chain: chain))
            }
            return
        }
        let (upper, lower) = a.y < b.y ? (a, b) : (b, a)
        let whole = Edge(
            x0: upper.x, y0: upper.y, x1: lower.x, y1: lower.y, winding: a.y < b.y ? 1 : -1, chain: chain)
        guard lower.y > 0, upper.y < height, upper.x < width || lower.x < width else { return }
        let (y0, y1) = (max(upper.y, 0), min(lower.y, height))
        // The heights where the edge crosses the box's sides, in order, within y0…y1.
        func crossing(_ x: Double) -> Double? {
            guard (upper.x - x) * (lower.x - x) < 0 else { return nil }
            let y = upper.y + (x - upper.x) / (lower.x - upper.x) * (lower.y - upper.y)
            return y > y0 && y < y1 ? y : nil
        }
        var cuts = (crossing(0) ?? y1, crossing(width) ?? y1)
        if cuts.0 > cuts.1 { cuts = (cuts.1, cuts.0) }
        for part in 0..<3 {
            let (from, to) = part == 0 ? (y0, cuts.0) : part == 1 ? (cuts.0, cuts.1) : (cuts.1, y1)
            guard to > from else { continue }
            let middle = whole.x(at: (from + to) / 2)
            if middle >= width { continue }
            if middle <= 0 {
                edges.append(Edge(x0: 0, y0: from, x1: 0, y1: to, winding: whole.winding, chain: chain))
            } else {
                let x0 = min(max(whole.x(at: from), 0), width)
                let x1 = min(max(whole.x(at: to), 0), width)
                edges.append(Edge(x0: x0, y0: from, x1: x1, y1: to, winding: whole.winding, chain: chain))
            }
        }
    }
}
