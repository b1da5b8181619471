import Compositor
import Scenes

/// The project's `Typesetter`: fonts found through fontconfig, shaped by HarfBuzz, rasterised by FreeType into
/// a shared, bounded glyph cache, laid out as `UILabel` lays out a label.
///
/// - Fonts: a family is accepted only when one of fontconfig's match's family names is the one asked for
///   (ignoring case) or it is a generic alias (sans-serif, serif, monospace, system-ui); `.system` is Inter,
///   else DejaVu Sans. A character the face lacks comes from the first font fontconfig sorts for the same
///   family, weight and slant that has it (one sort per request, then each font's charset, as Pango does).
/// - Shaping: each paragraph is shaped once with HarfBuzz's default features; tracking is added to every
///   cluster. Bidi is two-level: a paragraph's direction is its first strong character's, runs are
///   left-to-right or right-to-left (digits always left to right, neutrals from agreeing neighbours, else the
///   paragraph's), reordered per line by Unicode's rule L2; explicit embeddings, overrides and isolates are
///   not supported.
/// - Layout: paragraphs at "\n", "\r\n", "\r", U+2028, U+2029; wrapping after spaces and hyphens and around
///   CJK characters, inside a word only when it alone is too wide; lines shown are the fewer of `lineLimit` and
///   those the frame's height holds (at least one), the last truncated at its tail with "…" when visible text
///   is left over; the block centred vertically, the first baseline at its top plus the ascender.
/// - Pixels: unhinted outlines, 8-bit anti-aliasing, origins at quarter-pixel phases (upright text: horizontally
///   only, baselines on whole pixels); any transform that is not
///   a uniform scale rotates or shears the outline itself, never a bitmap.
public struct FontTypesetter: Typesetter {
    /// The largest size accepted, in points.
    public static let maximumSize = 16_384.0
    /// The longest text accepted, in bytes of UTF-8 (16 MiB).
    public static let maximumUTF8Count = 16 << 20
    /// The most an outline is grown or thinned (`TextStyle.outlineGrowth`), in ems: a quarter em each way already
    /// fills any letter's counters or erases its strokes; clamped so glyph boxes and FreeType's strength stay bounded.
    public static let maximumOutlineGrowth = 0.25

    public let glyphCache: GlyphCache

    public init(glyphCache: GlyphCache = .shared) {
        self.glyphCache = glyphCache
    }

    public func typeset(_ text: String, style: TextStyle) throws -> any TypesetText {
        guard style.size.isFinite, style.size > 0, style.size <= Self.maximumSize else {
            throw TypesettingError.invalidSize(style.size)
        }
        let utf8Count = text.utf8.count
        guard utf8Count <= Self.maximumUTF8Count else { throw TypesettingError.textTooLong(utf8Count: utf8Count) }
        let library = FontLibrary.shared
        let primary: FontFace
        let familyForFallback: String
        switch style.font {
        case .system:
            primary = try library.systemFace(design: style.design, weight: style.weight, italic: style.italic)
            familyForFallback = FontLibrary.systemFamilies(for: style.design)[0]
        case .family(let name):
            primary = try library.face(family: name, weight: style.weight, italic: style.italic)
            familyForFallback = name
        case .file(let path):
            primary = try library.face(path: path)
            familyForFallback = "sans-serif"
        }
        let faces = FaceSet(
            primary: primary,
            fallbacks: library.fallbackList(family: familyForFallback, weight: style.weight, italic: style.italic))
        var shaper = ParagraphShaper(faces: faces, size: style.size, tracking: Self.points(style.tracking))
        let paragraphs = Self.paragraphRanges(Array(text.utf8)).map { shaper.shape($0) }
        var sanitised = style
        (sanitised.tracking, sanitised.lineSpacing) = (Self.points(style.tracking), Self.points(style.lineSpacing))
        sanitised.outlineGrowth =
            style.outlineGrowth.isFinite
            ? min(max(style.outlineGrowth, -Self.maximumOutlineGrowth), Self.maximumOutlineGrowth) : 0
        return ShapedText(paragraphs: paragraphs, faces: faces.faces, style: sanitised, glyphCache: glyphCache)
    }

    /// Tracking and line spacing as used: NaN and infinities as 0, magnitudes beyond a million points clamped, so
    /// that positions and ink bounds stay finite (no frame is that large).
    static func points(_ value: Double) -> Double {
        value.isFinite ? min(max(value, -1e6), 1e6) : 0
    }

    /// The paragraphs of UTF-8 text, split at "\n", "\r\n", "\r", U+2028 and U+2029; none for empty text.
    static func paragraphRanges(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard !bytes.isEmpty else { return [] }
        var paragraphs: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            var separator = 0
            if bytes[index] == 0x0A {
                separator = 1
            } else if bytes[index] == 0x0D {
                separator = index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            } else if bytes[index] == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
            {
                separator = 3
            }
            if separator > 0 {
                paragraphs.append(bytes[start..<index])
                index += separator
                start = index
            } else {
                index += 1
            }
        }
        paragraphs.append(bytes[start..<bytes.count])
        return paragraphs
    }
}
