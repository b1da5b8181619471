import TestSupport
import XCTest

@testable import Compositor

/// The fill rasteriser against its scalar twin (`ReferencePathCoverage`) and closed forms: exact area for any
/// polygon, self-crossings included, circles and arcs against the disc's area, slivers, clipping, hostile
/// coordinates, and the same bytes for every thread count.
/// Bounds are in levels of 255; each test states what it measured.
final class PathFillTests: XCTestCase {
    /// Exact area everywhere, crossings included: for random polygons (self-intersecting, reaching past every
    /// side of the box), the bytes are the exact coverage by the rule (`ReferencePathCoverage.exactCoverage`),
    /// rounded. Measured: max 0.4998 (the rounding alone).
    func testRandomPolygonsAgainstExactCoverage() {
        var random = SeededGenerator(seed: 30)
        let box = PixelBox(x: 0, y: 0, width: 40, height: 40)
        for trial in 0..<12 {
            var path = PathTestSupport.randomPolygon(count: 3 + trial, size: 60, random: &random)
            path = path.transformed(by: AffineTransform2D(translationX: -10, y: -10))
            PathTestSupport.assertExactByEveryRule(path, box: box, "trial \(trial)")
        }
    }

    /// Where the outline overlaps itself the summed area alone would mix windings (FreeType's and font-rs's
    /// min(|a|, 1) was up to 168 levels off here); the cells two chains touch are resolved exactly. Against the
    /// exact reference, three random heptagons with 1, 3 and 9 self-crossings: measured max 0.4995 (rounding);
    /// against 64 × 64 samples (the sampling's own error) max 0.81, mean 0.03.
    func testSelfIntersectionsAgainstExactAndSampledReferences() {
        var random = SeededGenerator(seed: 7)
        let box = PixelBox(x: 0, y: 0, width: 40, height: 40)
        for trial in 0..<3 {
            let path = PathTestSupport.randomPolygon(count: 7, size: 40, random: &random)
            for rule in FillRule.allCases {
                let (difference, plane, polygons) = PathTestSupport.differenceFromExact(
                    path, rule: rule, box: box)
                XCTAssertLessThanOrEqual(
                    difference.maximum, PathTestSupport.roundingBound, "trial \(trial), \(rule): \(difference)")
                let sampled = ReferencePathCoverage.sampledCoverage(of: polygons, rule: rule, over: box)
                let sampledDifference = PathTestSupport.Difference(plane, sampled)
                XCTAssertLessThanOrEqual(
                    sampledDifference.maximum, 1.5, "trial \(trial), \(rule): \(sampledDifference)")
                XCTAssertLessThanOrEqual(sampledDifference.mean, 0.05, "trial \(trial), \(rule): \(sampledDifference)")
            }
        }
    }

    /// The pentagram: its centre winds twice, filled by non-zero, a hole by even-odd. Against the exact
    /// reference: measured max 0.497 for both rules, the inner pentagon's corners (windings 0, 1 and 2 in one
    /// pixel, 73 and 146 levels off with the summed area alone) included; against 64 × 64 samples max 1.3.
    func testStarHolesByRule() {
        let star = PathTestSupport.star(points: 5, step: 2, center: Point(x: 24.3, y: 25.1), radius: 22)
        let box = PixelBox(x: 0, y: 0, width: 48, height: 48)
        let (nonZero, polygons) = PathTestSupport.rasterize(star, rule: .nonZero, box: box)
        let (evenOdd, _) = PathTestSupport.rasterize(star, rule: .evenOdd, box: box)
        XCTAssertEqual(nonZero[24, 25], 255)
        XCTAssertEqual(evenOdd[24, 25], 0)
        XCTAssertEqual(evenOdd[24, 8], 255)  // in the top point, wound once
        for (rule, plane) in [(FillRule.nonZero, nonZero), (.evenOdd, evenOdd)] {
            let exact = ReferencePathCoverage.exactCoverage(of: polygons, rule: rule, over: box)
            let difference = PathTestSupport.Difference(plane, exact)
            XCTAssertLessThanOrEqual(difference.maximum, PathTestSupport.roundingBound, "\(rule): \(difference)")
        }
    }

    /// Circles against the disc's closed-form area, at the default tolerance (0.02 px: the chords lie inside,
    /// by up to 5.1 levels, plus 0.5 for rounding). Measured, radii 0.7, 3.3, 10.25 and 47.6 with fractional
    /// centres: max 1.6, 2.6, 3.5 and 5.0; mean over the edge pixels 1.1, 1.7, 1.9 and 2.1.
    func testCirclesAgainstClosedFormArea() {
        for (radius, centerX, centerY) in [(0.7, 5.3, 4.9), (3.3, 6.5, 6.25), (10.25, 15.1, 14.8), (47.6, 50.2, 49.7)] {
            var path = Path()
            path.addEllipse(in: Rect(x: centerX - radius, y: centerY - radius, width: 2 * radius, height: 2 * radius))
            let box = PixelBox(x: 0, y: 0, width: Int(2 * centerX) + 1, height: Int(2 * centerY) + 1)
            let (plane, _) = PathTestSupport.rasterize(path, box: box)
            let exact = PathTestSupport.discCoverage(center: Point(x: centerX, y: centerY), radius: radius, over: box)
            let difference = PathTestSupport.Difference(plane, exact)
            XCTAssertLessThanOrEqual(difference.maximum, 5.6, "radius \(radius): \(difference)")
            XCTAssertLessThanOrEqual(difference.edgeMean, 2.5, "radius \(radius): \(difference)")
        }
    }

    /// SVG arcs drawn as a circle, at scale 1 and at scale 3 (flattened after the transform, so equally close):
    /// measured max 3.4 / edge mean 1.9 at scale 1 (radius 10 px), max 4.9 / edge mean 2.2 at scale 3.
    func testSVGArcsAgainstClosedFormCircleAtTwoScales() throws {
        let circle = try Path(svgPathData: "M 0 10 A 10 10 0 1 0 20 10 A 10 10 0 1 0 0 10 Z")
        for scale in [1.0, 3.0] {
            let transform = AffineTransform2D(scaleX: scale, y: scale).concatenating(.init(translationX: 2.3, y: 1.6))
            let size = Int(20 * scale) + 5
            let box = PixelBox(x: 0, y: 0, width: size, height: size)
            let (plane, _) = PathTestSupport.rasterize(circle, transform: transform, box: box)
            let center = Point(x: 10 * scale + 2.3, y: 10 * scale + 1.6)
            let exact = PathTestSupport.discCoverage(center: center, radius: 10 * scale, over: box)
            let difference = PathTestSupport.Difference(plane, exact)
            XCTAssertLessThanOrEqual(difference.maximum, 5.6, "scale \(scale): \(difference)")
            XCTAssertLessThanOrEqual(difference.edgeMean, 2.5, "scale \(scale): \(difference)")
        }
    }

    /// Slivers far thinner than a pixel keep their area: a bar 0.1 px wide covers 25.5 levels of each pixel it
    /// crosses, a needle of 0.02 px its exact share. Measured max 0.5 (rounding) against the exact integral.
    func testThinSlivers() {
        var bar = Path()
        bar.addRect(Rect(x: 10.45, y: 2, width: 0.1, height: 30))
        var needle = Path()
        needle.move(to: Point(x: 2, y: 5.5))
        needle.line(to: Point(x: 38, y: 5.5))
        needle.line(to: Point(x: 38, y: 5.52))
        needle.close()
        let box = PixelBox(x: 0, y: 0, width: 40, height: 40)
        for path in [bar, needle] {
            let (plane, polygons) = PathTestSupport.rasterize(path, box: box)
            let exact = ReferencePathCoverage.windingIntegrals(of: polygons, over: box).map { min(abs($0), 1) }
            let difference = PathTestSupport.Difference(plane, exact)
            XCTAssertLessThanOrEqual(difference.maximum, PathTestSupport.roundingBound, "\(difference)")
        }
        let (barPlane, _) = PathTestSupport.rasterize(bar, box: box)
        XCTAssertTrue([25, 26].contains(barPlane[10, 10]))
        XCTAssertEqual(barPlane[11, 10], 0)
    }

    /// Outlines reaching past the clip: parts left of it add their winding along its left side, parts right of
    /// it, above and below are dropped; a path wholly outside has no box. Exact against the integral (max 0.5).
    func testPathsPartlyAndWhollyOutsideTheClip() throws {
        let clip = PixelBox(x: 10, y: 10, width: 30, height: 20)
        var wedge = Path()
        wedge.move(to: Point(x: -500, y: -200))
        wedge.line(to: Point(x: 25.5, y: 20.25))
        wedge.line(to: Point(x: -500, y: 245))
        wedge.close()
        wedge.addRect(Rect(x: 30.5, y: -100, width: 1000, height: 115.5))
        let (box, plane) = try XCTUnwrap(Coverage.path(wedge, rule: .nonZero, through: .identity, within: clip))
        XCTAssertEqual(box, clip)
        let polygons = try XCTUnwrap(
            PathFlattener.flatten(wedge, through: .identity, tolerance: 0.02, clip: (10, 10, 40, 30)))
        let exact = ReferencePathCoverage.windingIntegrals(of: polygons, over: box).map { min(abs($0), 1) }
        XCTAssertLessThanOrEqual(PathTestSupport.Difference(plane, exact).maximum, PathTestSupport.roundingBound)
        XCTAssertEqual(plane[0, 10], 255)  // inside the wedge, whose left corners are 510 px outside
        XCTAssertEqual(plane[0, 0], 0)
        var everything = Path()
        everything.addRect(Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9))
        let (fullBox, full) = try XCTUnwrap(Coverage.path(everything, rule: .evenOdd, through: .identity, within: clip))
        XCTAssertEqual(fullBox, clip)
        full.withUnsafeBytes { XCTAssertTrue($0.allSatisfy { $0 == 255 }) }
        var outside = Path()
        outside.addEllipse(in: Rect(x: 100, y: 100, width: 10, height: 10))
        XCTAssertNil(Coverage.path(outside, rule: .nonZero, through: .identity, within: clip))
    }

    /// Hostile geometry draws nothing (NaN, beyond 10¹⁵ px) or only its part near the image (control points
    /// 10¹⁴ px away), and leaves the image as it was when refused.
    func testHugeAndNonFiniteCoordinates() {
        let image = Image(width: 20, height: 20, fill: Pixel(red: 0, green: 0, blue: 255))
        for x in [Double.nan, 1e300, -.infinity] {
            var path = Path()
            path.addRect(Rect(x: 2, y: 2, width: 10, height: 10))
            path.line(to: Point(x: x, y: 5))
            image.fill(path, color: .white)
            XCTAssertEqual(image[5, 5], Pixel(red: 0, green: 0, blue: 255), "\(x)")
        }
        var loop = Path()
        loop.move(to: Point(x: 5, y: 5))
        loop.curve(to: Point(x: 15, y: 15), control1: Point(x: 1e14, y: -1e14), control2: Point(x: -1e14, y: 1e14))
        loop.close()
        image.fill(loop, color: .white)  // finishes at once; the pixels are whatever the far curve leaves
        XCTAssertTrue(image[0, 0] == Pixel(red: 0, green: 0, blue: 255) || image[0, 0].alpha == 255)
    }

    /// Nothing to fill draws nothing (an empty path, a lone move, a line, a polygon of no area, an empty image);
    /// an open subpath is filled as if closed, as SVG and Core Graphics fill.
    func testDegenerateInputsAndOpenSubpaths() throws {
        let clip = PixelBox(x: 0, y: 0, width: 20, height: 20)
        var lone = Path()
        lone.move(to: Point(x: 5, y: 5))
        var line = lone
        line.line(to: Point(x: 15, y: 15))
        var flat = line
        flat.line(to: Point(x: 25, y: 25))
        flat.close()
        for path in [Path(), lone, line] {
            XCTAssertNil(Coverage.path(path, rule: .nonZero, through: .identity, within: clip))
        }
        let (_, flatPlane) = try XCTUnwrap(Coverage.path(flat, rule: .nonZero, through: .identity, within: clip))
        flatPlane.withUnsafeBytes { XCTAssertTrue($0.allSatisfy { $0 == 0 }) }
        XCTAssertNil(
            Coverage.path(flat, rule: .nonZero, through: .identity, within: PixelBox(x: 0, y: 0, width: 0, height: 5)))
        Image(width: 0, height: 0).fill(flat, color: .white)
        var open = Path()
        open.move(to: Point(x: 2, y: 3))
        open.line(to: Point(x: 17.5, y: 6))
        open.line(to: Point(x: 8, y: 18.2))
        var closed = open
        closed.close()
        let (openBox, openPlane) = try XCTUnwrap(Coverage.path(open, rule: .nonZero, through: .identity, within: clip))
        let (closedBox, closedPlane) = try XCTUnwrap(
            Coverage.path(closed, rule: .nonZero, through: .identity, within: clip))
        XCTAssertEqual(openBox, PixelBox(x: 2, y: 3, width: 16, height: 16))
        XCTAssertEqual(openBox, closedBox)
        XCTAssertEqual(openPlane.withUnsafeBytes { Array($0) }, closedPlane.withUnsafeBytes { Array($0) })
    }

    /// Bands on 1, 2, 3 and 7 threads: the same bytes, for both rules, on a box large enough to be threaded.
    func testSameBytesForEveryThreadCount() {
        var random = SeededGenerator(seed: 99)
        var path = PathTestSupport.randomPolygon(count: 60, size: 700, random: &random)
        path.addEllipse(in: Rect(x: 100.3, y: 90.7, width: 420.5, height: 380.2))
        let box = PixelBox(x: 0, y: 0, width: 700, height: 700)
        for rule in FillRule.allCases {
            let single = PathTestSupport.rasterize(path, rule: rule, box: box, threads: 1).plane
            let bytes = single.withUnsafeBytes { Array($0) }
            XCTAssertGreaterThan(Set(bytes).count, 200)  // a real picture: edges at every level
            for threads in [2, 3, 7] {
                let plane = PathTestSupport.rasterize(path, rule: rule, box: box, threads: threads).plane
                XCTAssertEqual(plane.withUnsafeBytes { Array($0) }, bytes, "\(rule), \(threads) threads")
            }
        }
    }

    /// The public entry point: a colour through the coverage, in the transform's pixels, with the operator
    /// acting only where the path covers.
    func testImageFillPath() {
        let image = Image(width: 12, height: 12)
        var square = Path()
        square.addRect(Rect(x: 1.25, y: 1.25, width: 2.5, height: 2.5))
        image.fill(square, color: RGBAColor(red: 1, green: 0, blue: 0), transform: AffineTransform2D(scaleX: 2, y: 2))
        XCTAssertEqual(image[5, 5], Pixel(red: 255, green: 0, blue: 0, alpha: 255))
        XCTAssertEqual(Int(image[2, 5].alpha), 128, accuracy: 1)  // half of the column is inside
        XCTAssertEqual(Int(image[2, 2].alpha), 64, accuracy: 1)  // a quarter of the corner pixel
        XCTAssertEqual(image[8, 8], Pixel.transparent)
        XCTAssertEqual(image[7, 5].alpha, 128)
        // `copy` replaces what the path covers and nothing else, even inside its box.
        let backdrop = Image(width: 12, height: 12, fill: Pixel(red: 0, green: 0, blue: 255))
        var disc = Path()
        disc.addEllipse(in: Rect(x: 0, y: 0, width: 12, height: 12))
        backdrop.fill(disc, color: RGBAColor(red: 0, green: 1, blue: 0), operator: .copy, opacity: 0.5)
        XCTAssertEqual(backdrop[0, 0], Pixel(red: 0, green: 0, blue: 255))
        XCTAssertEqual(backdrop[6, 6], Pixel(red: 0, green: 128, blue: 0, alpha: 128))
    }
}
