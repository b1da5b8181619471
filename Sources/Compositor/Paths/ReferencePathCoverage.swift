/// The path rasteriser's scalar twin, for the tests: coverage of flattened polygons computed the plain way,
/// pixel by pixel, with nothing shared with `PathRasterizer` but the polygons. The winding sign is the
/// rasteriser's: a point gains +1 for each edge left of it going down (+y) and −1 for each going up.
enum ReferencePathCoverage {
    /// The integral of the winding number over each pixel of `box` (row by row), exactly up to rounding: every
    /// polygon clipped to the pixel's square by Sutherland–Hodgman, its signed area summed. Clipping by a
    /// half-plane keeps the winding of every point inside it, so this holds for any polygon, self-intersecting
    /// or not; where the winding inside a pixel is only 0 and ±1, its magnitude is the covered area.
    static func windingIntegrals(of polygons: FlattenedPath, over box: PixelBox) -> [Double] {
        var result = [Double](repeating: 0, count: max(box.width * box.height, 0))
        for polygon in polygons.polygons {
            let vertices = polygon.map { (x: polygons.xs[$0], y: polygons.ys[$0]) }
            for row in 0..<box.height {
                let top = Double(box.y + row)
                // The polygon's part in this row's slab, then each pixel's part of that.
                let slab = clip(clip(vertices, axis: .y, keepAbove: top), axis: .y, keepBelow: top + 1)
                guard slab.count >= 3 else { continue }
                let low = slab.map(\.x).min()!
                let high = slab.map(\.x).max()!
                let firstColumn = max(Int(low.rounded(.down)) - box.x, 0)
                let lastColumn = min(Int(high.rounded(.up)) - box.x, box.width - 1)
                guard firstColumn <= lastColumn else { continue }
                for column in firstColumn...lastColumn {
                    let left = Double(box.x + column)
                    let cell = clip(clip(slab, axis: .x, keepAbove: left), axis: .x, keepBelow: left + 1)
                    result[row * box.width + column] -= signedArea(cell)
                }
            }
        }
        return result
    }

    /// The coverage by `rule` from 64 × 64 (`samples`²) point samples per pixel, at the centres of a regular
    /// grid: the fraction of samples whose winding the rule counts as inside. A check on `exactCoverage` where
    /// windings of different sign or parity meet, which `windingIntegrals` cannot judge. Each sample row measures the
    /// inside length to 1/`samples` per edge crossing, and rows are at their centres (exact for a straight
    /// edge), so the error is at most about 1/`samples` per edge crossing the pixel and averages far less.
    static func sampledCoverage(
        of polygons: FlattenedPath, rule: FillRule, over box: PixelBox, samples: Int = 64
    ) -> [Double] {
        var result = [Double](repeating: 0, count: max(box.width * box.height, 0))
        let step = 1 / Double(samples)
        var crossings: [(x: Double, winding: Int)] = []
        for row in 0..<box.height {
            for sampleRow in 0..<samples {
                let y = Double(box.y + row) + (Double(sampleRow) + 0.5) * step
                crossings.removeAll(keepingCapacity: true)
                for polygon in polygons.polygons {
                    for i in polygon {
                        let j = i + 1 == polygon.upperBound ? polygon.lowerBound : i + 1
                        let (ax, ay, bx, by) = (polygons.xs[i], polygons.ys[i], polygons.xs[j], polygons.ys[j])
                        // Half-open in y, so a vertex on the sample row counts once.
                        guard (ay <= y && y < by) || (by <= y && y < ay) else { continue }
                        let x = ax + (y - ay) / (by - ay) * (bx - ax)
                        crossings.append((x, by > ay ? 1 : -1))
                    }
                }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                var next = 0
                for sampleColumn in 0..<(box.width * samples) {
                    let x = Double(box.x) + (Double(sampleColumn) + 0.5) * step
                    while next < crossings.count, crossings[next].x < x {
                        winding += crossings[next].winding
                        next += 1
                    }
                    let inside = rule == .nonZero ? winding != 0 : winding % 2 != 0
                    if inside { result[row * box.width + sampleColumn / samples] += step * step }
                }
            }
        }
        return result
    }

    private enum Axis { case x, y }

    /// Sutherland–Hodgman against one axis-aligned half-plane: coordinate ≥ `bound`.
    private static func clip(
        _ polygon: [(x: Double, y: Double)], axis: Axis, keepAbove bound: Double
    )
        -> [(x: Double, y: Double)]
    {
        clip(polygon, axis: axis) { $0 - bound }
    }

    /// Sutherland–Hodgman against coordinate ≤ `bound`.
    private static func clip(
        _ polygon: [(x: Double, y: Double)], axis: Axis, keepBelow bound: Double
    )
        -> [(x: Double, y: Double)]
    {
        clip(polygon, axis: axis) { bound - $0 }
    }

    /// Keeps the part where `inside(coordinate) ≥ 0`, adding the crossing points.
    private static func clip(
        _ polygon: [(x: Double, y: Double)], axis: Axis, inside: (Double) -> Double
    ) -> [(x: Double, y: Double)] {
        guard let last = polygon.last else { return [] }
        var result: [(x: Double, y: Double)] = []
        var previous = last
        var previousDistance = inside(axis == .x ? last.x : last.y)
        for point in polygon {
            let distance = inside(axis == .x ? point.x : point.y)
            if (distance >= 0) != (previousDistance >= 0) {
                let t = previousDistance / (previousDistance - distance)
                result.append((previous.x + t * (point.x - previous.x), previous.y + t * (point.y - previous.y)))
            }
            if distance >= 0 { result.append(point) }
            (previous, previousDistance) = (point, distance)
        }
        return result
    }

    /// The shoelace area, positive for a polygon clockwise on a y-down screen.
    private static func signedArea(_ polygon: [(x: Double, y: Double)]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var twice = 0.0
        var previous = polygon[polygon.count - 1]
        for point in polygon {
            twice += previous.x * point.y - point.x * previous.y
            previous = point
        }
        return twice / 2
    }
}
