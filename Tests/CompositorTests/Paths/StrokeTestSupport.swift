@testable import Compositor

/// Independent references for strokes: the shapes a stroke must equal, by closed form or from hand-built
/// polygons through the exact fill reference, and the stroke's coverage over a fixed box.
enum StrokeTestSupport {
    /// The stroke's coverage (0…255) over the whole of `box`, zero where it draws nothing.
    static func stroke(
        _ path: Path, style: StrokeStyle, transform: AffineTransform2D = .identity, box: PixelBox, threads: Int = 1
    ) -> [Double] {
        var result = [Double](repeating: 0, count: box.width * box.height)
        guard
            let (drawn, plane) = Coverage.stroke(path, style: style, through: transform, within: box, threads: threads)
        else { return result }
        for y in 0..<drawn.height {
            for x in 0..<drawn.width {
                result[(drawn.y - box.y + y) * box.width + drawn.x - box.x + x] = Double(plane[x, y])
            }
        }
        return result
    }

    /// The exact coverage (0…1) of a polygon given by its vertices, by the exact fill reference.
    static func polygonCoverage(_ vertices: [(Double, Double)], over box: PixelBox) -> [Double] {
        var polygon = FlattenedPath()
        polygon.xs = vertices.map(\.0)
        polygon.ys = vertices.map(\.1)
        polygon.ends = [vertices.count]
        return ReferencePathCoverage.exactCoverage(of: polygon, rule: .nonZero, over: box)
    }

    /// The area of the rectangle x0…x1 × y0…y1 inside each pixel of `box`, in closed form.
    static func rectangleCoverage(x0: Double, y0: Double, x1: Double, y1: Double, over box: PixelBox) -> [Double] {
        var result: [Double] = []
        for row in 0..<box.height {
            for column in 0..<box.width {
                let (left, top) = (Double(box.x + column), Double(box.y + row))
                let width = max(min(x1, left + 1) - max(x0, left), 0)
                let height = max(min(y1, top + 1) - max(y0, top), 0)
                result.append(width * height)
            }
        }
        return result
    }

    /// The capsule of points within `radius` of the horizontal segment (x0, y)…(x1, y), per pixel: each of
    /// `strips` horizontal strips of a pixel meets the capsule in one interval, found in closed form at the
    /// strip's middle (x0 − r′ … x1 + r′, r′ = √(r² − dy²)), and its overlap with the pixel is exact; only the
    /// midpoint rule in y errs, by well under a level at 256 strips.
    static func capsuleCoverage(
        x0: Double, x1: Double, y: Double, radius: Double, over box: PixelBox, strips: Int = 256
    ) -> [Double] {
        var result = [Double](repeating: 0, count: box.width * box.height)
        for row in 0..<box.height {
            for strip in 0..<strips {
                let stripY = Double(box.y + row) + (Double(strip) + 0.5) / Double(strips)
                let dy = stripY - y
                guard abs(dy) < radius else { continue }
                let reach = (radius * radius - dy * dy).squareRoot()
                let (from, to) = (x0 - reach, x1 + reach)
                for column in 0..<box.width {
                    let left = Double(box.x + column)
                    let overlap = max(min(to, left + 1) - max(from, left), 0)
                    result[row * box.width + column] += overlap / Double(strips)
                }
            }
        }
        return result
    }

    /// The largest and mean difference between a coverage in levels (0…255) and a reference (0…1), in levels.
    static func difference(_ levels: [Double], _ reference: [Double]) -> (maximum: Double, mean: Double) {
        precondition(levels.count == reference.count)
        let differences = zip(levels, reference).map { abs($0 - $1 * 255) }
        return (differences.max() ?? 0, differences.reduce(0, +) / Double(max(differences.count, 1)))
    }

    /// The sum of a coverage, in pixels (levels / 255).
    static func area(_ levels: [Double]) -> Double { levels.reduce(0, +) / 255 }
}
