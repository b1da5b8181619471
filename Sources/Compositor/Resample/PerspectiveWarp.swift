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
/// with a transparent edge, to the bit. `PerspectiveSampling` defines each pixel (Float positions and level of
/// detail per chunk of eight pixels, fixed-point weights in 1/256), from its own position alone, so every thread
/// count gives the same image. Rows are planned a chunk at a time with that arithmetic in vectors; runs of
/// chunks whose neighbourhoods lie inside their levels go through the trilinear kernels (the kernel set's: C at
/// the CPU's level, Swift SIMD, or the scalar twin), clear runs are zeroed, and the few chunks on an edge or the
/// horizon are sampled pixel by pixel.
public struct PerspectiveWarp: Sendable {
    public var homography: Homography
    public var threads: Int
    var kernels: any BilinearKernelSet.Type = Kernels.bilinear

    public init(homography: Homography, threads: Int = Parallel.processorCount) {
        self.homography = homography
        self.threads = threads
    }

    /// The largest source side sampled directly (`PerspectiveSampling.position` clamps past it); larger sources
    /// are halved first, as a level of the pyramid would be.
    static let largestSide = 16_000

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
        // Plans hold byte offsets into the levels in 32 bits: a view into a wider image is copied out first.
        if source.bytesPerRow * source.height > Int(Int32.max) {
            return apply(to: source.copy(), width: width, height: height)
        }
        let count = PerspectiveWarp.levelsNeeded(
            inverse, width: width, height: height, source: source, threads: threads)
        let levels = MipLevels(source, count: count, threads: threads)
        let sampling = PerspectiveSampling(inverse: inverse, levels: levels)
        let result = Image(uninitializedWidth: width, height: height)
        let (tileWidth, tileHeight) = PerspectiveWarp.tile
        let bands = (height + tileHeight - 1) / tileHeight
        let kernels = kernels
        Parallel.forEachBalanced(bands, threads: threads) { band, _ in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: PerspectiveSampling.Plan.words(pixels: tileWidth)) {
                let plan = PerspectiveSampling.Plan($0.baseAddress!, pixels: tileWidth)
                for start in stride(from: 0, to: width, by: tileWidth) {
                    for y in (band * tileHeight)..<min(height, (band + 1) * tileHeight) {
                        let out = UnsafeMutableRawPointer(result.row(y)).assumingMemoryBound(to: UInt32.self)
                        PerspectiveWarp.segment(
                            y, start..<min(width, start + tileWidth), sampling: sampling, plan: plan,
                            kernels: kernels, into: out)
                    }
                }
            }
        }
        return result
    }

    /// Canvas tiles (columns × rows) drawn in turn: a tile's plan stays in the first-level cache, and the source
    /// pixels a tile reads are a compact patch for its next rows. Its width is a multiple of
    /// `PerspectiveSampling.chunk`. On the project's AVX2 machine the shape made no difference beyond the noise
    /// (full rows, 512 × 16 … 32 × 128 all 85–115 ms on the benchmark's view, two rounds), so this one stays.
    static let tile = (width: 256, height: 32)

    /// Columns `columns` of canvas row `y`: their chunks' levels of detail (in vectors, or one by one for the
    /// scalar twin), the chunks planned, then runs of chunks inside their levels drawn by the kernels, clear runs
    /// zeroed and mixed chunks pixel by pixel.
    private static func segment(
        _ y: Int, _ columns: Range<Int>, sampling: PerspectiveSampling, plan: PerspectiveSampling.Plan,
        kernels: any BilinearKernelSet.Type, into out: UnsafeMutablePointer<UInt32>
    ) {
        let row = sampling.row(y)
        let chunk = PerspectiveSampling.chunk
        let start = columns.lowerBound
        let chunks = (columns.count + chunk - 1) / chunk
        if kernels == ScalarKernels.self {
            for c in 0..<chunks { plan.detail[c] = sampling.detail(chunk: start + chunk * c, row) }
        } else {
            sampling.details(from: start, count: chunks, row, into: plan.detail)
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunks) { kinds in
            let kinds = kinds.baseAddress!
            kernels.planChunks(sampling, from: start, count: chunks, row, into: plan, kinds: kinds)
            var c = 0
            while c < chunks {
                let kind = kinds[c]
                var end = c + 1
                while end < chunks && kinds[end] == kind { end += 1 }
                let (from, to) = (start + chunk * c, min(columns.upperBound, start + chunk * end))
                switch PerspectiveSampling.ChunkKind(rawValue: kind)! {
                case .clear: (out + from).update(repeating: 0, count: to - from)
                case .inside:
                    kernels.trilinear(
                        sampling.levels.table, plan: plan.advanced(by: chunk * c), count: to - from, into: out + from)
                case .mixed:
                    for first in stride(from: from, to: to, by: chunk) {
                        let detail = plan.detail[(first - start) / chunk]
                        for x in first..<min(to, first + chunk) { out[x] = sampling.pixel(x, row, detail: detail) }
                    }
                }
                c = end
            }
        }
    }

    /// How many levels the canvas may read (the source itself is level 0): the largest level of detail on a grid
    /// of canvas points that land near the source, plus one for the trilinear blend's upper level and one for
    /// what lies between the grid's points. Pixels asking for more take the last level. The grid's rows are shared
    /// among `threads` (a maximum does not depend on the order it is taken in).
    static func levelsNeeded(_ inverse: Homography, width: Int, height: Int, source: Image, threads: Int = 1) -> Int {
        var sampling = PerspectiveSampling(inverse: inverse, levels: MipLevels(source, count: 1, threads: 1))
        sampling.topDetail = .max
        let rows = Array(stride(from: 0, to: height, by: PerspectiveSampling.chunk)) + [height - 1]
        let workers = Parallel.workers(rows.count, threads: threads)
        let detailCount = (width + 63) / 64 * 8  // the row's chunks, rounded up to whole vectors of eight
        var largest = [Int32](repeating: 0, count: workers)
        largest.withUnsafeMutableBufferPointer { largest in
            let largest = UncheckedSendable(largest)
            Parallel.forEach(workers, threads: workers) { part, _ in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: detailCount) { details in
                    var found: Int32 = 0
                    for y in rows[Parallel.part(part, of: workers, count: rows.count)] {
                        sampling.gridDetails(sampling.row(y), width: width, into: details.baseAddress!)
                        found = max(found, details.max()!)
                    }
                    largest.value[part] = found
                }
            }
        }
        let whole = Int(log2(Double(max(source.width, source.height))).rounded(.up)) + 1
        return min(max(Int(min(largest.max()!, 64 << 8) + 255) >> 8 + 2, 1), whole)
    }
}
