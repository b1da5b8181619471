import TestSupport
import XCTest

@testable import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the path tests share: the closed-form area of a disc over a pixel, the difference between a coverage
/// plane and a reference, and seeded shapes.
enum PathTestSupport {
    /// The area of the disc (`center`, `radius`) inside the rectangle x0…x1 × y0…y1, in closed form: the
    /// integral over x of the chord's overlap with y0…y1, cut where the overlap changes formula (the disc's
    /// sides, and where its outline crosses y0 and y1), each piece integrated with the antiderivative of
    /// √(r² − u²), ½(u√(r² − u²) + r²·asin(u/r)).
    static func discArea(
        center: Point, radius r: Double, x0: Double, y0: Double, x1: Double, y1: Double
    ) -> Double {
        func halfChord(_ x: Double) -> Double { max(r * r - (x - center.x) * (x - center.x), 0).squareRoot() }
        func antiderivative(_ x: Double) -> Double {
            let u = min(max(x - center.x, -r), r)
            return 0.5 * (u * (r * r - u * u).squareRoot() + r * r * asin(u / r))
        }
        var cuts = [x0, x1, center.x - r, center.x + r]
        for y in [y0, y1] where abs(y - center.y) < r {
            let reach = (r * r - (y - center.y) * (y - center.y)).squareRoot()
            cuts += [center.x - reach, center.x + reach]
        }
        let sorted = cuts.filter { $0 >= x0 && $0 <= x1 }.sorted()
        var area = 0.0
        for (a, b) in zip(sorted, sorted.dropFirst()) where b > a {
            let middle = (a + b) / 2
            let h = halfChord(middle)
            guard abs(middle - center.x) < r else { continue }
            let topIsOutline = center.y - h > y0  // the piece's upper end follows the circle, else y0
            let bottomIsOutline = center.y + h < y1
            guard min(y1, center.y + h) > max(y0, center.y - h) else { continue }
            let circle = antiderivative(b) - antiderivative(a)  // ∫ h
            let upper = topIsOutline ? center.y * (b - a) - circle : y0 * (b - a)
            let lower = bottomIsOutline ? center.y * (b - a) + circle : y1 * (b - a)
            area += lower - upper
        }
        return area
    }

    /// The coverage (0…1) of the disc over each pixel of `box`, row by row.
    static func discCoverage(center: Point, radius: Double, over box: PixelBox) -> [Double] {
        var result: [Double] = []
        for row in 0..<box.height {
            for column in 0..<box.width {
                let x = Double(box.x + column)
                let y = Double(box.y + row)
                result.append(discArea(center: center, radius: radius, x0: x, y0: y, x1: x + 1, y1: y + 1))
            }
        }
        return result
    }

    /// How far a plane's bytes are from reference coverages (0…1), in levels of 255: the largest difference, the
    /// mean over every pixel, and the mean over the edge pixels (reference strictly between 0 and 1).
    struct Difference: CustomStringConvertible {
        var maximum = 0.0
        var mean = 0.0
        var edgeMean = 0.0

        init(_ plane: Plane, _ reference: [Double]) {
            precondition(reference.count == plane.width * plane.height)
            var total = 0.0
            var edgeTotal = 0.0
            var edges = 0
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    let expected = reference[y * plane.width + x]
                    let difference = abs(Double(plane[x, y]) - expected * 255)
                    maximum = max(maximum, difference)
                    total += difference
                    if expected > 1e-9, expected < 1 - 1e-9 {
                        edgeTotal += difference
                        edges += 1
                    }
                }
            }
            mean = total / Double(max(reference.count, 1))
            edgeMean = edgeTotal / Double(max(edges, 1))
        }

        var description: String { "max \(maximum), mean \(mean), edge mean \(edgeMean) (levels of 255)" }
    }

    /// A closed polygon of `count` vertices at seeded random positions in 0…size × 0…size (with fractions):
    /// self-intersecting more often than not.
    static func randomPolygon(count: Int, size: Double, random: inout SeededGenerator) -> Path {
        func coordinate() -> Double { Double(random.next() % 1_000_000) / 1_000_000 * size }
        var path = Path()
        path.move(to: Point(x: coordinate(), y: coordinate()))
        for _ in 1..<count { path.line(to: Point(x: coordinate(), y: coordinate())) }
        path.close()
        return path
    }

    /// A regular star polygon {points/step} about `center`, e.g. {5/2}, the pentagram, whose centre winds
    /// twice: filled by non-zero, a hole by even-odd.
    static func star(points: Int, step: Int, center: Point, radius: Double) -> Path {
        var path = Path()
        for i in 0..<points {
            let angle = -Double.pi / 2 + 2 * Double.pi * Double(i * step % points) / Double(points)
            let point = Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if i == 0 { path.move(to: point) } else { path.line(to: point) }
        }
        path.close()
        return path
    }

    /// `path` rasterised by `rule` over `box` and its difference from the exact area reference of the same
    /// flattened polygons, with the plane and polygons for further comparisons.
    static func differenceFromExact(
        _ path: Path, rule: FillRule, box: PixelBox
    ) -> (difference: Difference, plane: Plane, polygons: FlattenedPath) {
        let (plane, polygons) = rasterize(path, rule: rule, box: box)
        let exact = ReferencePathCoverage.exactCoverage(of: polygons, rule: rule, over: box)
        return (Difference(plane, exact), plane, polygons)
    }

    /// How far a rasterised pixel may be from the exact area, in levels: half a level for rounding to a byte, and
    /// the cells' fixed point (`BT_PATH_CELL_ONE`), each piece of an edge rounded to 2⁻¹⁷ of a pixel (0.002 of a
    /// level) where it is deposited: with a few pieces in a row, 0.5024 was the most measured.
    static let roundingBound = 0.51

    /// Asserts that `path` filled by each rule over `box` is within `roundingBound` of the exact area reference
    /// everywhere; `label` names the case in a failure.
    static func assertExactByEveryRule(
        _ path: Path, box: PixelBox, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for rule in FillRule.allCases {
            let difference = differenceFromExact(path, rule: rule, box: box).difference
            XCTAssertLessThanOrEqual(
                difference.maximum, roundingBound, "\(label), \(rule): \(difference)", file: file, line: line)
        }
    }

    /// The coverage of `path` through `transform` over `box` (the whole box, not the outline's part of it).
    static func rasterize(
        _ path: Path, rule: FillRule = .nonZero, transform: AffineTransform2D = .identity, box: PixelBox,
        threads: Int = 1
    ) -> (plane: Plane, polygons: FlattenedPath) {
        let polygons = PathFlattener.flatten(
            path, through: transform, tolerance: Path.defaultFlatteningTolerance,
            clip: (Double(box.x), Double(box.y), Double(box.x + box.width), Double(box.y + box.height)))!
        return (PathRasterizer.coverage(of: polygons, rule: rule, over: box, threads: threads), polygons)
    }
}
