import CCodecShim
import Compositor
import ImageCodecs
import XCTest

/// The writer's per-row filter choice: the filter whose bytes, read as signed, sum smallest (libpng's and
/// Pillow's heuristic), the lower filter number on a tie.
final class AnimatedPNGFilterTests: XCTestCase {
    /// The filter type byte of each row of a frame's zlib stream.
    private func filterTypes(_ frame: AnimatedPNGFrame, channels: Int) throws -> [UInt8] {
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
        return (0..<frame.height).map { rows[$0 * rowBytes] }
    }

    private func image(width: Int, height: Int, _ value: (Int, Int) -> Int) -> Image {
        let image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = UInt8(value(x, y))
                image[x, y] = Pixel(red: v, green: v, blue: v)
            }
        }
        return image
    }

    /// On a plane v = 2x + 5y + 10, Paeth predicts every pixel below the first row exactly; the first row has
    /// only its left neighbours, so Sub (Paeth there predicts the same, and loses the tie).
    func testPlaneGetsSubThenPaeth() throws {
        let encoder = AnimatedPNGEncoder(width: 64, height: 4, frameDelay: FrameDelay(1, 10), opaque: true)
        let frame = try encoder.encodeFrame(image(width: 64, height: 4) { 2 * $0 + 5 * $1 + 10 }, previous: nil)
        XCTAssertEqual(try filterTypes(frame, channels: 4), [1, 4, 4, 4])
    }

    /// Repeated rows are all zeros under Up (Paeth too, and loses the tie).
    func testRepeatedRowsGetUp() throws {
        let encoder = AnimatedPNGEncoder(width: 64, height: 3, frameDelay: FrameDelay(1, 10), opaque: false)
        let frame = try encoder.encodeFrame(image(width: 64, height: 3) { x, _ in 3 * x }, previous: nil)
        XCTAssertEqual(try filterTypes(frame, channels: 4), [1, 2, 2])
    }

    /// Bytes that no predictor helps (alternating 0 and 128 columns: every difference is ±128) stay unfiltered.
    func testUnpredictableRowsGetNone() throws {
        let encoder = AnimatedPNGEncoder(width: 64, height: 2, frameDelay: FrameDelay(1, 10), opaque: true)
        let frame = try encoder.encodeFrame(
            image(width: 64, height: 2) { x, y in (x + y) % 2 == 0 ? 0 : 128 }, previous: nil)
        XCTAssertEqual(try filterTypes(frame, channels: 4), [0, 0])
    }
}
