import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// `DecodeOptions.scaleDenominator`: libjpeg's DCT-domain downscaling of JPEGs.
final class ScaledDecodeTests: XCTestCase {
    /// 100x75 divides by none of 8, 4 (75) or 2 (75), so every scale has a partial last block.
    private static let original = TestImages.photoLike(width: 100, height: 75, seed: 11)
    private static let encoded = Result {
        try ImageEncoder.encode(original, as: .jpeg, options: EncodeOptions(quality: 95, chromaSubsampling: .yuv444))
    }
    private var sourceJPEG: [UInt8] { get throws { try ScaledDecodeTests.encoded.get() } }

    func testScaledSizeIsTheCeilingOfTheStoredSizeOverN() throws {
        for (width, height) in [(100, 75), (9, 1), (1, 1), (17, 33)] {
            let image = TestImages.photoLike(width: width, height: height, seed: 4)
            let jpeg = try ImageEncoder.encode(image, as: .jpeg)
            for n in [1, 2, 4, 8] {
                let decoded = try ImageDecoder.decode(jpeg, options: DecodeOptions(scaleDenominator: n))
                XCTAssertEqual(
                    [decoded.image.width, decoded.image.height],
                    [(width + n - 1) / n, (height + n - 1) / n], "\(width)x\(height) at 1/\(n)")
                XCTAssertEqual(
                    [decoded.info.storedWidth, decoded.info.storedHeight], [width, height],
                    "info keeps the stored size")
            }
        }
    }

    /// DCT scaling is close to averaging each n x n block. Compared over the complete blocks only: in the
    /// partial last row of blocks libjpeg averages in edge pixels it replicated to fill the block, which a
    /// box filter over the real pixels does not (at 1/8 that costs 15 dB: 36.7 dB over the whole image).
    /// Measured over complete blocks: 46.58 dB at 1/2, 50.92 dB at 1/4, 51.71 dB at 1/8 (quality 95, 4:4:4).
    func testScaledImageResemblesABoxDownsampledOriginal() throws {
        for (n, bound) in [(2, 45.0), (4, 49.0), (8, 50.0)] {
            let decoded = try ImageDecoder.decode(sourceJPEG, options: DecodeOptions(scaleDenominator: n))
            let expected = ReferenceMath.boxDownsample(ScaledDecodeTests.original, by: n)
            let width = ScaledDecodeTests.original.width / n
            let height = ScaledDecodeTests.original.height / n
            let difference = ImageDifference(
                decoded.image.region(x: 0, y: 0, width: width, height: height),
                expected.region(x: 0, y: 0, width: width, height: height), channels: 3)
            XCTAssertGreaterThan(difference.psnr, bound, "1/\(n): \(difference)")
        }
    }

    /// Denominators libjpeg's 1/n scaling does not offer decode at full size rather than failing.
    func testUnsupportedDenominatorDecodesAtFullSize() throws {
        for n in [0, 3, 16, -2] {
            let image = try ImageDecoder.decode(sourceJPEG, options: DecodeOptions(scaleDenominator: n)).image
            XCTAssertEqual([image.width, image.height], [100, 75], "1/\(n)")
        }
    }

    /// PNG has no cheap downscaling: the option is documented to be ignored.
    func testPNGIgnoresTheScale() throws {
        let png = try ImageEncoder.encode(TestImages.photoLike(width: 20, height: 10), as: .png)
        let image = try ImageDecoder.decode(png, options: DecodeOptions(scaleDenominator: 4)).image
        XCTAssertEqual([image.width, image.height], [20, 10])
    }
}
