/// A word shape cache, as Blink's: in a left-to-right run of a script whose shaping never reaches across a space
/// (`ParagraphShaper.wordCachedScripts`), each space-separated word and each run of spaces is shaped once per
/// face and script, alone, and its clusters and glyphs copied wherever it comes again; a paragraph of 2,000 words
/// has a few hundred distinct ones. A word's clusters depend on its bytes alone (its end is a space or the run's
/// end), and one text's shaper has one size and tracking, so the copy is exact. One text's shaper owns it.
///
/// Shaping a word alone loses what the font does across a space: kerning a letter with the space beside it, and
/// contextual alternates or ligatures spanning it. Latin, Greek and Cyrillic fonts seldom do either.
///
/// Every word's bytes, glyphs, clusters and first scalars live in four flat arrays, found through an open-addressing
/// table of template numbers: a word is looked up and copied once per occurrence (twice per word of a paragraph,
/// counting the space after it), and `Dictionary` with a key holding an array slice spent more on hashing,
/// retaining and releasing than the copy itself. A value, not a class: a class's arrays are checked for exclusive
/// access at run time on every use (about 4 % of a cold paragraph's instructions went to those checks).
struct WordShapes {
    /// A word to look up: its bytes (borrowed from the text being shaped) with the face and script it is shaped in.
    struct Key {
        var face: Int
        var script: UInt32
        var bytes: UnsafeBufferPointer<UInt8>
        /// FNV-1a of the bytes, the face and the script, taken in one pass.
        var digest: UInt64

        init(face: Int, script: UInt32, bytes: UnsafeBufferPointer<UInt8>) {
            var digest: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
            digest = (digest ^ UInt64(truncatingIfNeeded: face) << 40 ^ UInt64(script)) &* 0x100_0000_01B3
            (self.face, self.script, self.bytes, self.digest) = (face, script, bytes, digest)
        }
    }

    /// Where one word's first shaping lies in the flat arrays (clusters and first scalars share their indices;
    /// a cluster's `glyphStart` counts from the word's first glyph).
    private struct Template {
        var digest: UInt64
        var face: Int
        var script: UInt32
        var bytes: Range<Int>
        var glyphs: Range<Int>
        var clusters: Range<Int>
    }

    private var templates: [Template] = []
    private var bytes: [UInt8] = []
    private var glyphs: [ShapedGlyph] = []
    private var clusters: [ShapedCluster] = []
    private var firstScalars: [UInt32] = []
    /// Template numbers by digest, −1 where free; a power of two long, at most half full.
    private var slots = [Int32](repeating: -1, count: 256)

    /// The distinct words shaped so far.
    var count: Int { templates.count }

    /// Where a probe for `digest` starts in a table `mask + 1` slots long (a multiplicative hash, as `GlyphMemo`'s).
    private static func home(_ digest: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (digest &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// The slot holding the key's template, or the free slot where it would go.
    private func slot(of key: Key) -> (index: Int, template: Int?) {
        let mask = slots.count - 1
        var index = Self.home(key.digest, mask: mask)
        while slots[index] >= 0 {
            let number = Int(slots[index])
            let template = templates[number]
            if template.digest == key.digest, template.face == key.face, template.script == key.script,
                template.bytes.count == key.bytes.count,
                bytes.withUnsafeBufferPointer({
                    UnsafeBufferPointer(rebasing: $0[template.bytes]).elementsEqual(key.bytes)
                })
            {
                return (index, number)
            }
            index = (index + 1) & mask
        }
        return (index, nil)
    }

    /// The template number of the word `key` names, if it has been shaped.
    func known(_ key: Key) -> Int? { slot(of: key).template }

    /// Appends template `number`'s clusters and glyphs (one from `known`, or the last `remember`ed: `count − 1`).
    func append(_ number: Int, to paragraph: inout ShapedParagraph, firstScalars: inout [UInt32]) {
        let template = templates[number]
        let base = Int32(paragraph.glyphs.count)
        // Copied through buffer pointers: appending array slices went through a generic path per word.
        glyphs.withUnsafeBufferPointer {
            paragraph.glyphs.append(contentsOf: UnsafeBufferPointer(rebasing: $0[template.glyphs]))
        }
        clusters.withUnsafeBufferPointer { known in
            for var cluster in known[template.clusters] {
                cluster.glyphStart += base
                paragraph.clusters.append(cluster)
            }
        }
        self.firstScalars.withUnsafeBufferPointer {
            firstScalars.append(contentsOf: UnsafeBufferPointer(rebasing: $0[template.clusters]))
        }
    }

    /// Keeps what the shaper appended for a word's first occurrence (the paragraph's glyphs from `glyphBase`).
    mutating func remember(
        _ key: Key, glyphs newGlyphs: ArraySlice<ShapedGlyph>, clusters newClusters: ArraySlice<ShapedCluster>,
        glyphBase: Int, firstScalars newScalars: ArraySlice<UInt32>
    ) {
        let (index, known) = slot(of: key)
        guard known == nil else { return }
        let template = Template(
            digest: key.digest, face: key.face, script: key.script,
            bytes: bytes.count..<bytes.count + key.bytes.count,
            glyphs: glyphs.count..<glyphs.count + newGlyphs.count,
            clusters: clusters.count..<clusters.count + newClusters.count)
        bytes.append(contentsOf: key.bytes)
        glyphs.append(contentsOf: newGlyphs)
        for var cluster in newClusters {
            cluster.glyphStart -= Int32(glyphBase)
            clusters.append(cluster)
        }
        firstScalars.append(contentsOf: newScalars)
        slots[index] = Int32(templates.count)
        templates.append(template)
        if templates.count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, template) in templates.enumerated() {
            var index = Self.home(template.digest, mask: mask)
            while slots[index] >= 0 { index = (index + 1) & mask }
            slots[index] = Int32(number)
        }
    }
}
