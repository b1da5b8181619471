import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// `EXIFReader.orientation(in:)` on its own: both byte orders, both integer types, and hostile blocks that
/// must give nil (or the valid value) without trapping.
final class EXIFReaderTests: XCTestCase {
    func testReadsEveryOrientationAsShortInBothByteOrders() {
        for bigEndian in [false, true] {
            for orientation in Orientation.allCases {
                let block = EXIFBlock.tiff(orientation: UInt32(orientation.rawValue), bigEndian: bigEndian)
                XCTAssertEqual(
                    EXIFReader.orientation(in: block), orientation, "\(orientation), big-endian: \(bigEndian)")
            }
        }
    }

    func testReadsOrientationStoredAsLong() {
        for bigEndian in [false, true] {
            XCTAssertEqual(
                EXIFReader.orientation(in: EXIFBlock.tiff(orientation: 6, bigEndian: bigEndian, type: 4)),
                .right, "big-endian: \(bigEndian)")
        }
    }

    /// PNG eXIf chunks sometimes keep the JPEG APP1 "Exif\0\0" prefix.
    func testAcceptsTheExifPrefix() {
        let block = Array("Exif".utf8) + [0, 0] + EXIFBlock.tiff(orientation: 8, bigEndian: true)
        XCTAssertEqual(EXIFReader.orientation(in: block), .left)
    }

    func testFindsTheTagAfterOtherEntries() {
        XCTAssertEqual(EXIFReader.orientation(in: EXIFBlock.tiff(orientation: 3, filler: 5)), .down)
        XCTAssertEqual(EXIFReader.orientation(in: EXIFBlock.tiff(orientation: 3, bigEndian: true, filler: 5)), .down)
    }

    func testInvalidValuesMeanUp() {
        for value: UInt32 in [0, 9, 65535] {
            XCTAssertEqual(EXIFReader.orientation(in: EXIFBlock.tiff(orientation: value)), .up, "value \(value)")
        }
        XCTAssertEqual(
            EXIFReader.orientation(in: EXIFBlock.tiff(orientation: 0x1_0006, type: 4)), .up,
            "a LONG is not truncated to its low 16 bits")
    }

    func testNoOrientationTagGivesNil() {
        var block = EXIFBlock.tiff(orientation: 6, filler: 2)
        block[8 + 2 + 2 * 12] = 0x13  // the third entry's tag 0x0112 becomes 0x0113
        XCTAssertNil(EXIFReader.orientation(in: block))
    }

    // MARK: - Hostile blocks

    func testTooShortOrWithoutATIFFHeaderGivesNil() {
        for block: [UInt8] in [
            [], Array("Exif".utf8) + [0, 0], [0x49, 0x49, 0x2A, 0x00], [0x49, 0x49, 0x2A, 0, 8, 0, 0],
        ] {
            XCTAssertNil(EXIFReader.orientation(in: block), "\(block)")
        }
    }

    func testBadByteOrderMarkerGivesNil() {
        var block = EXIFBlock.tiff(orientation: 6)
        for marker: [UInt8] in [
            [0x49, 0x4D, 0x2A, 0x00], [0x49, 0x49, 0x00, 0x2A], [0x4D, 0x4D, 0x2A, 0x00], [0, 0, 0, 0],
        ] {
            block.replaceSubrange(0..<4, with: marker)
            XCTAssertNil(EXIFReader.orientation(in: block), "\(marker)")
        }
    }

    func testIFDOffsetOutOfRangeGivesNil() {
        for offset: [UInt8] in [[0xFF, 0xFF, 0xFF, 0xFF], [0x1A, 0, 0, 0], [0, 0, 0, 0x80]] {
            var block = EXIFBlock.tiff(orientation: 6)
            block.replaceSubrange(4..<8, with: offset)
            XCTAssertNil(EXIFReader.orientation(in: block), "IFD0 offset bytes \(offset)")
        }
    }

    /// A count of 65535 entries but data for one: the reader finds the one and stops, or runs out safely.
    func testHugeEntryCountWithShortData() {
        var block = EXIFBlock.tiff(orientation: 6)
        block.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        XCTAssertEqual(EXIFReader.orientation(in: block), .right)
        var withoutTag = EXIFBlock.tiff(orientation: 6, filler: 1)
        withoutTag.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        withoutTag[8 + 2 + 12] = 0x13  // no orientation tag: every entry is examined until the data ends
        XCTAssertNil(EXIFReader.orientation(in: withoutTag))
    }

    /// IFD0's next-IFD link pointing back at IFD0 is never followed (only IFD0 holds the orientation), and an
    /// IFD0 offset of 0 makes the header itself be read as an IFD.
    func testSelfReferencingIFDsTerminate() {
        var loop = EXIFBlock.tiff(orientation: 5)
        loop.replaceSubrange((loop.count - 4)..<loop.count, with: [8, 0, 0, 0])
        XCTAssertEqual(EXIFReader.orientation(in: loop), .leftMirrored)
        var atHeader = EXIFBlock.tiff(orientation: 5)
        atHeader.replaceSubrange(4..<8, with: [0, 0, 0, 0])
        _ = EXIFReader.orientation(in: atHeader)  // any answer will do; it must return
    }

    func testEntryCutInsideItsValueGivesNil() {
        let block = EXIFBlock.tiff(orientation: 6)
        XCTAssertNil(EXIFReader.orientation(in: Array(block.prefix(8 + 2 + 9))))
    }

    /// Every truncation and 3000 seeded random corruptions of a valid block: no trap, and any answer given
    /// for a truncation is the true one.
    func testTruncationsAndRandomCorruptionsNeverTrap() {
        let valid = EXIFBlock.tiff(orientation: 7, bigEndian: true, filler: 3)
        for length in 0..<valid.count {
            let answer = EXIFReader.orientation(in: Array(valid.prefix(length)))
            XCTAssertTrue(answer == nil || answer == .rightMirrored, "prefix \(length): \(String(describing: answer))")
        }
        var random = SeededGenerator(seed: 0xE71F)
        for _ in 0..<3000 {
            var block = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                block[Int.random(in: 0..<block.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            _ = EXIFReader.orientation(in: block)
        }
    }
}
