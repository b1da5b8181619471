import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// Our JPEG encoder's options, checked through a round trip with the decoder. Bounds come from measurements
/// with libjpeg-turbo 2.1.5 (the values are in the comments); our encoder's output for the default options
/// was byte-identical to `cjpeg -quality 90 -sample 2x2` on the same pixels.
final class JPEGTests: XCTestCase {
    /// The same picture for every test here: 128x96 (12 kpx) keeps the debug build fast.
    private static let photo = TestImages.photoLike(width: 128, height: 96)

    private func encode(_ options: EncodeOptions, image: Image = JPEGTests.photo) throws -> [UInt8] {
        try ImageEncoder.encode(image, as: .jpeg, options: options)
    }

    private func psnr(_ jpeg: [UInt8], against original: Image = JPEGTests.photo) throws -> Double {
        ImageDifference(try ImageDecoder.decode(jpeg).image, original, channels: 3).psnr
    }

    /// Measured 28.91 dB: low for quality 90 because photoLike's hard-edged, saturated discs lose colour at
    /// their edges to 4:2:0 subsampling (max error 108 there); the gradients themselves are near-perfect.
    func testQuality90At420KeepsPSNRAbove28_5dB() throws {
        let jpeg = try encode(EncodeOptions(quality: 90, chromaSubsampling: .yuv420))
        let decoded = try ImageDecoder.decode(jpeg)
        XCTAssertEqual([decoded.image.width, decoded.image.height], [128, 96])
        XCTAssertGreaterThan(ImageDifference(decoded.image, JPEGTests.photo, channels: 3).psnr, 28.5)
        XCTAssertEqual(decoded.info.format, .jpeg)
        XCTAssertEqual(decoded.info.colorType, "YCbCr")
        XCTAssertEqual(decoded.info.bitsPerSample, 8)
        XCTAssertFalse(decoded.info.hasAlpha)
        XCTAssertFalse(decoded.info.isInterlaced)
        XCTAssertEqual(decoded.warnings, [])
        XCTAssertTrue(decoded.image.isOpaque)
    }

    /// Measured 35.03 dB at 4:4:4 against 28.91 dB at 4:2:0 (6283 against 4679 bytes).
    func testFullResolutionChromaGivesHigherPSNRThan420() throws {
        let subsampled = try psnr(encode(EncodeOptions(quality: 90, chromaSubsampling: .yuv420)))
        let full = try psnr(encode(EncodeOptions(quality: 90, chromaSubsampling: .yuv444)))
        XCTAssertGreaterThan(full, subsampled + 3, "4:4:4 \(full) dB, 4:2:0 \(subsampled) dB")
        XCTAssertGreaterThan(full, 34.5)
    }

    /// Progressive only reorders the same quantised coefficients into several scans, so the pixels should
    /// match baseline (measured: identical, max error 0; a few LSB allowed for IDCT rounding differences).
    func testProgressiveWritesAProgressiveFileWithBaselinePixels() throws {
        let baseline = try ImageDecoder.decode(encode(EncodeOptions()))
        let progressive = try ImageDecoder.decode(encode(EncodeOptions(isProgressive: true)))
        XCTAssertTrue(progressive.info.isInterlaced)
        XCTAssertEqual(progressive.info.colorType, "YCbCr, progressive")
        XCTAssertFalse(baseline.info.isInterlaced)
        XCTAssertLessThanOrEqual(ImageDifference(baseline.image, progressive.image).maxError, 2)
    }

    /// Measured 4261 bytes optimised against 4679 with the standard tables; the pixels are unchanged
    /// because only the entropy coding differs.
    func testOptimizedHuffmanTablesMakeASmallerFileWithTheSamePixels() throws {
        let standard = try encode(EncodeOptions())
        let optimized = try encode(EncodeOptions(optimizesHuffmanTables: true))
        XCTAssertLessThan(optimized.count, standard.count)
        XCTAssertTrue(try ImageDecoder.decode(optimized).image.hasSamePixels(as: ImageDecoder.decode(standard).image))
    }

    /// Measured 1805 bytes at quality 50 against 6826 at 95.
    func testLowerQualityMakesSmallerFiles() throws {
        let sizes = try [50, 75, 95].map { try encode(EncodeOptions(quality: $0)).count }
        XCTAssertEqual(sizes, sizes.sorted(), "sizes at quality 50, 75, 95: \(sizes)")
        XCTAssertLessThan(sizes[0], sizes[2] / 2)
    }

    /// Quality outside 1...100 is clamped rather than handed to libjpeg as is.
    func testOutOfRangeQualityIsClamped() throws {
        XCTAssertEqual(try encode(EncodeOptions(quality: 250)), try encode(EncodeOptions(quality: 100)))
        XCTAssertEqual(try encode(EncodeOptions(quality: -3)), try encode(EncodeOptions(quality: 1)))
    }

    /// JPEG has no alpha: a translucent image is written as its premultiplied colour, i.e. over black.
    func testTranslucentImageIsWrittenOverBlack() throws {
        let image = Image(width: 32, height: 32, fill: Pixel(red: 100, green: 50, blue: 20, alpha: 128))
        let decoded = try ImageDecoder.decode(encode(EncodeOptions(quality: 95), image: image)).image
        assertPixel(decoded[16, 16], near: Pixel(red: 100, green: 50, blue: 20, alpha: 255), tolerance: 3)
    }

    /// Odd sizes exercise partial MCUs at the right and bottom edges; a region exercises a longer row stride.
    func testOddSizesAndRegionsRoundTrip() throws {
        for (width, height) in [(1, 1), (17, 3), (3, 17)] {
            let image = TestImages.photoLike(width: width, height: height, seed: UInt64(width))
            let decoded = try ImageDecoder.decode(encode(EncodeOptions(quality: 95), image: image)).image
            XCTAssertEqual([decoded.width, decoded.height], [width, height])
        }
        let region = JPEGTests.photo.region(x: 16, y: 16, width: 64, height: 48)
        let decoded = try ImageDecoder.decode(
            encode(
                EncodeOptions(quality: 95, chromaSubsampling: .yuv444),
                image: region)
        ).image
        XCTAssertGreaterThan(ImageDifference(decoded, region.copy(), channels: 3).psnr, 34)
    }
}
