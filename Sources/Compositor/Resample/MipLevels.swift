/// The source and its successive 2×2 box averages (level k is 2ᵏ times smaller; an odd side's last column or
/// row averages with transparent pixels, so each level covers exactly the source's extent).
///
/// A level above the source may be stored in part: only the pixels of its `region`, the part a warp is expected
/// to read (a plane turned away from the eye minifies on its far side alone, and half a level less to build is
/// half a pass over the source less to read). A pixel outside the region is worked out when asked for
/// (`pixel(level:x:y:)`, from the level below, as building it would), so a region is a matter of speed, never of
/// which pixels the levels hold. The trilinear kernels read stored pixels only: the planner keeps a chunk off them
/// unless its neighbourhoods lie inside the regions (`bounds`).
struct MipLevels: @unchecked Sendable {
    /// One level: its stored pixels (the region's, its top-left pixel at `region.x`, `region.y` of the level) and
    /// the whole level's size.
    struct Level {
        let stored: Image
        let region: Region
        let width, height: Int
    }

    /// A rectangle of a level's pixels.
    struct Region: Equatable {
        var x, y, width, height: Int

        func contains(_ i: Int, _ j: Int) -> Bool { i >= x && j >= y && i < x + width && j < y + height }
    }

    let levels: [Level]
    /// Each level's stored first pixel, row stride and `origin` (the byte offset its region's top-left pixel would
    /// have in the whole level), as the planner and the trilinear kernels index them (the images keep them alive).
    let table: Table

    var count: Int { levels.count }

    final class Table: @unchecked Sendable {
        let pixels: UnsafeMutablePointer<UnsafeRawPointer>
        let rowBytes: UnsafeMutablePointer<Int>
        let origins: UnsafeMutablePointer<Int>

        init(_ levels: [Level]) {
            pixels = .allocate(capacity: levels.count)
            rowBytes = .allocate(capacity: levels.count)
            origins = .allocate(capacity: levels.count)
            for (k, level) in levels.enumerated() {
                pixels[k] = UnsafeRawPointer(level.stored.row(0))
                rowBytes[k] = level.stored.bytesPerRow
                origins[k] = level.region.y * level.stored.bytesPerRow + level.region.x * 4
            }
        }

        deinit {
            pixels.deallocate()
            rowBytes.deallocate()
            origins.deallocate()
        }
    }

    /// Every level whole, up to `count` (fewer when a level of one pixel is reached).
    init(_ source: Image, count: Int, threads: Int) {
        self.init(source, regions: Array(repeating: nil, count: max(count - 1, 0)), threads: threads)
    }

    /// Level k + 1 stored over `regions[k]` (clamped to the level; nil: whole), as many levels as regions plus the
    /// source (fewer when a level of one pixel is reached). Each region is widened to hold the pixels the next
    /// level's region is made of.
    init(_ source: Image, regions: [Region?], threads: Int) {
        var sizes = [(width: source.width, height: source.height)]
        while sizes.count < regions.count + 1, sizes.last!.width > 1 || sizes.last!.height > 1 {
            sizes.append(((sizes.last!.width + 1) / 2, (sizes.last!.height + 1) / 2))
        }
        // From the top level down: each level holds at least the blocks the level above reads.
        var wanted = sizes.indices.map { k -> Region in
            let whole = Region(x: 0, y: 0, width: sizes[k].width, height: sizes[k].height)
            guard k > 0, let region = regions[k - 1] else { return whole }
            let clamped = MipLevels.clamp(region, to: whole)
            return clamped.width > 0 && clamped.height > 0 ? clamped : Region(x: 0, y: 0, width: 0, height: 0)
        }
        for k in stride(from: sizes.count - 1, to: 1, by: -1) where wanted[k].width > 0 {
            let above = wanted[k]
            let below = Region(x: 2 * above.x, y: 2 * above.y, width: 2 * above.width, height: 2 * above.height)
            wanted[k - 1] = MipLevels.clamp(
                MipLevels.union(wanted[k - 1], below),
                to: Region(x: 0, y: 0, width: sizes[k - 1].width, height: sizes[k - 1].height))
        }
        var levels = [Level(stored: source, region: wanted[0], width: source.width, height: source.height)]
        for k in sizes.indices.dropFirst() {
            // A level nothing is expected to read stores nothing: one transparent pixel the kernels' table can
            // point at, which no chunk's bounds let them read.
            let stored =
                wanted[k].width > 0
                ? MipLevels.halved(levels[k - 1], over: wanted[k], threads: threads) : Image(width: 1, height: 1)
            levels.append(Level(stored: stored, region: wanted[k], width: sizes[k].width, height: sizes[k].height))
        }
        self.levels = levels
        table = Table(levels)
    }

    private static func clamp(_ region: Region, to whole: Region) -> Region {
        let (left, top) = (max(region.x, 0), max(region.y, 0))
        let right = max(min(region.x + region.width, whole.width), left)
        let bottom = max(min(region.y + region.height, whole.height), top)
        return Region(x: left, y: top, width: right - left, height: bottom - top)
    }

    private static func union(_ a: Region, _ b: Region) -> Region {
        guard a.width > 0, a.height > 0 else { return b }
        guard b.width > 0, b.height > 0 else { return a }
        let (left, top) = (min(a.x, b.x), min(a.y, b.y))
        let right = max(a.x + a.width, b.x + b.width)
        let bottom = max(a.y + a.height, b.y + b.height)
        return Region(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Pixel (x, y) of level `k` as little-endian RGBA: stored, worked out from the level below when outside its
    /// region, transparent outside the level.
    @inline(__always)
    func pixel(level k: Int, x: Int, y: Int) -> UInt32 {
        let level = levels[k]
        guard x >= 0, y >= 0, x < level.width, y < level.height else { return 0 }
        guard level.region.contains(x, y) else { return unstoredPixel(level: k, x: x, y: y) }
        let offset = y * table.rowBytes[k] + x * 4 - table.origins[k]
        return table.pixels[k].loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }

    /// `pixel` of a pixel of the level outside its region: the rounded mean of its block in the level below.
    private func unstoredPixel(level k: Int, x: Int, y: Int) -> UInt32 {
        var sums: (UInt32, UInt32, UInt32, UInt32) = (2, 2, 2, 2)
        for (i, j) in [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)] {
            let p = pixel(level: k - 1, x: i, y: j)
            sums = (sums.0 + (p & 255), sums.1 + (p >> 8 & 255), sums.2 + (p >> 16 & 255), sums.3 + (p >> 24))
        }
        return sums.0 >> 2 | (sums.1 >> 2) << 8 | (sums.2 >> 2) << 16 | (sums.3 >> 2) << 24
    }

    /// Each pixel the rounded mean of a 2×2 block (transparent past the edges).
    static func halved(_ image: Image, threads: Int) -> Image {
        let whole = Level(
            stored: image, region: Region(x: 0, y: 0, width: image.width, height: image.height), width: image.width,
            height: image.height)
        let next = Region(x: 0, y: 0, width: (image.width + 1) / 2, height: (image.height + 1) / 2)
        return halved(whole, over: next, threads: threads)
    }

    /// The pixels of `region` of the level above `level` (whose region holds their blocks), each the rounded mean
    /// of a 2×2 block.
    private static func halved(_ level: Level, over region: Region, threads: Int) -> Image {
        let result = Image(uninitializedWidth: region.width, height: region.height)
        let stored = level.stored
        // The byte where the region's first block starts in a stored row of `level`.
        let firstBlock = (2 * region.x - level.region.x) * 4
        Parallel.forEach(region.height, threads: threads) { row, _ in
            let y = region.y + row
            let top = stored.row(2 * y - level.region.y) + firstBlock
            let bottom = 2 * y + 1 < level.height ? stored.row(2 * y + 1 - level.region.y) + firstBlock : nil
            let out = UnsafeMutableRawPointer(result.row(row)).assumingMemoryBound(to: UInt32.self)
            // Whole blocks as pairs of pixels in 64-bit words; a last block cut by the level's edges by `meanOfBlock`.
            let pairs = bottom == nil ? 0 : max(min(region.width, level.width / 2 - region.x), 0)
            if let bottom {
                for x in 0..<pairs {
                    out[x] = meanOfPairs(
                        UnsafeRawPointer(top).loadUnaligned(fromByteOffset: 8 * x, as: UInt64.self),
                        UnsafeRawPointer(bottom).loadUnaligned(fromByteOffset: 8 * x, as: UInt64.self))
                }
            }
            for x in pairs..<region.width {
                out[x] = meanOfBlock(top, bottom, x, right: 2 * (region.x + x) + 1 < level.width)
            }
        }
        return result
    }

    /// The 2×2 mean of two pixel pairs (each little-endian RGBA, left in the low half): red+blue and green+alpha
    /// as 16-bit fields, so the four sums (at most 1,020) and the rounding add carry into nothing.
    @inline(__always)
    static func meanOfPairs(_ top: UInt64, _ bottom: UInt64) -> UInt32 {
        let fields: UInt64 = 0x00FF_00FF_00FF_00FF
        let redBlue = (top & fields) &+ (bottom & fields)
        let greenAlpha = (top >> 8 & fields) &+ (bottom >> 8 & fields)
        let rb = UInt32(truncatingIfNeeded: (redBlue &+ redBlue >> 32 &+ 0x0002_0002) >> 2) & 0x00FF_00FF
        let ga = UInt32(truncatingIfNeeded: (greenAlpha &+ greenAlpha >> 32 &+ 0x0002_0002) >> 2) & 0x00FF_00FF
        return rb | ga << 8
    }

    /// Block x's mean (its pixels from `top` and `bottom`, x counted from them), channel by channel, with the
    /// pixels past the edges transparent: the right one when `right` is false, the lower ones without `bottom`.
    private static func meanOfBlock(
        _ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>?, _ x: Int, right: Bool
    ) -> UInt32 {
        var result: UInt32 = 0
        for c in 0..<4 {
            var sum = UInt32(top[8 * x + c])
            if right { sum += UInt32(top[8 * x + 4 + c]) }
            if let bottom {
                sum += UInt32(bottom[8 * x + c])
                if right { sum += UInt32(bottom[8 * x + 4 + c]) }
            }
            result |= ((sum + 2) >> 2) << (8 * c)
        }
        return result
    }

    /// Two samples mixed per channel, `weight`/256 of the second, rounded half up.
    @inline(__always)
    static func mix(_ lower: UInt32, _ upper: UInt32, weight: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
            let sum = (lower >> shift & 255) * (256 - weight) + (upper >> shift & 255) * weight
            result |= ((sum + 128) >> 8) << shift
        }
        return result
    }
}
