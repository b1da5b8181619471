/// The source and its successive 2×2 box averages (level k is 2ᵏ times smaller; an odd side's last column or
/// row averages with transparent pixels, so each level covers exactly the source's extent).
struct MipLevels: @unchecked Sendable {
    let images: [Image]
    /// Each level's first pixel and row stride, as the trilinear kernels index them (the images keep them alive).
    let table: Table

    final class Table: @unchecked Sendable {
        let pixels: UnsafeMutablePointer<UnsafeRawPointer>
        let rowBytes: UnsafeMutablePointer<Int>

        init(_ images: [Image]) {
            pixels = .allocate(capacity: images.count)
            rowBytes = .allocate(capacity: images.count)
            for (k, image) in images.enumerated() {
                pixels[k] = UnsafeRawPointer(image.row(0))
                rowBytes[k] = image.bytesPerRow
            }
        }

        deinit {
            pixels.deallocate()
            rowBytes.deallocate()
        }
    }

    init(_ source: Image, count: Int, threads: Int) {
        var images = [source]
        while images.count < count, images.last!.width > 1 || images.last!.height > 1 {
            images.append(MipLevels.halved(images.last!, threads: threads))
        }
        self.images = images
        table = Table(images)
    }

    /// Each pixel the rounded mean of a 2×2 block (transparent past the edges).
    static func halved(_ image: Image, threads: Int) -> Image {
        let width = (image.width + 1) / 2
        let height = (image.height + 1) / 2
        let result = Image(uninitializedWidth: width, height: height)
        Parallel.forEach(height, threads: threads) { y, _ in
            let top = image.row(2 * y)
            let bottom: UnsafeMutablePointer<UInt8>? = 2 * y + 1 < image.height ? image.row(2 * y + 1) : nil
            let out = UnsafeMutableRawPointer(result.row(y)).assumingMemoryBound(to: UInt32.self)
            // Whole blocks as pairs of pixels in 64-bit words; the odd last column and row by `meanOfBlock`.
            let pairs = bottom == nil ? 0 : image.width / 2
            if let bottom {
                for x in 0..<pairs {
                    out[x] = meanOfPairs(
                        UnsafeRawPointer(top).loadUnaligned(fromByteOffset: 8 * x, as: UInt64.self),
                        UnsafeRawPointer(bottom).loadUnaligned(fromByteOffset: 8 * x, as: UInt64.self))
                }
            }
            for x in pairs..<width { out[x] = meanOfBlock(image, top, bottom, x) }
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

    /// Block x's mean, channel by channel, with the pixels past the edges transparent.
    private static func meanOfBlock(
        _ image: Image, _ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>?, _ x: Int
    ) -> UInt32 {
        let right = 2 * x + 1 < image.width
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
