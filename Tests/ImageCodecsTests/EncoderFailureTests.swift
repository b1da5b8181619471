import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The JPEG encoder's own destination buffer: its error path and its growth.
///
/// The shim used to hand libjpeg `jpeg_mem_dest`, which allocates its first buffer at once and reallocates
/// it behind a pointer private to libjpeg; on an error nothing freed it (valgrind: "4,096 bytes in 1 blocks
/// are definitely lost ... by jpeg_mem_dest" for the too-wide image below). Leaks are checked by hand with
/// valgrind on a small C driver of `bt_jpeg_encode` (glibc's heap counters are out of Swift's reach); these
/// tests hold the behaviour around them.
final class EncoderFailureTests: XCTestCase {
    func testJPEGWiderThanLibjpegAllowsIsAnEncodingError() {
        let tooWide = Image(width: 65_501, height: 1)  // libjpeg's limit is 65500
        XCTAssertThrowsError(try ImageEncoder.encode(tooWide, as: .jpeg)) { error in
            guard case CodecError.encodingFailed(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("65500"), message)
        }
    }

    /// Noise at quality 100 and 4:4:4 makes a JPEG of about 100 KB (105,716 bytes), so the 16 KB destination
    /// doubles three times; every byte must survive the moves (the decode would fail or differ otherwise).
    func testALargeJPEGSurvivesTheDestinationGrowing() throws {
        var random = SeededGenerator(seed: 16384)
        let noise = Image(width: 160, height: 160)
        for y in 0..<160 {
            for x in 0..<160 {
                let byte = { UInt8.random(in: 0...255, using: &random) }
                noise[x, y] = Pixel(red: byte(), green: byte(), blue: byte(), alpha: 255)
            }
        }
        let jpeg = try ImageEncoder.encode(
            noise, as: .jpeg, options: EncodeOptions(quality: 100, chromaSubsampling: .yuv444))
        XCTAssertGreaterThan(jpeg.count, 16384 * 4)
        XCTAssertEqual(Array(jpeg.suffix(2)), [0xFF, 0xD9])
        let decoded = try ImageDecoder.decode(jpeg)
        XCTAssertGreaterThan(ImageDifference(decoded.image, noise, channels: 3).psnr, 40)
    }
}
