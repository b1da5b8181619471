import Compositor
import ImageCodecs
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Checks against the shared robustness corpus (`../shared/corpus`), skipped where it is absent. Big files
/// are decoded at 1/4 or 1/8 scale to keep the debug build fast.
final class CorpusTests: XCTestCase {
    private func corpusFile(_ name: String) throws -> [UInt8] {
        let path = Fixtures.corpus + name
        guard let file = fopen(path, "rb") else { throw XCTSkip("no corpus file at \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// Both files were made from the same picture (the corpus README: gen-* files come from one photo via
    /// ImageMagick); ImageMagick's own decode gives mean RGB (98.0, 115.5, 133.2) for the CMYK file and
    /// (98.2, 115.5, 134.0) for the 4:2:2 one, so they do share a source. Our decoder, at 1/4 scale, measured
    /// (97.9, 115.2, 133.4) and (98.2, 115.5, 134.0), and 40.9 dB between the two images. Adobe applications
    /// store CMYK inverted (APP14, here with transform 2, YCCK); treating it as plain CMYK gives means of
    /// about (28, 20, 10), computed from ImageMagick's channels, far outside the 12 allowed.
    func testAdobeCMYKJPEGIsNotANegative() throws {
        let cmykFile = try corpusFile("valid/jpeg/gen-cmyk-adobe-600x400.jpg")
        let rgbFile = try corpusFile("valid/jpeg/gen-422-600x400.jpg")
        let cmyk = try ImageDecoder.decode(cmykFile, options: DecodeOptions(scaleDenominator: 4))
        let rgb = try ImageDecoder.decode(rgbFile, options: DecodeOptions(scaleDenominator: 4))
        XCTAssertEqual([cmyk.info.storedWidth, cmyk.info.storedHeight], [rgb.info.storedWidth, rgb.info.storedHeight])
        XCTAssertTrue(
            cmyk.info.colorType.hasPrefix("YCCK") || cmyk.info.colorType.hasPrefix("CMYK"), cmyk.info.colorType)
        let cmykMean = ReferenceMath.meanColor(of: cmyk.image)
        let rgbMean = ReferenceMath.meanColor(of: rgb.image)
        XCTAssertEqual(cmykMean.red, rgbMean.red, accuracy: 12, "CMYK \(cmykMean), RGB \(rgbMean)")
        XCTAssertEqual(cmykMean.green, rgbMean.green, accuracy: 12)
        XCTAssertEqual(cmykMean.blue, rgbMean.blue, accuracy: 12)
        XCTAssertGreaterThan(
            ImageDifference(cmyk.image, rgb.image, channels: 3).psnr, 35, "same picture, pixel by pixel")
    }

    /// PngSuite's basi* files are the Adam7-interlaced twins of its basn* files: the same pixels, so each
    /// pair must decode identically (an independent check on interlacing, with files from another writer).
    func testPngSuiteInterlacedFilesMatchTheirNonInterlacedTwins() throws {
        let kinds = [
            "0g01", "0g02", "0g04", "0g08", "0g16", "2c08", "2c16", "3p01", "3p02", "3p04", "3p08",
            "4a08", "4a16", "6a08", "6a16",
        ]
        var mismatched: [String] = []
        for kind in kinds {
            let plain = try ImageDecoder.decode(corpusFile("valid/pngsuite/basn\(kind).png"))
            let interlaced = try ImageDecoder.decode(corpusFile("valid/pngsuite/basi\(kind).png"))
            XCTAssertTrue(interlaced.info.isInterlaced, kind)
            if !interlaced.image.hasSamePixels(as: plain.image) { mismatched.append(kind) }
        }
        XCTAssertEqual(mismatched, [], "interlaced twins that decode differently")
    }

    /// The crafted EXIF files name the orientation they carry; hostile ones must still decode upright.
    func testCraftedEXIFFiles() throws {
        let cases: [(String, Orientation)] = [
            ("exif-orient2-II", .upMirrored), ("exif-orient3-II", .down), ("exif-orient4-MM", .downMirrored),
            ("exif-orient5-II", .leftMirrored), ("exif-orient6-II", .right), ("exif-orient6-MM", .right),
            ("exif-orient6-as-long", .right), ("exif-orient7-MM", .rightMirrored), ("exif-orient8-MM", .left),
            ("exif-orient0-invalid", .up), ("exif-orient9-invalid", .up), ("exif-orient65535-invalid", .up),
            ("exif-bad-byte-order", .up), ("exif-ifd0-offset-out-of-range", .up), ("exif-truncated-tiff-header", .up),
            ("exif-two-app1-first6-second3", .right), ("exif-orient6-cmyk", .right),
            ("exif-orient8-gray-progressive", .left),
        ]
        for (name, orientation) in cases {
            let decoded = try ImageDecoder.decode(
                corpusFile("exif/crafted/\(name).jpg"),
                options: DecodeOptions(scaleDenominator: 8))
            XCTAssertEqual(decoded.info.orientation, orientation, name)
            let isPortrait = decoded.image.height > decoded.image.width
            XCTAssertEqual(
                isPortrait, orientation.swapsDimensions, "\(name): \(decoded.image.width)x\(decoded.image.height)")
        }
        for name in ["exif-entry-count-65535", "exif-ifd-self-loop"] {  // any orientation, but they decode
            XCTAssertNoThrow(try ImageDecoder.decode(corpusFile("exif/crafted/\(name).jpg")), name)
        }
    }

    /// A greyscale JPEG comes out as RGBA with red = green = blue.
    func testGreyscaleJPEGDecodesToGreyRGB() throws {
        let decoded = try ImageDecoder.decode(
            corpusFile("valid/jpeg/pillow-hopper_gray.jpg"),
            options: DecodeOptions(scaleDenominator: 2))
        XCTAssertEqual(decoded.info.colorType, "greyscale")
        var notGrey = 0
        for y in 0..<decoded.image.height {
            for x in 0..<decoded.image.width {
                let p = decoded.image[x, y]
                if p.red != p.green || p.green != p.blue || p.alpha != 255 { notGrey += 1 }
            }
        }
        XCTAssertEqual(notGrey, 0)
        XCTAssertGreaterThan(ReferenceMath.meanColor(of: decoded.image).red, 20, "not black")
    }
}
