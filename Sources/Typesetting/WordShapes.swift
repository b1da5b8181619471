
/// One glyph of HarfBuzz's output in font units (size-free: faces are shaped at their units per em), its
/// cluster a byte offset into the text it was given.
struct RunGlyph {
    var id: UInt32
    var cluster: UInt32
    var xAdvance, xOffset, yOffset: Int32
}

/// A word shape cache, as Blink's: in a left-to-right run of a script whose shaping never reaches across a space
/// (`ParagraphShaper.wordCachedScripts`), each space-separated word and each run of spaces is shaped once per
/// face and script, alone, and its clusters and glyphs copied wherever it comes again; a paragraph of 2,000 words
/// has a few hundred distinct ones. A word's clusters depend on its bytes alone (its end is a space or the run's
/// end), and one text's shaper has one size and tracking, so the copy is exact. One text's shaping owns it (it is
/// not thread-safe).
///
/// Shaping a word alone loses what the font does across a space: kerning a letter with the space beside it, and
/// contextual alternates or ligatures spanning it. Latin, Greek and Cyrillic fonts seldom do either.
final class WordShapes {
    /// Hashed by an FNV-1a digest of the bytes taken in one pass: `Hasher` fed a slice byte by byte cost more than
    /// the look-up it served.
    struct Key: Hashable {
        var face: Int
        var script: UInt32
        var bytes: ArraySlice<UInt8>
        var digest: UInt64

        init(face: Int, script: UInt32, bytes: ArraySlice<UInt8>) {
            var digest: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
            (self.face, self.script, self.bytes, self.digest) = (face, script, bytes, digest)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest ^ UInt64(truncatingIfNeeded: face) << 40 ^ UInt64(script))
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.face == b.face && a.script == b.script && a.bytes.elementsEqual(b.bytes)
        }
    }

    /// A word as the shaper appended it the first time: its glyphs, its clusters (glyph starts counted from the
    /// word's first glyph) and each cluster's first scalar.
    private struct Template {
        var glyphs: [ShapedGlyph]
        var clusters: [ShapedCluster]
        var firstScalars: [UInt32]
    }

    private var known: [Key: Template] = [:]

    /// The distinct words shaped so far.
    var count: Int { known.count }

    /// Appends the word's clusters and glyphs from its first occurrence; false when it has none yet.
    func appendKnown(_ key: Key, to paragraph: inout ShapedParagraph, firstScalars: inout [UInt32]) -> Bool {
        guard let template = known[key] else { return false }
        let base = Int32(paragraph.glyphs.count)
        paragraph.glyphs.append(contentsOf: template.glyphs)
        for var cluster in template.clusters {
            cluster.glyphStart += base
            paragraph.clusters.append(cluster)
        }
        firstScalars.append(contentsOf: template.firstScalars)
        return true
    }

    /// Keeps what the shaper appended for a word's first occurrence (the paragraph's glyphs from `glyphBase`).
    func remember(
        _ key: Key, glyphs: ArraySlice<ShapedGlyph>, clusters: ArraySlice<ShapedCluster>, glyphBase: Int,
        firstScalars: ArraySlice<UInt32>
    ) {
        let relative = clusters.map { cluster in
            var cluster = cluster
            cluster.glyphStart -= Int32(glyphBase)
            return cluster
        }
        known[key] = Template(glyphs: Array(glyphs), clusters: relative, firstScalars: Array(firstScalars))
    }
}
