import Compositor

/// Rasterised glyphs shared by every label, frame and thread, so that drawing the same text again is a blit.
///
/// Bounded: an insertion that would pass its shard's share of `byteLimit` first evicts that shard's least
/// recently used glyphs (down to three quarters of the share, so that eviction's sort is paid once per many
/// insertions); the count never exceeds the limit. Each entry costs its pixels plus a fixed overhead for its key
/// and bookkeeping. The glyphs are spread over `shardCount` shards by key, each with its own lock, so frames
/// drawn in parallel look glyphs up without all waiting on one lock.
public final class GlyphCache: @unchecked Sendable {
    /// The cache `FontTypesetter` uses unless given another: 64 MiB.
    public static let shared = GlyphCache(byteLimit: 64 << 20)

    /// Bytes charged per entry beyond its pixels (key, dictionary slot, bitmap object).
    static let entryOverhead = 96
    static let shardCount = 16

    public let byteLimit: Int

    private struct Entry {
        var bitmap: GlyphBitmap
        var lastUse: UInt64
    }

    private struct Shard {
        var entries: [GlyphKey: Entry] = [:]
        var byteCount = 0
        var clock: UInt64 = 0
    }

    private let shards: [Locked<Shard>]
    /// Each shard's share of `byteLimit`.
    private let shardLimit: Int

    public init(byteLimit: Int) {
        self.byteLimit = max(byteLimit, 0)
        shardLimit = self.byteLimit / Self.shardCount
        shards = (0..<Self.shardCount).map { _ in Locked(Shard()) }
    }

    /// The bytes the cached glyphs take now, overhead included.
    public var byteCount: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.byteCount } } }

    public func removeAll() {
        for shard in shards { shard.withLock { $0 = Shard() } }
    }

    private func shard(for key: GlyphKey) -> Locked<Shard> {
        shards[Int(UInt(bitPattern: key.hashValue) % UInt(Self.shardCount))]
    }

    func bitmap(for key: GlyphKey) -> GlyphBitmap? {
        shard(for: key).withLock { shard in
            shard.clock += 1
            let tick = shard.clock
            guard shard.entries[key] != nil else { return nil }
            shard.entries[key]!.lastUse = tick
            return shard.entries[key]!.bitmap
        }
    }

    func insert(_ bitmap: GlyphBitmap, for key: GlyphKey) {
        let cost = bitmap.pixels.count + Self.entryOverhead
        guard cost <= shardLimit else { return }
        shard(for: key).withLock { shard in
            guard shard.entries[key] == nil else { return }
            if shard.byteCount + cost > shardLimit {
                let target = shardLimit / 4 * 3 - cost
                var byAge = shard.entries.map { ($0.key, $0.value.lastUse, $0.value.bitmap.pixels.count) }
                byAge.sort { $0.1 < $1.1 }
                for (oldKey, _, bytes) in byAge where shard.byteCount > max(target, 0) {
                    shard.entries[oldKey] = nil
                    shard.byteCount -= bytes + Self.entryOverhead
                }
            }
            shard.clock += 1
            shard.entries[key] = Entry(bitmap: bitmap, lastUse: shard.clock)
            shard.byteCount += cost
        }
    }
}

/// What identifies a rasterised glyph: the face, the glyph, the pixel size (26.6), the outline transform
/// (16.16, identity for a uniform scale), the emboldening strength (26.6, 0 for the face's own outline: one glyph
/// at two symbol weights is two bitmaps) and the origin's phase in quarter pixels.
struct GlyphKey: Hashable {
    var face: Int32
    var glyph: UInt32
    var pixelSize: Int32
    var xx, xy, yx, yy: Int32
    var emboldening: Int32
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
