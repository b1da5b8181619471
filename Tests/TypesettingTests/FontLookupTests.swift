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

    func testCloseFamiliesAreRankedByEditDistance() throws {
        _ = try TextFixtures.face("DejaVu Serif")
        let close = FontLibrary.shared.closeFamilies(to: "dejavu serf")
        XCTAssertEqual(close.first, "DejaVu Serif")
        XCTAssertLessThanOrEqual(close.count, 5)
    }
}
