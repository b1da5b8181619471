import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The decoders return RGB(A) pixels whatever the file stored, so a profile is passed on only when its header
/// says it describes RGB pixels: a CMYK or grey profile on an RGB output makes colour-managed viewers misrender
/// or reject the file. A dropped profile leaves one warning; the output is untagged (taken as sRGB).
final class ICCPassThroughTests: XCTestCase {
    private let image = TestImages.photoLike(width: 24, height: 16, seed: 9)

    private func profile(_ colorSpace: String, deviceClass: String = "mntr") -> [UInt8] {
        ICCProfileTests.minimalValidProfile(count: 1000, colorSpace: colorSpace, deviceClass: deviceClass)
    }

    /// A JPEG holding `profile` in one APP2 segment, as any writer stores it.
    private func jpeg(_ base: [UInt8]? = nil, carrying profile: [UInt8]) throws -> [UInt8] {
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile  // sequence 1 of 1
        return JPEGBytes.inserting(appSegment: 2, payload: payload, into: try base ?? JPEGBytes.encode(image))
    }

    private func png(_ kind: PNGFileWriter.ColorType, carrying profile: [UInt8]) -> [UInt8] {
        var png = PNGSamples.random(kind, bitDepth: 8)
        png.chunksBeforeImageData = [("iCCP", Array("p".utf8) + [0, 0] + PNGFileWriter.storedZlib(profile))]
        return png.encoded()
    }

    private func assertDropped(
        _ decoded: DecodedImage, because reason: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNil(decoded.info.iccProfile, file: file, line: line)
        XCTAssertEqual(decoded.warnings, ["dropped the embedded ICC profile: \(reason)"], file: file, line: line)
    }

    func testAnRGBProfileInAJPEGPassesWithoutAWarning() throws {
        let rgb = profile("RGB ")
        let decoded = try ImageDecoder.decode(jpeg(carrying: rgb))
        XCTAssertEqual(decoded.info.iccProfile, rgb)
        XCTAssertEqual(decoded.warnings, [])
    }

    func testCMYKAndGreyProfilesInAJPEGAreDropped() throws {
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: profile("CMYK"))),
            because: "it describes 'CMYK' pixels and the output is RGB")
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: profile("GRAY"))),
            because: "it describes 'GRAY' pixels and the output is RGB")
        let inspected = try ImageDecoder.inspect(jpeg(carrying: profile("CMYK")))
        XCTAssertNil(inspected.iccProfile, "inspect drops it too")
        XCTAssertEqual(inspected.droppedICCProfileReason, "it describes 'CMYK' pixels and the output is RGB")
    }

    /// A real CMYK JPEG (Adobe, inverted) with the CMYK profile Photoshop would embed: the pixels come out
    /// RGB by formula, so the profile cannot describe them.
    func testACMYKJPEGWithItsCMYKProfileComesOutUntagged() throws {
        let decoded = try ImageDecoder.decode(
            jpeg(TinyJPEGs.adobeCMYKMagenta, carrying: profile("CMYK", deviceClass: "prtr")))
        XCTAssertEqual(decoded.info.colorType, "CMYK")
        let pixel = decoded.image[3, 3]
        XCTAssertEqual([pixel.red, pixel.green, pixel.blue], [255, 0, 255], "the formula's magenta")
        assertDropped(decoded, because: "it describes 'CMYK' pixels and the output is RGB")
    }

    /// A grey JPEG with a grey profile: libjpeg returns the grey as RGB, so the profile goes.
    func testAGreyJPEGWithItsGreyProfileComesOutUntagged() throws {
        let decoded = try ImageDecoder.decode(jpeg(TinyJPEGs.grey128, carrying: profile("GRAY", deviceClass: "scnr")))
        XCTAssertEqual(decoded.info.colorType, "greyscale")
        let pixel = decoded.image[3, 3]
        XCTAssertEqual([pixel.red, pixel.green, pixel.blue], [128, 128, 128])
        assertDropped(decoded, because: "it describes 'GRAY' pixels and the output is RGB")
    }

    /// Colour space names padded with spaces ('Lab ') are shown without the padding; unprintable ones in hex.
    func testOtherColourSpacesAndDeviceClassesAreDropped() throws {
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: profile("Lab "))),
            because: "it describes 'Lab' pixels and the output is RGB")
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: profile("RGB ", deviceClass: "link"))),
            because: "its device class is 'link'")
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: profile("\u{1}\n\u{1B}A"))),
            because: "it describes [01 0a 1b 41] pixels and the output is RGB")
    }

    func testProfilesWithoutAValidHeaderAreDropped() throws {
        var unsigned = profile("RGB ")
        unsigned.replaceSubrange(36..<40, with: Array("ACSP".utf8))
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: unsigned)), because: "not a valid ICC header (1000 bytes)")
        assertDropped(
            try ImageDecoder.decode(jpeg(carrying: Array(profile("RGB ").prefix(127)))),
            because: "not a valid ICC header (127 bytes)")
    }

    func testPNGKeepsAnRGBProfileAndDropsAGreyOne() throws {
        let rgb = profile("RGB ")
        let kept = try ImageDecoder.decode(png(.rgb, carrying: rgb))
        XCTAssertEqual(kept.info.iccProfile, rgb)
        XCTAssertEqual(kept.warnings, [])
        // A grey PNG with its (valid) grey profile: the decoded pixels are RGBA, so the profile cannot follow.
        let grey = try ImageDecoder.decode(png(.grey, carrying: profile("GRAY")))
        XCTAssertEqual(grey.info.colorType, "greyscale 8-bit")
        assertDropped(grey, because: "it describes 'GRAY' pixels and the output is RGB")
    }

    /// What the CLI does: decode, then encode with `info.iccProfile`. A dropped profile must not reach either
    /// output format; a kept one reaches both.
    func testOutputsCarryOnlyTheProfilesThatDescribeThem() throws {
        let rgb = profile("RGB ")
        for (embedded, expected) in [(profile("CMYK"), nil), (profile("GRAY"), nil), (rgb, rgb)] {
            let decoded = try ImageDecoder.decode(jpeg(carrying: embedded))
            for format in ImageFormat.allCases {
                let output = try ImageEncoder.encode(
                    decoded.image, as: format, options: EncodeOptions(iccProfile: decoded.info.iccProfile))
                XCTAssertEqual(try ImageDecoder.decode(output).info.iccProfile, expected, "\(format)")
            }
        }
    }

    /// The encoder is the last gate: a library caller handing it a profile that cannot tag RGB pixels gets an
    /// error, not a file that viewers misrender.
    func testTheEncoderRefusesAProfileThatCannotTagRGB() throws {
        for format in [ImageFormat.jpeg, .png] {
            XCTAssertNoThrow(
                try ImageEncoder.encode(image, as: format, options: EncodeOptions(iccProfile: profile("RGB "))))
            XCTAssertThrowsError(
                try ImageEncoder.encode(image, as: format, options: EncodeOptions(iccProfile: profile("CMYK")))
            ) { error in
                XCTAssertEqual(
                    "\(error)",
                    "could not encode: refused the ICC profile: it describes 'CMYK' pixels and the output is RGB")
            }
            XCTAssertThrowsError(
                try ImageEncoder.encode(image, as: format, options: EncodeOptions(iccProfile: [1, 2, 3])))
        }
    }
}
