import Compositor
import Scenes
import XCTest

@testable import Typesetting

/// The symbol catalogue against the icon font it names: every entry must shape to a single glyph (the font's
/// ligature for that icon), not to the letters of its name.
final class SymbolFontTests: XCTestCase {
    func testEveryCatalogueIconIsALigatureOfTheFont() throws {
        _ = try TextFixtures.face(SymbolCatalog.family)
        let style = TextStyle(font: .family(SymbolCatalog.family), size: 24)
        var missing: [String] = []
        let names = Set(SymbolCatalog.icons.values).union(SymbolCatalog.ratingFaces.values)
        for name in names.sorted() {
            let text = try TextFixtures.typeset(name, style)
            if text.paragraphs[0].glyphs.count != 1 || text.paragraphs[0].glyphs[0].face != 0 { missing.append(name) }
        }
        XCTAssertEqual(missing, [], "icons the font does not have")
        // The check can fail: a name that is no icon shapes to its letters.
        XCTAssertGreaterThan(try TextFixtures.typeset("notanicon", style).paragraphs[0].glyphs.count, 1)
        XCTAssertEqual(SymbolCatalog.iconName(for: "xmark"), "close")
        XCTAssertEqual(SymbolCatalog.closestNames(to: "xmrk").first, "xmark")
    }
}
