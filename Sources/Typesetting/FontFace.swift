import Compositor
import CFreeType
import CHarfBuzz

/// One face of one font file, opened once for the process: HarfBuzz shapes with it (its own OpenType functions
/// over the file's blob, which are safe to share between threads) and FreeType rasterises its outlines (an
/// `FT_Face` is not thread-safe, so it is only reached through `withFreeType`).
final class FontFace: @unchecked Sendable {
    /// Unique for the process: the glyph cache's key, where a pointer could be reused by a later face.
    let id: Int32
    let path: String
    let index: Int
    let unitsPerEm: Double
    /// Font units, y up: the ascender is positive, the descender negative; `lineHeight` includes the line gap.
    let ascender: Double
    let descender: Double
    let lineHeight: Double
    let hbFont: OpaquePointer
    private let blob: OpaquePointer
    private let hbFace: OpaquePointer
    private let freeType: Locked<FT_Face>

    /// FreeType asks that faces of one library be opened and closed one at a time when the library is shared
    /// between threads: every `FT_New_Memory_Face` and `FT_Done_Face` runs under this lock (never while taking
    /// another, so it cannot deadlock).
    static let openingAndClosing = Locked(())

    /// Opens the face; `library` is FreeType's.
    init(path: String, index: Int, id: Int32, library: FT_Library) throws(TypesettingError) {
        try FontFile.check(path)
        guard let blob = hb_blob_create_from_file_or_fail(path) else { throw .unreadableFile(path: path) }
        var face: FT_Face?
        let data = hb_blob_get_data(blob, nil)
        let length = hb_blob_get_length(blob)
        // FreeType reads the bytes HarfBuzz mapped, so both see one copy of the file for the face's lifetime.
        let status = data.map { bytes in
            bytes.withMemoryRebound(to: FT_Byte.self, capacity: Int(length)) { bytes in
                FontFace.openingAndClosing.withLock { _ in
                    FT_New_Memory_Face(library, bytes, FT_Long(length), FT_Long(index), &face)
                }
            }
        }
        let hbFace = hb_face_create(blob, UInt32(index))
        // HarfBuzz must find the OpenType tables too (FreeType alone also reads Type 1 and bitmap formats).
        guard status == 0, let face, face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0,
            face.pointee.units_per_EM > 0, let hbFace, hb_face_get_glyph_count(hbFace) > 0
        else {
            if let face { FontFace.openingAndClosing.withLock { _ in _ = FT_Done_Face(face) } }
            hb_face_destroy(hbFace)
            hb_blob_destroy(blob)
            throw .notAFont(path: path)
        }
        self.blob = blob
        self.hbFace = hbFace
        hbFont = hb_font_create(hbFace)
        let upem = Int32(face.pointee.units_per_EM)
        // Positions in font units, scaled to points in Double by the caller: no hinting, no rounding to pixels.
        hb_font_set_scale(hbFont, upem, upem)
        hb_font_make_immutable(hbFont)
        unitsPerEm = Double(upem)
        ascender = Double(face.pointee.ascender)
        descender = Double(face.pointee.descender)
        let height = Double(face.pointee.height)
        lineHeight = height > 0 ? height : ascender - descender
        self.path = path
        self.index = index
        self.id = id
        freeType = Locked(face)
    }

    deinit {
        freeType.withLock { face in FontFace.openingAndClosing.withLock { _ in _ = FT_Done_Face(face) } }
        hb_font_destroy(hbFont)
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
    }

    /// The glyph for a code point, or nil when the face has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 && glyph != 0 ? glyph : nil
    }

    /// Runs `body` with the FreeType face, one thread at a time (sizes and transforms are the face's state).
    func withFreeType<Result>(_ body: (FT_Face) throws -> Result) rethrows -> Result {
        try freeType.withLock { face in try body(face) }
    }

    /// A glyph's outline box in font units, y up (x0, y0, x1, y1); nil for a glyph with no outline.
    func extents(of glyph: UInt32) -> (Float, Float, Float, Float)? {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(hbFont, glyph, &extents) != 0, extents.width != 0, extents.height != 0
        else { return nil }
        let x0 = Float(min(extents.x_bearing, extents.x_bearing + extents.width))
        let x1 = Float(max(extents.x_bearing, extents.x_bearing + extents.width))
        let y0 = Float(min(extents.y_bearing, extents.y_bearing + extents.height))
        let y1 = Float(max(extents.y_bearing, extents.y_bearing + extents.height))
        return (x0, y0, x1, y1)
    }
}
