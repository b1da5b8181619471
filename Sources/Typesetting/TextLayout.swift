import Compositor
import Scenes

/// A glyph placed in the frame: its face, id, origin on the baseline and outline box, in frame points (y down).
struct PlacedGlyph {
    var face: UInt16
    /// Beside the face, where it packs into the id's padding: 40 bytes a glyph, not 48.
    var hasInk: Bool
    var id: UInt32
    var x: Double
    var y: Double
    /// The outline's box relative to the origin, y down (zeros when `hasInk` is false: a space).
    var minX, minY, maxX, maxY: Float
}

/// The text laid out in one frame size: wrapped, limited, truncated, aligned and centred as `UILabel` does it.
struct TextLayout {
    var glyphs: [PlacedGlyph] = []
    /// The widest line's advance (trailing whitespace left out) and the lines' height, in points: the size the
    /// text takes, as `UILabel.sizeThatFits` gives it.
    var size = Size.zero
    /// The union of the glyphs' outline boxes; nil when no glyph has ink.
    var inkBounds: Rect? {
        guard ink.left <= ink.right else { return nil }
        return Rect(x: ink.left, y: ink.top, width: ink.right - ink.left, height: ink.bottom - ink.top)
    }
    /// Kept as edges while glyphs are placed: a union of rectangles per glyph cost more than the placing.
    private var ink = (left: Double.infinity, top: Double.infinity, right: -Double.infinity, bottom: -Double.infinity)

    mutating func include(left: Double, top: Double, right: Double, bottom: Double) {
        ink = (min(ink.left, left), min(ink.top, top), max(ink.right, right), max(ink.bottom, bottom))
    }
}

/// Cuts shaped paragraphs into lines for a frame and places their glyphs.
struct LineBreaker {
    let paragraphs: [ShapedParagraph]
    let faces: [FontFace]
    let style: TextStyle
    /// The ellipsis in a face (by index) that may end a truncated line, shaped on first use.
    let ellipsis: (Int) -> ShapedParagraph

    private struct Line {
        var paragraph: Int
        var clusters: [Int]
        var ellipsis: ShapedParagraph?
    }

    func layout(width: Double, height: Double) -> TextLayout {
        let primary = faces[0]
        let scale = style.size / primary.unitsPerEm
        let lineHeight = primary.lineHeight * scale
        let spacing = style.lineSpacing
        let step = lineHeight + spacing
        var fitting = Int.max
        if height.isFinite, step > 0 {
            let lines = ((max(height, 0) + spacing) / step).rounded(.down)
            fitting = lines < Double(Int.max / 2) ? max(Int(lines), 1) : Int.max
        }
        let limit = style.lineLimit > 0 ? min(style.lineLimit, fitting) : fitting
        let frameWidth = width.isFinite ? width : .greatestFiniteMagnitude

        var lines: [Line] = []
        // Where the lines shown stop, when text is left over.
        var rest: (paragraph: Int, cluster: Int)?
        paragraphs: for (index, paragraph) in paragraphs.enumerated() {
            var start = 0
            repeat {
                if lines.count == limit {
                    rest = (index, start)
                    break paragraphs
                }
                let end = paragraph.clusters.isEmpty ? 0 : lineEnd(paragraph, from: start, width: frameWidth)
                lines.append(Line(paragraph: index, clusters: Array(start..<end)))
                start = end
            } while start < paragraph.clusters.count
        }
        // Only visible text left over earns the ellipsis: blank lines below the last shown one do not.
        if let rest, let last = lines.indices.last, hasInk(from: rest) {
            lines[last] = truncate(lines[last], width: frameWidth)
        }

        let blockHeight = Double(lines.count) * lineHeight + Double(max(lines.count - 1, 0)) * spacing
        let top = ((height.isFinite ? height : blockHeight) - blockHeight) / 2
        var layout = TextLayout()
        layout.size.height = blockHeight
        // One allocation for every glyph placed (a paragraph's ten thousand grew the array a dozen times).
        layout.glyphs.reserveCapacity(
            lines.reduce(0) { total, line in
                line.clusters.reduce(total + (line.ellipsis?.glyphs.count ?? 0)) {
                    $0 + Int(paragraphs[line.paragraph].clusters[$1].glyphCount)
                }
            })
        var extents = ExtentsMemo(faces: faces, size: style.size, outlineGrowth: style.outlineGrowth)
        for (number, line) in lines.enumerated() {
            let baseline = top + primary.ascender * scale + Double(number) * step
            place(line, baseline: baseline, frameWidth: width.isFinite ? width : 0, extents: &extents, into: &layout)
        }
        return layout
    }

    private func hasInk(from rest: (paragraph: Int, cluster: Int)) -> Bool {
        for index in rest.paragraph..<paragraphs.count {
            let clusters = paragraphs[index].clusters
            let start = index == rest.paragraph ? rest.cluster : 0
            if clusters[start...].contains(where: { !$0.isWhitespace }) { return true }
        }
        return false
    }

    /// The cluster after the last one on a line that starts at `start`: greedy, at the last break opportunity
    /// that fits (trailing whitespace never counts), else between clusters, always at least one cluster.
    private func lineEnd(_ paragraph: ShapedParagraph, from start: Int, width: Double) -> Int {
        var used = 0.0
        var lastBreak = -1
        var index = start
        let clusters = paragraph.clusters
        while index < clusters.count {
            let cluster = clusters[index]
            let advance = Double(cluster.advance)
            if !cluster.isWhitespace, index > start, used + advance > width + 1e-9 {
                return lastBreak > start ? lastBreak : index
            }
            used += advance
            index += 1
            if cluster.breaksAfter { lastBreak = index }
        }
        return clusters.count
    }

    /// The line holding the rest of its paragraph cut at the tail to fit with "…", as `byTruncatingTail`.
    private func truncate(_ line: Line, width: Double) -> Line {
        let paragraph = paragraphs[line.paragraph]
        let start = line.clusters.first ?? 0
        let lastFace = line.clusters.last.map { Int(paragraph.glyphs[Int(paragraph.clusters[$0].glyphStart)].face) }
        let mark = ellipsis(lastFace ?? 0)
        let markWidth = mark.clusters.reduce(0.0) { $0 + Double($1.advance) }
        var kept: [Int] = []
        var used = 0.0
        for index in start..<paragraph.clusters.count {
            let cluster = paragraph.clusters[index]
            used += Double(cluster.advance)
            if !cluster.isWhitespace {
                if used + markWidth > width + 1e-9 { break }
            }
            kept.append(index)
        }
        while let last = kept.last, paragraph.clusters[last].isWhitespace { kept.removeLast() }
        return Line(paragraph: line.paragraph, clusters: kept, ellipsis: mark)
    }

    /// Places a line's glyphs in visual order, aligned in the frame's width.
    private func place(
        _ line: Line, baseline: Double, frameWidth: Double, extents: inout ExtentsMemo, into layout: inout TextLayout
    ) {
        let paragraph = paragraphs[line.paragraph]
        // Trailing whitespace left out by moving the end (removing from a slice of the line's array copies it).
        var end = line.clusters.endIndex
        while end > 0, paragraph.clusters[line.clusters[end - 1]].isWhitespace { end -= 1 }
        let clusters = line.clusters[..<end]
        let mark = line.ellipsis ?? ShapedParagraph()
        // Visual order: a left-to-right line of a left-to-right paragraph is its clusters, then the ellipsis.
        // Otherwise each item is a cluster of the paragraph or of the ellipsis, with its embedding level: 0 left to
        // right in a left-to-right paragraph, 1 right to left, 2 left to right inside a right-to-left paragraph.
        var items: [(fromEllipsis: Bool, cluster: Int, level: Int)] = []
        let reorders = paragraph.isRightToLeft || clusters.contains { paragraph.clusters[$0].isRightToLeft }
        if reorders {
            let base = paragraph.isRightToLeft ? 1 : 0
            func level(_ rightToLeft: Bool) -> Int {
                paragraph.isRightToLeft ? (rightToLeft ? 1 : 2) : (rightToLeft ? 1 : 0)
            }
            for index in clusters {
                items.append((false, index, level(paragraph.clusters[index].isRightToLeft)))
            }
            for index in mark.clusters.indices { items.append((true, index, base)) }
            // Unicode's rule L2: from the highest level down to the lowest odd one, reverse every run at that level
            // or above.
            if let highest = items.map(\.level).max(), highest > 0 {
                for target in stride(from: highest, through: 1, by: -1) {
                    var index = 0
                    while index < items.count {
                        guard items[index].level >= target else {
                            index += 1
                            continue
                        }
                        var end = index
                        while end < items.count, items[end].level >= target { end += 1 }
                        items[index..<end].reverse()
                        index = end
                    }
                }
            }
        }
        /// Each cluster of the line in visual order, with the paragraph (or ellipsis) it belongs to.
        func forEachInVisualOrder(_ body: (ShapedCluster, ShapedParagraph) -> Void) {
            if reorders {
                for item in items {
                    let source = item.fromEllipsis ? mark : paragraph
                    body(source.clusters[item.cluster], source)
                }
            } else {
                for index in clusters { body(paragraph.clusters[index], paragraph) }
                for cluster in mark.clusters { body(cluster, mark) }
            }
        }
        var lineWidth = 0.0
        forEachInVisualOrder { cluster, _ in lineWidth += Double(cluster.advance) }
        layout.size.width = max(layout.size.width, lineWidth)
        let alignment: TextAlignment =
            style.alignment == .natural ? (paragraph.isRightToLeft ? .trailing : .leading) : style.alignment
        var pen: Double
        switch alignment {
        case .leading, .natural: pen = 0
        case .center: pen = (frameWidth - lineWidth) / 2
        case .trailing: pen = frameWidth - lineWidth
        }
        forEachInVisualOrder { cluster, source in
            place(cluster, of: source, pen: &pen, baseline: baseline, extents: &extents, into: &layout)
        }
    }

    /// Places a cluster's glyphs from the pen, which then moves past the cluster.
    private func place(
        _ cluster: ShapedCluster, of source: ShapedParagraph, pen: inout Double, baseline: Double,
        extents: inout ExtentsMemo, into layout: inout TextLayout
    ) {
        var x = pen
        for glyphIndex in Int(cluster.glyphStart)..<Int(cluster.glyphStart + cluster.glyphCount) {
            let glyph = source.glyphs[glyphIndex]
            let (originX, originY) = (x + Double(glyph.xOffset), baseline - Double(glyph.yOffset))
            var placed = PlacedGlyph(
                face: glyph.face, hasInk: false, id: glyph.id, x: originX, y: originY, minX: 0, minY: 0, maxX: 0,
                maxY: 0)
            if let box = extents.box(of: glyph.id, face: glyph.face) {
                (placed.minX, placed.minY, placed.maxX, placed.maxY) = box
                placed.hasInk = true
                layout.include(
                    left: originX + Double(placed.minX), top: originY + Double(placed.minY),
                    right: originX + Double(placed.maxX), bottom: originY + Double(placed.maxY))
            }
            layout.glyphs.append(placed)
            x += Double(glyph.advance)
        }
        pen += Double(cluster.advance)
    }
}

/// Glyph outline boxes in points, asked of HarfBuzz once per glyph and layout: for CFF outlines (Inter) each
/// answer runs the glyph's charstring, and a paragraph repeats a few dozen glyphs thousands of times. A value
/// passed along the layout, not a class: a class's storage is checked for exclusive access at each look-up.
private struct ExtentsMemo {
    private let faces: [FontFace]
    /// Points per font unit, per face, in Float as the boxes are.
    private let scales: [Float]
    /// (minX, minY, maxX, maxY) relative to the origin, y down; nil for a glyph without ink.
    private var known = GlyphMemo<(Float, Float, Float, Float)?>()
    /// Points every box grows by on each side for a grown or thinned outline (`TextStyle.outlineGrowth`).
    /// FreeType moves an edge by the growth, but a corner along its bisector by the growth over cos(θ/2), for
    /// turns up to about 160° (sharper ones it leaves), which is at most √32 ≈ 5.7 times: 6 bounds it.
    private let margin: Float

    init(faces: [FontFace], size: Double, outlineGrowth: Double) {
        self.faces = faces
        scales = faces.map { Float(size / $0.unitsPerEm) }
        margin = Float(6 * abs(outlineGrowth) * size)
    }

    mutating func box(of glyph: UInt32, face index: UInt16) -> (Float, Float, Float, Float)? {
        let key = UInt64(index) << 32 | UInt64(glyph)
        if let box = known[key] { return box }
        var box: (Float, Float, Float, Float)?
        if let (x0, y0, x1, y1) = faces[Int(index)].extents(of: glyph) {
            let scale = scales[Int(index)]
            // Font units are y up, the frame y down.
            box = (x0 * scale - margin, -y1 * scale - margin, x1 * scale + margin, -y0 * scale + margin)
        }
        known[key] = box
        return box
    }
}
