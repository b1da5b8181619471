import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// Our own PNG encoder: what it writes, and that its output decodes back to the same pixels.
final class PNGEncoderRoundTripTests: XCTestCase {
    func testOpaqueImageRoundTripsThroughRGBBitExactly() throws {
        let original = TestImages.photoLike(width: 64, height: 48)
        let png = try ImageEncoder.encode(original, as: .png)
        let decoded = try ImageDecoder.decode(png)
        XCTAssertTrue(decoded.image.hasSamePixels(as: original), ImageDifference(decoded.image, original).description)
        XCTAssertEqual(decoded.info.colorType, "RGB 8-bit")
        XCTAssertEqual(decoded.info.bitsPerSample, 8)
        XCTAssertFalse(decoded.info.hasAlpha, "an opaque image needs no alpha channel")
        XCTAssertFalse(decoded.info.isInterlaced)
        XCTAssertEqual(decoded.warnings, [])
    }

    /// PNG stores straight alpha, so the encoder unpremultiplies and the decoder premultiplies again. The
    /// exact expectation is premultiply(unpremultiply(v, a), a) with both functions rounding to nearest, and
    /// that is v itself: unpremultiplying is off by at most 0.5, which premultiplying scales by a / 255 < 1,
    /// so rounding lands back on v (a = 255 and a = 0 are passed through). The round trip must be lossless.
    func testTranslucentImageRoundTripsThroughRGBA() throws {
        let original = TestImages.randomPremultiplied(width: 64, height: 48)
        XCTAssertFalse(original.isOpaque)
        let decoded = try ImageDecoder.decode(ImageEncoder.encode(original, as: .png))
        XCTAssertEqual(decoded.info.colorType, "RGBA 8-bit")
        XCTAssertTrue(decoded.info.hasAlpha)
        var mismatches = 0
        var expectationDiffersFromOriginal = 0
        for y in 0..<original.height {
            for x in 0..<original.width {
                let p = original[x, y]
                let straight = Pixel(
                    red: ReferenceMath.unpremultiply(p.red, by: p.alpha),
                    green: ReferenceMath.unpremultiply(p.green, by: p.alpha),
                    blue: ReferenceMath.unpremultiply(p.blue, by: p.alpha), alpha: p.alpha)
                let expected = ReferenceMath.premultiplied(straight)
                if expected != p { expectationDiffersFromOriginal += 1 }
                if decoded.image[x, y] != expected { mismatches += 1 }
            }
        }
        XCTAssertEqual(expectationDiffersFromOriginal, 0, "the reference round trip should be lossless")
        XCTAssertEqual(mismatches, 0, "pixels differing from premultiply(unpremultiply(p))")
    }

    /// Fully transparent pixels must come back as (0, 0, 0, 0) whatever colour they were written with.
    func testTransparentPixelsStayTransparentBlack() throws {
        let image = Image(width: 4, height: 2, fill: Pixel(red: 10, green: 20, blue: 30, alpha: 40))
        image[0, 0] = .transparent
        let decoded = try ImageDecoder.decode(ImageEncoder.encode(image, as: .png)).image
        XCTAssertEqual(decoded[0, 0], .transparent)
        XCTAssertEqual(decoded[3, 1], Pixel(red: 10, green: 20, blue: 30, alpha: 40))
    }

    /// A region shares its parent's pixels, so its row stride is longer than its width: the encoder must
    /// step rows by the stride.
    func testRegionWithLongerStrideEncodesItsOwnPixels() throws {
        let parent = TestImages.photoLike(width: 40, height: 30, seed: 5)
        let region = parent.region(x: 7, y: 5, width: 21, height: 13)
        let decoded = try ImageDecoder.decode(ImageEncoder.encode(region, as: .png)).image
        XCTAssertTrue(decoded.hasSamePixels(as: region.copy()))
    }

    /// The encoder writes RGB while checking, in its filter pass, that every alpha it drops is 255; one translucent
    /// pixel anywhere (the first, the last, one in the row's tail after its 16-byte blocks, one deep in a band)
    /// makes it encode the image again as RGBA, at every level's path and thread count.
    func testOneTranslucentPixelAnywhereMakesAnRGBAFile() throws {
        let (width, height) = (39, 700)  // 156 bytes a row: the first pixel, 9 blocks of 16, a tail of 2 pixels
        for (x, y) in [(0, 0), (width - 1, height - 1), (width - 1, 3), (17, 650)] {
            let image = TestImages.photoLike(width: width, height: height, seed: 6)
            image[x, y] = Pixel(red: 10, green: 20, blue: 30, alpha: 200)
            for (level, threads) in [(1, 1), (1, 3), (5, 2), (9, 1)] {
                let png = try ImageEncoder.encode(
                    image, as: .png, options: EncodeOptions(pngCompressionLevel: level, threads: threads))
                let decoded = try ImageDecoder.decode(png)
                XCTAssertTrue(decoded.info.hasAlpha, "(\(x), \(y)), level \(level)")
                XCTAssertTrue(decoded.image.hasSamePixels(as: image), "(\(x), \(y)), level \(level)")
            }
        }
        let opaque = TestImages.photoLike(width: width, height: height, seed: 6)
        XCTAssertFalse(try ImageDecoder.decode(ImageEncoder.encode(opaque, as: .png)).info.hasAlpha)
    }

    func testCompressionLevelChangesTheSizeButNotThePixels() throws {
        let original = TestImages.photoLike(width: 64, height: 48, seed: 3)
        let stored = try ImageEncoder.encode(original, as: .png, options: EncodeOptions(pngCompressionLevel: 0))
        let best = try ImageEncoder.encode(original, as: .png, options: EncodeOptions(pngCompressionLevel: 9))
        XCTAssertLessThan(best.count, stored.count)
        XCTAssertGreaterThan(stored.count, 64 * 48 * 3, "level 0 stores the pixels uncompressed")
        XCTAssertTrue(try ImageDecoder.decode(stored).image.hasSamePixels(as: original))
        XCTAssertTrue(try ImageDecoder.decode(best).image.hasSamePixels(as: original))
    }

    /// A still's rows are deflated in bands on the threads (levels 0 and 1, and 2...6 when mostly transparent) or
    /// whole (libdeflate): the same bytes for every thread count, decoded back to the same pixels, in IDAT chunks of
    /// at most 1 MiB (a 700x1500 RGB image is past 3 MB stored, so level 0 needs several).
    func testStillsAreTheSameBytesForEveryThreadCountAndSplitIntoChunks() throws {
        let original = TestImages.photoLike(width: 700, height: 1500, seed: 5)
        for level in [0, 1, 2, 6, 7] {
            let single = try ImageEncoder.encode(
                original, as: .png, options: EncodeOptions(pngCompressionLevel: level, threads: 1))
            for threads in [2, 3, 8] {
                let encoded = try ImageEncoder.encode(
                    original, as: .png, options: EncodeOptions(pngCompressionLevel: level, threads: threads))
                XCTAssertEqual(encoded, single, "level \(level), \(threads) threads")
            }
            XCTAssertTrue(try ImageDecoder.decode(single).image.hasSamePixels(as: original), "level \(level)")
        }
        let stored = try ImageEncoder.encode(original, as: .png, options: EncodeOptions(pngCompressionLevel: 0))
        var offset = 8
        var idatLengths: [Int] = []
        while offset + 12 <= stored.count {
            let length = stored[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: stored[(offset + 4)..<(offset + 8)], as: UTF8.self) == "IDAT" {
                idatLengths.append(length)
            }
            offset += 12 + length
        }
        XCTAssertGreaterThan(idatLengths.count, 2)
        XCTAssertTrue(idatLengths.dropLast().allSatisfy { $0 == 1 << 20 }, "\(idatLengths)")
    }

    /// The file's structure, checked with the test's own CRC: every chunk's CRC is right, IHDR comes first
    /// and IEND last, and without an ICC profile the colour space is declared sRGB.
    func testEncodedFileIsWellFormed() throws {
        let png = try ImageEncoder.encode(TestImages.randomPremultiplied(width: 9, height: 7), as: .png)
        XCTAssertEqual(Array(png.prefix(8)), PNGFileWriter.signature)
        var offset = 8
        var types: [String] = []
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let typeAndData = Array(png[(offset + 4)..<(offset + 8 + length)])
            let crc = png[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            types.append(String(decoding: typeAndData.prefix(4), as: UTF8.self))
            XCTAssertEqual(crc, PNGFileWriter.crc32(typeAndData), "CRC of \(types.last!)")
            if types.last == "IHDR" {
                XCTAssertEqual(Array(typeAndData[4..<17]), [0, 0, 0, 9, 0, 0, 0, 7, 8, 6, 0, 0, 0])
            }
            offset += 12 + length
        }
        XCTAssertEqual(offset, png.count, "nothing after IEND")
        XCTAssertEqual(types.first, "IHDR")
        XCTAssertEqual(types.last, "IEND")
        XCTAssertTrue(types.contains("sRGB"), "chunks: \(types)")
    }

    func testEmptyImageIsRefused() {
        for format in ImageFormat.allCases {
            guard let error = codecError(try ImageEncoder.encode(Image(width: 0, height: 0), as: format)) else {
                continue
            }
            guard case .encodingFailed = error else { return XCTFail("\(format): \(error)") }
        }
    }
}
