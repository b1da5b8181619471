import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// The EXIF orientation applied by `ImageDecoder.decode`: JPEG APP1 and PNG eXIf blocks on a 48x32 image
/// whose quadrants have distinct colours, checked against what the EXIF specification says each value means
/// (not against `Orientation.swift`'s table).
final class EXIFOrientationTests: XCTestCase {
    private enum Edge { case top, bottom, left, right }

    /// EXIF's own definition: for each value, the displayed edge where the stored row 0 lies and the one
    /// where the stored column 0 lies (e.g. 6: "the 0th row is the visual right-hand side, the 0th column
    /// the visual top").
    private static let rowAndColumnZero: [Orientation: (row: Edge, column: Edge)] = [
        .up: (.top, .left), .upMirrored: (.top, .right), .down: (.bottom, .right), .downMirrored: (.bottom, .left),
        .leftMirrored: (.left, .top), .right: (.right, .top), .rightMirrored: (.right, .bottom),
        .left: (.left, .bottom),
    ]

    /// The stored quadrants: top-left red, top-right green, bottom-left blue, bottom-right white. Quadrant
    /// edges at 24 and 16 fall on 8x8 block edges, and 4:4:4 keeps the colours from bleeding across.
    private static let colors = [
        Pixel(red: 255, green: 0, blue: 0), Pixel(red: 0, green: 255, blue: 0),
        Pixel(red: 0, green: 0, blue: 255), Pixel(red: 255, green: 255, blue: 255),
    ]
    private static let quadrants: Image = {
        let image = Image(width: 48, height: 32)
        for y in 0..<32 {
            for x in 0..<48 { image[x, y] = colors[(y < 16 ? 0 : 2) + (x < 24 ? 0 : 1)] }
        }
        return image
    }()
    private static let encoded = Result {
        try ImageEncoder.encode(quadrants, as: .jpeg, options: EncodeOptions(quality: 95, chromaSubsampling: .yuv444))
    }
    private var quadrantsJPEG: [UInt8] { get throws { try EXIFOrientationTests.encoded.get() } }

    func testEveryOrientationInBothByteOrders() throws {
        for bigEndian in [false, true] {
            for orientation in Orientation.allCases {
                let tiff = EXIFBlock.tiff(orientation: UInt32(orientation.rawValue), bigEndian: bigEndian)
                let decoded = try ImageDecoder.decode(JPEGBytes.withEXIF(tiff, in: try quadrantsJPEG))
                XCTAssertEqual(decoded.info.orientation, orientation)
                assertShows(decoded.image, oriented: orientation, "JPEG \(orientation), big-endian \(bigEndian)")
            }
        }
    }

    /// The quadrant picture written by the test's own PNG writer, with an eXIf chunk before IDAT.
    func testPNGeXIfChunkIsHonoured() throws {
        let image = EXIFOrientationTests.quadrants
        var png = PNGFileWriter(
            width: 48, height: 32, colorType: .rgb, bitDepth: 8,
            samples: (0..<(48 * 32)).flatMap {
                let p = image[$0 % 48, $0 / 48]
                return [UInt16(p.red), UInt16(p.green), UInt16(p.blue)]
            })
        for orientation in Orientation.allCases {
            for prefix in [[], Array("Exif".utf8) + [0, 0]] {  // with and without the JPEG-style prefix
                let eXIf = prefix + EXIFBlock.tiff(orientation: UInt32(orientation.rawValue), bigEndian: true)
                png.chunksBeforeImageData = [("eXIf", eXIf)]
                let decoded = try ImageDecoder.decode(png.encoded())
                XCTAssertEqual(decoded.info.orientation, orientation)
                assertShows(decoded.image, oriented: orientation, "PNG \(orientation)", tolerance: 0)
            }
        }
    }

    func testTurningOrientationOffKeepsStoredPixelsButReportsIt() throws {
        let jpeg = JPEGBytes.withEXIF(EXIFBlock.tiff(orientation: 6), in: try quadrantsJPEG)
        let decoded = try ImageDecoder.decode(jpeg, options: DecodeOptions(appliesOrientation: false))
        XCTAssertEqual(decoded.info.orientation, .right)
        assertShows(decoded.image, oriented: .up, "orientation off")
    }

    func testInvalidValuesAreTreatedAsUp() throws {
        for value: UInt32 in [0, 9, 65535] {
            let decoded = try ImageDecoder.decode(
                JPEGBytes.withEXIF(
                    EXIFBlock.tiff(orientation: value),
                    in: try quadrantsJPEG))
            XCTAssertEqual(decoded.info.orientation, .up, "value \(value)")
            assertShows(decoded.image, oriented: .up, "value \(value)")
        }
    }

    /// The first APP1 carrying Exif wins; an XMP APP1 before it is skipped, not mistaken for EXIF.
    func testFirstExifBlockWinsAndXMPIsSkipped() throws {
        let second = JPEGBytes.withEXIF(EXIFBlock.tiff(orientation: 8), in: try quadrantsJPEG)
        let both = JPEGBytes.withEXIF(EXIFBlock.tiff(orientation: 6), in: second)  // inserted in front
        XCTAssertEqual(try ImageDecoder.decode(both).info.orientation, .right)
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let afterXMP = JPEGBytes.inserting(appSegment: 1, payload: xmp, into: second)
        XCTAssertEqual(try ImageDecoder.decode(afterXMP).info.orientation, .left)
    }

    /// Hostile EXIF inside a real JPEG: the picture still decodes, upright (or with the valid value).
    func testHostileEXIFStillDecodes() throws {
        let valid = EXIFBlock.tiff(orientation: 6)
        func patched(_ range: Range<Int>, _ bytes: [UInt8]) -> [UInt8] {
            var block = valid
            block.replaceSubrange(range, with: bytes)
            return block
        }
        let cases: [(String, [UInt8], Orientation)] = [
            ("IFD offset out of range", patched(4..<8, [0xF0, 0xFF, 0xFF, 0x7F]), .up),
            ("65535 entries, data for one", patched(8..<10, [0xFF, 0xFF]), .right),
            ("truncated TIFF header", Array(valid.prefix(6)), .up),
            ("bad byte order marker", patched(0..<2, [0x4A, 0x4A]), .up),
            ("IFD0 links to itself", patched((valid.count - 4)..<valid.count, [8, 0, 0, 0]), .right),
            ("IFD0 at offset 0", patched(4..<8, [0, 0, 0, 0]), .up),
            ("empty", [], .up),
        ]
        for (name, tiff, expected) in cases {
            let decoded = try ImageDecoder.decode(JPEGBytes.withEXIF(tiff, in: try quadrantsJPEG))
            XCTAssertEqual(decoded.info.orientation, expected, name)
            assertShows(decoded.image, oriented: expected, name)
        }
    }

    /// Scaling happens on the stored pixels, orientation after: 48x32 at 1/2 shows as 16x24 for value 6.
    func testScaledDecodeIsOrientedToo() throws {
        let jpeg = JPEGBytes.withEXIF(EXIFBlock.tiff(orientation: 6), in: try quadrantsJPEG)
        let image = try ImageDecoder.decode(jpeg, options: DecodeOptions(scaleDenominator: 2)).image
        XCTAssertEqual([image.width, image.height], [16, 24])
        assertPixel(
            image[14, 1], near: EXIFOrientationTests.colors[0], tolerance: 40, "stored top-left shows top-right")
    }

    // MARK: - Helpers

    /// Asserts `image` is the quadrant picture displayed with `orientation`: its size, and the colour near
    /// each displayed corner.
    private func assertShows(
        _ image: Image, oriented orientation: Orientation, _ message: String,
        tolerance: Int = 40, file: StaticString = #filePath, line: UInt = #line
    ) {
        let expectedSize = orientation.swapsDimensions ? [32, 48] : [48, 32]
        XCTAssertEqual([image.width, image.height], expectedSize, message, file: file, line: line)
        guard [image.width, image.height] == expectedSize else { return }
        let (rowZero, columnZero) = EXIFOrientationTests.rowAndColumnZero[orientation]!
        for (storedIndex, (isBottom, isRight)) in [(false, false), (false, true), (true, false), (true, true)]
            .enumerated()
        {
            let edges = [isBottom ? opposite(rowZero) : rowZero, isRight ? opposite(columnZero) : columnZero]
            let x = edges.contains(.right) ? image.width - 4 : 3
            let y = edges.contains(.bottom) ? image.height - 4 : 3
            assertPixel(
                image[x, y], near: EXIFOrientationTests.colors[storedIndex], tolerance: tolerance,
                "\(message): stored corner \(storedIndex) should show at (\(x), \(y))", file: file, line: line)
        }
    }

    private func opposite(_ edge: Edge) -> Edge {
        switch edge {
        case .top: return .bottom
        case .bottom: return .top
        case .left: return .right
        case .right: return .left
        }
    }
}
