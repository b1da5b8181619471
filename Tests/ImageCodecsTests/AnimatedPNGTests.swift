import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The APNG writer, read back by the project's reader and, for frame 0, by libpng.
final class AnimatedPNGTests: XCTestCase {
    private func encode(
        _ frames: [Image], opaque: Bool, delay: (UInt16, UInt16) = (1, 30), loopCount: Int = 0, threads: Int = 1,
        level: Int = 6
    ) throws -> [UInt8] {
        let encoder = AnimatedPNGEncoder(
            width: frames[0].width, height: frames[0].height, frameDelay: FrameDelay(delay.0, delay.1), loopCount: loopCount,
            opaque: opaque, compressionLevel: level, threads: threads)
        var encoded: [AnimatedPNGFrame] = []
        for (index, frame) in frames.enumerated() {
            encoded.append(try encoder.encodeFrame(frame, previous: index == 0 ? nil : frames[index - 1]))
        }
        return encoder.assemble(encoded)
    }

    func testOpaqueFramesRoundTripExactly() throws {
        let frames = AnimationFrames.sliding(count: 5, width: 60, height: 40)
        let png = try encode(frames, opaque: true, delay: (1, 25), loopCount: 3)
        let decoded = try AnimatedPNGDecoder.decode(png, maxPixels: 1 << 20)
        XCTAssertEqual(decoded.frames.count, 5)
        XCTAssertEqual(decoded.delays, Array(repeating: 0.04, count: 5))
        XCTAssertEqual(decoded.loopCount, 3)
        for (index, frame) in decoded.frames.enumerated() {
            XCTAssertTrue(frame.hasSamePixels(as: frames[index]), "frame \(index)")
        }
        let chunks = AnimationFrames.chunks(png)
        XCTAssertEqual(chunks[0].data[9], 6, "RGBA, so later frames can keep pixels by being transparent")
        let controls = chunks.filter { $0.type == "fcTL" }
        XCTAssertEqual(controls.count, 5)
        XCTAssertEqual(controls.map { $0.data[25] }, [0, 1, 1, 1, 1], "later frames blend over")
    }

    /// Premultiplied → straight → premultiplied is lossless (see PNGEncoderRoundTripTests), so RGBA frames
    /// with every alpha, 0 included, must come back to the byte.
    func testTranslucentFramesRoundTripExactly() throws {
        let frames = AnimationFrames.sliding(count: 4, width: 48, height: 36, translucent: true)
        let png = try encode(frames, opaque: false)
        XCTAssertEqual(AnimationFrames.chunks(png)[0].data[9], 6, "colour type RGBA")
        let decoded = try AnimatedPNGDecoder.decode(png, maxPixels: 1 << 20)
        XCTAssertEqual(decoded.frames.count, 4)
        for (index, frame) in decoded.frames.enumerated() {
            XCTAssertTrue(frame.hasSamePixels(as: frames[index]), ImageDifference(frame, frames[index]).description)
        }
    }

    /// Frames after the first carry only the rectangle that changed; an unchanged frame is still a frame.
    /// A file written in parts (header, each frame's chunks, trailer), as `animate` streams it, is the same bytes
    /// as one assembled at once.
    func testFrameByFrameWritingIsTheAssembledFile() throws {
        let frames = AnimationFrames.sliding(count: 4, width: 40, height: 30)
        let encoder = AnimatedPNGEncoder(width: 40, height: 30, frameDelay: FrameDelay(1, 30), loopCount: 2, opaque: true)
        var encoded: [AnimatedPNGFrame] = []
        for (index, frame) in frames.enumerated() {
            encoded.append(try encoder.encodeFrame(frame, previous: index == 0 ? nil : frames[index - 1]))
        }
        var stream = try encoder.stream(frameCount: 4)
        var streamed = stream.header
        for frame in encoded { streamed += try stream.chunks(of: frame) }
        streamed += try stream.trailer()
        XCTAssertEqual(streamed, encoder.assemble(encoded))
        // The stream keeps the format's order: no frame past the count, no trailer before the last, a first
        // frame that covers the canvas.
        XCTAssertThrowsError(try stream.chunks(of: encoded[1]))
        var early = try encoder.stream(frameCount: 4)
        _ = try early.chunks(of: encoded[0])
        XCTAssertThrowsError(try early.trailer())
        var partial = try encoder.stream(frameCount: 4)
        XCTAssertThrowsError(try partial.chunks(of: encoded[1])) {
            XCTAssertTrue("\($0)".contains("does not cover the 40x30 canvas"), "\($0)")
        }
        XCTAssertEqual(try AnimatedPNGDecoder.decode(streamed, maxPixels: 1 << 20).frames.count, 4)
    }

    /// acTL holds the frame count in 32 bits: a count it cannot hold is an error, not a trap.
    func testAFrameCountACTLCannotHoldIsRefused() throws {
        let encoder = AnimatedPNGEncoder(width: 4, height: 4, frameDelay: FrameDelay(1, 30), opaque: true)
        for count in [0, -1, Int(UInt32.max) + 1, 4_320_000_001, Int.max] {
            XCTAssertThrowsError(try encoder.stream(frameCount: count)) {
                guard case .limitExceeded(let message) = $0 as? CodecError else { return XCTFail("\($0)") }
                XCTAssertTrue(message.contains("\(count)"), message)
            }
        }
        let largest = try encoder.stream(frameCount: Int(UInt32.max)).header
        // acTL's payload follows the signature (8), IHDR (25) and sRGB (13) and its own length and type (8).
        XCTAssertEqual(Array(largest[54..<58]), [0xFF, 0xFF, 0xFF, 0xFF])
    }

    func testLaterFramesAreTheChangedBoxAndIdenticalFramesStayFrames() throws {
        let first = TestImages.photoLike(width: 30, height: 20)
        let second = first.copy()
        second[7, 4] = Pixel(red: 1, green: 2, blue: 3)
        second[12, 9] = Pixel(red: 4, green: 5, blue: 6)
        let encoder = AnimatedPNGEncoder(width: 30, height: 20, frameDelay: FrameDelay(1, 10), opaque: true)
        let changed = try encoder.encodeFrame(second, previous: first)
        XCTAssertEqual([changed.x, changed.y, changed.width, changed.height], [7, 4, 6, 6])
        let unchanged = try encoder.encodeFrame(second, previous: second)
        XCTAssertEqual([unchanged.width, unchanged.height], [1, 1])
        let png = try encode([first, second, second, first], opaque: true)
        let decoded = try AnimatedPNGDecoder.decode(png, maxPixels: 1 << 20)
        XCTAssertEqual(decoded.frames.count, 4, "identical frames are not merged")
        XCTAssertTrue(decoded.frames[2].hasSamePixels(as: second))
        XCTAssertTrue(decoded.frames[3].hasSamePixels(as: first))
    }

    /// Frame 0 is the IDAT image, so a reader without APNG support (libpng here) shows it.
    func testFirstFrameIsThePlainPNGImage() throws {
        let frames = AnimationFrames.sliding(count: 3, width: 40, height: 30)
        let png = try encode(frames, opaque: true)
        XCTAssertEqual(
            AnimationFrames.chunkTypes(png),
            ["IHDR", "sRGB", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])
        XCTAssertTrue(try ImageDecoder.decode(png).image.hasSamePixels(as: frames[0]))
    }

    /// Frames of several bands (256 KiB of filtered rows each) are one zlib stream whatever the thread count: stored
    /// (level 0, zlib), igzip's bands (level 1) and, for mostly transparent frames, our encoder's (2...6) joined,
    /// and libdeflate's whole stream (the rest, and 7...9) beside them.
    func testBandedFramesAreTheSameBytesForEveryThreadCount() throws {
        let frames = AnimationFrames.sliding(count: 2, width: 300, height: 700, step: 40, translucent: true)
        for level in [0, 1, 2, 5, 9] {
            let single = try encode(frames, opaque: false, threads: 1, level: level)
            for threads in [2, 3, 8] {
                XCTAssertEqual(
                    try encode(frames, opaque: false, threads: threads, level: level), single,
                    "level \(level), \(threads) threads")
            }
            let decoded = try AnimatedPNGDecoder.decode(single, maxPixels: 1 << 22)
            XCTAssertTrue(decoded.frames[0].hasSamePixels(as: frames[0]), "level \(level)")
            XCTAssertTrue(decoded.frames[1].hasSamePixels(as: frames[1]), "level \(level)")
            XCTAssertTrue(
                try ImageDecoder.decode(single).image.hasSamePixels(as: frames[0]), "libpng reads level \(level)")
        }
    }

    func testFrameOfAnotherSizeIsAnError() {
        let encoder = AnimatedPNGEncoder(width: 10, height: 10, frameDelay: FrameDelay(1, 10), opaque: true)
        XCTAssertThrowsError(try encoder.encodeFrame(Image(width: 10, height: 9), previous: nil)) { error in
            XCTAssertEqual(error as? CodecError, .encodingFailed("a 10x9 frame in a 10x10 animation"))
        }
    }

    /// zlib takes at most 4 GiB per call in 32-bit counts; a single row past 2 GiB (800 million RGB pixels) is
    /// refused before anything is read or allocated. The frame borrows a few bytes and claims the rest.
    func testRowTooLongForZlibIsRefusedBeforeReading() {
        let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        pixels.initialize(repeating: 255, count: 64)
        defer { pixels.deallocate() }
        let width = 800_000_000
        let frame = Image(borrowing: pixels, width: width, height: 1, bytesPerRow: width * 4)
        let encoder = AnimatedPNGEncoder(width: width, height: 1, frameDelay: FrameDelay(1, 10), opaque: true)
        XCTAssertThrowsError(try encoder.encodeFrame(frame, previous: nil)) { error in
            XCTAssertEqual(
                error as? CodecError, .encodingFailed("a band of rows is more than zlib takes in one call (2 GiB)"))
        }
    }

    func testDelayDenominatorZeroMeansHundredths() throws {
        let frames = AnimationFrames.sliding(count: 2, width: 8, height: 8)
        let decoded = try AnimatedPNGDecoder.decode(try encode(frames, opaque: true, delay: (7, 0)), maxPixels: 1000)
        XCTAssertEqual(decoded.delays, [0.07, 0.07])
    }
}
