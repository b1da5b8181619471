import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The APNG reader refuses damaged and hostile files with a CodecError, never a trap.
final class AnimatedPNGDecoderTests: XCTestCase {
    /// Three 16×12 frames: IHDR, sRGB, acTL, fcTL, IDAT, fcTL, fdAT, fcTL, fdAT, IEND.
    private func sample() throws -> [(type: String, data: [UInt8])] {
        let frames = AnimationFrames.sliding(count: 3, width: 16, height: 12, step: 2)
        let encoder = AnimatedPNGEncoder(width: 16, height: 12, frameDelay: FrameDelay(1, 10), opaque: true)
        let encoded = try [
            encoder.encodeFrame(frames[0], previous: nil), encoder.encodeFrame(frames[1], previous: frames[0]),
            encoder.encodeFrame(frames[2], previous: frames[1]),
        ]
        return AnimationFrames.chunks(encoder.assemble(encoded))
    }

    private func assertRefused(
        _ bytes: [UInt8], maxPixels: Int = 1 << 20, _ expected: (CodecError) -> Bool, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertThrowsError(try AnimatedPNGDecoder.decode(bytes, maxPixels: maxPixels), file: file, line: line) {
            error in
            guard let error = error as? CodecError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(expected(error), "\(error)", file: file, line: line)
        }
    }

    private func isCorrupt(_ fragment: String) -> (CodecError) -> Bool {
        { error in
            if case .corrupt(let message) = error { return message.contains(fragment) }
            return false
        }
    }

    func testTheSampleDecodes() throws {
        XCTAssertEqual(
            try AnimatedPNGDecoder.decode(AnimationFrames.file(sample()), maxPixels: 1 << 20).frames.count, 3)
    }

    func testEveryTruncationIsRefused() throws {
        let bytes = AnimationFrames.file(try sample())
        for length in 0..<bytes.count {
            XCTAssertThrowsError(
                try AnimatedPNGDecoder.decode(Array(bytes[..<length]), maxPixels: 1 << 20), "\(length)")
        }
    }

    func testBadCRCIsRefused() throws {
        var bytes = AnimationFrames.file(try sample())
        bytes[bytes.count - 20] ^= 0x10  // inside the last fdAT
        assertRefused(bytes, isCorrupt("CRC"))
    }

    func testFramePastTheCanvasIsRefused() throws {
        var chunks = try sample()
        chunks[7].data[19] = 9  // the third fcTL's y offset: 9 + the box's height passes 12 rows
        assertRefused(AnimationFrames.file(chunks), isCorrupt("not inside the 16x12 canvas"))
    }

    func testHugeOffsetsDoNotOverflow() throws {
        var chunks = try sample()
        chunks[5].data.replaceSubrange(12..<20, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        assertRefused(AnimationFrames.file(chunks), isCorrupt("not inside"))
    }

    func testSequenceNumbersOutOfOrderAreRefused() throws {
        var chunks = try sample()
        chunks[6].data[3] = 5  // the first fdAT's number should be 2
        assertRefused(AnimationFrames.file(chunks), isCorrupt("expected 2"))
        chunks = try sample()
        chunks.swapAt(5, 6)  // fdAT before its fcTL
        assertRefused(AnimationFrames.file(chunks), isCorrupt("fdAT"))
    }

    func testFrameCountMustMatchActl() throws {
        var chunks = try sample()
        chunks[2].data[3] = 4
        assertRefused(AnimationFrames.file(chunks), isCorrupt("declares 4 frames, the file has 3"))
        chunks[2].data[3] = 2
        assertRefused(AnimationFrames.file(chunks), isCorrupt("more fcTL chunks"))
    }

    func testPixelLimitCountsEveryFrame() throws {
        let bytes = AnimationFrames.file(try sample())
        XCTAssertNoThrow(try AnimatedPNGDecoder.decode(bytes, maxPixels: 16 * 12 * 3))
        assertRefused(bytes, maxPixels: 16 * 12 * 3 - 1) { if case .limitExceeded = $0 { true } else { false } }
        assertRefused(bytes, maxPixels: 100) { $0 == .tooManyPixels(width: 16, height: 12, limit: 100) }
    }

    func testDataThatInflatesShortOrLongIsRefused() throws {
        var chunks = try sample()
        chunks[6].data = Array(chunks[6].data[..<4]) + PNGFileWriter.storedZlib([0, 1, 2])
        assertRefused(AnimationFrames.file(chunks), isCorrupt("does not inflate"))
        chunks[6].data = Array(chunks[6].data[..<4]) + PNGFileWriter.storedZlib([UInt8](repeating: 0, count: 10_000))
        assertRefused(AnimationFrames.file(chunks), isCorrupt("does not inflate"))
    }

    func testUnknownFilterTypeIsRefused() throws {
        var chunks = try sample()
        let rowBytes = 1 + 16 * 4
        var rows = [UInt8](repeating: 0, count: rowBytes * 12)
        rows[rowBytes * 5] = 5
        chunks[4].data = PNGFileWriter.storedZlib(rows)
        assertRefused(AnimationFrames.file(chunks), isCorrupt("filter type 5"))
    }

    func testNotPNGAndEmptyAreRefused() {
        assertRefused([]) { $0 == .empty }
        assertRefused(Array("GIF89a".utf8)) { $0 == .unrecognizedFormat }
    }

    /// Dispose ops and the over blend, which our writer never uses but other writers do.
    func testDisposeAndBlendOpsCompose() throws {
        let red = Pixel(red: 255, green: 0, blue: 0)
        let halfBlue = Pixel(red: 0, green: 0, blue: 128, alpha: 128)
        func frameData(_ pixels: [Pixel], width: Int) -> [UInt8] {
            var rows: [UInt8] = []
            for (index, pixel) in pixels.enumerated() {
                if index % width == 0 { rows.append(0) }
                // Straight alpha in the file: (0, 0, 255, 128) is half-transparent blue.
                rows += pixel == halfBlue ? [0, 0, 255, 128] : [pixel.red, pixel.green, pixel.blue, pixel.alpha]
            }
            return PNGFileWriter.storedZlib(rows)
        }
        func fcTL(_ sequence: UInt32, x: UInt32, width: UInt32, dispose: UInt8, blend: UInt8) -> [UInt8] {
            [sequence, width, 1, x, 0].flatMap(PNGFileWriter.bigEndian) + [0, 1, 0, 10, dispose, blend]
        }
        let bytes = AnimationFrames.file([
            ("IHDR", PNGFileWriter.bigEndian(2) + PNGFileWriter.bigEndian(1) + [8, 6, 0, 0, 0]),
            ("acTL", PNGFileWriter.bigEndian(3) + PNGFileWriter.bigEndian(1)),
            ("fcTL", fcTL(0, x: 0, width: 2, dispose: 0, blend: 0)), ("IDAT", frameData([red, red], width: 2)),
            // Over the red: (255·½, 0, 128) premultiplied; then restored to red ("previous").
            ("fcTL", fcTL(1, x: 1, width: 1, dispose: 2, blend: 1)),
            ("fdAT", PNGFileWriter.bigEndian(2) + frameData([halfBlue], width: 1)),
            // Source blend replaces, then "background" clears it for the frames after.
            ("fcTL", fcTL(3, x: 0, width: 1, dispose: 1, blend: 0)),
            ("fdAT", PNGFileWriter.bigEndian(4) + frameData([halfBlue], width: 1)), ("IEND", []),
        ])
        let decoded = try AnimatedPNGDecoder.decode(bytes, maxPixels: 100)
        XCTAssertEqual(decoded.loopCount, 1)
        XCTAssertEqual(
            decoded.frames.map { [$0[0, 0], $0[1, 0]] },
            [
                [red, red], [red, Pixel(red: 127, green: 0, blue: 128, alpha: 255)], [halfBlue, red],
            ])
    }

    /// An IDAT before the first fcTL is a still image for readers without APNG, not a frame.
    func testStillImageBeforeTheFirstFcTLIsNotAFrame() throws {
        let frames = AnimationFrames.sliding(count: 2, width: 16, height: 12, step: 2)
        let encoder = AnimatedPNGEncoder(width: 16, height: 12, frameDelay: FrameDelay(1, 10), opaque: true)
        let still = try encoder.encodeFrame(frames[0], previous: nil)
        let first = try encoder.encodeFrame(frames[1], previous: nil)
        var chunks = AnimationFrames.chunks(encoder.assemble([first]))
        let fcTL = chunks[3]
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "sRGB", "acTL", "fcTL", "IDAT", "IEND"])
        chunks[3] = ("IDAT", still.data)
        chunks[4] = fcTL
        chunks.insert(("fdAT", PNGFileWriter.bigEndian(1) + first.data), at: 5)
        let decoded = try AnimatedPNGDecoder.decode(AnimationFrames.file(chunks), maxPixels: 1 << 20)
        XCTAssertEqual(decoded.frames.count, 1)
        XCTAssertTrue(decoded.frames[0].hasSamePixels(as: frames[1]))
    }

    func testFrameInIDATMustCoverTheCanvas() throws {
        var chunks = try sample()
        chunks[3].data[7] = 15  // frame 0 one column narrower
        assertRefused(AnimationFrames.file(chunks), isCorrupt("does not cover the whole canvas"))
    }

    func testPlainPNGIsOneFrame() throws {
        let image = TestImages.photoLike(width: 9, height: 7)
        let decoded = try AnimatedPNGDecoder.decode(ImageEncoder.encode(image, as: .png), maxPixels: 100)
        XCTAssertEqual(decoded.frames.count, 1)
        XCTAssertTrue(decoded.frames[0].hasSamePixels(as: image))
    }

    /// Seeded damage inside chunks, CRCs made right again so the semantic checks are what stands: every case
    /// decodes or throws a CodecError (a trap would end the test run), within the pixel limit.
    func testDamagedChunksWithValidCRCsNeverTrap() throws {
        let original = try sample()
        var random = SeededGenerator(seed: 11)
        var refused = 0
        for _ in 0..<3000 {
            var chunks = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<chunks.count, using: &random)
                guard !chunks[index].data.isEmpty else { continue }
                let offset = Int.random(in: 0..<chunks[index].data.count, using: &random)
                chunks[index].data[offset] =
                    [0, 0xFF, 1, UInt8.random(in: 0...255, using: &random)][
                        Int.random(in: 0..<4, using: &random)]
            }
            if Int.random(in: 0..<8, using: &random) == 0 {
                chunks.remove(at: Int.random(in: 0..<chunks.count, using: &random))
            }
            do {
                let decoded = try AnimatedPNGDecoder.decode(AnimationFrames.file(chunks), maxPixels: 1 << 16)
                XCTAssertLessThanOrEqual(decoded.frames.reduce(0) { $0 + $1.pixelCount }, 1 << 16)
            } catch is CodecError {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 1000, "most damage is found")
    }
}
