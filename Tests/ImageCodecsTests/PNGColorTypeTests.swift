import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// Every PNG colour type and bit depth, plain and Adam7-interlaced, written by the test's own `PNGFileWriter`
/// and decoded by `ImageDecoder`: each pixel must equal the premultiplied 8-bit value exactly.
final class PNGColorTypeTests: XCTestCase {
    func testGreyscaleAtEveryBitDepth() throws {
        for depth in [1, 2, 4, 8, 16] {
            try assertDecodesExactly(PNGSamples.random(.grey, bitDepth: depth))
        }
        for depth in [1, 2, 4, 8] {  // 16-bit interlaced: see testSixteenBitInterlaced
            try assertDecodesExactly(PNGSamples.random(.grey, bitDepth: depth, interlaced: true))
        }
    }

    func testGreyscaleWithTRNSColourKeyMakesThoseSamplesTransparent() throws {
        try assertDecodesExactly(PNGSamples.random(.grey, bitDepth: 8, transparency: true))
    }

    func testRGBAt8And16Bits() throws {
        for depth in [8, 16] {
            try assertDecodesExactly(PNGSamples.random(.rgb, bitDepth: depth))
        }
        try assertDecodesExactly(PNGSamples.random(.rgb, bitDepth: 8, interlaced: true))
    }

    func testPaletteAtEveryBitDepthWithAndWithoutTRNS() throws {
        for depth in [1, 2, 4, 8] {
            for transparency in [false, true] {
                try assertDecodesExactly(PNGSamples.random(.palette, bitDepth: depth, transparency: transparency))
            }
        }
        try assertDecodesExactly(PNGSamples.random(.palette, bitDepth: 4, interlaced: true, transparency: true))
    }

    func testGreyAlphaAt8And16Bits() throws {
        for depth in [8, 16] {
            try assertDecodesExactly(PNGSamples.random(.greyAlpha, bitDepth: depth))
        }
        try assertDecodesExactly(PNGSamples.random(.greyAlpha, bitDepth: 8, interlaced: true))
    }

    func testRGBAAt8And16Bits() throws {
        for depth in [8, 16] {
            try assertDecodesExactly(PNGSamples.random(.rgba, bitDepth: depth))
        }
        try assertDecodesExactly(PNGSamples.random(.rgba, bitDepth: 8, interlaced: true))
    }

    /// Adam7 with 16-bit samples. On this machine's libpng (Debian 1.6.39-2+deb12u4) this fails: the
    /// simplified API's 16-to-8-bit path for interlaced files (png_image_read_direct_scaled, from the fix for
    /// pnggroup/libpng#755) combines each pass with a stale row, so about half the rows come out wrong
    /// (pnggroup/libpng#853). The same files decode correctly with pngtopnm (libpng's full API).
    func testSixteenBitInterlaced() throws {
        for colorType in [PNGFileWriter.ColorType.grey, .rgb, .greyAlpha, .rgba] {
            try assertDecodesExactly(PNGSamples.random(colorType, bitDepth: 16, interlaced: true))
        }
    }

    /// Images smaller than 8x8 leave some Adam7 passes empty; those have no scanlines at all.
    func testInterlacedImagesWithEmptyPasses() throws {
        for (width, height) in [(1, 1), (2, 3), (5, 1), (1, 6)] {
            try assertDecodesExactly(
                PNGSamples.random(
                    .rgba, bitDepth: 8, interlaced: true, width: width,
                    height: height))
        }
    }

    /// Literal values rather than the reference formula: bit replication below 8 bits.
    func testSubByteGreyScalesByBitReplication() throws {
        let cases: [(depth: Int, samples: [UInt16], expected: [UInt8])] = [
            (1, [0, 1], [0, 255]), (2, [0, 1, 2, 3], [0, 85, 170, 255]), (4, [0, 1, 7, 15], [0, 17, 119, 255]),
        ]
        for (depth, samples, expected) in cases {
            let png = PNGFileWriter(
                width: samples.count, height: 1, colorType: .grey, bitDepth: depth, samples: samples)
            let image = try ImageDecoder.decode(png.encoded()).image
            XCTAssertEqual((0..<samples.count).map { image[$0, 0].red }, expected, "\(depth)-bit grey")
        }
    }

    /// Literal values: 16-bit samples round to the nearest 8-bit value (v / 257), they are not truncated
    /// (v >> 8 would give 1 for 386 and 0 for 129).
    func testSixteenBitSamplesRoundToNearest() throws {
        let samples: [UInt16] = [0, 128, 129, 386, 32767, 65278, 65407, 65535]
        let png = PNGFileWriter(width: samples.count, height: 1, colorType: .grey, bitDepth: 16, samples: samples)
        let image = try ImageDecoder.decode(png.encoded()).image
        XCTAssertEqual((0..<samples.count).map { image[$0, 0].red }, [0, 0, 1, 2, 127, 254, 255, 255])
    }

    func testInfoDescribesTheStoredFormat() throws {
        let palette = try ImageDecoder.decode(
            PNGSamples.random(.palette, bitDepth: 4, interlaced: true, transparency: true).encoded()
        ).info
        XCTAssertEqual(palette.format, .png)
        XCTAssertEqual(palette.colorType, "palette 4-bit, Adam7 interlaced")
        XCTAssertEqual(palette.bitsPerSample, 4)
        XCTAssertTrue(palette.hasAlpha, "tRNS gives a palette image alpha")
        XCTAssertTrue(palette.isInterlaced)
        XCTAssertEqual([palette.storedWidth, palette.storedHeight], [13, 11])

        let grey = try ImageDecoder.decode(PNGSamples.random(.grey, bitDepth: 16).encoded()).info
        XCTAssertEqual(grey.colorType, "greyscale 16-bit")
        XCTAssertEqual(grey.bitsPerSample, 16)
        XCTAssertFalse(grey.hasAlpha)
        XCTAssertFalse(grey.isInterlaced)
        XCTAssertEqual(grey.orientation, .up)
        XCTAssertNil(grey.iccProfile)

        let rgba = try ImageDecoder.decode(PNGSamples.random(.rgba, bitDepth: 16).encoded()).info
        XCTAssertEqual(rgba.colorType, "RGBA 16-bit")
        XCTAssertTrue(rgba.hasAlpha)
        XCTAssertEqual(
            try ImageDecoder.inspect(PNGSamples.random(.greyAlpha, bitDepth: 8).encoded()).colorType,
            "greyscale+alpha 8-bit")
        XCTAssertEqual(
            try ImageDecoder.inspect(PNGSamples.random(.rgb, bitDepth: 16).encoded()).colorType, "RGB 16-bit")
    }

    // MARK: - Helpers

    private func assertDecodesExactly(_ png: PNGFileWriter, file: StaticString = #filePath, line: UInt = #line) throws {
        let label =
            "\(png.colorType) \(png.bitDepth)-bit\(png.isInterlaced ? " interlaced" : "")"
            + "\(png.transparency != nil ? " tRNS" : "") \(png.width)x\(png.height)"
        let decoded = try ImageDecoder.decode(png.encoded())
        XCTAssertEqual(
            [decoded.image.width, decoded.image.height], [png.width, png.height], label, file: file, line: line)
        XCTAssertEqual(decoded.warnings, [], label, file: file, line: line)
        guard decoded.image.width == png.width, decoded.image.height == png.height else { return }
        let expected = PNGSamples.expectedPixels(of: png)
        var mismatches: [String] = []
        for (index, pixel) in expected.enumerated() {
            let actual = decoded.image[index % png.width, index / png.width]
            if actual != pixel {
                mismatches.append("(\(index % png.width), \(index / png.width)): \(actual) != \(pixel)")
            }
        }
        XCTAssertTrue(
            mismatches.isEmpty, "\(label): \(mismatches.count) pixels differ, first \(mismatches.prefix(3))",
            file: file, line: line)
    }
}
