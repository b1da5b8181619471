/// A small map from 64-bit glyph keys (face, glyph, phase packed into one word) to values, for the look-ups made
/// once per placed glyph: open addressing with a multiplicative hash, where `Dictionary`'s seeded SipHash cost
/// more than the work each look-up saves in a paragraph of ten thousand glyphs. Never shrinks; one thread.
struct GlyphMemo<Value> {
    private var keys: [UInt64]
    private var values: [Value?]
    private var used = 0
    private var shift: UInt64
    /// Marks a free slot; no packed glyph key is all ones (a face index and glyph id never both are).
    private static var free: UInt64 { .max }

    init() {
        keys = [UInt64](repeating: Self.free, count: 64)
        values = [Value?](repeating: nil, count: 64)
        shift = 64 - 6
    }

    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: UInt64) -> Value? {
        get {
            precondition(key != Self.free, "the all-ones key marks free slots")
            let mask = keys.count - 1
            var index = slot(key)
            while keys[index] != Self.free {
                if keys[index] == key { return values[index] }
                index = (index + 1) & mask
            }
            return nil
        }
        set {
            precondition(key != Self.free, "the all-ones key marks free slots")
            guard let newValue else { preconditionFailure("GlyphMemo only adds") }
            let mask = keys.count - 1
            var index = slot(key)
            while keys[index] != Self.free {
                if keys[index] == key {
                    values[index] = newValue
                    return
                }
                index = (index + 1) & mask
            }
            keys[index] = key
            values[index] = newValue
            used += 1
            // At most half full, so probes stay short.
            if used * 2 > keys.count { grow() }
        }
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = [UInt64](repeating: Self.free, count: oldKeys.count * 2)
        values = [Value?](repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        used = 0
        for (key, value) in zip(oldKeys, oldValues) where key != Self.free { self[key] = value }
    }
}
