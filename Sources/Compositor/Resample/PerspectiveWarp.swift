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
/// bilinear kernel's), each pixel depending only on its own position, so every thread count gives the same image:
/// runs of pixels whose neighbourhoods lie inside their level (or both levels) go through the bilinear kernel set
/// (SIMD, or its scalar twin), a level at a time, the rest through the same arithmetic one pixel at a time.
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
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: RowScratch.arrays * width * max(workers, 1))
        defer { scratch.deallocate() }
        let shared = UncheckedSendable(scratch)
        Parallel.forEach(bands, threads: threads) { band, worker in
            let rowScratch = RowScratch(shared.value + RowScratch.arrays * width * worker, width: width)
            for y in (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand) {
                let out = UnsafeMutableRawPointer(result.row(y)).assumingMemoryBound(to: UInt32.self)
                row(y, width: width, inverse: inverse, levels: levels, scratch: rowScratch, into: out)
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
                guard let s = sample(inverse, x: Double(x) + 0.5, y: Double(y) + 0.5), s.lod.isFinite,
                    s.u > -2, s.v > -2, s.u < Double(source.width) + 1, s.v < Double(source.height) + 1
                else { continue }
                largest = max(largest, s.lod)
            }
        }
        let whole = Int(log2(Double(max(source.width, source.height))).rounded(.up)) + 1
        return min(max(Int(min(largest, 64).rounded(.up)) + 2, 1), whole)
    }

    /// A row's positions in both levels of each pixel, its level weights, and the upper level's samples.
    struct RowScratch {
        static let arrays = 6
        let u, v, upperU, upperV: UnsafeMutablePointer<Int32>
        let weights, upper: UnsafeMutablePointer<UInt32>

        init(_ base: UnsafeMutablePointer<Int32>, width: Int) {
            (u, v, upperU, upperV) = (base, base + width, base + 2 * width, base + 3 * width)
            let words = UnsafeMutableRawPointer(base + 4 * width).assumingMemoryBound(to: UInt32.self)
            (weights, upper) = (words, words + width)
        }
    }

    /// One canvas row. Pixels whose neighbourhoods lie inside their level (or both levels) form runs of one level
    /// (pair) that go through the kernel set, each level once, mixed after; the rest are sampled one by one with
    /// the same arithmetic.
    private func row(
        _ y: Int, width: Int, inverse: Homography, levels: MipLevels, scratch: RowScratch,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        var runStart = -1
        var runLevel = 0
        var runMixes = false
        func flush(_ end: Int) {
            guard runStart >= 0 else { return }
            let count = end - runStart
            levels.bilinear(
                level: runLevel, u: scratch.u + runStart, v: scratch.v + runStart, count: count,
                into: out + runStart, kernels: kernels)
            if runMixes {
                levels.bilinear(
                    level: runLevel + 1, u: scratch.upperU + runStart, v: scratch.upperV + runStart, count: count,
                    into: scratch.upper + runStart, kernels: kernels)
                for x in runStart..<end {
                    out[x] = MipLevels.mix(out[x], scratch.upper[x], weight: scratch.weights[x])
                }
            }
            runStart = -1
        }
        for x in 0..<width {
            guard let s = PerspectiveWarp.sample(inverse, x: Double(x) + 0.5, y: Double(y) + 0.5) else {
                flush(x)
                out[x] = 0
                continue
            }
            let (level, weight) = levels.split(s.lod)
            if let lower = levels.inside(level: level, u: s.u, v: s.v) {
                let upper = weight > 0 ? levels.inside(level: level + 1, u: s.u, v: s.v) : lower
                if let upper {
                    if runStart >= 0 && (runLevel != level || runMixes != (weight > 0)) { flush(x) }
                    if runStart < 0 { (runStart, runLevel, runMixes) = (x, level, weight > 0) }
                    (scratch.u[x], scratch.v[x]) = lower
                    (scratch.upperU[x], scratch.upperV[x], scratch.weights[x]) = (upper.u, upper.v, weight)
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
