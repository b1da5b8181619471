import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The decoder goes by magic bytes, never by file name; `ImageFormat(fileExtensionOf:)` is for output names.
final class FormatSniffingTests: XCTestCase {
    func testSniffsByMagicBytes() throws {
        let image = TestImages.photoLike(width: 8, height: 8)
        XCTAssertEqual(ImageFormat(sniffing: try ImageEncoder.encode(image, as: .jpeg)), .jpeg)
        XCTAssertEqual(ImageFormat(sniffing: try ImageEncoder.encode(image, as: .png)), .png)
        XCTAssertEqual(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF]), .jpeg, "three bytes are enough for JPEG")
        XCTAssertEqual(ImageFormat(sniffing: PNGFileWriter.signature), .png)
        XCTAssertEqual(ImageFormat(sniffing: PNGFileWriter.signature[...]), .png, "any collection")
    }

    func testRejectsOtherBytes() {
        let cases: [[UInt8]] = [
            [], [0xFF, 0xD8], [0xFF, 0xD8, 0x00], Array(PNGFileWriter.signature.prefix(7)),
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00], Array("GIF89a".utf8),
            [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
        ]  // RIFF....WEBP
        for bytes in cases {
            XCTAssertNil(ImageFormat(sniffing: bytes), "\(bytes)")
        }
    }

    /// A PNG saved as photo.jpg still decodes as PNG: the decoder is given bytes, and they say PNG.
    func testPNGNamedJPGDecodesAsPNG() throws {
        let png = try ImageEncoder.encode(TestImages.photoLike(width: 8, height: 8), as: .png)
        XCTAssertEqual(ImageFormat(fileExtensionOf: "photo.jpg"), .jpeg)
        XCTAssertEqual(ImageFormat(sniffing: png), .png)
        XCTAssertEqual(try ImageDecoder.decode(png).info.format, .png)
    }

    func testFileExtensions() {
        let cases: [(String, ImageFormat?)] = [
            ("a.jpg", .jpeg), ("a.JPEG", .jpeg), ("a.jpe", .jpeg), ("a.jfif", .jpeg), ("dir/A.PnG", .png),
            ("/tmp/x.y/photo.png", .png), ("archive.png.gz", nil), ("noextension", nil), ("dir.png/file", nil),
            ("trailingdot.", nil), ("a.gif", nil), ("", nil),
        ]
        for (path, expected) in cases {
            XCTAssertEqual(ImageFormat(fileExtensionOf: path), expected, path)
        }
        XCTAssertEqual(ImageFormat.jpeg.fileExtension, "jpg")
        XCTAssertEqual(ImageFormat.png.fileExtension, "png")
    }
}
