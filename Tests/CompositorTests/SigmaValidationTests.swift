import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// σ that a script or a scene file can send (NaN, infinities, negative, absurdly large) reaches every public blur
/// entry point without trapping, with the documented result: no blur for NaN and σ ≤ 0, the blur at
/// `GaussianKernel.maximumSigma` above it.
final class SigmaValidationTests: XCTestCase {
    private let noBlur: [Double] = [.nan, -.nan, 0, -0.0, -1, -1e300, -.infinity]
    private let huge: [Double] = [1e6, 1e300, .infinity, .greatestFiniteMagnitude]
    private let image = TestImages.randomPremultiplied(width: 13, height: 9, seed: 4)

    func testKernelAndFactorTakeEverySigma() {
        for sigma in noBlur {
            let kernel = GaussianKernel(sigma: sigma)
            XCTAssertEqual(kernel.sigma, 0, "\(sigma)")
            XCTAssertEqual(kernel.weights, [1], "\(sigma)")
            XCTAssertEqual(PyramidGaussianBlur.factor(forSigma: sigma), 1, "\(sigma)")
            XCTAssertEqual(GaussianKernel.usableSigma(sigma), 0, "\(sigma)")
        }
        let largest = GaussianKernel(sigma: GaussianKernel.maximumSigma)
        for sigma in huge {
            XCTAssertEqual(GaussianKernel.usableSigma(sigma), GaussianKernel.maximumSigma, "\(sigma)")
            XCTAssertEqual(GaussianKernel(sigma: sigma).radius, largest.radius, "\(sigma)")
            XCTAssertEqual(PyramidGaussianBlur.factor(forSigma: sigma), 3030, "\(sigma)")
            XCTAssertEqual(PyramidGaussianBlur.interpolation(forSigma: sigma), .linear, "\(sigma)")
            XCTAssertEqual(PyramidGaussianBlur(source: image, sigma: sigma).factor, 3030, "\(sigma)")
            for precision in BlurPrecision.allCases {
                let rows = GaussianBlur(sigma: sigma, precision: precision).rows(of: image)
                XCTAssertEqual((rows as? PyramidGaussianBlur)?.factor, 3030, "\(sigma) \(precision)")
            }
            let dot = Image(width: 1, height: 1, fill: Pixel(red: 9, green: 8, blue: 7, alpha: 200))
            let reference = Image(width: 1, height: 1)
            ReferenceGaussianBlur(source: dot, sigma: sigma).render(into: reference)
            XCTAssertEqual(reference[0, 0], dot[0, 0], "\(sigma): a uniform (one-pixel) image stays")
        }
        // 255·f² must fit the cells' 32-bit sums.
        let factor = PyramidGaussianBlur.factor(forSigma: GaussianKernel.maximumSigma)
        XCTAssertLessThan(255 * factor * factor, 1 << 32)
    }

    func testNoBlurForNaNAndSigmaAtOrBelowZero() {
        for sigma in noBlur {
            for precision in BlurPrecision.allCases {
                let blur = GaussianBlur(sigma: sigma, precision: precision)
                XCTAssertFalse(blur.usesPyramid, "\(sigma)")
                XCTAssertTrue(blur.apply(to: image).hasSamePixels(as: image), "\(sigma) \(precision)")
                let inPlace = image.copy()
                blur.apply(to: inPlace, into: inPlace)
                XCTAssertTrue(inPlace.hasSamePixels(as: image), "\(sigma) \(precision) in place")
                let region = Image(width: 5, height: 4)
                blur.apply(to: image, regionX: 3, y: 2, into: region)
                XCTAssertEqual(region[0, 0], image[3, 2], "\(sigma) \(precision) region")
                let rendered = Image(width: image.width, height: image.height)
                blur.rows(of: image).render(into: rendered)
                XCTAssertTrue(rendered.hasSamePixels(as: image), "\(sigma) \(precision) rows")
            }
            let plane = Plane(width: 7, height: 3)
            for x in 0..<7 { plane[x, 1] = UInt8(x * 30) }
            let blurredPlane = Plane(width: 7, height: 3)
            GaussianBlur(sigma: sigma).apply(to: plane, into: blurredPlane)
            XCTAssertEqual((0..<7).map { blurredPlane[$0, 1] }, (0..<7).map { plane[$0, 1] }, "\(sigma) plane")
            let reference = Image(width: image.width, height: image.height)
            ReferenceGaussianBlur(source: image, sigma: sigma).render(into: reference)
            XCTAssertTrue(reference.hasSamePixels(as: image), "\(sigma) reference")
        }
    }

    /// (Each pyramid blur at f = 3030 takes most of a second in a debug build, hence few of them.)
    func testHugeSigmaBlursAsTheLargestSigma() {
        let small = TestImages.randomPremultiplied(width: 6, height: 4, seed: 9)
        let expected = GaussianBlur(sigma: GaussianKernel.maximumSigma).apply(to: small)
        XCTAssertTrue(GaussianBlur(sigma: 1e300).apply(to: small).hasSamePixels(as: expected))
        let region = Image(width: 2, height: 2)
        GaussianBlur(sigma: 1e6, precision: .exact).apply(to: small, regionX: 4, y: 1, into: region)
        XCTAssertEqual(region[0, 0], expected[4, 1], "region")
    }

    /// Past σ ≈ 13,500 the pyramid's cell sums would wrap their 32-bit lanes and a white image would come out
    /// dark; at the clamped σ it stays white.
    func testUniformImageStaysUniformAtHugeSigma() {
        let white = Image(width: 16, height: 16, fill: Pixel(red: 255, green: 255, blue: 255))
        let blurred = GaussianBlur(sigma: 1e5, precision: .fast).apply(to: white)
        XCTAssertTrue(blurred.hasSamePixels(as: white), "\(blurred[0, 0])")
    }

    /// `.exact` is the direct convolution only up to `maximumExactSigma`: above it the pyramid, whose cost does
    /// not grow with σ (σ 2000 exact on a 600×400 photo took over 40 s). Planes, which have no pyramid of their own,
    /// go through an image's.
    func testExactPrecisionTakesThePyramidAboveTheLargestExactSigma() {
        let limit = GaussianBlur.maximumExactSigma
        XCTAssertFalse(GaussianBlur(sigma: limit, precision: .exact).usesPyramid)
        XCTAssertTrue(GaussianBlur(sigma: limit.nextUp, precision: .exact).usesPyramid)
        XCTAssertTrue(GaussianBlur(sigma: .infinity, precision: .exact).usesPyramid)
        let image = TestImages.photoLike(width: 40, height: 30, seed: 5)
        let exact = GaussianBlur(sigma: 150, precision: .exact).apply(to: image)
        XCTAssertTrue(exact.hasSamePixels(as: GaussianBlur(sigma: 150, precision: .fast).apply(to: image)))

        let plane = Plane(width: 40, height: 30)
        let asImage = Image(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                let value = image[x, y].green
                plane[x, y] = value
                asImage[x, y] = Pixel(red: value, green: value, blue: value, alpha: value)
            }
        }
        let blurredImage = GaussianBlur(sigma: 150, precision: .fast).apply(to: asImage)
        let blurredPlane = Plane(width: 40, height: 30)
        GaussianBlur(sigma: 150).apply(to: plane, into: blurredPlane)
        for (x, y) in [(0, 0), (39, 29), (17, 11)] {
            XCTAssertEqual(blurredPlane[x, y], blurredImage[x, y].red, "(\(x), \(y))")
        }
        GaussianBlur(sigma: .infinity).apply(to: plane, into: plane)
        let mean = (0..<30).flatMap { y in (0..<40).map { x in Double(asImage[x, y].green) } }.reduce(0, +) / 1200
        XCTAssertEqual(Double(plane[20, 15]), mean, accuracy: 1, "the plane's mean, mirrored out to σ 10,000")
    }
}
