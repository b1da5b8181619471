import Compositor
import OracleSupport
import Scenes
import XCTest

@testable import Typesetting

/// Fonts, rendering and layout inspection shared by the typesetting tests.
enum TextFixtures {
    /// The first installed face of a family (regular weight, upright), or a skip when it is not installed.
    static func face(_ family: String) throws -> FontFace {
        do {
            return try FontLibrary.shared.face(family: family, weight: .regular, italic: false)
        } catch {
            throw Oracles.missing("the font \(family) is not installed: \(error)")
        }
    }

    static func typeset(_ text: String, _ style: TextStyle, cache: GlyphCache = .shared) throws -> ShapedText {
        try XCTUnwrap(FontTypesetter(glyphCache: cache).typeset(text, style: style) as? ShapedText)
    }

    /// The text's coverage in a `width` × `height` mask through `transform`.
    static func render(
        _ text: TypesetText, frame: (Double, Double), transform: AffineTransform2D = .identity, mask: (Int, Int)
    ) -> Plane {
        let plane = Plane(width: mask.0, height: mask.1)
        text.addCoverage(frameWidth: frame.0, height: frame.1, through: transform, into: plane)
        return plane
    }

    static func bytes(_ plane: Plane) -> [UInt8] {
        (0..<plane.height).flatMap { y in (0..<plane.width).map { plane.row(y)[$0] } }
    }

    /// The distinct baselines of a layout, top first.
    static func baselines(_ layout: TextLayout) -> [Double] {
        Array(Set(layout.glyphs.map(\.y))).sorted()
    }

    /// The glyph ids of each line, left to right.
    static func lines(_ layout: TextLayout) -> [[PlacedGlyph]] {
        baselines(layout).map { baseline in layout.glyphs.filter { $0.y == baseline }.sorted { $0.x < $1.x } }
    }

    /// The glyph a face maps a character to.
    static func glyph(_ face: FontFace, _ character: Unicode.Scalar) throws -> UInt32 {
        try XCTUnwrap(face.glyph(for: character), "\(face.path) has no \(character)")
    }
}
