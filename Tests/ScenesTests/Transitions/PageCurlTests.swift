@testable import Compositor
@testable import Scenes
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `PageCurl`: exact ends, thread invariance, the kernel's twin, a Double evaluation of the mapping, and what shows
/// where (the back on the fold, the shadow and the uncovered page behind the roll).
final class PageCurlTests: XCTestCase {
    // Odd sizes: SIMD tails and runs that do not divide the row.
    let page = TestImages.randomPremultiplied(width: 141, height: 53, seed: 31)
    let curls = [
        PageCurl(progress: 0.3), PageCurl(progress: 0.62, direction: .down),
        PageCurl(progress: 0.45, angle: -0.4, radius: 0.25), PageCurl(progress: 0.8, direction: .down, angle: 0.9),
    ]

    func testProgressZeroIsThePageToTheBitAndOneIsTransparent() {
        for direction in PageCurl.Direction.allCases {
            for progress in [0, -2, -Double.infinity, .nan] {
                let curl = PageCurl(progress: progress, direction: direction)
                XCTAssertTrue(curl.curled(page, threads: 2).hasSamePixels(as: page), "\(direction) \(progress)")
            }
            let clear = Image(width: page.width, height: page.height)
            for progress in [1, 1.5, .infinity] {
                let curl = PageCurl(progress: progress, direction: direction)
                XCTAssertTrue(curl.curled(page, threads: 2).hasSamePixels(as: clear), "\(direction) \(progress)")
            }
            // Just short of the end: nothing of the page, its roll or its shadow is left either.
            let almost = PageCurl(progress: 0.999, direction: direction).curled(page, threads: 2)
            XCTAssertTrue(almost.hasSamePixels(as: clear), "\(direction)")
        }
    }

    func testEveryThreadCountDrawsTheSamePixels() {
        for curl in curls {
            let one = curl.curled(page, threads: 1)
            for threads in [2, 3, 8] {
                XCTAssertTrue(curl.curled(page, threads: threads).hasSamePixels(as: one), "\(curl) \(threads)")
            }
        }
    }

    func testRunsThatSkipTheMappingDrawWhatTheMappingWould() {
        for curl in curls + [PageCurl(progress: 0.05), PageCurl(progress: 0.9, direction: .down)] {
            let curled = curl.curled(page, threads: 2)
            let geometry = CurlGeometry(curl, width: page.width, height: page.height)!
            let padded = Image(width: page.width + 1, height: page.height + 1)
            for y in 0...page.height {
                padded.region(x: 0, y: y, width: page.width, height: 1).copyPixels(
                    from: page.region(x: 0, y: min(y, page.height - 1), width: page.width, height: 1))
                padded[page.width, y] = page[page.width - 1, min(y, page.height - 1)]
            }
            var kinds: Set<String> = []
            for y in 0..<page.height {
                for x in 0..<page.width {
                    kinds.insert("\(geometry.kind(x: x, y: y))")
                    // Every pixel through the whole mapping, one at a time.
                    let point = geometry.point(x: x, y: y)
                    var samples = [geometry.sample(padded, at: point.back), geometry.sample(padded, at: point.front)]
                    var planes = CurlGeometry.weights(of: point)
                    let pixel = Image(width: 1, height: 1)
                    withUnsafeMutableBytes(of: &planes) { planes in
                        let weights = PageCurlKernels.Weights(
                            base: planes.baseAddress!.assumingMemoryBound(to: UInt32.self), count: 1)
                        ScalarPageCurlKernels.layer(
                            back: &samples[0], front: &samples[1], weights: weights, offset: 0, count: 1,
                            into: pixel.row(0))
                    }
                    XCTAssertEqual(curled[x, y], pixel[0, 0], "\(curl) at \(x), \(y)")
                }
            }
            if curl.progress == 0.05 { XCTAssertTrue(kinds.contains("flat"), "a flat run") }
            if curl.progress == 0.9 { XCTAssertTrue(kinds.contains("gone"), "a run behind the roll") }
        }
    }

    func testTheLayeringKernelEqualsItsScalarTwinToTheBit() {
        var random = SeededGenerator(seed: 5)
        let count = 75
        let samples = (0..<(2 * count)).map { _ in
            let alpha = UInt32.random(in: 0...255, using: &random)
            return (0..<3).reduce(alpha << 24) { $0 | UInt32.random(in: 0...alpha, using: &random) << ($1 * 8) }
        }
        var planes = [UInt32](repeating: 0, count: PageCurlKernels.Weights.planes * count)
        for k in 0..<count {
            let back = UInt32.random(in: 0...256, using: &random)
            let front = UInt32.random(in: 0...(256 - back), using: &random)
            let shadow = UInt32.random(in: 0...(256 - back - front), using: &random)
            let colour = UInt32.random(in: 0...back, using: &random)
            let values = [
                colour, UInt32.random(in: 0...(back - colour), using: &random), back,
                UInt32.random(in: 0...front, using: &random), front, shadow,
            ]
            for (plane, value) in values.enumerated() { planes[plane * count + k] = value }
        }
        let fast = Image(width: count, height: 1)
        let slow = Image(width: count, height: 1)
        planes.withUnsafeMutableBufferPointer { planes in
            let weights = PageCurlKernels.Weights(base: planes.baseAddress!, count: count)
            samples.withUnsafeBufferPointer { samples in
                let (back, front) = (samples.baseAddress!, samples.baseAddress! + count)
                PageCurlKernels.layer(back: back, front: front, weights: weights, count: count, into: fast.row(0))
                ScalarPageCurlKernels.layer(
                    back: back, front: front, weights: weights, offset: 0, count: count, into: slow.row(0))
            }
        }
        XCTAssertTrue(fast.hasSamePixels(as: slow))
        // Premultiplied in, premultiplied out: no colour above its alpha.
        for x in 0..<count {
            let pixel = fast[x, 0]
            XCTAssertLessThanOrEqual(max(pixel.red, pixel.green, pixel.blue), pixel.alpha, "at \(x)")
        }
    }

    /// Bound of the fixed-point curl against the Double evaluation: positions rounded to 1/256 of a pixel, bilinear
    /// and layering weights in 1/256, each result rounded once (1.71 levels at worst on these pages).
    static let referenceBound = 2.0

    func testTheCurlFollowsADoubleEvaluationOfTheMapping() {
        let smooth = TestImages.photoLike(width: 141, height: 53, seed: 32)
        for source in [page, smooth] {
            for curl in curls {
                let curled = curl.curled(source, threads: 2)
                var worst = 0.0
                for y in 0..<source.height {
                    for x in 0..<source.width {
                        let expected = PageCurlReference(curl, page: source).pixel(x: x, y: y)
                        let got = curled[x, y]
                        let values = [got.red, got.green, got.blue, got.alpha].map(Double.init)
                        for c in 0..<4 { worst = max(worst, abs(values[c] - expected[c])) }
                    }
                }
                XCTAssertLessThanOrEqual(worst, PageCurlTests.referenceBound, "\(curl)")
            }
        }
    }

    func testTheFoldShowsTheBackOfThePageAndTheRollItsShadow() {
        // Red above row 30, blue below; a level curl up of radius 4 with its axis 30 pixels above the bottom edge.
        let width = 40
        let height = 60
        let page = Image(width: width, height: height, fill: Pixel(red: 200, green: 0, blue: 0))
        page.region(x: 0, y: 30, width: width, height: 30).copyPixels(
            from: Image(width: width, height: 30, fill: Pixel(red: 0, green: 0, blue: 200)))
        let radius = 4.0
        let travel = Double(height) + radius + max(radius, 2) + 1  // to the top edge, past the roll and shadow
        let curl = PageCurl(progress: 30 / travel, angle: 0, radius: radius / Double(width))
        let curled = curl.curled(page, threads: 2)
        // Row 24's centre lies 5.5 ahead of the axis: under the fold, whose page there lies πr + 5.5 behind the
        // axis, at y = 60 − (30 − πr − 5.5) = 48.07: the blue part's back, greyed as paper, over the red front.
        let back = curled[20, 24]
        let paper = CurlGeometry.paperGrey * (1 - CurlGeometry.backShare) * 255
        XCTAssertEqual(Double(back.blue), 200 * CurlGeometry.backShare + paper, accuracy: 1.5)
        XCTAssertEqual(Double(back.red), paper, accuracy: 1.5)
        XCTAssertEqual(back.alpha, 255)
        // Row 10 is ahead of the fold: the flat front, exactly.
        XCTAssertEqual(curled[20, 10], page[20, 10])
        // Row 34's centre is 4.5 behind the axis, half a pixel past the roll: only its shadow, black.
        let shadow = curled[20, 34]
        let expected = CurlGeometry.shadowOpacity * (1 - 0.5 / 4) * (1 - 0.5 / 4) * 255
        XCTAssertEqual(Double(shadow.alpha), expected, accuracy: 1)
        XCTAssertEqual([shadow.red, shadow.green, shadow.blue], [0, 0, 0])
        // Row 59 lies far behind the roll: the page is gone there.
        XCTAssertEqual(curled[20, 59], Pixel(red: 0, green: 0, blue: 0, alpha: 0))
    }

    func testHostileParametersAreClamped() {
        let hostile = PageCurl(progress: 0.5, angle: .nan, radius: .infinity)
        XCTAssertTrue(
            hostile.curled(page, threads: 2).hasSamePixels(
                as: PageCurl(progress: 0.5, angle: 0, radius: 1).curled(page)))
        let tiny = PageCurl(progress: 0.5, angle: 1e300, radius: -3)
        XCTAssertTrue(
            tiny.curled(page).hasSamePixels(as: PageCurl(progress: 0.5, angle: .pi / 3, radius: 0.01).curled(page)))
        XCTAssertEqual(PageCurl(progress: 0.5, radius: .nan).clampedRadius, PageCurl.defaultRadius)
        // Empty and one-pixel pages.
        XCTAssertEqual(PageCurl(progress: 0.5).curled(Image(width: 0, height: 4)).width, 0)
        _ = PageCurl(progress: 0.5).curled(Image(width: 1, height: 1, fill: Pixel(red: 9, green: 9, blue: 9)))
    }
}

/// The curl's mapping evaluated directly in Double: the axis's position, the surfaces over a pixel, exact
/// bilinear sampling and layering, nothing rounded.
struct PageCurlReference {
    let page: Image
    let width: Double
    let height: Double
    let n: (x: Double, y: Double)
    let rearmost: Double
    let axis: Double
    let r: Double
    let shadowWidth: Double

    init(_ curl: PageCurl, page: Image) {
        self.page = page
        (width, height) = (Double(page.width), Double(page.height))
        let angle = curl.angle
        n = (-sin(angle), curl.direction == .up ? -cos(angle) : cos(angle))
        let corners = [(0.0, 0.0), (width, 0.0), (0.0, height), (width, height)]
        let along = corners.map { $0.0 * -sin(angle) + $0.1 * (curl.direction == .up ? -cos(angle) : cos(angle)) }
        rearmost = along.min()!
        r = curl.radius * min(width, height)
        shadowWidth = max(r, 2)
        axis = curl.progress * (along.max()! - rearmost + r + shadowWidth + 1)
    }

    func pixel(x: Int, y: Int) -> [Double] {
        let p = (Double(x) + 0.5, Double(y) + 0.5)
        let behind = axis - (p.0 * n.x + p.1 * n.y - rearmost)
        let silhouette = clamp(r + 0.5 - behind)
        let h = min(behind, r)
        // Material distances behind the axis of the top (back) and lower (front) surfaces over the pixel.
        let (backU, frontU) = h <= 0 ? (Double.pi * r - h, h) : (r * (Double.pi - asin(h / r)), r * asin(h / r))
        let light = h <= 0 ? 1 : CurlGeometry.ambient + (1 - CurlGeometry.ambient) * (1 - h * h / (r * r)).squareRoot()
        func source(_ u: Double) -> (Double, Double) { (p.0 + (behind - u) * n.x, p.1 + (behind - u) * n.y) }
        let backPoint = source(backU)
        let frontPoint = source(frontU)
        let cb = silhouette * coverage(backPoint)
        let cf = silhouette * coverage(frontPoint) * (1 - cb)
        var shadow = 0.0
        if behind > r - 0.5, behind < r + shadowWidth {
            let fade = 1 - max(behind - r, 0) / shadowWidth
            shadow = CurlGeometry.shadowOpacity * fade * fade * coverage(source(Double.pi / 2 * r))
        }
        shadow *= (1 - silhouette * coverage(frontPoint)) * (1 - cb)
        let b = sample(backPoint)
        let f = sample(frontPoint)
        var result = (0..<3).map { c in
            b[c] * cb * light * CurlGeometry.backShare
                + b[3] * cb * light * CurlGeometry.paperGrey * (1 - CurlGeometry.backShare) + f[c] * cf * light
        }
        result.append(b[3] * cb + f[3] * cf + 255 * shadow)
        return result
    }

    private func coverage(_ point: (Double, Double)) -> Double {
        clamp(min(point.0, width - point.0, point.1, height - point.1) + 0.5)
    }

    private func sample(_ point: (Double, Double)) -> [Double] {
        let x = min(max(point.0 - 0.5, 0), width - 1)
        let y = min(max(point.1 - 0.5, 0), height - 1)
        let (x0, y0) = (Int(x), Int(y))
        let (x1, y1) = (min(x0 + 1, page.width - 1), min(y0 + 1, page.height - 1))
        let (fx, fy) = (x - Double(x0), y - Double(y0))
        func channels(_ px: Pixel) -> [Double] { [px.red, px.green, px.blue, px.alpha].map(Double.init) }
        let (a, b) = (channels(page[x0, y0]), channels(page[x1, y0]))
        let (c, d) = (channels(page[x0, y1]), channels(page[x1, y1]))
        return (0..<4).map { i in
            (a[i] * (1 - fx) + b[i] * fx) * (1 - fy) + (c[i] * (1 - fx) + d[i] * fx) * fy
        }
    }

    private func clamp(_ value: Double) -> Double { min(max(value, 0), 1) }
}
