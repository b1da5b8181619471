import Compositor
import Scenes
import XCTest

@testable import Typesetting

/// HarfBuzz's shaping as the layout sees it: kerning, ligatures, right-to-left order, fallback faces.
final class ShapingTests: XCTestCase {
    private func advance(_ text: String, _ style: TextStyle) throws -> Double {
        let paragraph = try TextFixtures.typeset(text, style).paragraphs[0]
        return paragraph.clusters.reduce(0) { $0 + Double($1.advance) }
    }

    func testKerningNarrowsAV() throws {
        _ = try TextFixtures.face("Inter")
        let style = TextStyle(font: .family("Inter"), size: 100)
        let pair = try advance("AV", style)
        let apart = try advance("A", style) + advance("V", style)
        XCTAssertLessThan(pair, apart - 1, "Inter kerns A and V by more than 1 pt at 100 pt")
    }

    func testFiIsOneLigatureGlyphInDejaVuSans() throws {
        let face = try TextFixtures.face("DejaVu Sans")
        let paragraph = try TextFixtures.typeset("fi", TextStyle(font: .family("DejaVu Sans"), size: 20)).paragraphs[0]
        XCTAssertEqual(paragraph.glyphs.count, 1, "liga joins f and i")
        XCTAssertEqual(paragraph.clusters.count, 1)
        XCTAssertNotEqual(paragraph.glyphs[0].id, try TextFixtures.glyph(face, "f"))
    }

    func testTrackingIsAddedToEveryCluster() throws {
        let plain = try advance("Rate it", TextStyle(size: 17))
        let tracked = try advance("Rate it", TextStyle(size: 17, tracking: 2))
        XCTAssertEqual(tracked - plain, 7 * 2, accuracy: 1e-3)
    }

    func testControlCharactersAreSetAsSpaces() throws {
        let face = try TextFixtures.face("Inter")
        let paragraph = try TextFixtures.typeset("a\tb\u{1}c", TextStyle(font: .family("Inter"))).paragraphs[0]
        let space = try TextFixtures.glyph(face, " ")
        XCTAssertEqual(
            paragraph.glyphs.map(\.id),
            [
                try TextFixtures.glyph(face, "a"), space, try TextFixtures.glyph(face, "b"), space,
                try TextFixtures.glyph(face, "c"),
            ])
    }

    func testHebrewLineRunsRightToLeftAndAlignsRight() throws {
        let face = try TextFixtures.face("DejaVu Sans")
        let text = try TextFixtures.typeset("שלום", TextStyle(font: .family("DejaVu Sans"), size: 20))
        let line = try XCTUnwrap(TextFixtures.lines(text.layout(width: 300, height: 40)).first)
        let expected = try ["ם", "ו", "ל", "ש"].map { try TextFixtures.glyph(face, $0.unicodeScalars.first!) }
        XCTAssertEqual(line.map(\.id), expected, "left to right on screen: the word's last letter first")
        let right = try XCTUnwrap(text.layout(width: 300, height: 40).inkBounds)
        XCTAssertEqual(right.x + right.width, 300, accuracy: 3, "natural alignment is trailing for Hebrew")
    }

    func testMixedDirectionsInBothParagraphDirections() throws {
        let face = try TextFixtures.face("DejaVu Sans")
        let style = TextStyle(font: .family("DejaVu Sans"), size: 20)
        func ids(_ string: String) throws -> [UInt32] {
            try string.unicodeScalars.filter { $0 != " " }.map { try TextFixtures.glyph(face, $0) }
        }
        func visual(_ string: String) throws -> [UInt32] {
            let line = TextFixtures.lines(try TextFixtures.typeset(string, style).layout(width: 600, height: 40))[0]
            return line.filter(\.hasInk).map(\.id)
        }
        // A left-to-right paragraph: the Hebrew word reversed in place, digits left to right.
        XCTAssertEqual(try visual("ab שלום 12 cd"), try ids("ab םולש 12 cd"))
        // A right-to-left one: runs in reverse order, the Latin and the digits still left to right inside.
        XCTAssertEqual(try visual("שלום ab עולם"), try ids("םלוע ab םולש"))
        XCTAssertEqual(try visual("שלום 12"), try ids("12 םולש"))
    }

    func testARightToLeftLineIsTruncatedAtItsLeftEnd() throws {
        let face = try TextFixtures.face("DejaVu Sans")
        let ellipsis = try TextFixtures.glyph(face, "\u{2026}")
        let style = TextStyle(font: .family("DejaVu Sans"), size: 20, lineLimit: 1)
        let text = try TextFixtures.typeset("שלום עולם ומלואו, שלום עולם", style)
        let line = TextFixtures.lines(text.layout(width: 150, height: 100))[0]
        XCTAssertEqual(line.first?.id, ellipsis, "the tail of a right-to-left line is on the left")
        XCTAssertEqual(line.last?.id, try TextFixtures.glyph(face, "ש"), "the line still starts at the right")
        let bounds = try XCTUnwrap(text.layout(width: 150, height: 100).inkBounds)
        XCTAssertLessThanOrEqual(bounds.x + bounds.width, 150 + 1)
    }

    func testArabicIsJoinedAndRightToLeft() throws {
        let face = try TextFixtures.face("DejaVu Sans")
        let text = try TextFixtures.typeset("سلام", TextStyle(font: .family("DejaVu Sans"), size: 20))
        let line = TextFixtures.lines(text.layout(width: 300, height: 40))[0]
        let isolated = try "سلام".unicodeScalars.map { try TextFixtures.glyph(face, $0) }
        XCTAssertEqual(line.count, 3, "lam and alef join in the mandatory ligature")
        // On screen the word starts at the right: the first cluster (seen) is the rightmost glyph, the last
        // (meem, isolated after alef, which does not join forward) the leftmost; seen takes its initial form.
        let paragraph = text.paragraphs[0]
        XCTAssertEqual(line.last?.id, paragraph.glyphs[Int(paragraph.clusters[0].glyphStart)].id)
        XCTAssertEqual(line.first?.id, paragraph.glyphs[Int(paragraph.clusters[2].glyphStart)].id)
        XCTAssertNotEqual(line.last?.id, isolated[0])
        XCTAssertEqual(line.first?.id, isolated[3])
        XCTAssertTrue(text.paragraphs[0].isRightToLeft)
    }

    func testWordByWordShapingGivesTheSameParagraphAsWholeRuns() throws {
        let text =
            "The office's affinity for waffles: AV, To, Ty, 1,234.5 \"quoted\" -- fi fl ffi.  Twice  spaced, "
            + "Yesterday Wave; Ελληνικά κείμενα και Кириллица тоже, שלום עולם again, and the office again."
        for family in ["Inter", "DejaVu Sans"] {
            let primary = try TextFixtures.face(family)
            let library = FontLibrary.shared
            let faces = FaceSet(
                primary: primary, fallbacks: library.fallbackList(family: family, weight: .regular, italic: false))
            let bytes = Array(text.utf8)[...]
            var wordByWord = ParagraphShaper(faces: faces, size: 17, tracking: 0.5)
            var runByRun = ParagraphShaper(faces: faces, size: 17, tracking: 0.5, words: nil)
            let cached = wordByWord.shape(bytes)
            let whole = runByRun.shape(bytes)
            XCTAssertGreaterThan(wordByWord.words?.count ?? 0, 10, "\(family): the cache was used")
            XCTAssertEqual(String(describing: cached.glyphs), String(describing: whole.glyphs), family)
            XCTAssertEqual(String(describing: cached.clusters), String(describing: whole.clusters), family)
            XCTAssertEqual(cached.isRightToLeft, whole.isRightToLeft)
        }
    }

    func testTheGlyphMemoAgreesWithADictionary() {
        var memo = GlyphMemo<Int>()
        var reference: [UInt64: Int] = [:]
        var state: UInt64 = 7
        for step in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Few distinct keys in the low bits and spread ones in the high bits, as packed glyph keys are.
            let key = (state >> 50) | (step % 3 == 0 ? UInt64(step % 7) << 48 : 0)
            XCTAssertEqual(memo[key], reference[key], "key \(key) before step \(step)")
            if step % 2 == 0 {
                memo[key] = step
                reference[key] = step
            }
        }
        XCTAssertGreaterThan(reference.count, 1_000, "the memo grew several times")
    }

    func testHebrewInInterFallsBackToAFaceThatHasIt() throws {
        let inter = try TextFixtures.face("Inter")
        XCTAssertNil(inter.glyph(for: "ש"), "the test needs a character Inter lacks")
        let text = try TextFixtures.typeset("Aש→", TextStyle(font: .family("Inter"), size: 20))
        let paragraph = text.paragraphs[0]
        let faces = Set(paragraph.glyphs.map(\.face))
        XCTAssertEqual(faces.count, 2, "A and → from Inter, ש from a fallback")
        let hebrew = try XCTUnwrap(paragraph.glyphs.first { $0.face != 0 })
        XCTAssertNotEqual(hebrew.id, 0, "the fallback face has the letter")
        let layout = text.layout(width: 300, height: 40)
        XCTAssertTrue(layout.glyphs.allSatisfy { $0.id != 0 }, "no .notdef box")
    }
}
