import CHarfBuzz

/// One glyph as HarfBuzz placed it, in points relative to its cluster's pen position.
struct ShapedGlyph {
    /// Index into the text's faces.
    var face: UInt16
    var id: UInt32
    var xOffset: Float
    var yOffset: Float
    var advance: Float
}

/// One glyph of HarfBuzz's output in font units (size-free: faces are shaped at their units per em), its
/// cluster a byte offset into the text it was given.
struct RunGlyph {
    var id: UInt32
    var cluster: UInt32
    var xAdvance, xOffset, yOffset: Int32
}

/// The unit of line breaking and truncation: a HarfBuzz cluster (a grapheme, or the characters of a ligature),
/// in logical order; its glyphs are stored in visual order.
struct ShapedCluster {
    var glyphStart: Int32
    var glyphCount: Int32
    /// The glyphs' advances plus the tracking, in points.
    var advance: Float
    var isRightToLeft: Bool
    var isWhitespace: Bool
    /// A line may end after this cluster (after whitespace or a hyphen, between CJK characters).
    var breaksAfter: Bool
}

/// A paragraph shaped once, whatever the frame: clusters in logical order, ready to be cut into lines.
struct ShapedParagraph {
    var clusters: [ShapedCluster] = []
    var glyphs: [ShapedGlyph] = []
    var isRightToLeft = false
}

/// Two-level bidi, itemisation and shaping of one paragraph.
///
/// The paragraph's direction is its first strong character's; every character resolves to left-to-right or
/// right-to-left (digits stay left to right; neutrals take their neighbours' direction when both agree, else the
/// paragraph's); runs split where the direction, the script or the face changes, and each run is shaped by
/// HarfBuzz with the whole paragraph as context, or word by word through `words` (Latin, Greek and Cyrillic left
/// to right). No explicit embeddings, overrides or isolates.
struct ParagraphShaper {
    let faces: FaceSet
    let size: Double
    let tracking: Double
    /// Words already shaped in this text, or nil to shape every run whole (in the paragraph's context).
    var words: WordShapes? = WordShapes()

    /// The scripts whose left-to-right runs are shaped word by word through `words`: no joining, reordering or
    /// context-sensitive forms across a space (not Arabic, not the Indic scripts).
    static let wordCachedScripts = [HB_SCRIPT_LATIN, HB_SCRIPT_GREEK, HB_SCRIPT_CYRILLIC]

    enum Direction: UInt8 { case leftToRight, rightToLeft, neutral }

    /// What itemisation and line breaking need of a character, from one look-up of its general category.
    struct CharacterClass {
        /// Before resolution: letters and digits are strong, everything else neutral.
        var direction: Direction
        /// Marks, joiners and selectors belong to the character before them (its face and direction).
        var isAttached: Bool
        var isWhitespace: Bool
    }

    static func characterClass(_ scalar: Unicode.Scalar) -> CharacterClass {
        let value = scalar.value
        if value < 0x80 {
            // ASCII without the table: C0 controls were already set as spaces.
            let alphanumeric =
                (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            return CharacterClass(
                direction: alphanumeric ? .leftToRight : .neutral, isAttached: false, isWhitespace: value == 0x20)
        }
        let category = scalar.properties.generalCategory
        var result = CharacterClass(direction: .neutral, isAttached: false, isWhitespace: false)
        switch category {
        case .decimalNumber, .letterNumber, .otherNumber:
            result.direction = .leftToRight
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            result.direction = isRightToLeftScript(value) ? .rightToLeft : .leftToRight
        case .spacingMark:
            result.direction = isRightToLeftScript(value) ? .rightToLeft : .leftToRight
            result.isAttached = true
        // Variation selectors are nonspacing marks too.
        case .nonspacingMark, .enclosingMark, .format, .control:
            result.isAttached = true
            result.isWhitespace = value == 0x85
        case .spaceSeparator, .lineSeparator, .paragraphSeparator:
            result.isWhitespace = true
        default:
            break
        }
        return result
    }

    /// HarfBuzz's script of a character; ASCII without the table (its letters are Latin, the rest Common).
    static func script(_ scalar: Unicode.Scalar) -> hb_script_t {
        let value = scalar.value
        guard value < 0x80 else { return hb_unicode_script(hb_unicode_funcs_get_default(), value) }
        return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON
    }

    /// Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and their presentation forms; the historic
    /// right-to-left scripts of the supplementary planes.
    static func isRightToLeftScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }

    static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF: true
        default: false
        }
    }

    /// Spaces that join the words on either side (no-break, figure and narrow no-break spaces).
    /// The most default-ignorable characters in a row shaped in one HarfBuzz call (see `shape`).
    static let ignorableRunLimit = 64

    static func isNoBreakSpace(_ value: UInt32) -> Bool {
        value == 0xA0 || value == 0x2007 || value == 0x202F
    }

    /// Shapes one paragraph's UTF-8 (no separators), remembering its words for the paragraphs after it.
    mutating func shape(_ bytes: ArraySlice<UInt8>) -> ShapedParagraph {
        // Tabs and other C0 controls are set as spaces (one byte for one, so offsets hold): faces map them to
        // .notdef, whose box UILabel never draws for them.
        let bytes = bytes.map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 }
        let primary = 0
        var paragraph = ShapedParagraph()
        guard !bytes.isEmpty else { return paragraph }
        var scalars: [Unicode.Scalar] = []
        // Each scalar's first byte, the byte count last.
        var offsets: [Int32] = []
        // The scalar starting at each byte offset (HarfBuzz's clusters are byte offsets), one past the end last.
        var scalarAt: [Int32]
        let isASCII = bytes.allSatisfy { $0 < 0x80 }
        if isASCII {
            // ASCII, most text: a scalar per byte, without decoding.
            scalars = bytes.map { Unicode.Scalar($0) }
            offsets = Array(0...Int32(bytes.count))
            scalarAt = offsets
        } else {
            scalars.reserveCapacity(bytes.count)
            offsets.reserveCapacity(bytes.count + 1)
            scalarAt = [Int32](repeating: 0, count: bytes.count + 1)
            var offset: Int32 = 0
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                scalarAt[Int(offset)] = Int32(scalars.count)
                scalars.append(scalar)
                offsets.append(offset)
                offset += Int32(UTF8.width(scalar))
            }
            offsets.append(offset)
            scalarAt[bytes.count] = Int32(scalars.count)
        }
        let count = scalars.count
        let classes = scalars.map(Self.characterClass)

        // Directions: strong per character, then neutrals between agreeing neighbours. ASCII has no right-to-left
        // letter and no mark, so there every character resolves left to right.
        var directions = isASCII ? [Direction](repeating: .leftToRight, count: count) : classes.map(\.direction)
        let paragraphDirection = directions.first { $0 != .neutral } ?? .leftToRight
        paragraph.isRightToLeft = paragraphDirection == .rightToLeft
        if !isASCII {
            var previousStrong = paragraphDirection
            var position = 0
            while position < count {
                if directions[position] != .neutral {
                    previousStrong = directions[position]
                    position += 1
                    continue
                }
                var end = position
                while end < count, directions[end] == .neutral { end += 1 }
                let next = end < count ? directions[end] : paragraphDirection
                let resolved = next == previousStrong ? next : paragraphDirection
                for index in position..<end {
                    // A mark keeps the direction of what it is attached to.
                    directions[index] = classes[index].isAttached && index > 0 ? directions[index - 1] : resolved
                }
                position = end
            }
        }

        // Faces: the primary where it has the character, else the fallback; attached characters and neutrals
        // stay in the face before them when it has them, so a run is not cut by a space.
        var faceOf = [Int](repeating: primary, count: count)
        // Whether the primary face has an ASCII character, asked of HarfBuzz once per character, not per use.
        var asciiInPrimary = [UInt8](repeating: 2, count: 128)
        func primaryHas(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.value < 0x80 else { return faces[primary].glyph(for: scalar) != nil }
            let slot = Int(scalar.value)
            if asciiInPrimary[slot] == 2 { asciiInPrimary[slot] = faces[primary].glyph(for: scalar) != nil ? 1 : 0 }
            return asciiInPrimary[slot] == 1
        }
        for index in 0..<count {
            let (scalar, kind) = (scalars[index], classes[index])
            if index > 0, faceOf[index - 1] != primary,
                kind.isAttached || (kind.direction == .neutral && faces[faceOf[index - 1]].glyph(for: scalar) != nil)
            {
                faceOf[index] = faceOf[index - 1]
            } else if kind.isAttached {
                faceOf[index] = index > 0 ? faceOf[index - 1] : primary
            } else if !kind.isWhitespace, !primaryHas(scalar) {
                faceOf[index] = faces.fallback(for: scalar) ?? primary
            }
        }

        // Scripts: common and inherited characters take the script around them. In ASCII only letters have one
        // (Latin), so every character takes Latin when there is a letter, and all stay Common when there is none.
        var scripts: [hb_script_t]
        if isASCII {
            let hasLetter = bytes.contains { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            scripts = [hb_script_t](repeating: hasLetter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON, count: count)
        } else {
            func isNeutral(_ script: hb_script_t) -> Bool {
                script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
            }
            scripts = scalars.map(Self.script)
            var current = scripts.first { !isNeutral($0) } ?? HB_SCRIPT_COMMON
            for index in 0..<count {
                if isNeutral(scripts[index]) {
                    scripts[index] = current
                } else {
                    current = scripts[index]
                }
            }
        }

        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        var firstScalars: [UInt32] = []
        // About a glyph and a cluster per character in most text: one allocation each instead of a dozen.
        firstScalars.reserveCapacity(count)
        paragraph.clusters.reserveCapacity(count)
        paragraph.glyphs.reserveCapacity(count)
        // Invisible characters (soft hyphens, zero-width spaces, joiners, variation selectors) one after another:
        // HarfBuzz 6 skips each one by one in every contextual match of the ones before, so a run of n costs n²
        // (100,000 soft hyphens: 45 s). A run is cut after `ignorableRunLimit` of them in a row; no font's context
        // reaches across that many invisible characters, so the glyphs are the same.
        let isIgnorable = isASCII ? nil : scalars.map(\.properties.isDefaultIgnorableCodePoint)
        /// Where the run from `start` ends: its direction, face and script hold up to there.
        func runEnd(from start: Int) -> Int {
            var end = start + 1
            var ignorablesInARow = isIgnorable?[start] == true ? 1 : 0
            while end < count, directions[end] == directions[start], faceOf[end] == faceOf[start],
                scripts[end] == scripts[start]
            {
                if isIgnorable?[end] == true {
                    guard ignorablesInARow < Self.ignorableRunLimit else { break }
                    ignorablesInARow += 1
                } else {
                    ignorablesInARow = 0
                }
                end += 1
            }
            return end
        }
        func isShapedByWord(_ run: Int) -> Bool {
            words != nil && directions[run] != .rightToLeft && Self.wordCachedScripts.contains(scripts[run])
        }
        let text = (scalars, classes, scalarAt)
        bytes.withUnsafeBufferPointer { utf8Bytes in
            utf8Bytes.withMemoryRebound(to: CChar.self) { characters in
                let utf8 = characters.baseAddress!
                var runStart = 0
                while runStart < count {
                    let runEnd = runEnd(from: runStart)
                    let faceIndex = faceOf[runStart]
                    let face = faces[faceIndex]
                    let rightToLeft = directions[runStart] == .rightToLeft
                    let script = scripts[runStart]
                    let scale = size / face.unitsPerEm
                    if isShapedByWord(runStart) {
                        // Each word and each run of spaces shaped once for the text, then copied; the single space
                        // between words, half the pieces, by its template number without a look-up.
                        var start = Int(offsets[runStart])
                        let byteEnd = Int(offsets[runEnd])
                        var singleSpace: Int?
                        // The run's shape plan, found once: `hb_shape` looks it up in the face's cache on every call.
                        var properties = hb_segment_properties_t(
                            direction: HB_DIRECTION_LTR, script: script, language: hb_language_get_default(),
                            reserved1: nil, reserved2: nil)
                        let plan = hb_shape_plan_create_cached(hb_font_get_face(face.hbFont), &properties, nil, 0, nil)
                        defer { hb_shape_plan_destroy(plan) }
                        while start < byteEnd {
                            let isSpace = utf8Bytes[start] == 0x20
                            var end = start + 1
                            while end < byteEnd, (utf8Bytes[end] == 0x20) == isSpace { end += 1 }
                            defer { start = end }
                            let isSingleSpace = isSpace && end == start + 1
                            if isSingleSpace, let singleSpace {
                                words!.append(singleSpace, to: &paragraph, firstScalars: &firstScalars)
                                continue
                            }
                            let key = WordShapes.Key(
                                face: faceIndex, script: script.rawValue,
                                bytes: UnsafeBufferPointer(rebasing: utf8Bytes[start..<end]))
                            if let known = words!.known(key) {
                                words!.append(known, to: &paragraph, firstScalars: &firstScalars)
                                if isSingleSpace { singleSpace = known }
                                continue
                            }
                            let (glyphBase, clusterBase, scalarBase) =
                                (paragraph.glyphs.count, paragraph.clusters.count, firstScalars.count)
                            let glyphs = Self.shape(
                                utf8 + start, count: end - start, properties: &properties, plan: plan, face: face,
                                buffer: buffer)
                            Self.append(
                                glyphs, clusterBase: UInt32(start), face: faceIndex, scale: scale, tracking: tracking,
                                rightToLeft: false, runEnd: Int32(end), text: text, to: &paragraph,
                                firstScalars: &firstScalars)
                            words!.remember(
                                key, glyphs: paragraph.glyphs[glyphBase...],
                                clusters: paragraph.clusters[clusterBase...], glyphBase: glyphBase,
                                firstScalars: firstScalars[scalarBase...])
                            if isSingleSpace { singleSpace = words!.count - 1 }
                        }
                    } else {
                        let glyphs = Self.shape(
                            utf8, length: bytes.count, from: Int(offsets[runStart]), to: Int(offsets[runEnd]),
                            face: face, script: script, rightToLeft: rightToLeft, buffer: buffer)
                        Self.append(
                            glyphs, clusterBase: 0, face: faceIndex, scale: scale, tracking: tracking,
                            rightToLeft: rightToLeft, runEnd: offsets[runEnd], text: text, to: &paragraph,
                            firstScalars: &firstScalars)
                    }
                    runStart = runEnd
                }
            }
        }
        // A line breaks after the last of several spaces, not between them; before a CJK character as after one.
        for index in paragraph.clusters.indices.dropLast() {
            let next = paragraph.clusters[index + 1]
            if next.isWhitespace {
                paragraph.clusters[index].breaksAfter = false
            } else if Self.isCJK(firstScalars[index + 1]) {
                paragraph.clusters[index].breaksAfter = true
            }
        }
        return paragraph
    }

    /// HarfBuzz's glyphs for the bytes start..<end of the `length` bytes at `utf8`, with the rest as context
    /// (clusters are offsets into all of it).
    private static func shape(
        _ utf8: UnsafePointer<CChar>, length: Int, from start: Int, to end: Int, face: FontFace, script: hb_script_t,
        rightToLeft: Bool, buffer: OpaquePointer?
    ) -> [RunGlyph] {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf8(buffer, utf8, Int32(length), UInt32(start), Int32(end - start))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.hbFont, buffer, nil, 0)
        return glyphs(of: buffer)
    }

    /// HarfBuzz's glyphs for the `count` bytes at `utf8` alone (clusters count from there), through a plan made for
    /// `properties`: what `hb_shape` would give, without its look-up of the plan.
    private static func shape(
        _ utf8: UnsafePointer<CChar>, count: Int, properties: inout hb_segment_properties_t, plan: OpaquePointer?,
        face: FontFace, buffer: OpaquePointer?
    ) -> [RunGlyph] {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf8(buffer, utf8, Int32(count), 0, Int32(count))
        hb_buffer_set_segment_properties(buffer, &properties)
        hb_shape_plan_execute(plan, face.hbFont, buffer, nil, 0)
        return glyphs(of: buffer)
    }

    /// HarfBuzz's output in font units, copied out of its buffer.
    private static func glyphs(of buffer: OpaquePointer?) -> [RunGlyph] {
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return [] }
        return (0..<Int(count)).map { index in
            RunGlyph(
                id: infos[index].codepoint, cluster: infos[index].cluster, xAdvance: positions[index].x_advance,
                xOffset: positions[index].x_offset, yOffset: positions[index].y_offset)
        }
    }

    /// One run's glyphs (clusters `clusterBase` before their byte offsets in the paragraph) as clusters in
    /// logical order, glyphs in visual order within each.
    private static func append(
        _ glyphs: [RunGlyph], clusterBase: UInt32, face: Int, scale: Double, tracking: Double, rightToLeft: Bool,
        runEnd: Int32,
        text: (scalars: [Unicode.Scalar], classes: [CharacterClass], scalarAt: [Int32]),
        to paragraph: inout ShapedParagraph, firstScalars: inout [UInt32]
    ) {
        let count = glyphs.count
        guard count > 0 else { return }
        // Visual-order groups of glyphs with one cluster value.
        var groups: [(cluster: Int32, start: Int, end: Int)] = []
        groups.reserveCapacity(count)
        var start = 0
        for index in 1...count where index == count || glyphs[index].cluster != glyphs[start].cluster {
            groups.append((Int32(glyphs[start].cluster + clusterBase), start, index))
            start = index
        }
        if rightToLeft { groups.reverse() }
        for (position, group) in groups.enumerated() {
            let textEnd = position + 1 < groups.count ? groups[position + 1].cluster : runEnd
            var advance = 0.0
            let glyphStart = Int32(paragraph.glyphs.count)
            for index in group.start..<group.end {
                let glyph = glyphs[index]
                let glyphAdvance = Double(glyph.xAdvance) * scale
                paragraph.glyphs.append(
                    ShapedGlyph(
                        face: UInt16(face), id: glyph.id, xOffset: Float(Double(glyph.xOffset) * scale),
                        yOffset: Float(Double(glyph.yOffset) * scale), advance: Float(glyphAdvance)))
                advance += glyphAdvance
            }
            let first = Int(text.scalarAt[Int(group.cluster)])
            let end = max(Int(text.scalarAt[Int(max(textEnd, group.cluster))]), first + 1)
            var isWhitespace = true
            for index in first..<end where !text.classes[index].isWhitespace {
                isWhitespace = false
                break
            }
            let last = text.scalars[end - 1].value
            firstScalars.append(text.scalars[first].value)
            paragraph.clusters.append(
                ShapedCluster(
                    glyphStart: glyphStart, glyphCount: Int32(group.end - group.start),
                    advance: Float(advance + tracking),
                    isRightToLeft: rightToLeft, isWhitespace: isWhitespace,
                    breaksAfter: (isWhitespace && !Self.isNoBreakSpace(last)) || last == 0x2D || last == 0x2010
                        || Self.isCJK(last)))
        }
    }
}
