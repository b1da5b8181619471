import CFreeType
import Compositor
import Scenes

/// A string shaped in a style by `FontTypesetter`: laid out per frame size (the last few layouts kept), drawn
/// through the glyph cache.
final class ShapedText: TypesetText, @unchecked Sendable {
    private let breaker: LineBreaker
    /// The shaped paragraphs (for tests and measurements).
    var paragraphs: [ShapedParagraph] { breaker.paragraphs }
    private let faces: [FontFace]
    private let size: Double
    /// `TextStyle.outlineGrowth`, in ems.
    private let outlineGrowth: Double
    private let glyphCache: GlyphCache
    private let layouts = Locked<[(width: Double, height: Double, layout: TextLayout)]>([])
    private static let keptLayouts = 4

    init(paragraphs: [ShapedParagraph], faces: [FontFace], style: TextStyle, glyphCache: GlyphCache) {
        self.faces = faces
        size = style.size
        outlineGrowth = style.outlineGrowth
        self.glyphCache = glyphCache
        let ellipses = Locked<[Int: ShapedParagraph]>([:])
        breaker = LineBreaker(paragraphs: paragraphs, faces: faces, style: style) { faceIndex in
            if let known = ellipses.withLock({ $0[faceIndex] }) { return known }
            let mark = Self.ellipsis(faces[faceIndex], faceIndex: faceIndex, size: style.size, tracking: style.tracking)
            ellipses.withLock { $0[faceIndex] = mark }
            return mark
        }
    }

    /// "…" from the face, or "..." where it has no U+2026, shaped as one left-to-right run (the line places it
    /// at the paragraph's end, the left for a right-to-left one).
    private static func ellipsis(_ face: FontFace, faceIndex: Int, size: Double, tracking: Double) -> ShapedParagraph {
        let text = face.glyph(for: "\u{2026}") != nil ? "\u{2026}" : "..."
        let single = FaceSet(primary: face, fallbacks: FallbackList.empty)
        var shaper = ParagraphShaper(faces: single, size: size, tracking: tracking)
        var mark = shaper.shape(Array(text.utf8)[...])
        for index in mark.glyphs.indices { mark.glyphs[index].face = UInt16(faceIndex) }
        return mark
    }

    func layout(width: Double, height: Double) -> TextLayout {
        if let cached = layouts.withLock({ $0.first { $0.width == width && $0.height == height }?.layout }) {
            return cached
        }
        let layout = breaker.layout(width: width, height: height)
        layouts.withLock { kept in
            if !kept.contains(where: { $0.width == width && $0.height == height }) {
                kept.insert((width, height, layout), at: 0)
                if kept.count > Self.keptLayouts { kept.removeLast() }
            }
        }
        return layout
    }

    func fittingSize(width: Double) -> Size {
        layout(width: width > 0 ? width : .infinity, height: .infinity).size
    }

    func inkBounds(frameWidth width: Double, height: Double) -> Rect? {
        layout(width: width, height: height).inkBounds
    }

    func addCoverage(frameWidth width: Double, height: Double, through transform: AffineTransform2D, into mask: Plane) {
        guard let rendering = GlyphRendering(size: size, transform: transform, outlineGrowth: outlineGrowth),
            mask.width > 0, mask.height > 0
        else { return }
        let library = FontLibrary.shared.freeType
        let (stamps, sources) = self.stamps(
            of: layout(width: width, height: height), rendering: rendering, transform: transform, mask: mask)
        let bitmaps = self.bitmaps(sources, rendering: rendering, library: library)
        for stamp in stamps {
            guard let bitmap = bitmaps[Int(stamp.source)] else {
                let source = sources[Int(stamp.source)]
                rendering.drawClipped(
                    faces[Int(source.face)], source.glyph, phaseX: Int(source.phaseX), phaseY: Int(source.phaseY),
                    originX: Int(stamp.x), originY: Int(stamp.y), into: mask, library: library)
                continue
            }
            CoverageBlit.add(bitmap, atX: Int(stamp.x), y: Int(stamp.y), into: mask)
        }
    }

    /// A glyph to draw: its bitmap's origin in the mask's whole pixels and which of the distinct sources it is.
    private struct Stamp {
        var x, y: Int32
        var source: Int32
    }

    /// A distinct glyph image: face, glyph and phase (quarter pixels).
    private struct Source {
        var face: UInt16
        var glyph: UInt32
        var phaseX, phaseY: UInt8
    }

    /// Where each glyph that may touch the mask lands, and the distinct glyph images they need.
    ///
    /// Whole pixels move the blit; the remainder, in quarter pixels, is the outline's phase. Upright text keeps
    /// only the horizontal phase, as Skia's axis-aligned and Core Text's horizontal text do: its baselines are
    /// snapped to whole pixels, so a paragraph's lines share one bitmap per glyph and x phase instead of making up
    /// to 16 variants of it. Rotated or sheared text keeps both phases.
    private func stamps(
        of layout: TextLayout, rendering: GlyphRendering, transform: AffineTransform2D, mask: Plane
    ) -> ([Stamp], [Source]) {
        var stamps: [Stamp] = []
        stamps.reserveCapacity(layout.glyphs.count)
        var sources: [Source] = []
        // A paragraph repeats a few dozen glyph images thousands of times: each is looked up once.
        var sourceOf = GlyphMemo<Int32>()
        for glyph in layout.glyphs where glyph.hasInk {
            // Glyphs whose outline box misses the mask are never rasterised (a margin of one pixel for the
            // difference between HarfBuzz's extents and FreeType's control box).
            let origin = transform.apply(to: (glyph.x, glyph.y))
            let (minX, maxX, minY, maxY) = (
                Double(glyph.minX), Double(glyph.maxX), Double(glyph.minY), Double(glyph.maxY)
            )
            // The transformed box's half extents about the origin's image, per axis.
            let left =
                origin.x + min(transform.a * minX, transform.a * maxX) + min(transform.c * minY, transform.c * maxY)
            let right =
                origin.x + max(transform.a * minX, transform.a * maxX) + max(transform.c * minY, transform.c * maxY)
            let top =
                origin.y + min(transform.b * minX, transform.b * maxX) + min(transform.d * minY, transform.d * maxY)
            let bottom =
                origin.y + max(transform.b * minX, transform.b * maxX) + max(transform.d * minY, transform.d * maxY)
            guard left - 1 < Double(mask.width), top - 1 < Double(mask.height), right + 1 > 0, bottom + 1 > 0 else {
                continue
            }
            guard origin.x.magnitude < 1e9, origin.y.magnitude < 1e9 else { continue }
            var wholeX = origin.x.rounded(.down)
            var wholeY = rendering.isUpright ? origin.y.rounded() : origin.y.rounded(.down)
            var phaseX = Int(((origin.x - wholeX) * 4).rounded())
            var phaseY = rendering.isUpright ? 0 : Int(((origin.y - wholeY) * 4).rounded())
            if phaseX == 4 { (wholeX, phaseX) = (wholeX + 1, 0) }
            if phaseY == 4 { (wholeY, phaseY) = (wholeY + 1, 0) }
            let memoKey = UInt64(glyph.id) | UInt64(glyph.face) << 32 | UInt64(phaseX) << 48 | UInt64(phaseY) << 52
            let source: Int32
            if let known = sourceOf[memoKey] {
                source = known
            } else {
                source = Int32(sources.count)
                sources.append(Source(face: glyph.face, glyph: glyph.id, phaseX: UInt8(phaseX), phaseY: UInt8(phaseY)))
                sourceOf[memoKey] = source
            }
            stamps.append(Stamp(x: Int32(wholeX), y: Int32(wholeY), source: source))
        }
        return (stamps, sources)
    }

    /// Each source's bitmap from the shared cache, or rasterised and added to it (the phases of one glyph from one
    /// load of its outline); nil for one too large to cache.
    private func bitmaps(_ sources: [Source], rendering: GlyphRendering, library: FT_Library) -> [GlyphBitmap?] {
        func key(_ source: Source) -> GlyphKey {
            rendering.key(
                face: faces[Int(source.face)], glyph: source.glyph, phaseX: Int(source.phaseX),
                phaseY: Int(source.phaseY))
        }
        var bitmaps = sources.map { glyphCache.bitmap(for: key($0)) }
        // The sources still to rasterise, by face and glyph, in the order they first appear.
        var missing: [UInt64: [Int]] = [:]
        var order: [UInt64] = []
        for (index, source) in sources.enumerated() where bitmaps[index] == nil {
            let glyph = UInt64(source.face) << 32 | UInt64(source.glyph)
            if missing[glyph] == nil { order.append(glyph) }
            missing[glyph, default: []].append(index)
        }
        for glyph in order {
            let indices = missing[glyph]!
            let first = sources[indices[0]]
            let made = rendering.bitmaps(
                faces[Int(first.face)], first.glyph,
                phases: indices.map { (Int(sources[$0].phaseX), Int(sources[$0].phaseY)) }, library: library)
            for (index, bitmap) in zip(indices, made) {
                guard let bitmap else { continue }
                glyphCache.insert(bitmap, for: key(sources[index]))
                bitmaps[index] = bitmap
            }
        }
        return bitmaps
    }
}
