import Compositor
import Foundation
import ImageCodecs
import OracleSupport
import TestSupport
import XCTest

/// YUV4MPEG2 output: the header, BT.709 limited-range values, 2×2 chroma and odd sizes.
final class Y4MWriterTests: XCTestCase {
    func testHeaderSaysWhatFfmpegMustAssume() {
        let writer = Y4MWriter(width: 1170, height: 2532, framesPerSecond: FrameRate(60000, 1001))
        XCTAssertEqual(
            String(decoding: writer.header, as: UTF8.self),
            "YUV4MPEG2 W1170 H2532 F60000:1001 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n")
    }

    /// The BT.709 limited-range values of black, white and the primaries (ITU-R BT.709-6 table 3: Y = 16 + 219 ×
    /// (0.2126, 0.7152, 0.0722), Cb and Cr = 128 ± 112 scaled by 1.8556 and 1.5748), rounded.
    func testPrimariesHaveTheirBT709Values() {
        let cases: [(Pixel, [UInt8])] = [
            (Pixel(red: 0, green: 0, blue: 0), [16, 128, 128]),
            (Pixel(red: 255, green: 255, blue: 255), [235, 128, 128]),
            (Pixel(red: 255, green: 0, blue: 0), [63, 102, 240]), (Pixel(red: 0, green: 255, blue: 0), [173, 42, 26]),
            (Pixel(red: 0, green: 0, blue: 255), [32, 240, 118]),
        ]
        for (pixel, expected) in cases {
            let frame = Y4MWriter(width: 2, height: 2, framesPerSecond: FrameRate(30, 1)).frame(
                Image(width: 2, height: 2, fill: pixel))
            XCTAssertEqual(Array(frame[0..<6]), Array("FRAME\n".utf8))
            XCTAssertEqual(
                Array(frame[6...]), [expected[0], expected[0], expected[0], expected[0], expected[1], expected[2]],
                "\(pixel)")
        }
    }

    /// A translucent premultiplied pixel is its picture over black: (128, 0, 0, 128) shows as opaque (128, 0, 0).
    func testTranslucentPixelsAreOverBlack() {
        let writer = Y4MWriter(width: 2, height: 2, framesPerSecond: FrameRate(30, 1))
        XCTAssertEqual(
            writer.frame(Image(width: 2, height: 2, fill: Pixel(red: 128, green: 0, blue: 0, alpha: 128))),
            writer.frame(Image(width: 2, height: 2, fill: Pixel(red: 128, green: 0, blue: 0))))
    }

    /// 3×3: chroma planes of 2×2, the last column's and row's samples averaged from those pixels alone.
    func testOddSizesAverageTheLastColumnAndRowAlone() {
        let image = Image(width: 3, height: 3, fill: Pixel(red: 0, green: 0, blue: 0))
        for y in 0..<3 { image[2, y] = Pixel(red: 0, green: 0, blue: 255) }  // the last column blue
        image[0, 2] = Pixel(red: 255, green: 0, blue: 0)  // one red pixel in the last row
        let frame = Y4MWriter(width: 3, height: 3, framesPerSecond: FrameRate(30, 1)).frame(image)
        XCTAssertEqual(frame.count, 6 + 9 + 4 + 4)
        let cb = Array(frame[15..<19])
        let cr = Array(frame[19..<23])
        XCTAssertEqual(cb, [128, 240, 115, 240], "black; blue alone; red beside black (128 - 25.7 / 2); blue")
        XCTAssertEqual(cr, [128, 118, 184, 118])
    }

    /// With uniform 2×2 blocks no colour is lost to subsampling, so inverting BT.709 gives the pixels back
    /// within the rounding of three 8-bit values (under 2 levels).
    func testUniformBlocksInvertToTheirPixels() {
        let small = TestImages.photoLike(width: 16, height: 12)
        let image = Image(width: 32, height: 24)
        for y in 0..<24 { for x in 0..<32 { image[x, y] = small[x / 2, y / 2] } }
        let frame = Y4MWriter(width: 32, height: 24, framesPerSecond: FrameRate(30, 1)).frame(image)
        var worst = 0.0
        for y in 0..<24 {
            for x in 0..<32 {
                let luma = (Double(frame[6 + y * 32 + x]) - 16) / 219
                let cb = (Double(frame[6 + 768 + (y / 2) * 16 + x / 2]) - 128) / 224
                let cr = (Double(frame[6 + 768 + 192 + (y / 2) * 16 + x / 2]) - 128) / 224
                let rgb = [luma + 1.5748 * cr, luma - 0.187324 * cb - 0.468124 * cr, luma + 1.8556 * cb]
                let original = image[x, y]
                for (value, expected) in zip(rgb, [original.red, original.green, original.blue]) {
                    worst = max(worst, abs(value * 255 - Double(expected)))
                }
            }
        }
        XCTAssertLessThan(worst, 2.0)
    }

    /// ffmpeg, told the matrix, reads the stream as limited-range BT.709: saturated flat patches come back
    /// within 3 levels away from their edges (a wrong range or matrix is off by tens), a photo-like frame
    /// within a few levels on average (half-resolution chroma blurs its hard edges).
    func testFfmpegDecodesTheStream() throws {
        guard
            let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile)
        else { throw Oracles.missing("ffmpeg is not installed") }
        let patches = Image(width: 64, height: 48)
        let colours = [
            Pixel(red: 255, green: 0, blue: 0), Pixel(red: 0, green: 255, blue: 0), Pixel(red: 0, green: 0, blue: 255),
            Pixel(red: 250, green: 240, blue: 20), Pixel(red: 255, green: 255, blue: 255),
            Pixel(red: 0, green: 0, blue: 0),
        ]
        for y in 0..<48 { for x in 0..<64 { patches[x, y] = colours[(y / 16) * 2 + x / 32] } }
        let photo = TestImages.photoLike(width: 64, height: 48)
        let decoded = try decodeWithFfmpeg(ffmpeg, [patches, photo])
        XCTAssertEqual(decoded.count, 2 * 64 * 48 * 3)
        var worstInside = 0
        var photoTotal = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let inside = (3..<13).contains(y % 16) && (3..<29).contains(x % 32)
                for (frame, image) in [patches, photo].enumerated() {
                    let p = image[x, y]
                    for (channel, value) in [p.red, p.green, p.blue].enumerated() {
                        let error = abs(Int(decoded[((frame * 48 + y) * 64 + x) * 3 + channel]) - Int(value))
                        if frame == 0 && inside { worstInside = max(worstInside, error) }
                        if frame == 1 { photoTotal += error }
                    }
                }
            }
        }
        // 3 levels: ffmpeg 5.1's swscale turns BT.709 into RGB with integer coefficients of its own rounding; the
        // BT.601 matrix read for BT.709 data puts pure red and green about 20 levels off.
        XCTAssertLessThanOrEqual(worstInside, 3)
        // Measured: 4.5 levels with ffmpeg 5.1's default chroma upsampling.
        XCTAssertLessThan(Double(photoTotal) / Double(64 * 48 * 3), 6)
    }

    private func decodeWithFfmpeg(_ ffmpeg: String, _ images: [Image]) throws -> [UInt8] {
        let writer = Y4MWriter(width: images[0].width, height: images[0].height, framesPerSecond: FrameRate(30, 1))
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("y4m-\(getpid()).y4m")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(images.reduce(writer.header) { $0 + writer.frame($1) }).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-v", "error", "-f", "yuv4mpegpipe", "-i", input.path, "-vf", "scale=in_color_matrix=bt709:in_range=tv",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let rgb = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return rgb
    }
}
