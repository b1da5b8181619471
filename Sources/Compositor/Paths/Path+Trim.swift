extension Path {
    /// The first `fraction` (0…1) of this path by length, as `CAShapeLayer.strokeEnd` draws a stroke: subpaths in
    /// order, curves flattened to `tolerance` path units, a closed subpath cut short left open. 1 (or more) is the
    /// path itself; 0 or less, or NaN, an empty path.
    public func trimmed(to fraction: Double, tolerance: Double) -> Path {
        guard fraction < 1 else { return self }
        guard fraction > 0 else { return Path() }
        let everywhere = (minX: -Double.infinity, minY: -Double.infinity, maxX: Double.infinity, maxY: Double.infinity)
        guard let flat = PathFlattener.polylines(self, tolerance: tolerance, clip: everywhere) else { return Path() }
        var pieces: [(points: [Point], closed: Bool)] = []
        var total = 0.0
        for (index, range) in flat.polygons.enumerated() {
            var points = range.map { Point(x: flat.xs[$0], y: flat.ys[$0]) }
            let closed = index < flat.closed.count && flat.closed[index]
            if closed, let first = points.first { points.append(first) }
            for i in points.indices.dropFirst() { total += points[i].distance(to: points[i - 1]) }
            pieces.append((points, closed))
        }
        var left = total * fraction
        var result = Path()
        for piece in pieces {
            guard left > 0, let first = piece.points.first else { break }
            result.move(to: first)
            var whole = true
            for i in piece.points.indices.dropFirst() {
                let (a, b) = (piece.points[i - 1], piece.points[i])
                let length = b.distance(to: a)
                if length >= left {
                    let t = length > 0 ? left / length : 0
                    result.line(to: Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                    left = 0
                    whole = false
                    break
                }
                result.line(to: b)
                left -= length
            }
            if whole && piece.closed { result.close() }
        }
        return result
    }
}

extension Point {
    fileprivate func distance(to other: Point) -> Double {
        let (dx, dy) = (x - other.x, y - other.y)
        return (dx * dx + dy * dy).squareRoot()
    }
}
