import CCodecShim
import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The project's own deflate encoder (`bt_deflate.c`), which levels 2...6 take for images with runs (an animated
/// PNG frame's transparent unchanged area, a screen's flat colour): every stream it writes is inflated by zlib to exactly the Sub-filtered rows
/// (computed here), the same bytes for every thread count, on the shapes of data that exercise its parts: runs
/// (distance-1 matches, across bands and past 258 bytes), rows repeated whole (matches longer than it inserts into
/// its chains), periodic stripes, noise (which only stored blocks keep at its size), translucent pixels scattered
/// over transparency, and tiny images. And the choice between it and libdeflate follows the data.
final class DeflateEncoderTests: XCTestCase {
    private func image(width: Int, height: Int, _ pixel: (Int, Int) -> Pixel) -> Image {
        let image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = pixel(x, y) }
        }
        return image
    }

    private var samples: [(name: String, image: Image)] {
        var random = SeededGenerator(seed: 11)
        let noise = image(width: 301, height: 257) { _, _ in
            Pixel(
                red: .random(in: 0...255, using: &random), green: .random(in: 0...255, using: &random),
                blue: .random(in: 0...255, using: &random))
        }
        var sparse = SeededGenerator(seed: 12)
        let scattered = image(width: 640, height: 480) { x, y in
            guard UInt8.random(in: 0...255, using: &sparse) < 20 else { return .transparent }
            let alpha = UInt8(128 + (x + y) % 128)
            return Pixel(red: alpha / 2, green: alpha / 3, blue: UInt8(x % Int(alpha)), alpha: alpha)
        }
        let firstRow = TestImages.photoLike(width: 900, height: 1, seed: 4)
        return [
            // 2,000 × 3 bytes a row: a band of 256 KiB ends mid-run, and each row is a run thousands long.
            (
                "blocks",
                image(width: 2000, height: 300) { x, y in
                    Pixel(red: UInt8((x / 700) * 80), green: UInt8((y / 97) * 50), blue: 200)
                }
            ),
            ("repeated rows", image(width: 900, height: 400) { x, _ in firstRow[x, 0] }),
            (
                "stripes",
                image(width: 777, height: 333) { x, y in
                    Pixel(red: UInt8(x % 7 * 30), green: UInt8((x + y) % 5 * 50), blue: UInt8(y % 3 * 80))
                }
            ),
            ("photo", TestImages.photoLike(width: 640, height: 480, seed: 9)),
            ("noise", noise),
            ("scattered", scattered),
            ("one pixel", image(width: 1, height: 1) { _, _ in Pixel(red: 9, green: 8, blue: 7) }),
            ("one column", image(width: 1, height: 5000) { _, y in Pixel(red: UInt8(y % 256), green: 0, blue: 0) }),
            ("one row", image(width: 5000, height: 1) { x, _ in Pixel(red: 0, green: UInt8(x / 40 % 256), blue: 0) }),
        ]
    }

    /// The zlib stream of `image`'s rows (RGB when opaque, else its premultiplied bytes as RGBA, as the animated
    /// PNG encoder hands over an unchanged area's zeros).
    private func stream(_ image: Image, level: Int, threads: Int, deflater: Int32) throws -> [UInt8] {
        let channels: Int32 = image.isOpaque ? 3 : 4
        var input = bt_png_frame_input(
            pixels: image.baseAddress, bytes_per_row: image.bytesPerRow, width: Int32(image.width),
            height: Int32(image.height), channels: channels, level: Int32(level),
            band_rows: bt_png_band_rows(Int32(image.width), channels), threads: Int32(threads), opaque_alpha: 0,
            deflater: deflater, check_opaque: 0)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: Int(BT_MESSAGE_LENGTH))
        XCTAssertEqual(bt_png_frame_encode(&input, &output, &length, &message), 0)
        defer { bt_free(output) }
        return Array(UnsafeBufferPointer(start: try XCTUnwrap(output), count: length))
    }

    private func inflated(_ stream: [UInt8]) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ok = stream.withUnsafeBufferPointer { bt_zlib_inflate($0.baseAddress, $0.count, 1 << 26, &output, &length) }
        defer { bt_free(output) }
        XCTAssertEqual(ok, 1)
        return Array(UnsafeBufferPointer(start: try XCTUnwrap(output), count: length))
    }

    /// PNG's Sub filter, byte by byte from the pixels.
    private func subFiltered(_ image: Image) -> [UInt8] {
        let channels = image.isOpaque ? 3 : 4
        var rows: [UInt8] = []
        for y in 0..<image.height {
            let row = image.row(y)
            let bytes = (0..<image.width).flatMap { x in (0..<channels).map { row[x * 4 + $0] } }
            rows.append(1)
            for i in bytes.indices { rows.append(bytes[i] &- (i >= channels ? bytes[i - channels] : 0)) }
        }
        return rows
    }

    func testEveryLevelInflatesToTheFilteredRowsAndIsTheSameOnEveryThreadCount() throws {
        for (name, original) in samples {
            let expected = subFiltered(original)
            for level in 2...6 {
                let single = try stream(original, level: level, threads: 1, deflater: Int32(BT_DEFLATER_RUNS))
                let several = try stream(original, level: level, threads: 3, deflater: Int32(BT_DEFLATER_RUNS))
                XCTAssertEqual(single, several, "\(name), level \(level)")
                XCTAssertTrue(try inflated(single) == expected, "\(name), level \(level)")
            }
        }
    }

    /// Noise does not deflate: each block falls back to stored, so the stream is the filtered rows plus a few
    /// bytes of headers per 64 KiB, never the larger Huffman-coded form.
    func testNoiseCostsNoMoreThanStoring() throws {
        let noise = try XCTUnwrap(samples.first { $0.name == "noise" }).image
        let filtered = (301 * 3 + 1) * 257
        for level in 2...6 {
            let bytes = try stream(noise, level: level, threads: 1, deflater: Int32(BT_DEFLATER_RUNS))
            XCTAssertLessThan(bytes.count, filtered + filtered / 1000 + 64, "level \(level)")
        }
    }

    /// What the levels are for: runs and repeated rows shrink to 1-2 % (a deflate match is at most 258 bytes, so
    /// a repeated 2,700-byte row still costs about 28 bytes), and on a photo each level up to 6 is at least as
    /// small as the one below it, and smaller than igzip's level 1.
    func testLevelsCompressAsTheyPromise() throws {
        let named = Dictionary(uniqueKeysWithValues: samples.map { ($0.name, $0.image) })
        let runs = Int32(BT_DEFLATER_RUNS)
        let blocks = try stream(try XCTUnwrap(named["blocks"]), level: 5, threads: 1, deflater: runs)
        XCTAssertLessThan(blocks.count, 2000 * 300 * 3 / 100)
        let repeated = try stream(try XCTUnwrap(named["repeated rows"]), level: 5, threads: 1, deflater: runs)
        XCTAssertLessThan(repeated.count, 900 * 400 * 3 / 50)
        let photo = try XCTUnwrap(named["photo"])
        let sizes = try (1...6).map { try stream(photo, level: $0, threads: 1, deflater: runs).count }
        for level in 3...6 { XCTAssertLessThanOrEqual(sizes[level - 1], sizes[level - 2], "level \(level): \(sizes)") }
        XCTAssertLessThan(sizes[1], sizes[0], "level 2 against igzip's 1: \(sizes)")
    }

    /// Left to choose, levels 2...6 take ours where a quarter of the pixels repeat their left neighbour (a
    /// transparent area, flat colour) and libdeflate elsewhere; a still PNG chooses the same way.
    func testTheDataChoosesTheEncoder() throws {
        let named = Dictionary(uniqueKeysWithValues: samples.map { ($0.name, $0.image) })
        for (name, ours) in [("scattered", true), ("blocks", true), ("noise", false), ("stripes", false)] {
            let image = try XCTUnwrap(named[name])
            let chosen = try stream(image, level: 5, threads: 2, deflater: Int32(BT_DEFLATER_BY_DATA))
            let forced = try stream(
                image, level: 5, threads: 2, deflater: Int32(ours ? BT_DEFLATER_RUNS : BT_DEFLATER_LIBDEFLATE))
            XCTAssertEqual(chosen, forced, name)
            let other = try stream(
                image, level: 5, threads: 2, deflater: Int32(ours ? BT_DEFLATER_LIBDEFLATE : BT_DEFLATER_RUNS))
            XCTAssertNotEqual(chosen, other, name)
        }
        for name in ["blocks", "noise"] {
            let image = try XCTUnwrap(named[name])
            let still = try ImageEncoder.encode(image, as: .png, options: EncodeOptions(pngCompressionLevel: 5))
            let data = try stream(image, level: 5, threads: 1, deflater: Int32(BT_DEFLATER_BY_DATA))
            XCTAssertNotNil(still.firstRange(of: data), "the still's IDAT is the chosen stream (\(name))")
        }
    }
}
