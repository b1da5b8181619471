import Compositor
@testable import ImageCodecs
import TestSupport
import XCTest

/// `DecodeOptions.maxPixels` refuses oversized headers before any pixel memory is allocated, and
/// `ImageDecoder.inspect` reads headers without decoding.
final class LimitsTests: XCTestCase {
    /// Signature, IHDR and IEND only: 57 bytes claiming 20000x20000 (400 MP, 1.6 GB of RGBA).
    private static func headerOnlyPNG(width: UInt32, height: UInt32, withImageData: Bool = false) -> [UInt8] {
        let ihdr = PNGFileWriter.bigEndian(width) + PNGFileWriter.bigEndian(height) + [8, 2, 0, 0, 0]
        let idat = withImageData ? PNGFileWriter.chunk("IDAT", PNGFileWriter.storedZlib([0, 1, 2, 3])) : []
        return PNGFileWriter.signature + PNGFileWriter.chunk("IHDR", ihdr) + idat + PNGFileWriter.chunk("IEND", [])
    }

    /// The refusal must be by size, and quick: allocating and zeroing 1.6 GB would take far longer than
    /// the 0.5 s allowed (the corpus contract asks for about 1 s and under 100 MB for such files).
    func testPNGHeaderClaiming400MegapixelsIsRefusedQuickly() {
        let png = LimitsTests.headerOnlyPNG(width: 20000, height: 20000)
        let clock = ContinuousClock()
        let start = clock.now
        let error = codecError(try ImageDecoder.decode(png))
        let elapsed = clock.now - start
        XCTAssertEqual(error, .tooManyPixels(width: 20000, height: 20000, limit: DecodeOptions.defaultMaxPixels))
        XCTAssertLessThan(elapsed, .milliseconds(500))
    }

    /// The same header followed by a token IDAT, so that libpng has nothing else to object to.
    func testPNGHeaderClaiming400MegapixelsWithImageDataIsRefused() {
        let png = LimitsTests.headerOnlyPNG(width: 20000, height: 20000, withImageData: true)
        XCTAssertEqual(
            codecError(try ImageDecoder.decode(png)),
            .tooManyPixels(width: 20000, height: 20000, limit: DecodeOptions.defaultMaxPixels))
    }

    func testSmallImagesAboveACustomLimitAreRefused() throws {
        let image = TestImages.photoLike(width: 40, height: 30)
        let jpeg = try ImageEncoder.encode(image, as: .jpeg)
        let png = try ImageEncoder.encode(image, as: .png)
        for file in [jpeg, png] {
            XCTAssertEqual(
                codecError(try ImageDecoder.decode(file, options: DecodeOptions(maxPixels: 1199))),
                .tooManyPixels(width: 40, height: 30, limit: 1199))
            XCTAssertNoThrow(
                try ImageDecoder.decode(file, options: DecodeOptions(maxPixels: 1200)), "the limit is inclusive")
            XCTAssertEqual(
                codecError(try ImageDecoder.inspect(file, maxPixels: 100)),
                .tooManyPixels(width: 40, height: 30, limit: 100))
        }
    }

    /// The limit applies to the stored size, before DCT scaling could make it smaller.
    func testLimitAppliesToTheStoredSizeEvenWhenScaling() throws {
        let jpeg = try ImageEncoder.encode(TestImages.photoLike(width: 40, height: 30), as: .jpeg)
        let options = DecodeOptions(maxPixels: 1000, scaleDenominator: 8)
        XCTAssertEqual(
            codecError(try ImageDecoder.decode(jpeg, options: options)),
            .tooManyPixels(width: 40, height: 30, limit: 1000))
    }

    /// A JPEG whose SOF claims 60000x60000 over a tiny body: refused by size, not read.
    func testJPEGHeaderClaimingHugeSizeIsRefused() throws {
        var jpeg = try ImageEncoder.encode(TestImages.photoLike(width: 16, height: 16), as: .jpeg)
        jpeg = JPEGBytes.settingHeight(60000, in: jpeg)
        let sof = JPEGBytes.offset(ofMarker: 0xC0, in: jpeg)!
        jpeg[sof + 7] = 0xEA  // width 60000 = 0xEA60
        jpeg[sof + 8] = 0x60
        XCTAssertEqual(
            codecError(try ImageDecoder.decode(jpeg)),
            .tooManyPixels(width: 60000, height: 60000, limit: DecodeOptions.defaultMaxPixels))
    }

    /// inspect reads sizes, orientation and format without decoding: it works on the 400 MP header too,
    /// and its default limit is no limit.
    func testInspectReadsHeadersWithoutDecoding() throws {
        let huge = try ImageDecoder.inspect(LimitsTests.headerOnlyPNG(width: 20000, height: 20000, withImageData: true))
        XCTAssertEqual([huge.storedWidth, huge.storedHeight], [20000, 20000])
        XCTAssertEqual(huge.colorType, "RGB 8-bit")

        let image = TestImages.photoLike(width: 48, height: 32)
        let jpeg = JPEGBytes.withEXIF(EXIFBlock.tiff(orientation: 6), in: try ImageEncoder.encode(image, as: .jpeg))
        let info = try ImageDecoder.inspect(jpeg)
        XCTAssertEqual(info.format, .jpeg)
        XCTAssertEqual([info.storedWidth, info.storedHeight], [48, 32], "stored, not oriented")
        XCTAssertEqual(info.orientation, .right)

        let png = PNGBytes.inserting(
            chunk: "eXIf", data: EXIFBlock.tiff(orientation: 8),
            into: try ImageEncoder.encode(image, as: .png))
        let pngInfo = try ImageDecoder.inspect(png)
        XCTAssertEqual([pngInfo.storedWidth, pngInfo.storedHeight, pngInfo.bitsPerSample], [48, 32, 8])
        XCTAssertEqual(pngInfo.orientation, .left)
    }

    /// inspect only reads the header: a file whose pixel data is cut off still inspects fine.
    func testInspectDoesNotReadPixelData() throws {
        let jpeg = try ImageEncoder.encode(TestImages.photoLike(width: 48, height: 32), as: .jpeg)
        let start = JPEGBytes.offset(ofMarker: 0xDA, in: jpeg) ?? jpeg.count - 100
        XCTAssertEqual(try ImageDecoder.inspect(Array(jpeg.prefix(start + 20))).storedWidth, 48)
    }

    /// iCCP is inflated by our own bounded inflate: a profile inflating past 4 MiB is dropped, not
    /// allocated, and the image still decodes. The 1 MiB control shows the same kind of stream is accepted.
    func testICCProfileDecompressionBombIsIgnored() throws {
        func png(profileBytes: Int) -> [UInt8] {
            var png = PNGSamples.random(.rgb, bitDepth: 8, width: 4, height: 4)
            png.chunksBeforeImageData = [("iCCP", Array("bomb".utf8) + [0, 0] + ZlibBomb.zeros(count: profileBytes))]
            return png.encoded()
        }
        // The control is checked at the chunk walk: zeros are no valid ICC header, so decode would drop them.
        let control = PNGChunks(png(profileBytes: 1 << 20))
        XCTAssertEqual(control.iccProfile?.count, 1 << 20)
        XCTAssertEqual(control.iccProfile?.allSatisfy { $0 == 0 }, true)
        XCTAssertNil(PNGChunks(png(profileBytes: 5 << 20)).iccProfile)
        let bomb = try ImageDecoder.decode(png(profileBytes: 5 << 20))
        XCTAssertNil(bomb.info.iccProfile)
        XCTAssertEqual([bomb.image.width, bomb.image.height], [4, 4])
    }
}
