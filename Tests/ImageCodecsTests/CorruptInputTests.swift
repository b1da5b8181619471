import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// Damaged input gives a typed `CodecError` (or, where nothing is lost, pixels and at most a warning).
/// `isLenient` keeps what decoded from a truncated file and says so in a warning.
final class CorruptInputTests: XCTestCase {
    private static let photo = TestImages.photoLike(width: 96, height: 64, seed: 21)
    /// Encoded once; a failure surfaces in each test that uses them instead of trapping the whole run.
    private static let encodedJPEG = Result { try ImageEncoder.encode(photo, as: .jpeg) }
    private static let encodedPNG = Result { try ImageEncoder.encode(photo, as: .png) }
    private var intactJPEG: [UInt8] { get throws { try CorruptInputTests.encodedJPEG.get() } }
    private var intactPNG: [UInt8] { get throws { try CorruptInputTests.encodedPNG.get() } }

    func testEmptyBytes() {
        XCTAssertEqual(codecError(try ImageDecoder.decode([])), .empty)
        XCTAssertEqual(codecError(try ImageDecoder.inspect([])), .empty)
    }

    func testTextIsUnrecognised() {
        let text = Array("<html><body>not an image</body></html>\n".utf8)
        XCTAssertEqual(codecError(try ImageDecoder.decode(text)), .unrecognizedFormat)
        XCTAssertEqual(codecError(try ImageDecoder.decode([0xFF, 0xD8])), .unrecognizedFormat, "two bytes of JPEG")
        XCTAssertEqual(
            codecError(try ImageDecoder.decode(Array(PNGFileWriter.signature.prefix(7)))), .unrecognizedFormat)
    }

    /// Cut in the middle of the entropy-coded data: an error, or (lenient) the rows that decoded plus a
    /// warning. (Measured: the first 15 of 64 rows survive this cut, identical to djpeg's output for the
    /// same bytes; libjpeg fills the rest from the fake EOI it inserts.)
    func testJPEGCutAt60Percent() throws {
        let jpeg = try intactJPEG
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10))
        guard case .corrupt = codecError(try ImageDecoder.decode(cut)) else { return XCTFail("not .corrupt") }
        let lenient = try ImageDecoder.decode(cut, options: DecodeOptions(isLenient: true))
        XCTAssertEqual([lenient.image.width, lenient.image.height], [96, 64])
        XCTAssertEqual(lenient.warnings.count, 1, "\(lenient.warnings)")
        let complete = try ImageDecoder.decode(jpeg).image
        XCTAssertTrue(
            lenient.image.region(x: 0, y: 0, width: 96, height: 8)
                .hasSamePixels(as: complete.region(x: 0, y: 0, width: 96, height: 8)),
            "the rows before the cut are intact")
    }

    /// Nothing is lost when only the end marker is missing: pixels as usual, one warning.
    func testJPEGWithoutEOIDecodesWithOneWarning() throws {
        let jpeg = try intactJPEG
        XCTAssertEqual(Array(jpeg.suffix(2)), JPEGBytes.endOfImage)
        let decoded = try ImageDecoder.decode(Array(jpeg.dropLast(2)))
        XCTAssertEqual(decoded.warnings.count, 1, "\(decoded.warnings)")
        XCTAssertTrue(decoded.image.hasSamePixels(as: try ImageDecoder.decode(jpeg).image))
    }

    /// The same for a progressive file, whose last scan refines every coefficient.
    func testProgressiveJPEGWithoutEOIDecodesWithOneWarning() throws {
        let jpeg = try JPEGBytes.encode(CorruptInputTests.photo, progressive: true)
        let decoded = try ImageDecoder.decode(Array(jpeg.dropLast(2)))
        XCTAssertEqual(decoded.warnings.count, 1, "\(decoded.warnings)")
        XCTAssertTrue(decoded.image.hasSamePixels(as: try ImageDecoder.decode(jpeg).image))
    }

    /// Progressive files cut between scans have every row but not every refinement: lost data all the same.
    func testProgressiveJPEGCutBetweenScansIsCorrupt() throws {
        let jpeg = try JPEGBytes.encode(CorruptInputTests.photo, progressive: true)
        let cut = Array(jpeg.prefix(jpeg.count * 6 / 10))
        guard case .corrupt = codecError(try ImageDecoder.decode(cut)) else { return XCTFail("not .corrupt") }
        XCTAssertEqual(try ImageDecoder.decode(cut, options: DecodeOptions(isLenient: true)).warnings.count, 1)
    }

    func testGarbageAfterEOIIsIgnored() throws {
        var random = SeededGenerator(seed: 99)
        let garbage = (0..<500).map { _ in UInt8.random(in: 0...255, using: &random) }
        let decoded = try ImageDecoder.decode(intactJPEG + garbage)
        XCTAssertEqual(decoded.warnings, [])
        XCTAssertTrue(decoded.image.hasSamePixels(as: try ImageDecoder.decode(intactJPEG).image))
        XCTAssertTrue(try ImageDecoder.decode(intactPNG + garbage).image.hasSamePixels(as: CorruptInputTests.photo))
    }

    func testJPEGWithZeroHeightIsAnError() throws {
        let jpeg = JPEGBytes.settingHeight(0, in: try intactJPEG)
        guard case .corrupt = codecError(try ImageDecoder.decode(jpeg)) else { return XCTFail("not .corrupt") }
    }

    /// Our encoder's progressive files have 10 scans; a limit of 3 is the scan-bomb defence at work.
    func testTooManyProgressiveScansIsAnErrorNamingScans() throws {
        let jpeg = try JPEGBytes.encode(CorruptInputTests.photo, progressive: true)
        XCTAssertNoThrow(try ImageDecoder.decode(jpeg, options: DecodeOptions(maxProgressiveScans: 10)), "at the limit")
        XCTAssertThrowsError(try ImageDecoder.decode(jpeg, options: DecodeOptions(maxProgressiveScans: 9)), "one over")
        let error = codecError(try ImageDecoder.decode(jpeg, options: DecodeOptions(maxProgressiveScans: 3)))
        XCTAssertTrue(error?.description.contains("scans") ?? false, "\(String(describing: error))")
        XCTAssertNoThrow(
            try ImageDecoder.decode(intactJPEG, options: DecodeOptions(maxProgressiveScans: 1)),
            "a baseline file has one scan")
    }

    /// The PNG's pixel data cut in half: an error, or (lenient) the rows that decoded, the rest transparent.
    /// libpng reads IDAT data in 8 KB pieces (and our encoder writes 8 KB IDAT chunks), so a lenient decode
    /// keeps only rows whose data lies before the last complete piece: incompressible noise makes this file
    /// 34 KB, of which the first half held 46 of 96 rows (measured). A photoLike 96x64 PNG is 10 KB, and cut
    /// in half it keeps no rows at all, only a warning.
    func testPNGCutInHalf() throws {
        let noise = TestImages.randomPremultiplied(width: 96, height: 96, seed: 21)
        let png = try ImageEncoder.encode(noise, as: .png)
        let cut = Array(png.prefix(png.count / 2))
        guard case .corrupt = codecError(try ImageDecoder.decode(cut)) else { return XCTFail("not .corrupt") }
        let lenient = try ImageDecoder.decode(cut, options: DecodeOptions(isLenient: true))
        XCTAssertEqual(lenient.warnings.count, 1, "\(lenient.warnings)")
        XCTAssertEqual([lenient.image.width, lenient.image.height], [96, 96])
        XCTAssertTrue(
            lenient.image.region(x: 0, y: 0, width: 96, height: 32)
                .hasSamePixels(as: noise.region(x: 0, y: 0, width: 96, height: 32)), "the first rows decoded")
        XCTAssertEqual(lenient.image[95, 95], .transparent, "rows never reached stay clear")
    }

    /// IDAT is critical: a CRC error there means the pixels cannot be trusted.
    func testPNGWithBadIDATCRCIsCorrupt() throws {
        let png = PNGBytes.corruptingCRC(ofChunk: "IDAT", in: try intactPNG)
        guard case .corrupt = codecError(try ImageDecoder.decode(png)) else { return XCTFail("not .corrupt") }
    }

    /// tEXt is ancillary: a CRC error there loses no pixels, so the image decodes (a warning is allowed).
    func testPNGWithBadAncillaryCRCDecodes() throws {
        let withText = PNGBytes.inserting(chunk: "tEXt", data: Array("Comment\0blurred".utf8), into: try intactPNG)
        let decoded = try ImageDecoder.decode(PNGBytes.corruptingCRC(ofChunk: "tEXt", in: withText))
        XCTAssertLessThanOrEqual(decoded.warnings.count, 1)
        XCTAssertTrue(decoded.image.hasSamePixels(as: CorruptInputTests.photo))
    }

    /// Every prefix of small JPEG and PNG files, plus seeded random byte corruptions: each gives pixels or a
    /// CodecError, never a trap. (Small files keep this to a few hundred decodes.)
    func testTruncationsAndCorruptionsNeverTrap() throws {
        let small = TestImages.photoLike(width: 16, height: 16, seed: 2)
        for file in [try ImageEncoder.encode(small, as: .jpeg), try ImageEncoder.encode(small, as: .png)] {
            for length in stride(from: 0, to: file.count, by: max(1, file.count / 150)) {
                for lenient in [false, true] {
                    do {
                        _ = try ImageDecoder.decode(
                            Array(file.prefix(length)), options: DecodeOptions(isLenient: lenient))
                    } catch is CodecError {}
                }
            }
            var random = SeededGenerator(seed: UInt64(file.count))
            for _ in 0..<200 {
                var damaged = file
                for _ in 0..<3 {
                    damaged[Int.random(in: 2..<damaged.count, using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
                do { _ = try ImageDecoder.decode(damaged, options: DecodeOptions(isLenient: true)) } catch is CodecError
                {}
            }
        }
    }
}

/// A damaged chunk type must not put control bytes into the one-line error.
final class ChunkTypeMessageTests: XCTestCase {
    func testUnprintableChunkTypesAreShownInHex() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0] + [0, 0, 0, 0]
        png += [0, 0xF0, 0, 0] + [0x78, 0x0A, 0x79, 0x1B] + [1, 2, 3]  // type "x\ny\u{1B}", length past the end
        XCTAssertThrowsError(try ImageDecoder.decode(png)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("[78 0a 79 1b] chunk claims 15728640 bytes"), text)
            XCTAssertFalse(text.contains("\n"))
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 })
        }
    }
}
