import Compositor

/// Rasterised glyphs shared by every label, frame and thread, so that drawing the same text again is a blit.
///
/// Bounded: an insertion that would pass `byteLimit` first evicts the least recently used glyphs (down to three
/// quarters of the limit, so that eviction's sort is paid once per many insertions); the count never exceeds the
/// limit. Each entry costs its pixels plus a fixed overhead for its key and bookkeeping.
public final class GlyphCache: @unchecked Sendable {
    /// The cache `FontTypesetter` uses unless given another: 64 MiB.
    public static let shared = GlyphCache(byteLimit: 64 << 20)

    /// Bytes charged per entry beyond its pixels (key, dictionary slot, bitmap object).
    static let entryOverhead = 96

    public let byteLimit: Int

    private struct Entry {
        var bitmap: GlyphBitmap
        var lastUse: UInt64
    }

    private struct State {
        var entries: [GlyphKey: Entry] = [:]
        var byteCount = 0
        var clock: UInt64 = 0
    }

    private let state = Locked(State())

    public init(byteLimit: Int) {
        self.byteLimit = max(byteLimit, 0)
    }

    /// The bytes the cached glyphs take now, overhead included.
    public var byteCount: Int { state.withLock { $0.byteCount } }

    public func removeAll() {
        state.withLock { $0 = State() }
    }

    func bitmap(for key: GlyphKey) -> GlyphBitmap? {
        state.withLock { state in
            state.clock += 1
            let tick = state.clock
            guard state.entries[key] != nil else { return nil }
            state.entries[key]!.lastUse = tick
            return state.entries[key]!.bitmap
        }
    }

    func insert(_ bitmap: GlyphBitmap, for key: GlyphKey) {
        let cost = bitmap.pixels.count + Self.entryOverhead
        guard cost <= byteLimit else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            if state.byteCount + cost > byteLimit {
                let target = byteLimit / 4 * 3 - cost
                var byAge = state.entries.map { ($0.key, $0.value.lastUse, $0.value.bitmap.pixels.count) }
                byAge.sort { $0.1 < $1.1 }
                for (oldKey, _, bytes) in byAge where state.byteCount > max(target, 0) {
                    state.entries[oldKey] = nil
                    state.byteCount -= bytes + Self.entryOverhead
                }
            }
            state.clock += 1
            state.entries[key] = Entry(bitmap: bitmap, lastUse: state.clock)
            state.byteCount += cost
        }
    }
}

/// What identifies a rasterised glyph: the face, the glyph, the pixel size (26.6), the outline transform
/// (16.16, identity for a uniform scale) and the origin's phase in quarter pixels.
struct GlyphKey: Hashable {
    var face: Int32
    var glyph: UInt32
    var pixelSize: Int32
    var xx, xy, yx, yy: Int32
    var phaseX, phaseY: UInt8
}

/// A glyph's coverage, rows top first; its top-left pixel sits `left` right of and `top` above the origin's
/// whole pixel. Rows are `stride` bytes, a multiple of 16 whose columns past `width` hold zeros, so that the blit
/// takes each row in whole vectors (adding zero coverage changes nothing).
final class GlyphBitmap: Sendable {
    let left, top, width, height, stride: Int
    let pixels: [UInt8]

    static func stride(forWidth width: Int) -> Int { (width + 15) & ~15 }

    init(left: Int, top: Int, width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == Self.stride(forWidth: width) * height, "a bitmap's rows are padded to 16")
        (self.left, self.top, self.width, self.height, self.pixels) = (left, top, width, height, pixels)
        stride = Self.stride(forWidth: width)
    }
}
