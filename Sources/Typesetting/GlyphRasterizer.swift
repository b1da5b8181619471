import CFreeType
import Compositor

/// How glyphs are drawn for one transform: the pixel size and FreeType matrix the outline is loaded with.
///
/// A uniform scale renders the outline at `size × scale` pixels, upright. Any other linear part (rotation, shear,
/// unequal scales, a mirror) renders it at the size times sqrt|det| with the normalised matrix applied to the
/// outline by FreeType, so rotated text is as sharp as upright text: a bitmap is never resampled.
struct GlyphRendering {
    /// Pixels per em, 26.6, as FreeType is given it (at most `maximumCharSize`; the rest goes in the matrix).
    let charSize: Int32
    /// The outline matrix, 16.16, mapping FreeType's y-up pixels to the mask's (y flipped back by row order).
    let xx, xy, yx, yy: Int32
    /// The linear part is a uniform scale: glyph origins snap to whole pixels vertically (`addCoverage`).
    let isUpright: Bool
    /// `FT_Outline_EmboldenXY`'s strength, 26.6 pixels, the same along both axes: how much wider every stem gets
    /// (each edge moves half of it), applied to the transformed outline, so the growth is the same in every
    /// direction on the canvas (a stretched glyph's stems are grown after the stretch). 0: the outline as loaded.
    let emboldening: Int32

    /// FreeType's ppem is 16-bit, and large glyphs lose nothing by being scaled through the matrix instead.
    static let maximumCharSize = 4096.0
    /// Beyond this many pixels per em a glyph is not drawn: its outline coordinates would overflow the
    /// rasteriser's cells, and no canvas this tool draws could show more than a sliver of one glyph.
    static let maximumPixelSize = 262_144.0

    /// - Parameter outlineGrowth: `TextStyle.outlineGrowth`, ems each edge moves out (FontTypesetter bounds it).
    init?(size: Double, transform t: AffineTransform2D, outlineGrowth: Double = 0) {
        let determinant = t.a * t.d - t.b * t.c
        guard determinant.isFinite, abs(determinant) > 1e-12 else { return nil }
        let scale = abs(determinant).squareRoot()
        let pixelSize = size * scale
        guard pixelSize.isFinite, pixelSize > 0, pixelSize <= Self.maximumPixelSize else { return nil }
        // A shear or an unequal scale stretches the glyph along one axis by the matrix's largest singular value,
        // which the area-preserving size above does not see (skewX(89.999deg) has determinant 1): bound the
        // stretched extent too, so outline coordinates stay inside the rasteriser's cells.
        let squares = t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d
        let largestStretch = ((squares + max(0, squares * squares - 4 * determinant * determinant).squareRoot()) / 2)
            .squareRoot()
        guard (size * largestStretch).isFinite, size * largestStretch <= Self.maximumPixelSize else { return nil }
        let tolerance = 1e-9 * scale
        let uniform = abs(t.a - t.d) <= tolerance && abs(t.b) <= tolerance && abs(t.c) <= tolerance && t.a > 0
        let charPixels = min(pixelSize, Self.maximumCharSize)
        let extra = pixelSize / charPixels
        // Frame points are y down, FreeType's outline y up: with m the normalised linear part, a glyph point
        // (u, v) lands at m·(u, −v) in the mask, so FreeType's matrix is diag(1, −1)·m·diag(1, −1).
        let m = uniform ? (1.0, 0.0, 0.0, 1.0) : (t.a / scale, -t.c / scale, -t.b / scale, t.d / scale)
        // 16.16 entries: a glyph squashed to a near-line (scale(1, 1e-9)) has entries past Int32; it is not drawn.
        func fixed(_ value: Double) -> Int32? { Int32(exactly: (value * extra * 65536).rounded()) }
        guard let xx = fixed(m.0), let xy = fixed(m.1), let yx = fixed(m.2), let yy = fixed(m.3) else { return nil }
        charSize = Int32((charPixels * 64).rounded())
        isUpright = uniform
        // Both edges of a stem move, each by the growth: the strength is twice it, in the loaded outline's pixels.
        guard let strength = Int32(exactly: (2 * outlineGrowth * pixelSize * 64).rounded()) else { return nil }
        emboldening = strength
        (self.xx, self.xy, self.yx, self.yy) = (xx, xy, yx, yy)
    }

    func key(face: FontFace, glyph: UInt32, phaseX: Int, phaseY: Int) -> GlyphKey {
        GlyphKey(
            face: face.id, glyph: glyph, pixelSize: charSize, xx: xx, xy: xy, yx: yx, yy: yy,
            emboldening: emboldening, phaseX: UInt8(phaseX), phaseY: UInt8(phaseY))
    }

    /// Loads the glyph's outline transformed and shifted by the phase (quarter pixels), then hands `body` the
    /// outline and its pixel box (columns x0..<x1, y-up rows y0..<y1, empty for a glyph with no outline). Nil
    /// when FreeType cannot load the glyph.
    private func withOutline<Result>(
        _ face: FontFace, _ glyph: UInt32, phaseX: Int, phaseY: Int,
        _ body: (UnsafeMutablePointer<FT_Outline>, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Result?
    ) -> Result? {
        var result: Result?
        let loaded = forEachPhase(face, glyph, phases: [(phaseX, phaseY)]) { _, outline, x0, y0, x1, y1 in
            result = body(outline, x0, y0, x1, y1)
        }
        return loaded ? result : nil
    }

    /// Loads the glyph's outline once, transformed, and hands `body` it shifted by each phase in turn, with its
    /// pixel box. FreeType's own delta is a translation of the loaded points in 26.6, so shifting the points of
    /// one load gives the outline a load at each phase would (for CFF faces, Inter's, the load is the cost). False
    /// when FreeType cannot load the glyph.
    private func forEachPhase(
        _ face: FontFace, _ glyph: UInt32, phases: [(x: Int, y: Int)],
        _ body: (Int, UnsafeMutablePointer<FT_Outline>, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Void
    ) -> Bool {
        face.withFreeType { ftFace in
            guard FT_Set_Char_Size(ftFace, 0, FT_F26Dot6(charSize), 72, 72) == 0 else { return false }
            var matrix = FT_Matrix(xx: FT_Fixed(xx), xy: FT_Fixed(xy), yx: FT_Fixed(yx), yy: FT_Fixed(yy))
            var origin = FT_Vector(x: 0, y: 0)
            FT_Set_Transform(ftFace, &matrix, &origin)
            let flags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
            guard FT_Load_Glyph(ftFace, glyph, flags) == 0, let slot = ftFace.pointee.glyph,
                slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
            else { return false }
            withUnsafeMutablePointer(to: &slot.pointee.outline) { outline in
                // Grown (or thinned) once per load, before the phases' shifts: the same points for every phase.
                // FreeType moves every edge out by half the strength and then the whole outline up and right by
                // the other half (its left and bottom stay put, for synthetic bold text); moved back, the glyph
                // grows about its centre, as a symbol's weights do.
                if emboldening != 0 {
                    _ = FT_Outline_EmboldenXY(outline, FT_Pos(emboldening), FT_Pos(emboldening))
                    FT_Outline_Translate(outline, FT_Pos(-emboldening / 2), FT_Pos(-emboldening / 2))
                }
                let count = Int(outline.pointee.n_points)
                guard count > 0, let points = outline.pointee.points else {
                    for index in phases.indices { body(index, outline, 0, 0, 0, 0) }
                    return
                }
                // The loaded points, put back before each phase (the body may translate them to render).
                let loaded = Array(UnsafeBufferPointer(start: points, count: count))
                for (index, phase) in phases.enumerated() {
                    if index > 0 {
                        loaded.withUnsafeBufferPointer { points.update(from: $0.baseAddress!, count: count) }
                    }
                    // The mask's y runs down, FreeType's up: a phase of +y in the mask is −y for the outline.
                    FT_Outline_Translate(outline, FT_Pos(phase.x * 16), FT_Pos(-phase.y * 16))
                    var box = FT_BBox()
                    FT_Outline_Get_CBox(outline, &box)
                    let x0 = Int(box.xMin >> 6)
                    let y0 = Int(box.yMin >> 6)
                    let x1 = Int((box.xMax + 63) >> 6)
                    let y1 = Int((box.yMax + 63) >> 6)
                    body(index, outline, x0, y0, max(x1, x0), max(y1, y0))
                }
            }
            return true
        }
    }

    /// The whole glyph's coverage at each phase, from one load of the outline: empty for a glyph with no
    /// outline, or one FreeType cannot load; nil when it is too large to keep (`cacheableSide`) and must be
    /// drawn with `drawClipped`.
    func bitmaps(_ face: FontFace, _ glyph: UInt32, phases: [(x: Int, y: Int)], library: FT_Library)
        -> [GlyphBitmap?]
    {
        let empty = GlyphBitmap(left: 0, top: 0, width: 0, height: 0, pixels: [])
        var made = [GlyphBitmap?](repeating: empty, count: phases.count)
        _ = forEachPhase(face, glyph, phases: phases) { index, outline, x0, y0, x1, y1 in
            let (width, height) = (x1 - x0, y1 - y0)
            guard width <= Self.cacheableSide, height <= Self.cacheableSide else {
                made[index] = nil
                return
            }
            guard width > 0, height > 0 else { return }
            let pixels = Self.render(outline, library: library, x: x0, y: y0, width: width, height: height)
            made[index] = GlyphBitmap(left: x0, top: y1, width: width, height: height, pixels: pixels)
        }
        return made
    }

    /// Glyphs at most this many pixels on a side are cached; larger ones are drawn clipped to the mask.
    static let cacheableSide = 512

    /// Draws a glyph of any size straight into the mask, rasterising only the pixels inside it: the cost of a
    /// 10,000-point letter is the mask's, not the letter's.
    func drawClipped(
        _ face: FontFace, _ glyph: UInt32, phaseX: Int, phaseY: Int, originX: Int, originY: Int, into mask: Plane,
        library: FT_Library
    ) {
        _ = withOutline(face, glyph, phaseX: phaseX, phaseY: phaseY) { outline, x0, y0, x1, y1 -> Bool? in
            // Mask column = originX + x; the y-up row y covers mask row originY − 1 − y.
            let left = max(x0, -originX)
            let right = min(x1, mask.width - originX)
            let bottom = max(y0, originY - mask.height)
            let top = min(y1, originY)
            guard right > left, top > bottom else { return nil }
            let pixels = Self.render(
                outline, library: library, x: left, y: bottom, width: right - left, height: top - bottom)
            let bitmap = GlyphBitmap(left: left, top: top, width: right - left, height: top - bottom, pixels: pixels)
            CoverageBlit.add(bitmap, atX: originX, y: originY, into: mask)
            return true
        }
    }

    /// FreeType's anti-aliased rasteriser over the pixels x..<x+width, y..<y+height (y up) of the outline.
    private static func render(
        _ outline: UnsafeMutablePointer<FT_Outline>, library: FT_Library, x: Int, y: Int, width: Int, height: Int
    ) -> [UInt8] {
        FT_Outline_Translate(outline, FT_Pos(-x * 64), FT_Pos(-y * 64))
        let stride = GlyphBitmap.stride(forWidth: width)
        var pixels = [UInt8](repeating: 0, count: stride * height)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var target = FT_Bitmap()
            target.rows = UInt32(height)
            target.width = UInt32(width)
            target.pitch = Int32(stride)
            target.buffer = buffer.baseAddress
            target.num_grays = 256
            target.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
            _ = FT_Outline_Get_Bitmap(library, outline, &target)
        }
        return pixels
    }
}

/// Coverage combined into a mask as coverage composited source-over: a + b − a·b/255, rounded.
enum CoverageBlit {
    static func add(_ bitmap: GlyphBitmap, atX originX: Int, y originY: Int, into mask: Plane) {
        let left = originX + bitmap.left
        let top = originY - bitmap.top
        let x0 = max(left, 0)
        let x1 = min(left + bitmap.width, mask.width)
        let y0 = max(top, 0)
        let y1 = min(top + bitmap.height, mask.height)
        guard x1 > x0, y1 > y0 else { return }
        // Whole vectors run while both the padded source row and the mask's row (its width, never beyond: a
        // borrowed plane's neighbouring bytes may be another thread's) have 16 bytes left.
        let vectorEnd = min(x1, mask.width - 15, left + bitmap.stride - 15)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            var y = y0
            // Two rows a step while two are left: one 32-byte vector where the CPU has them (AVX2), as two
            // 16-byte halves otherwise.
            while y + 1 < y1 {
                let source = pixels.baseAddress! + (y - top) * bitmap.stride
                let (destination, below) = (mask.row(y), mask.row(y + 1))
                var x = x0
                while x < vectorEnd {
                    combine16(
                        source + (x - left), source + (x - left + bitmap.stride), into: destination + x,
                        below + x)
                    x += 16
                }
                while x < x1 {
                    combine(source + (x - left), into: destination + x)
                    combine(source + (x - left + bitmap.stride), into: below + x)
                    x += 1
                }
                y += 2
            }
            if y < y1 {
                let source = pixels.baseAddress! + (y - top) * bitmap.stride
                let destination = mask.row(y)
                var x = x0
                while x < vectorEnd {
                    combine16(source + (x - left), into: destination + x)
                    x += 16
                }
                while x < x1 {
                    combine(source + (x - left), into: destination + x)
                    x += 1
                }
            }
        }
    }

    /// One coverage byte combined into the mask's.
    @inline(__always)
    private static func combine(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>) {
        let (a, b) = (UInt16(destination.pointee), UInt16(source.pointee))
        let t = a * b + 128
        destination.pointee = UInt8(truncatingIfNeeded: a + b - ((t + (t >> 8)) >> 8))
    }

    /// 16 coverage bytes of each of two rows, combined as one vector of 16 words of two bytes each.
    @inline(__always)
    private static func combine16(
        _ source: UnsafePointer<UInt8>, _ sourceBelow: UnsafePointer<UInt8>,
        into destination: UnsafeMutablePointer<UInt8>, _ below: UnsafeMutablePointer<UInt8>
    ) {
        func load(_ pointer: UnsafeRawPointer) -> SIMD8<UInt16> { pointer.loadUnaligned(as: SIMD8<UInt16>.self) }
        let b = SIMD16(lowHalf: load(source), highHalf: load(sourceBelow))
        let a = SIMD16(lowHalf: load(destination), highHalf: load(below))
        let even = combine(a & 0xFF, b & 0xFF)
        let odd = combine(a &>> 8, b &>> 8)
        let result = even | odd &<< 8
        UnsafeMutableRawPointer(destination).storeBytes(of: result.lowHalf, as: SIMD8<UInt16>.self)
        UnsafeMutableRawPointer(below).storeBytes(of: result.highHalf, as: SIMD8<UInt16>.self)
    }

    /// 16 coverage bytes as eight 16-bit words, their even and odd bytes combined in separate lanes and put back
    /// with a shift: no widening or narrowing conversions, which Swift leaves as calls or lane-by-lane inserts
    /// (shared/SWIFT-PERFORMANCE.md; they were most of the blit's time), and SSE2 has every instruction used.
    @inline(__always)
    private static func combine16(_ source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>) {
        let b = UnsafeRawPointer(source).loadUnaligned(as: SIMD8<UInt16>.self)
        let a = UnsafeRawPointer(destination).loadUnaligned(as: SIMD8<UInt16>.self)
        let even = combine(a & 0xFF, b & 0xFF)
        let odd = combine(a &>> 8, b &>> 8)
        UnsafeMutableRawPointer(destination).storeBytes(of: even | odd &<< 8, as: SIMD8<UInt16>.self)
    }

    /// round(a·b/255) exactly for 8-bit a and b: t = a·b + 128, then (t + t>>8) >> 8; a + b minus that.
    @inline(__always)
    private static func combine<Words: SIMD>(_ a: Words, _ b: Words) -> Words where Words.Scalar == UInt16 {
        let t = a &* b &+ 128
        return a &+ b &- ((t &+ (t &>> 8)) &>> 8)
    }
}
