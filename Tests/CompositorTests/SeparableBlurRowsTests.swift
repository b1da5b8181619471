import TestSupport
import XCTest

@testable import Compositor

/// The exact route's Float rows (what a shaded material blurs below the pyramid) against the Float oracle.
final class SeparableBlurRowsTests: XCTestCase {
    /// Every Float of every row within 10⁻³ (on the 0...255 scale) of the oracle's, across σ, edge modes, odd sizes
    /// and bands; rendered, within one level. Measured: 0, the engine adds the same products in the same order
    /// (the bound leaves room for a kernel that reorders them).
    func testRowsMatchTheFloatReference() {
        var worst: Float = 0
        for (width, height) in [(1, 3), (5, 2), (37, 23), (70, 9)] {
            let image = TestImages.randomPremultiplied(width: width, height: height, seed: UInt64(width * height))
            for sigma in [0.4, 1.3, 3, 6.5, 11] {
                for edge in EdgeMode.allCases {
                    let blur = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .exact)
                    let rows = blur.rows(of: image)
                    XCTAssertTrue(rows is SeparableBlurRows, "the oracle is for tests only")
                    let oracle = ReferenceGaussianBlur(source: image, sigma: sigma, edgeMode: edge)
                    var expected = [Float](repeating: 0, count: width * 4)
                    var scratch = [Float](repeating: 0, count: rows.scratchCount)
                    var row = [Float](repeating: 0, count: width * 4)
                    expected.withUnsafeMutableBufferPointer { expected in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            row.withUnsafeMutableBufferPointer { row in
                                // Bands starting mid-image, as the rendering threads cut them.
                                for band in [0..<height, (height / 2)..<height] {
                                    rows.fillRows(band, into: row.baseAddress!, scratch: scratch.baseAddress!) {
                                        y, mixed in
                                        mixed.write(count: width * 4, into: row.baseAddress!)
                                        oracle.fillRow(y, into: expected.baseAddress!, scratch: scratch.baseAddress!)
                                        for i in 0..<(width * 4) { worst = max(worst, abs(row[i] - expected[i])) }
                                    }
                                }
                            }
                        }
                    }
                    let rendered = Image(width: width, height: height)
                    rows.render(into: rendered)
                    let reference = Image(width: width, height: height)
                    oracle.render(into: reference)
                    XCTAssertLessThanOrEqual(ImageDifference(rendered, reference).maxError, 1, "σ \(sigma) \(edge)")
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1e-3)
    }

    /// Rows are the same for every thread count (each band walks its own ring).
    func testRenderIsTheSameForEveryThreadCount() {
        let image = TestImages.photoLike(width: 90, height: 61, seed: 2)
        let rows = GaussianBlur(sigma: 4.5).rows(of: image)
        let one = Image(width: 90, height: 61)
        rows.render(into: one, dither: true, threads: 1)
        for threads in [2, 3, 7] {
            let many = Image(width: 90, height: 61)
            rows.render(into: many, dither: true, threads: threads)
            XCTAssertTrue(many.hasSamePixels(as: one), "\(threads) threads")
        }
    }

    /// A shaded material below the pyramid's σ takes these rows: within one level of shading the oracle's rows.
    func testShadedMaterialBelowThePyramidMatchesTheOracle() {
        let image = TestImages.photoLike(width: 64, height: 40, seed: 3)
        let recipe = MaterialCatalog.material(named: "thin")!.recipe(for: .light)
        let effect = MaterialEffect(recipe: recipe, pixelsPerPoint: 0.2)
        XCTAssertFalse(GaussianBlur(sigma: effect.sigmaPixels).usesPyramid, "σ \(effect.sigmaPixels)")
        let result = effect.apply(to: image)
        let shader = MaterialShader(recipe: effect.recipe, dim: effect.dim)
        let expected = Image(width: 64, height: 40)
        ReferenceGaussianBlur(source: image, sigma: effect.sigmaPixels, edgeMode: effect.edgeMode).render(
            into: expected, dither: effect.dither, grain: Float(effect.recipe.grain)
        ) { row, _, width in
            shader.shade(row, count: width)
            return row
        }
        XCTAssertLessThanOrEqual(ImageDifference(result, expected).maxError, 1)
    }
}
