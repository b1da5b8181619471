import Compositor
import Foundation
import XCTest

@testable import Typesetting

/// Input a scene file may carry: clear one-line errors, or bounded work.
final class HostileInputTests: XCTestCase {
    func testAMissingFamilyNamesTheCloseOnes() throws {
        _ = try TextFixtures.face("DejaVu Sans")
        XCTAssertThrowsError(try FontTypesetter().typeset("x", style: TextStyle(font: .family("DejaVu Snas")))) {
            let message = "\($0)"
            XCTAssertTrue(message.hasPrefix("no font family \"DejaVu Snas\" is installed; close: DejaVu Sans"), message)
            XCTAssertFalse(message.contains("\n"))
            guard case .familyNotInstalled(_, let close) = $0 as? TypesettingError else { return XCTFail(message) }
            XCTAssertLessThanOrEqual(close.count, 5)
        }
        // fontconfig substitutes a face for any name: that substitute is not accepted, a generic alias is.
        XCTAssertThrowsError(try FontTypesetter().typeset("x", style: TextStyle(font: .family("Helvetca"))))
        XCTAssertNoThrow(try FontTypesetter().typeset("x", style: TextStyle(font: .family("sans-serif"))))
        XCTAssertNoThrow(try FontTypesetter().typeset("x", style: TextStyle(font: .family("dejavu serif"))))
    }

    func testAFileThatIsNotAFontAndOneThatCannotBeRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-font-\(getpid()).ttf").path
        try Data("just some text, no tables".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try FontTypesetter().typeset("x", style: TextStyle(font: .file(path)))) {
            XCTAssertEqual($0 as? TypesettingError, .notAFont(path: path))
            XCTAssertTrue("\($0)".contains("is not a font file"), "\($0)")
        }
        XCTAssertThrowsError(try FontTypesetter().typeset("x", style: TextStyle(font: .file(path + ".missing")))) {
            XCTAssertEqual($0 as? TypesettingError, .unreadableFile(path: path + ".missing"))
        }
        XCTAssertThrowsError(try FontTypesetter().typeset("x", style: TextStyle(font: .file("/")))) {
            XCTAssertNotNil($0 as? TypesettingError)
        }
    }

    func testSizesThatAreNotPositiveFiniteOrAreTooLarge() {
        for size in [Double.nan, .infinity, -.infinity, -1, 0, 16_384.5, 1e300] {
            XCTAssertThrowsError(try FontTypesetter().typeset("x", style: TextStyle(size: size)), "\(size)") {
                guard case .invalidSize = $0 as? TypesettingError else { return XCTFail("\($0)") }
                XCTAssertTrue("\($0)".hasPrefix("font size "), "\($0)")
            }
        }
        XCTAssertNoThrow(try FontTypesetter().typeset("x", style: TextStyle(size: 16_384)))
    }

    func testNonFiniteOrHugeSpacingKeepsPositionsFinite() throws {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            let style = TextStyle(lineLimit: 3, lineSpacing: value, tracking: value)
            let text = try FontTypesetter().typeset("Good\nOkay\nBad", style: style)
            if let bounds = text.inkBounds(frameWidth: 200, height: 100) {
                XCTAssertTrue([bounds.x, bounds.y, bounds.width, bounds.height].allSatisfy(\.isFinite), "\(value)")
            }
            text.addCoverage(frameWidth: 200, height: 100, through: .identity, into: Plane(width: 64, height: 64))
        }
    }

    func testEmptyTextDrawsNothing() throws {
        for text in ["", "\n\n", "   "] {
            let typeset = try FontTypesetter().typeset(text, style: TextStyle())
            XCTAssertNil(typeset.inkBounds(frameWidth: 100, height: 40), "\(text.debugDescription)")
            let mask = Plane(width: 50, height: 50)
            typeset.addCoverage(frameWidth: 100, height: 40, through: .identity, into: mask)
            XCTAssertFalse(TextFixtures.bytes(mask).contains { $0 != 0 })
        }
    }

    func testAHugeSizeCostsTheMasksPixelsNotTheGlyphs() throws {
        let cache = GlyphCache(byteLimit: 1 << 20)
        let text = try FontTypesetter(glyphCache: cache).typeset("W", style: TextStyle(size: 10_000))
        let bounds = try XCTUnwrap(text.inkBounds(frameWidth: 12_000, height: 12_000))
        XCTAssertGreaterThan(bounds.width, 5_000)
        // At scale 3 the glyph is some 30,000 pixels wide; the mask is 300 × 300 pixels.
        let mask = Plane(width: 300, height: 300)
        let start = Date()
        text.addCoverage(
            frameWidth: 12_000, height: 12_000,
            through: AffineTransform2D(scaleX: 3, y: 3).concatenating(.init(translationX: -3 * bounds.x - 100, y: -3 * bounds.y - 100)),
            into: mask)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        XCTAssertEqual(cache.byteCount, 0, "not cached")
        let pixels = TextFixtures.bytes(mask)
        XCTAssertTrue(pixels.contains(255) && pixels.contains(0), "the W's top-left stroke crosses the mask")
        // Rotated, too: the outline is transformed, still clipped to the mask.
        let rotated = Plane(width: 300, height: 300)
        text.addCoverage(
            frameWidth: 12_000, height: 12_000,
            through: AffineTransform2D(rotationAngle: 0.3).concatenating(.init(scaleX: 3, y: 3)), into: rotated)
        XCTAssertEqual(cache.byteCount, 0)
    }

    func testAMegabyteOfTextIsBoundedWork() throws {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet,", "שלום", "consectetur", "adipiscing", "elit."]
        var text = ""
        var index = 0
        while text.utf8.count < 1 << 20 {
            text += words[index % words.count] + (index % 97 == 96 ? "\n" : " ")
            index += 1
        }
        let start = Date()
        let typeset = try TextFixtures.typeset(text, TextStyle(size: 17))
        let shaped = Date().timeIntervalSince(start)
        let layout = typeset.layout(width: 390, height: .infinity)
        let total = Date().timeIntervalSince(start)
        // A debug build; the release build the benchmarks use is several times faster.
        XCTAssertLessThan(total, 30, "shaped in \(shaped) s, laid out in \(total - shaped) s")
        XCTAssertGreaterThan(layout.glyphs.count, 500_000)
        // In a small frame only the lines shown are placed, and the mask's glyphs are drawn.
        let small = typeset.layout(width: 390, height: 100)
        XCTAssertLessThan(small.glyphs.count, 200)
        let mask = Plane(width: 1170, height: 300)
        typeset.addCoverage(frameWidth: 390, height: 100, through: AffineTransform2D(scaleX: 3, y: 3), into: mask)
        XCTAssertTrue(TextFixtures.bytes(mask).contains(255))
        print("1 MiB: shaped in \(shaped) s, laid out in \(total - shaped) s")
    }

    func testTextOverSixteenMebibytesIsRefused() {
        let text = String(repeating: "a", count: FontTypesetter.maximumUTF8Count + 1)
        XCTAssertThrowsError(try FontTypesetter().typeset(text, style: TextStyle())) {
            XCTAssertEqual($0 as? TypesettingError, .textTooLong(utf8Count: text.utf8.count))
        }
    }
}
