import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// Animated WebP through libwebp, read back with libwebp's demuxer.
final class AnimatedWebPTests: XCTestCase {
    private func encode(
        _ frames: [Image], lossless: Bool, quality: Double = 90, loopCount: Int = 0, frameMilliseconds: Int = 40
    ) throws -> [UInt8] {
        let encoder = try AnimatedWebPEncoder(
            width: frames[0].width, height: frames[0].height, lossless: lossless, quality: quality,
            loopCount: loopCount)
        for (index, frame) in frames.enumerated() {
            try encoder.add(frame, timestampMilliseconds: index * frameMilliseconds)
        }
        return try encoder.finish(endTimestampMilliseconds: frames.count * frameMilliseconds)
    }

    /// Lossless WebP keeps straight RGBA exactly, and premultiplying it again gives back every premultiplied
    /// pixel (fully transparent ones are (0, 0, 0, 0) both ways).
    func testLosslessTranslucentFramesRoundTripExactly() throws {
        let frames = AnimationFrames.sliding(count: 4, width: 40, height: 30, translucent: true)
        let webp = try encode(frames, lossless: true, loopCount: 2)
        XCTAssertEqual(Array(webp[0..<4]), Array("RIFF".utf8))
        XCTAssertEqual(Array(webp[8..<12]), Array("WEBP".utf8))
        let decoded = try XCTUnwrap(WebPAnimationReader(webp))
        XCTAssertEqual(decoded.frames.count, 4)
        XCTAssertEqual(decoded.endTimestamps, [40, 80, 120, 160])
        XCTAssertEqual(decoded.loopCount, 2)
        for (index, frame) in decoded.frames.enumerated() {
            XCTAssertTrue(frame.hasSamePixels(as: frames[index]), ImageDifference(frame, frames[index]).description)
        }
    }

    /// Opaque frames are imported in place with their own row stride (here regions of a wider image).
    func testLosslessOpaqueRegionsRoundTripExactly() throws {
        let wide = AnimationFrames.sliding(count: 3, width: 70, height: 30)
        let frames = wide.map { $0.region(x: 10, y: 0, width: 40, height: 30) }
        let decoded = try XCTUnwrap(WebPAnimationReader(try encode(frames, lossless: true)))
        XCTAssertEqual(decoded.frames.count, 3)
        for (index, frame) in decoded.frames.enumerated() {
            XCTAssertTrue(frame.hasSamePixels(as: frames[index]), ImageDifference(frame, frames[index]).description)
        }
    }

    func testLossyFramesAreClose() throws {
        let frames = AnimationFrames.sliding(count: 3, width: 64, height: 48, step: 5)
        let lossy = try encode(frames, lossless: false, quality: 90, frameMilliseconds: 33)
        let decoded = try XCTUnwrap(WebPAnimationReader(lossy))
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.endTimestamps, [33, 66, 99])
        for (index, frame) in decoded.frames.enumerated() {
            let psnr = ImageDifference(frame, frames[index]).psnr
            // The test frames have ±6 levels of noise and hard-edged colour discs that WebP's half-resolution
            // chroma smears: they measured 26 dB at quality 90.
            XCTAssertGreaterThan(psnr, 24, "frame \(index)")
            XCTAssertLessThan(psnr, 99, "quality 90 is lossy")
        }
        XCTAssertLessThan(
            try encode(frames, lossless: false, quality: 10).count, lossy.count, "lower quality, smaller file")
    }

    func testSizesPastWebPsLimitAreRefusedClearly() {
        XCTAssertThrowsError(try AnimatedWebPEncoder(width: 16384, height: 10, lossless: true, quality: 50)) {
            XCTAssertEqual(
                $0 as? CodecError,
                .limitExceeded("WebP frames are 1 to 16383 pixels a side; this animation is 16384x10"))
        }
        XCTAssertThrowsError(try AnimatedWebPEncoder(width: 10, height: 0, lossless: true, quality: 50))
        XCTAssertThrowsError(
            try AnimatedWebPEncoder(width: 10, height: 10, lossless: true, quality: 50, loopCount: 65536))
    }

    func testMisuseIsAnErrorNotATrap() throws {
        let encoder = try AnimatedWebPEncoder(width: 8, height: 8, lossless: true, quality: 50)
        XCTAssertThrowsError(try encoder.finish(endTimestampMilliseconds: 10), "no frames")
        XCTAssertThrowsError(try encoder.add(Image(width: 8, height: 7), timestampMilliseconds: 0), "wrong size")
        try encoder.add(Image(width: 8, height: 8, fill: Pixel(red: 9, green: 8, blue: 7)), timestampMilliseconds: 50)
        XCTAssertThrowsError(try encoder.add(Image(width: 8, height: 8), timestampMilliseconds: 49), "backwards")
        XCTAssertThrowsError(try encoder.finish(endTimestampMilliseconds: 40), "ends before the last frame")
        XCTAssertFalse(try encoder.finish(endTimestampMilliseconds: 100).isEmpty)
        XCTAssertThrowsError(try encoder.add(Image(width: 8, height: 8), timestampMilliseconds: 200), "finished")
        XCTAssertThrowsError(try encoder.finish(endTimestampMilliseconds: 300), "finished twice")
    }
}
