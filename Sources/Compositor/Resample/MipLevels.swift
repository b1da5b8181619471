/// The source and its successive 2×2 box averages (level k is 2ᵏ times smaller; an odd side's last column or
/// row averages with transparent pixels, so each level covers exactly the source's extent).
struct MipLevels: @unchecked Sendable {
    let images: [Image]
    /// The levels' pixels as plain values, so sampling one retains no image (the images above keep them alive).
    private let views: [Level]

    private struct Level {
        var pixels: UnsafeRawPointer
        var bytesPerRow: Int
        var width: Int
        var height: Int
    }

    init(_ source: Image, count: Int, threads: Int) {
        var images = [source]
        while images.count < count, images.last!.width > 1 || images.last!.height > 1 {
            images.append(MipLevels.halved(images.last!, threads: threads))
        }
        self.images = images
        views = images.map {
            Level(pixels: UnsafeRawPointer($0.row(0)), bytesPerRow: $0.bytesPerRow, width: $0.width, height: $0.height)
        }
    }

    /// Each pixel the rounded mean of a 2×2 block (transparent past the edges).
    static func halved(_ image: Image, threads: Int) -> Image {
        let width = (image.width + 1) / 2
        let height = (image.height + 1) / 2
        let result = Image(uninitializedWidth: width, height: height)
        Parallel.forEach(height, threads: threads) { y, _ in
            let top = image.row(2 * y)
            let bottom: UnsafeMutablePointer<UInt8>? = 2 * y + 1 < image.height ? image.row(2 * y + 1) : nil
            let out = result.row(y)
            for x in 0..<width {
                let right = 2 * x + 1 < image.width
                for c in 0..<4 {
                    var sum = UInt32(top[8 * x + c])
                    if right { sum += UInt32(top[8 * x + 4 + c]) }
                    if let bottom {
                        sum += UInt32(bottom[8 * x + c])
                        if right { sum += UInt32(bottom[8 * x + 4 + c]) }
                    }
                    out[4 * x + c] = UInt8((sum + 2) >> 2)
                }
            }
        }
        return result
    }

    /// The bilinear sample of level `level` at source pixel-centre coordinates (u, v), transparent outside.
    @inline(__always)
    func bilinear(level: Int, u: Double, v: Double) -> UInt32 {
        let image = views[level]
        let (lu, lv) = MipLevels.levelCoordinates(level, u, v)
        guard lu > -1.5, lv > -1.5, lu < Double(image.width) + 0.5, lv < Double(image.height) + 0.5 else { return 0 }
        let fu = PerspectiveWarp.fixed(lu)
        let fv = PerspectiveWarp.fixed(lv)
        let i = Int(fu >> 16)
        let j = Int(fv >> 16)
        func corner(_ i: Int, _ j: Int) -> UInt32 {
            guard i >= 0, j >= 0, i < image.width, j < image.height else { return 0 }
            return image.pixels.loadUnaligned(fromByteOffset: j * image.bytesPerRow + i * 4, as: UInt32.self)
        }
        return ScalarKernels.bilinearPixel(
            (corner(i, j), corner(i + 1, j), corner(i, j + 1), corner(i + 1, j + 1)),
            fx: UInt32(bitPattern: fu >> 8) & 255, fy: UInt32(bitPattern: fv >> 8) & 255)
    }

    /// The levels around `lod` (clamped to the levels there are): the lower one and the upper one's weight in
    /// 1/256 (0: the lower alone).
    @inline(__always)
    func split(_ lod: Double) -> (level: Int, weight: UInt32) {
        let top = Double(views.count - 1)
        let clamped = lod.isNaN ? top : min(max(lod, 0), top)
        let level = Int(clamped)
        let weight = UInt32(((clamped - Double(level)) * 256).rounded())
        return weight == 256 ? (level + 1, 0) : (level, weight)
    }

    /// The level's 16.16 position of source pixel-centre coordinates (u, v), when its whole 2×2 neighbourhood
    /// lies inside the level (the kernel set's precondition); nil otherwise.
    @inline(__always)
    func inside(level: Int, u: Double, v: Double) -> (u: Int32, v: Int32)? {
        let image = views[level]
        let (lu, lv) = MipLevels.levelCoordinates(level, u, v)
        guard lu >= 0, lv >= 0, lu < Double(image.width - 1), lv < Double(image.height - 1) else { return nil }
        let position = (PerspectiveWarp.fixed(lu), PerspectiveWarp.fixed(lv))
        guard position.0 >> 16 < Int32(image.width - 1), position.1 >> 16 < Int32(image.height - 1) else { return nil }
        return position
    }

    /// `count` samples of a level at positions from `inside`, through the kernel set.
    func bilinear(
        level: Int, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>, count: Int, into output: UnsafeMutablePointer<UInt32>,
        kernels: any BilinearKernelSet.Type
    ) {
        let image = views[level]
        kernels.bilinear(
            image.pixels.assumingMemoryBound(to: UInt8.self), bytesPerRow: image.bytesPerRow, u: u, v: v,
            origin: (0, 0), count: count, into: output)
    }

    /// Source pixel-centre coordinates in a level's: (u + 0.5)/2ᵏ − 0.5; level 0 takes them as they are.
    @inline(__always)
    static func levelCoordinates(_ level: Int, _ u: Double, _ v: Double) -> (Double, Double) {
        guard level > 0 else { return (u, v) }
        let scale = 1 / Double(1 << level)
        return ((u + 0.5) * scale - 0.5, (v + 0.5) * scale - 0.5)
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

    /// Between the two levels around `lod`, one pixel, edges transparent.
    @inline(__always)
    func trilinear(u: Double, v: Double, lod: Double) -> UInt32 {
        let (level, weight) = split(lod)
        let lower = bilinear(level: level, u: u, v: v)
        guard weight > 0 else { return lower }
        return MipLevels.mix(lower, bilinear(level: level + 1, u: u, v: v), weight: weight)
    }
}
