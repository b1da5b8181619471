import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// The SIMD engine against its scalar twin and the Float reference, across σ, edge modes, odd widths,
/// padded strides, schedules and regions.
final class BlurEngineTests: XCTestCase {
    private let sigmas = [0.3, 0.8, 1.7, 3, 5.5, 8]

    /// An image stored with padding after every row, to prove strides are honoured.
    private func padded(_ image: Image, extraBytes: Int = 12) -> Image {
        let stride = image.width * 4 + extraBytes
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * image.height)
        buffer.initialize(repeating: 0xAB, count: stride * image.height)
        addTeardownBlock { buffer.deallocate() }
        let view = Image(borrowing: buffer, width: image.width, height: image.height, bytesPerRow: stride)
        view.copyPixels(from: image)
        return view
    }

    private func referenceBlur(_ image: Image, sigma: Double, edge: EdgeMode) -> Image {
        let result = Image(width: image.width, height: image.height)
        ReferenceGaussianBlur(source: image, sigma: sigma, edgeMode: edge).render(into: result, threads: 1)
        return result
    }

    func testSIMDAndScalarTwinsAgreeToTheBit() {
        let image = TestImages.randomPremultiplied(width: 45, height: 21, seed: 3)
        for sigma in sigmas {
            for edge in EdgeMode.allCases {
                var blur = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .exact, threads: 1)
                blur.kernels = SIMDKernels.self
                let fast = blur.apply(to: image)
                blur.kernels = ScalarKernels.self
                let scalar = blur.apply(to: image)
                XCTAssertTrue(fast.hasSamePixels(as: scalar), "σ \(sigma) \(edge)")
            }
        }
    }

    func testWithinOneLSBOfTheFloatReferenceForOddWidthsAndPaddedStrides() {
        for (width, height) in [(1, 9), (2, 5), (7, 7), (33, 12), (4033, 3)] {
            let image = padded(TestImages.randomPremultiplied(width: width, height: height, seed: UInt64(width)))
            for sigma in sigmas where width < 4000 || sigma == 3 {
                for edge in EdgeMode.allCases {
                    let fast = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .exact).apply(to: image)
                    let reference = referenceBlur(image, sigma: sigma, edge: edge)
                    let difference = ImageDifference(fast, reference)
                    XCTAssertLessThanOrEqual(difference.maxError, 1, "\(width)x\(height) σ \(sigma) \(edge)")
                }
            }
        }
    }

    func testPaddingBytesAreNeverWritten() {
        let image = padded(TestImages.photoLike(width: 20, height: 6), extraBytes: 8)
        GaussianBlur(sigma: 2, precision: .exact).apply(to: image, into: image)
        for y in 0..<image.height {
            XCTAssertEqual(
                Array(UnsafeBufferPointer(start: image.row(y) + 80, count: 8)), Array(repeating: 0xAB, count: 8))
        }
    }

    func testOutputIsBitIdenticalForEveryThreadCountAndTileWidth() {
        let image = TestImages.photoLike(width: 150, height: 97, seed: 5)
        for sigma in [1.5, 6.0] {
            let blur = GaussianBlur(sigma: sigma, precision: .exact, threads: 1)
            let baseline = blur.apply(to: image)
            for threads in [2, 3, 8] {
                for tileWidth in [nil, 16, 37, 150] {
                    var engine = GaussianBlur(sigma: sigma, precision: .exact, threads: threads).engine(Workspace())
                    engine.tileWidth = tileWidth
                    let result = Image(width: image.width, height: image.height)
                    engine.run(
                        source: PixelRows(image), outputX: 0, outputY: 0, destination: PixelRows(result),
                        workspace: Workspace())
                    XCTAssertTrue(
                        result.hasSamePixels(as: baseline), "σ \(sigma) threads \(threads) tile \(tileWidth ?? 0)")
                }
            }
        }
        for sigma in [12.0, 40, 100] {
            let baseline = GaussianBlur(sigma: sigma, precision: .fast, threads: 1).apply(to: image)
            for threads in [2, 3, 5, 8] {
                let result = GaussianBlur(sigma: sigma, precision: .fast, threads: threads).apply(to: image)
                XCTAssertTrue(result.hasSamePixels(as: baseline), "pyramid σ \(sigma) threads \(threads)")
            }
        }
    }

    /// Neighbouring bands share the grid rows they both read, each made by the first band to need it, whichever
    /// thread that is. With many bands on a small grid the overlaps cover it all and meet. A material shades each
    /// small row as it is made.
    func testSharedGridRowsLeaveThePyramidBitIdenticalForEveryThreadCount() {
        let image = TestImages.photoLike(width: 150, height: 97, seed: 5)
        let shader = MaterialShader(recipe: Material.thin.recipe(for: .light), dim: 0.2)
        for sigma in [12.0, 40, 100] {
            for shaded in [false, true] {
                func render(threads: Int) -> Image {
                    var rows = PyramidGaussianBlur(source: image, sigma: sigma)
                    if shaded { rows.shadeSmallImage(with: shader) }
                    let result = Image(width: image.width, height: image.height)
                    rows.render(into: result, dither: shaded, threads: threads)
                    return result
                }
                let baseline = render(threads: 1)
                for threads in [2, 3, 5, 8] {
                    XCTAssertTrue(
                        render(threads: threads).hasSamePixels(as: baseline),
                        "σ \(sigma) shaded \(shaded) threads \(threads)")
                }
            }
        }
    }

    /// Bands filled one after another (as under a nested concurrentPerform, where they cannot run at once), in
    /// either order, give the same rows as one band: shared grid rows made by whichever band came first serve the
    /// others, and no band waits for another (one that did would hang here).
    func testSharedGridRowsAreTheSameWhenBandsRunOneAfterAnother() {
        let image = TestImages.photoLike(width: 90, height: 140, seed: 8)
        for sigma in [15.0, 60] {
            let blur = PyramidGaussianBlur(source: image, sigma: sigma)
            func rows(bands: Int, reversed: Bool) -> [Float] {
                let workspace = Workspace()
                let prepared = blur.prepared(forBands: bands, workspace: workspace)
                var result = [Float](repeating: .nan, count: blur.width * blur.height * 4)
                let row = UnsafeMutablePointer<Float>.allocate(capacity: blur.width * 4)
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: blur.scratchCount)
                defer { (row.deallocate(), scratch.deallocate()) }
                let order = reversed ? Array((0..<bands).reversed()) : Array(0..<bands)
                for band in order {
                    prepared.fillRows(prepared.band(band, of: bands), into: row, scratch: scratch) { y, mixed in
                        result.withUnsafeMutableBufferPointer { all in
                            mixed.write(count: blur.width * 4, into: all.baseAddress! + y * blur.width * 4)
                        }
                    }
                }
                return result
            }
            let baseline = rows(bands: 1, reversed: false)
            XCTAssertFalse(baseline.contains { $0.isNaN })
            for bands in [2, 3, 7] {
                for reversed in [false, true] {
                    XCTAssertEqual(rows(bands: bands, reversed: reversed), baseline, "σ \(sigma) \(bands) bands")
                }
            }
        }
    }

    /// The pyramid's bands cover every row once, in order, none empty, and hold about equal work: the first
    /// takes more rows because the band below it makes the grid rows they share.
    func testPyramidBandsCoverEveryRowOnceWithTheFirstOneLonger() {
        for (height, sigma) in [(1, 20.0), (5, 20), (97, 12), (3024, 30), (3024, 100), (800, 400)] {
            let blur = PyramidGaussianBlur(source: Image(width: 40, height: height), sigma: sigma)
            for bands in 1...min(8, height) {
                let ranges = (0..<bands).map { blur.band($0, of: bands) }
                XCTAssertEqual(ranges.first?.lowerBound, 0)
                XCTAssertEqual(ranges.last?.upperBound, height)
                for (range, next) in zip(ranges, ranges.dropFirst()) {
                    XCTAssertEqual(range.upperBound, next.lowerBound)
                }
                XCTAssertFalse(ranges.contains { $0.isEmpty }, "height \(height) σ \(sigma) bands \(bands)")
            }
        }
        let blur = PyramidGaussianBlur(source: Image(width: 40, height: 3024), sigma: 100)
        let halves = (0..<2).map { blur.band($0, of: 2) }
        XCTAssertGreaterThan(halves[0].count, halves[1].count + blur.factor * 4)
    }

    func testRegionBlurEqualsTheCroppedWholeImageBlur() {
        let image = TestImages.photoLike(width: 120, height: 80, seed: 9)
        let regions = [(0, 0, 120, 80), (10, 20, 50, 30), (0, 61, 120, 19), (97, 0, 23, 80), (33, 33, 1, 1)]
        for (sigma, precision) in [(2.5, BlurPrecision.exact), (7, .exact), (15, .fast), (33, .fast)] {
            for edge in EdgeMode.allCases {
                let blur = GaussianBlur(sigma: sigma, edgeMode: edge, precision: precision)
                let whole = blur.apply(to: image)
                for (x, y, w, h) in regions {
                    let panel = Image(width: w, height: h)
                    blur.apply(to: image, regionX: x, y: y, into: panel)
                    XCTAssertTrue(
                        panel.hasSamePixels(as: whole.region(x: x, y: y, width: w, height: h)),
                        "σ \(sigma) \(edge) region \((x, y, w, h))")
                }
            }
        }
    }

    func testRegionBlurredInPlaceHasNoSeam() {
        let image = TestImages.photoLike(width: 90, height: 60, seed: 4)
        let expected = GaussianBlur(sigma: 4, precision: .exact).apply(to: image)
        let panel = image.region(x: 20, y: 30, width: 50, height: 30)
        GaussianBlur(sigma: 4, precision: .exact).apply(to: image, regionX: 20, y: 30, into: panel)
        XCTAssertTrue(panel.hasSamePixels(as: expected.region(x: 20, y: 30, width: 50, height: 30)))
        XCTAssertEqual(image[19, 30], TestImages.photoLike(width: 90, height: 60, seed: 4)[19, 30], "outside untouched")
    }

    func testDegenerateSizesAndSigmaLargerThanTheImage() {
        for (width, height) in [(1, 1), (1, 50), (50, 1), (2, 2)] {
            let image = TestImages.randomPremultiplied(width: width, height: height, seed: 11)
            for sigma in [0.5, 3, 60, 500] {
                for edge in EdgeMode.allCases {
                    // The exact route's cost grows with σ (a 4001-tap kernel at σ 500), so it is checked where it
                    // is used; the pyramid covers σ larger than the image.
                    for precision in sigma <= 3 ? [BlurPrecision.exact, .fast] : [.fast] {
                        let result = GaussianBlur(sigma: sigma, edgeMode: edge, precision: precision).apply(to: image)
                        XCTAssertEqual(result.width, width)
                        if precision == .exact {
                            let reference = referenceBlur(image, sigma: sigma, edge: edge)
                            XCTAssertLessThanOrEqual(ImageDifference(result, reference).maxError, 1)
                        }
                    }
                }
            }
        }
        let uniform = Image(width: 1, height: 1, fill: Pixel(red: 9, green: 8, blue: 7, alpha: 200))
        XCTAssertEqual(GaussianBlur(sigma: 300, precision: .fast).apply(to: uniform)[0, 0], uniform[0, 0])
        // A vanishing σ is the identity (2σ² underflows to 0 at 1e-300; the kernel once came out NaN).
        let image = TestImages.randomPremultiplied(width: 9, height: 7, seed: 12)
        for sigma in [1e-300, 1e-20, 0.01] {
            XCTAssertEqual(GaussianKernel(sigma: sigma).weights, [0, 1, 0], "\(sigma)")
            XCTAssertTrue(GaussianBlur(sigma: sigma).apply(to: image).hasSamePixels(as: image), "\(sigma)")
        }
    }

    func testPlaneBlurMatchesTheSameChannelOfAnImage() {
        let image = TestImages.photoLike(width: 41, height: 23, seed: 8)
        let plane = Plane(width: 41, height: 23)
        for y in 0..<23 {
            for x in 0..<41 { plane[x, y] = image[x, y].green }
        }
        for sigma in [0.8, 3.5] {
            for edge in [EdgeMode.mirror, .wrap, .transparent] {
                let blur = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .exact)
                let blurredImage = blur.apply(to: image)
                let blurredPlane = Plane(width: 41, height: 23)
                blur.apply(to: plane, into: blurredPlane)
                for y in 0..<23 {
                    for x in 0..<41 { XCTAssertEqual(blurredPlane[x, y], blurredImage[x, y].green, "\((x, y))") }
                }
                // In place, through the workspace's copy of the source.
                let inPlace = Plane(width: 41, height: 23)
                for y in 0..<23 { inPlace.row(y).update(from: plane.row(y), count: 41) }
                blur.apply(to: inPlace, into: inPlace, workspace: Workspace())
                for y in 0..<23 {
                    for x in 0..<41 { XCTAssertEqual(inPlace[x, y], blurredPlane[x, y], "in place \((x, y))") }
                }
            }
        }
    }

    func testQuantizerMatchesItsScalarTwin() {
        var random = SeededGenerator(seed: 21)
        let count = 301
        var values = (0..<(count * 4)).map { _ in Float.random(in: -20...280, using: &random) }
        for i in 0..<count where i % 3 == 0 {
            values[i * 4 + 3] = Float(Int.random(in: 0...255, using: &random))  // whole alphas and exact ties
            values[i * 4] = values[i * 4 + 3] + 0.5
        }
        for quantizer in [Quantizer(), Quantizer(dither: true), Quantizer(dither: true, grain: 0.15)] {
            var fast = [UInt8](repeating: 0, count: count * 4)
            var scalar = fast
            var grainScratch = [Float](repeating: 0, count: count * 4)
            for y in [0, 7, 130] {
                quantizer.quantize(values, count: count, into: &fast, y: y, grainScratch: &grainScratch)
                quantizer.quantizeReference(values, count: count, into: &scalar, y: y)
                XCTAssertEqual(fast, scalar, "dither \(quantizer.dither) grain \(quantizer.grain) y \(y)")
                for i in 0..<count {
                    XCTAssertLessThanOrEqual(fast[i * 4], fast[i * 4 + 3], "colour above alpha")
                }
            }
        }
    }
}

/// A renderer reuses one workspace across calls and sizes: results must not depend on what it held before,
/// and once sizes settle it must stop growing.
final class WorkspaceTests: XCTestCase {
    func testReusedWorkspaceGivesTheSameResultsAndStopsGrowing() {
        let workspace = Workspace()
        let large = TestImages.photoLike(width: 90, height: 70, seed: 41)
        let small = TestImages.photoLike(width: 31, height: 17, seed: 42)
        let cases: [(Image, GaussianBlur)] = [
            (large, GaussianBlur(sigma: 2, precision: .exact)), (small, GaussianBlur(sigma: 5, precision: .exact)),
            (large, GaussianBlur(sigma: 25, precision: .fast)), (small, GaussianBlur(sigma: 12, edgeMode: .wrap)),
        ]
        var capacities: [Int] = []
        for round in 0..<3 {
            for (image, blur) in cases {
                let fresh = blur.apply(to: image)
                let reused = Image(width: image.width, height: image.height)
                blur.apply(to: image, into: reused, workspace: workspace)
                XCTAssertTrue(reused.hasSamePixels(as: fresh), "round \(round) σ \(blur.sigma)")
            }
            capacities.append(workspace.capacity)
        }
        XCTAssertGreaterThan(capacities[0], 0)
        XCTAssertEqual(capacities[1], capacities[0], "a second round of the same sizes must not grow it")
        XCTAssertEqual(capacities[2], capacities[0])
    }

    func testInPlaceBlurWithAWorkspaceMatchesAFreshBlur() {
        let workspace = Workspace()
        for sigma in [3.0, 20] {
            let image = TestImages.photoLike(width: 64, height: 48, seed: 43)
            let expected = GaussianBlur(sigma: sigma).apply(to: image)
            GaussianBlur(sigma: sigma).apply(to: image, into: image, workspace: workspace)
            XCTAssertTrue(image.hasSamePixels(as: expected), "σ \(sigma)")
        }
    }
}
