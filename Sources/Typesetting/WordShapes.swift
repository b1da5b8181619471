import CHarfBuzz

/// One glyph of HarfBuzz's output in font units (size-free: faces are shaped at their units per em), its
/// cluster a byte offset into the text it was given.
struct RunGlyph {
    var id: UInt32
    var cluster: UInt32
    var xAdvance, xOffset, yOffset: Int32
}

/// A word shape cache, as Blink's: in a left-to-right run of a script whose shaping never reaches across a space
/// (`ParagraphShaper.wordCachedScripts`), each space-separated word and each run of spaces is shaped once per
/// face and script, alone, and its glyphs reused wherever it comes again; a paragraph of 2,000 words has a few
/// hundred distinct ones. Positions in font units do not depend on the size, and clusters are byte offsets from
/// the word's start. One text's shaping owns it (it is not thread-safe).
///
/// Shaping a word alone loses what the font does across a space: kerning a letter with the space beside it, and
/// contextual alternates or ligatures spanning it. Latin, Greek and Cyrillic fonts seldom do either.
final class WordShapes {
    /// Hashed by an FNV-1a digest of the bytes taken in one pass: `Hasher` fed a slice byte by byte cost more than
    /// the look-up it served.
    private struct Key: Hashable {
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

    private var known: [Key: [RunGlyph]] = [:]

    /// The distinct words shaped so far.
    var count: Int { known.count }

    /// The word's glyphs, from `shape` the first time it is asked for in this face and script.
    func glyphs(face: Int, script: UInt32, bytes: ArraySlice<UInt8>, shape: () -> [RunGlyph]) -> [RunGlyph] {
        let key = Key(face: face, script: script, bytes: bytes)
        if let glyphs = known[key] { return glyphs }
        let glyphs = shape()
        known[key] = glyphs
        return glyphs
    }
}
