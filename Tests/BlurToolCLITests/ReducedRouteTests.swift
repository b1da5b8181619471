import ImageCodecs
import TestSupport
import XCTest

@testable import Compositor

/// The shortcuts a material takes on a large photo, each against the route without it.
final class ReducedRouteTests: XCTestCase {
    private let recipe = Material.thin.recipe(for: .light)

    /// Shading the pyramid's small image instead of every output pixel.
    func testShadingTheSmallImageMatchesShadingEveryPixel() {
        let image = TestImages.photoLike(width: 320, height: 240, seed: 31)
        for (appearance, pixelsPerPoint) in [(Appearance.light, 1.0), (.dark, 2.5)] {
            let recipe = MaterialCatalog.material(named: "thin")!.recipe(for: appearance)
            let effect = MaterialEffect(recipe: recipe, dim: 0.2, pixelsPerPoint: pixelsPerPoint)
            let shortcut = effect.apply(to: image)
            let shader = MaterialShader(recipe: recipe, dim: 0.2)
            let perPixel = Image(width: image.width, height: image.height)
            PyramidGaussianBlur(source: image, sigma: effect.sigmaPixels).render(into: perPixel, dither: true) {
                row, _, width in
                shader.shade(row, count: width)
                return row
            }
            let difference = ImageDifference(shortcut, perPixel)
            // Measured: PSNR 66 dB, max error 3 (where the colour-dodge tint bends most).
            XCTAssertLessThanOrEqual(difference.maxError, 4, "\(appearance): \(difference)")
            XCTAssertGreaterThanOrEqual(difference.psnr, 60, "\(appearance): \(difference)")
        }
    }

    /// Decoding the JPEG at 1/d with libjpeg's DCT scaling and letting the pyramid treat each decoded pixel
    /// as a d×d block.
    func testDecodingReducedMatchesTheFullResolutionRoute() throws {
        let photo = TestImages.photoLike(width: 1024, height: 768, seed: 32)
        let jpeg = try ImageEncoder.encode(photo, as: .jpeg, options: EncodeOptions(quality: 95))
        let full = try ImageDecoder.decode(jpeg).image
        for pixelsPerPoint in [2.0, 8.0] {
            let effect = MaterialEffect(recipe: recipe, pixelsPerPoint: pixelsPerPoint)
            let scale = effect.decodeScale(fullWidth: 1024, fullHeight: 768)
            XCTAssertEqual(scale, pixelsPerPoint == 8 ? 8 : 2)
            let reduced = try ImageDecoder.decode(jpeg, options: DecodeOptions(scaleDenominator: scale)).image
            let shortcut = effect.apply(toReduced: reduced, scale: scale, width: 1024, height: 768)
            let reference = effect.apply(to: full)
            let difference = ImageDifference(shortcut, reference)
            // Measured: 1/2 PSNR 63.8 dB, 1/8 PSNR 60.2 dB, max error 3 for both.
            XCTAssertGreaterThanOrEqual(difference.psnr, 57, "1/\(scale): \(difference)")
            XCTAssertLessThanOrEqual(difference.maxError, 4, "1/\(scale): \(difference)")
        }
    }

    /// Averaging the pyramid's cells straight from the source instead of from the resized frame: the same
    /// sums, except that the frame is not rounded to bytes first.
    func testBlurringWhileResizingMatchesResizingThenBlurring() {
        let image = TestImages.photoLike(width: 160, height: 120, seed: 33)
        // Magnified (as a 1/8 decode filling a phone screen) and shrunk, each an aspect fill.
        for (width, height, filter) in [(300, 520, ResampleFilter.bilinear), (60, 100, .lanczos3)] {
            let layout = FitLayout(
                sourceWidth: 160, sourceHeight: 120, frameWidth: width, frameHeight: height, mode: .fill)
            for edgeMode in [EdgeMode.mirror, .transparent] {
                let effect = MaterialEffect(
                    recipe: recipe, dim: 0.3, pixelsPerPoint: Double(min(width, height)) / 120, edgeMode: edgeMode)
                XCTAssertTrue(GaussianBlur(sigma: effect.sigmaPixels).usesPyramid)
                let shortcut = effect.apply(
                    toResized: image, crop: layout.sourceRect, filter: filter, width: width, height: height)
                let resized = Resampler(filter: filter).resize(
                    image, crop: layout.sourceRect, width: width, height: height)
                let difference = ImageDifference(shortcut, effect.apply(to: resized))
                // Measured: PSNR 84.2-85.7 dB magnified (cells of 36 frame pixels), 64.9-65.3 dB shrunk (cells of 9, which
                // average the frame's rounding less), max error 1.
                XCTAssertGreaterThanOrEqual(difference.psnr, 62, "\(width)x\(height) \(edgeMode): \(difference)")
                XCTAssertLessThanOrEqual(difference.maxError, 1, "\(width)x\(height) \(edgeMode): \(difference)")
            }
        }
    }

    func testNoReductionForSmallBlursOrExactPrecision() {
        let small = MaterialEffect(recipe: MaterialRecipe(blurPoints: 2), pixelsPerPoint: 1)
        XCTAssertEqual(small.decodeScale(fullWidth: 4000, fullHeight: 3000), 1)
        var exact = MaterialEffect(recipe: recipe, pixelsPerPoint: 8)
        exact.precision = .exact
        XCTAssertEqual(exact.decodeScale(fullWidth: 4000, fullHeight: 3000), 1)
        let tiny = MaterialEffect(recipe: recipe, pixelsPerPoint: 8)
        XCTAssertEqual(tiny.decodeScale(fullWidth: 40, fullHeight: 30), 1, "too small to reduce")
    }
}
