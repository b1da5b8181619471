import CCodecShim
import Compositor
import ImageCodecs
import XCTest

/// The writer's rows: every one Sub-filtered (smaller than libpng's smallest-sum choice with igzip and libdeflate
/// on the project's screens and photos, see bt_png_frame.c), each byte less the one a pixel to its left.
final class AnimatedPNGFilterTests: XCTestCase {
    /// The rows of a frame's zlib stream, each with its filter type byte first.
    private func filteredRows(_ frame: AnimatedPNGFrame, channels: Int) throws -> [[UInt8]] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ok = frame.data.withUnsafeBufferPointer {
            bt_zlib_inflate($0.baseAddress, $0.count, 1 << 20, &output, &length)
        }
        defer { bt_free(output) }
        XCTAssertEqual(ok, 1)
        let rows = try XCTUnwrap(output)
        let rowBytes = 1 + frame.width * channels
        XCTAssertEqual(length, rowBytes * frame.height)
        return (0..<frame.height).map { Array(UnsafeBufferPointer(start: rows + $0 * rowBytes, count: rowBytes)) }
    }

    /// Every row of an opaque RGB frame and of a translucent RGBA one is type 1 with the Sub bytes, at every level.
    func testEveryRowIsSubFiltered() throws {
        var random = SystemRandomNumberGenerator()
        let image = Image(width: 37, height: 5)
        for y in 0..<5 {
            for x in 0..<37 {
                let alpha = UInt8.random(in: 1...255, using: &random)
                image[x, y] = Pixel(
                    red: UInt8.random(in: 0...alpha, using: &random), green: UInt8.random(in: 0...alpha, using: &random),
                    blue: UInt8.random(in: 0...alpha, using: &random), alpha: alpha)
            }
        }
        let opaque = Image(width: 37, height: 5)
        for y in 0..<5 {
            for x in 0..<37 { opaque[x, y] = Pixel(red: UInt8(x * 7), green: UInt8(y * 40), blue: UInt8((x * y) % 256)) }
        }
        for level in [0, 1, 5] {
            for (frameImage, isOpaque) in [(opaque, true), (image, false)] {
                let encoder = AnimatedPNGEncoder(
                    width: 37, height: 5, frameDelay: FrameDelay(1, 10), opaque: isOpaque, compressionLevel: level)
                let frame = try encoder.encodeFrame(frameImage, previous: nil)
                let straight = frameImage.straightRGBABytes()  // an opaque frame's alpha, 255, is what is written
                for (y, row) in try filteredRows(frame, channels: 4).enumerated() {
                    XCTAssertEqual(row[0], 1, "level \(level) row \(y)")
                    for x in 0..<(37 * 4) {
                        let value = straight[(y * 37) * 4 + x]
                        let left = x >= 4 ? straight[(y * 37) * 4 + x - 4] : 0
                        XCTAssertEqual(row[1 + x], value &- left, "level \(level) row \(y) byte \(x)")
                    }
                }
            }
        }
    }
}
