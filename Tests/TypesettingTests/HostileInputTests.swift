import Compositor
import Foundation
import Scenes
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

    func testABitmapFontIsRefused() throws {
        // A one-glyph BDF font: FreeType opens it, but it has no outlines to scale, rotate or shape.
        let bdf = """
            STARTFONT 2.1
            FONT -test-bitmap-medium-r-normal--8-80-75-75-c-80-iso10646-1
            SIZE 8 75 75
            FONTBOUNDINGBOX 8 8 0 0
            CHARS 1
            STARTCHAR A
            ENCODING 65
            SWIDTH 500 0
            DWIDTH 8 0
            BBX 8 8 0 0
            BITMAP
            18
            24
            42
            42
            7E
            42
            42
            00
            ENDCHAR
            ENDFONT

            """
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bitmap-\(getpid()).bdf").path
        try Data(bdf.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try FontTypesetter().typeset("A", style: TextStyle(font: .file(path)))) {
            XCTAssertEqual($0 as? TypesettingError, .notAFont(path: path))
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
            through: AffineTransform2D(scaleX: 3, y: 3).concatenating(
                .init(translationX: -3 * bounds.x - 100, y: -3 * bounds.y - 100)),
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

    /// Shears and squashes whose determinant is harmless but whose outline matrix is not: the glyph is stretched
    /// past any canvas along one axis (skewX(89.999deg) has determinant 1), or squashed until FreeType's 16.16
    /// entries overflow. Each draws nothing instead of trapping in the integer conversion.
    func testNearSingularTransformsDrawNothingInsteadOfTrapping() throws {
        let typeset = try TextFixtures.typeset("Hello", TextStyle(size: 17))
        let skew = AffineTransform2D(a: 1, b: 0, c: tan(89.999 * Double.pi / 180), d: 1, tx: 10, ty: 50)
        let transforms: [AffineTransform2D] = [
            skew, AffineTransform2D(scaleX: 100_000, y: 0.00001), AffineTransform2D(scaleX: 0.00001, y: 100_000),
            AffineTransform2D(scaleX: 1, y: -0.000001), AffineTransform2D(scaleX: 1e-9, y: 1),
            AffineTransform2D(a: 1e6, b: 1e6, c: 1e6, d: 1e6 + 1e-6, tx: 0, ty: 0),
        ]
        for (index, transform) in transforms.enumerated() {
            // Squashed to a sliver of a pixel (scale(1, -0.000001)), a glyph may be rendered: it covers nothing.
            if ![3, 4].contains(index) { XCTAssertNil(GlyphRendering(size: 17, transform: transform), "\(transform)") }
            let mask = Plane(width: 100, height: 100)
            typeset.addCoverage(frameWidth: 200, height: 40, through: transform, into: mask)
            XCTAssertFalse(TextFixtures.bytes(mask).contains { $0 != 0 }, "\(transform)")
        }
        // A strong but drawable shear still draws.
        let drawable = AffineTransform2D(a: 1, b: 0, c: tan(60 * Double.pi / 180), d: 1, tx: 10, ty: 50)
        XCTAssertNotNil(GlyphRendering(size: 17, transform: drawable))
        let mask = Plane(width: 100, height: 100)
        typeset.addCoverage(frameWidth: 200, height: 40, through: drawable, into: mask)
        XCTAssertTrue(TextFixtures.bytes(mask).contains { $0 != 0 })
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

    /// Invisible characters in a row (soft hyphens, zero-width spaces): HarfBuzz 6 alone is quadratic in such a
    /// run (100,000 soft hyphens took 45 s), so runs are shaped in pieces. The pieces change nothing drawn: the
    /// letters around a thousand of them stand where they stand with none.
    func testLongRunsOfInvisibleCharactersAreLinearAndDrawTheSame() throws {
        let style = TextStyle(size: 17)
        func letters(_ text: String) throws -> [(UInt32, Double, Double)] {
            let layout = try TextFixtures.typeset(text, style).layout(width: 390, height: .infinity)
            return layout.glyphs.filter(\.hasInk).map { ($0.id, $0.x, $0.y) }
        }
        let plain = try letters("ab cd")
        for invisible in ["\u{AD}", "\u{200B}", "\u{2060}", "\u{FE0F}"] {
            let run = String(repeating: invisible, count: 1_000)
            let spaced = try letters("a" + run + "b c" + run + "d")
            XCTAssertEqual(spaced.map(\.0), plain.map(\.0), "U+\(String(invisible.unicodeScalars.first!.value, radix: 16))")
            for (got, expected) in zip(spaced, plain) {
                XCTAssertEqual(got.1, expected.1, accuracy: 1e-9)
                XCTAssertEqual(got.2, expected.2, accuracy: 1e-9)
            }
        }
        let start = Date()
        for invisible in ["\u{AD}", "\u{200B}"] {
            let text = try TextFixtures.typeset(String(repeating: invisible, count: 100_000), style)
            _ = text.layout(width: 390, height: .infinity)
        }
        // A debug build; before the runs were cut, the soft hyphens alone took 45 s in a release build.
        XCTAssertLessThan(Date().timeIntervalSince(start), 15)
    }

    /// A long-running renderer fed many font files keeps at most `maximumOpenFaces` of them open: the least
    /// recently asked for is closed (its file unmapped once no typeset text holds it), and asked for again it
    /// opens anew.
    func testOpenFacesAreBoundedLeastRecentlyUsedFirst() throws {
        let original = try TextFixtures.face("DejaVu Sans").path
        let directory = NSTemporaryDirectory() + "blurtool-fonts-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let library = FontLibrary.shared
        // Names no other test opens, each its own face to the library.
        let paths = try (0...FontLibrary.maximumOpenFaces).map { index -> String in
            let path = directory + "face-\(index).ttf"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: original)
            return path
        }
        weak var first = try library.face(path: paths[0])
        let firstID = try XCTUnwrap(first).id
        for path in paths.dropFirst() {
            _ = try library.face(path: path)
            XCTAssertLessThanOrEqual(library.openFaceCount, FontLibrary.maximumOpenFaces)
        }
        XCTAssertNil(first, "the least recently used face was closed")
        XCTAssertNotEqual(try library.face(path: paths[0]).id, firstID, "opened anew")
        // The most recently used stays open: asked for again, it is the same face.
        let last = try library.face(path: paths[FontLibrary.maximumOpenFaces])
        XCTAssertTrue(try library.face(path: paths[FontLibrary.maximumOpenFaces]) === last)
    }

    func testTextOverSixteenMebibytesIsRefused() {
        let text = String(repeating: "a", count: FontTypesetter.maximumUTF8Count + 1)
        XCTAssertThrowsError(try FontTypesetter().typeset(text, style: TextStyle())) {
            XCTAssertEqual($0 as? TypesettingError, .textTooLong(utf8Count: text.utf8.count))
        }
    }
}
