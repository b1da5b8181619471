import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// RGB ICC profiles pass through: what `EncodeOptions.iccProfile` holds is embedded (JPEG APP2 chunks, PNG
/// iCCP) and comes back byte for byte in `ImageInfo.iccProfile`. Other profiles: ICCPassThroughTests.
final class ICCProfileTests: XCTestCase {
    private let image = TestImages.photoLike(width: 24, height: 16, seed: 9)

    /// 3000 seeded random bytes. libjpeg stores a profile as-is (split into APP2 chunks of up to 65519
    /// bytes), never looking inside; the decoder drops it, having no valid ICC header.
    static func randomProfile(count: Int = 3000) -> [UInt8] {
        var random = SeededGenerator(seed: 3000)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// libpng checks a profile before writing iCCP (png_icc_check_length/header/tag_table) and, with the
    /// encoder's benign errors, silently drops one it dislikes. Measured with libpng 1.6.39 by breaking one
    /// field at a time, it needs: the length at bytes 0-3 equal to the real length; 'acsp' at 36; a colour
    /// space at 16 matching the PNG ('RGB '); a PCS at 20 of 'XYZ ' or 'Lab '; a device class at 12 other
    /// than abstract or link ('mntr' here); and a tag count at 128 whose table fits (0 tags). It accepted a
    /// bad version, rendering intent, illuminant, date or a length that is not a multiple of 4; those fields
    /// are set properly here all the same (version 2.1, perceptual, D50).
    /// `colorSpace` and `deviceClass` are the four-letter signatures at bytes 16 and 12.
    static func minimalValidProfile(
        count: Int = 3000, colorSpace: String = "RGB ", deviceClass: String = "mntr"
    )
        -> [UInt8]
    {
        var profile = randomProfile(count: count)
        func put(_ bytes: [UInt8], at offset: Int) {
            profile.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
        put(PNGFileWriter.bigEndian(UInt32(count)), at: 0)
        put([0, 0, 0, 0], at: 4)  // preferred CMM: none
        put([2, 0x10, 0, 0], at: 8)  // version 2.1
        put(Array((deviceClass + colorSpace + "XYZ ").utf8), at: 12)  // device class, colour space, PCS
        put([UInt8](repeating: 0, count: 12), at: 24)  // date and time
        put(Array("acsp".utf8), at: 36)
        put([UInt8](repeating: 0, count: 28), at: 40)  // platform, flags, manufacturer, model, attributes
        put([0, 0, 0, 0], at: 64)  // perceptual rendering intent
        put([0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D], at: 68)  // D50 as s15Fixed16
        put([UInt8](repeating: 0, count: 60), at: 80)  // creator, ID, reserved, then a tag count of 0 at 128
        return profile
    }

    func testJPEGCarriesAProfileThrough() throws {
        let profile = ICCProfileTests.minimalValidProfile()
        let jpeg = try ImageEncoder.encode(image, as: .jpeg, options: EncodeOptions(iccProfile: profile))
        XCTAssertEqual(try ImageDecoder.decode(jpeg).info.iccProfile, profile)
        XCTAssertEqual(try ImageDecoder.inspect(jpeg).iccProfile, profile, "inspect reads it too")
    }

    /// Larger than one APP2 segment holds, so libjpeg splits it and the decoder must reassemble it.
    func testJPEGReassemblesAProfileSpanningSeveralSegments() throws {
        let profile = ICCProfileTests.minimalValidProfile(count: 150_000)
        let jpeg = try ImageEncoder.encode(image, as: .jpeg, options: EncodeOptions(iccProfile: profile))
        XCTAssertEqual(try ImageDecoder.decode(jpeg).info.iccProfile, profile)
    }

    func testPNGCarriesAValidProfileThrough() throws {
        let profile = ICCProfileTests.minimalValidProfile()
        for original in [image, TestImages.randomPremultiplied(width: 24, height: 16)] {  // RGB and RGBA files
            let png = try ImageEncoder.encode(original, as: .png, options: EncodeOptions(iccProfile: profile))
            let decoded = try ImageDecoder.decode(png)
            XCTAssertEqual(decoded.info.iccProfile, profile)
            XCTAssertTrue(decoded.image.hasSamePixels(as: original), "a profile must not change the pixels")
        }
    }

    /// A profile with a meaningless header is refused before libpng (which would drop it silently) or
    /// libjpeg (which would embed it) sees it.
    func testAMeaninglessProfileIsRefusedByEitherEncoder() {
        for format in [ImageFormat.png, .jpeg] {
            XCTAssertThrowsError(
                try ImageEncoder.encode(
                    image, as: format, options: EncodeOptions(iccProfile: ICCProfileTests.randomProfile()))
            ) { error in
                XCTAssertEqual(
                    "\(error)", "could not encode: refused the ICC profile: not a valid ICC header (3000 bytes)")
            }
        }
    }

    /// The decoder reads iCCP itself (libpng's simplified API does not expose it), from a file our encoder
    /// did not write: a zlib stream of stored blocks, inflated by the decoder's bounded inflate.
    func testPNGReadsIccpWrittenByAnotherEncoder() throws {
        let profile = ICCProfileTests.minimalValidProfile(count: 70_000)  // two stored blocks
        var png = PNGSamples.random(.rgb, bitDepth: 8)
        png.chunksBeforeImageData = [("iCCP", Array("Some profile".utf8) + [0, 0] + PNGFileWriter.storedZlib(profile))]
        XCTAssertEqual(try ImageDecoder.decode(png.encoded()).info.iccProfile, profile)
    }

    func testNoProfileMeansNil() throws {
        for format in ImageFormat.allCases {
            XCTAssertNil(try ImageDecoder.decode(ImageEncoder.encode(image, as: format)).info.iccProfile, "\(format)")
        }
    }
}
