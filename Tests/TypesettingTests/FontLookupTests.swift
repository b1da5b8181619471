import Compositor
import Scenes
import XCTest

@testable import Typesetting

/// Families, weights and slants through fontconfig; the system face; faces opened once.
final class FontLookupTests: XCTestCase {
    func testWeightAndSlantPickTheirFaces() throws {
        _ = try TextFixtures.face("Inter")
        let library = FontLibrary.shared
        let regular = try library.face(family: "Inter", weight: .regular, italic: false)
        let semibold = try library.face(family: "Inter", weight: .semibold, italic: false)
        let boldItalic = try library.face(family: "Inter", weight: .bold, italic: true)
        XCTAssertTrue(regular.path.hasSuffix("Inter-Regular.otf"), regular.path)
        XCTAssertTrue(semibold.path.hasSuffix("Inter-SemiBold.otf"), semibold.path)
        XCTAssertTrue(boldItalic.path.hasSuffix("Inter-BoldItalic.otf"), boldItalic.path)
        XCTAssertTrue(try library.face(family: "inter", weight: .regular, italic: false) === regular, "one face")
        XCTAssertTrue(try library.face(path: regular.path) === regular, "by file, the same face")
    }

    func testTheSystemFaceIsInterWhereInstalled() throws {
        let inter = try TextFixtures.face("Inter")
        XCTAssertTrue(try FontLibrary.shared.systemFace(weight: .regular, italic: false) === inter)
        let text = try TextFixtures.typeset("Good", TextStyle(.headline))
        XCTAssertTrue(text.paragraphs[0].glyphs.allSatisfy { $0.face == 0 })
    }

    /// SwiftUI's `Font.Design`s through their open faces (see `FontDesign`): the seed's
    /// `.font(.system(.title, design: .rounded)).fontWeight(.bold)` is Quicksand Bold at 28 pt.
    func testTheSystemDesignsPickTheirFaces() throws {
        _ = try TextFixtures.face("Quicksand")
        let library = FontLibrary.shared
        let rounded = try library.systemFace(design: .rounded, weight: .bold, italic: false)
        XCTAssertTrue(rounded.path.hasSuffix("Quicksand-Bold.ttf"), rounded.path)
        let serif = try library.systemFace(design: .serif, weight: .regular, italic: false)
        XCTAssertTrue(serif.path.hasSuffix("DejaVuSerif.ttf"), serif.path)
        let mono = try library.systemFace(design: .monospaced, weight: .bold, italic: false)
        XCTAssertTrue(mono.path.hasSuffix("DejaVuSansMono-Bold.ttf"), mono.path)
        var style = TextStyle(TextStyleName(swiftUI: "title")!, design: .rounded)
        style.weight = .bold
        XCTAssertEqual(style.size, 28)
        let text = try TextFixtures.typeset("Delicious", style)
        XCTAssertTrue(text.paragraphs[0].glyphs.allSatisfy { $0.face == 0 }, "every glyph from Quicksand")
        XCTAssertTrue(try library.face(family: "Quicksand", weight: .bold, italic: false) === rounded)
        // Monospaced: every advance the same.
        let code = try TextFixtures.typeset("il1WM", TextStyle(.body, design: .monospaced))
        XCTAssertEqual(Set(code.paragraphs[0].glyphs.map(\.advance)).count, 1)
        XCTAssertEqual(TextStyleName(swiftUI: "caption"), .caption1)
        XCTAssertNil(TextStyleName(swiftUI: "title4"))
    }

    func testCloseFamiliesAreRankedByEditDistance() throws {
        _ = try TextFixtures.face("DejaVu Serif")
        let close = FontLibrary.shared.closeFamilies(to: "dejavu serf")
        XCTAssertEqual(close.first, "DejaVu Serif")
        XCTAssertLessThanOrEqual(close.count, 5)
    }
}
