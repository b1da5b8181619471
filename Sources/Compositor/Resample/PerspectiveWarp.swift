#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws an image through a homography onto a transparent canvas, as a layer with a perspective `CATransform3D`:
/// source point p (pixels from the top-left corner) lands on canvas point homography(p).
///
/// Each canvas pixel centre is mapped back through the inverse and the source is sampled bilinearly there. Where
/// the plane recedes one canvas pixel spans more than one source pixel (the inverse's Jacobian grows), so the
/// sample comes from pre-shrunk copies of the source (2×2 box averages, as mipmaps): trilinearly, from the two
/// levels around log₂ of the local stretch (the larger of the two source axes'), so nothing aliases however
/// far the plane recedes. Outside the source is transparent, so edges are anti-aliased; pixels whose point lies
/// behind the eye (w ≤ 0) stay transparent. Affine homographies (identity included) are drawn by `AffineWarp`
/// with a transparent edge, to the bit. Positions and level weights are fixed point (1/256, as the affine
/// bilinear kernel's), each pixel depending only on its own position, so every thread count gives the same image;
/// magnified pixels whose neighbourhood lies inside the source go through the bilinear kernel set (SIMD, or its
/// scalar twin), the rest through the same arithmetic one pixel at a time.
public struct PerspectiveWarp: Sendable {
    public var homography: Homography
    public var threads: Int
    var kernels: any BilinearKernelSet.Type = Kernels.bilinear

    public init(homography: Homography, threads: Int = Parallel.processorCount) {
        self.homography = homography
        self.threads = threads
    }

    /// The largest source side sampled directly: 16.16 positions need it under 2¹⁵ (larger sources are halved
    /// first, as a level of the pyramid would be).
    static let largestSide = 16_384

    /// `source` drawn onto a new transparent `width` × `height` canvas; nil when the homography is degenerate
    /// (the plane is seen edge on, so nothing would be drawn).
    public func apply(to source: Image, width: Int, height: Int) -> Image? {
        if let affine = homography.affine {
            return AffineWarp(transform: affine, filter: .bilinear, edgeMode: .transparent, threads: threads)
                .apply(to: source, width: width, height: height)
        }
        guard let inverse = homography.inverted() else { return nil }
        if source.width > PerspectiveWarp.largestSide || source.height > PerspectiveWarp.largestSide {
            let half = MipLevels.halved(source, threads: threads)
            var smaller = self
            smaller.homography = Homography(AffineTransform2D(scaleX: 2, y: 2)).concatenating(homography)
            return smaller.apply(to: half, width: width, height: height)
        }
        let levels = MipLevels(
            source, count: PerspectiveWarp.levelsNeeded(inverse, width: width, height: height, source: source),
            threads: threads)
        let result = Image(uninitializedWidth: width, height: height)
        let rowsPerBand = 16
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        let workers = Parallel.workers(bands, threads: threads)
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * width * max(workers, 1))
        defer { scratch.deallocate() }
        let shared = UncheckedSendable(scratch)
        Parallel.forEach(bands, threads: threads) { band, worker in
            let u = shared.value + 2 * width * worker
            for y in (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand) {
                let out = UnsafeMutableRawPointer(result.row(y)).assumingMemoryBound(to: UInt32.self)
                row(y, width: width, inverse: inverse, levels: levels, u: u, v: u + width, into: out)
            }
        }
        return result
    }

    /// Where canvas pixel centre (x, y) samples: source pixel-centre coordinates and the level of detail
    /// (log₂ of the stretch, ≤ 0 when magnified); nil behind the eye.
    @inline(__always)
    static func sample(_ inverse: Homography, x: Double, y: Double) -> (u: Double, v: Double, lod: Double)? {
        let p = inverse.homogeneous((x, y))
        guard p.w > 0 else { return nil }
        let q = 1 / p.w
        let u = p.x * q
        let v = p.y * q
        // The Jacobian of (u, v) in canvas (x, y): d(x'/w) = (dx' − u·dw)/w.
        let ux = (inverse.m11 - u * inverse.m13) * q
        let uy = (inverse.m21 - u * inverse.m23) * q
        let vx = (inverse.m12 - v * inverse.m13) * q
        let vy = (inverse.m22 - v * inverse.m23) * q
        let stretch = max(ux * ux + uy * uy, vx * vx + vy * vy)
        // Magnified pixels (most of a tilted plane's near side) need no logarithm.
        return (u - 0.5, v - 0.5, stretch <= 1 ? 0 : 0.5 * log2(stretch))
    }

    /// How many levels the canvas may read (the source itself is level 0): the largest level of detail on a grid
    /// of canvas points that land near the source, plus one for the trilinear blend's upper level and one for
    /// what lies between the grid's points. Pixels asking for more take the last level.
    static func levelsNeeded(_ inverse: Homography, width: Int, height: Int, source: Image) -> Int {
        var largest = 0.0
        let step = 8
        for y in Array(stride(from: 0, to: height, by: step)) + [height - 1] {
            for x in Array(stride(from: 0, to: width, by: step)) + [width - 1] {
                guard let s = sample(inverse, x: Double(x) + 0.5, y: Double(y) + 0.5),
                    s.u > -2, s.v > -2, s.u < Double(source.width) + 1, s.v < Double(source.height) + 1
                else { continue }
                largest = max(largest, s.lod)
            }
        }
        let whole = Int(log2(Double(max(source.width, source.height))).rounded(.up)) + 1
        return min(max(Int(min(largest, 64).rounded(.up)) + 2, 1), whole)
    }

    private func row(
        _ y: Int, width: Int, inverse: Homography, levels: MipLevels, u: UnsafeMutablePointer<Int32>,
        v: UnsafeMutablePointer<Int32>, into out: UnsafeMutablePointer<UInt32>
    ) {
        let source = levels.images[0]
        let lastX = Double(source.width - 2)
        let lastY = Double(source.height - 2)
        var runStart = -1
        func flush(_ end: Int) {
            guard runStart >= 0 else { return }
            kernels.bilinear(
                source.row(0), bytesPerRow: source.bytesPerRow, u: u + runStart, v: v + runStart, origin: (0, 0),
                count: end - runStart, into: out + runStart)
            runStart = -1
        }
        for x in 0..<width {
            guard let s = PerspectiveWarp.sample(inverse, x: Double(x) + 0.5, y: Double(y) + 0.5) else {
                flush(x)
                out[x] = 0
                continue
            }
            if s.lod <= 0, s.u >= 0, s.v >= 0, s.u < lastX, s.v < lastY {
                // Magnified and inside: the kernel's pixel (runs of them in one call).
                u[x] = PerspectiveWarp.fixed(s.u)
                v[x] = PerspectiveWarp.fixed(s.v)
                if u[x] >> 16 <= Int32(lastX), v[x] >> 16 <= Int32(lastY) {
                    if runStart < 0 { runStart = x }
                    continue
                }
            }
            flush(x)
            out[x] = levels.trilinear(u: s.u, v: s.v, lod: s.lod)
        }
        flush(width)
    }

    /// A position in 16.16 with 128 added, so that bits 8–15 are the weight rounded to the nearest 1/256 (as
    /// `AffineWarp`'s bilinear path).
    @inline(__always)
    static func fixed(_ coordinate: Double) -> Int32 { Int32((coordinate * 65536).rounded()) &+ 128 }
}

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
        let scale = 1 / Double(1 << level)
        // Source centres to the level's centres: (u + 0.5)/2ᵏ − 0.5.
        // Level 0 takes the coordinates as they are, as the kernel's pixels do.
        let lu = level == 0 ? u : (u + 0.5) * scale - 0.5
        let lv = level == 0 ? v : (v + 0.5) * scale - 0.5
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

    /// Between the two levels around `lod` (clamped to the levels there are), mixed in 1/256.
    @inline(__always)
    func trilinear(u: Double, v: Double, lod: Double) -> UInt32 {
        let top = Double(views.count - 1)
        let clamped = lod.isNaN ? top : min(max(lod, 0), top)
        var level = Int(clamped)
        var weight = UInt32(((clamped - Double(level)) * 256).rounded())
        if weight == 256 { (level, weight) = (level + 1, 0) }
        let lower = bilinear(level: level, u: u, v: v)
        guard weight > 0 else { return lower }
        let upper = bilinear(level: level + 1, u: u, v: v)
        var result: UInt32 = 0
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
            let sum = (lower >> shift & 255) * (256 - weight) + (upper >> shift & 255) * weight
            result |= ((sum + 128) >> 8) << shift
        }
        return result
    }
}
