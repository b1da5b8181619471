#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws an image through a homography onto a transparent canvas, as a layer with a perspective `CATransform3D`: source
/// point p (pixels from the top-left corner) lands on canvas point homography(p).
///
/// A turn about the vertical or the horizontal axis (with any perspective, scale and translation: flips, cube faces,
/// cards, up to edge on) is drawn by `AxisTurnWarp` as two one-dimensional area resamplings where its limits allow;
/// every other map, and views past those limits (mirrored along a line), take the mip route below.
///
/// The mip route: each canvas pixel centre is mapped back through the inverse and the source is sampled bilinearly
/// there. Where the plane recedes one canvas pixel spans more than one source pixel (the inverse's Jacobian grows), so
/// the sample comes from pre-shrunk copies of the source (2×2 box averages, as mipmaps): trilinearly, from the two
/// levels around log₂ of the local stretch (the larger of the two source axes'), so nothing aliases however far the
/// plane recedes. Outside the source is transparent, so edges are anti-aliased; pixels whose point lies behind the eye
/// (w ≤ 0) stay transparent. Affine homographies (identity included) are drawn by `AffineWarp` with a transparent edge,
/// to the bit. `PerspectiveSampling` defines each pixel (Float positions and level of detail per chunk of eight pixels,
/// fixed-point weights in 1/256), from its own position alone, so every thread count gives the same image. Rows are
/// planned a chunk at a time with that arithmetic in vectors; runs of chunks whose neighbourhoods lie inside their
/// levels go through the trilinear kernels (the kernel set's: C at the CPU's level, Swift SIMD, or the scalar twin),
/// clear runs are zeroed, and the few chunks on an edge or the horizon are sampled pixel by pixel.
public struct PerspectiveWarp: Sendable {
    public var homography: Homography
    public var threads: Int
    var kernels: any BilinearKernelSet.Type = Kernels.bilinear
    /// Whether a turn about an axis goes the two-pass route (`AxisTurnWarp`); the mip route's tests and benchmarks
    /// turn it off.
    @_spi(Benchmarks) public var takesAxisTurns = true

    public init(homography: Homography, threads: Int = Parallel.processorCount) {
        self.homography = homography
        self.threads = threads
    }

    /// The largest source side sampled directly (`PerspectiveSampling.position` clamps past it); larger sources
    /// are halved first, as a level of the pyramid would be.
    static let largestSide = 16_000

    /// How `apply` draws a source: for `--verbose` and the tests.
    public enum Route: String, Sendable, CaseIterable {
        /// No projective part: `AffineWarp`, bilinear with transparent edges.
        case affine = "affine"
        /// A turn about the vertical or horizontal axis: `AxisTurnWarp`'s two area passes.
        case axisTurn = "two passes"
        /// Any other view: trilinear from the mip levels.
        case mipLevels = "mip levels"
        /// The plane seen edge on: nothing to draw.
        case edgeOn = "edge on"
    }

    /// The route `apply` takes for a `sourceWidth` × `sourceHeight` source onto a `width` × `height` canvas.
    public func route(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Route {
        if homography.affine != nil { return .affine }
        guard let inverse = homography.inverted() else { return .edgeOn }
        if sourceWidth > PerspectiveWarp.largestSide || sourceHeight > PerspectiveWarp.largestSide {
            return halved.route(
                sourceWidth: (sourceWidth + 1) / 2, sourceHeight: (sourceHeight + 1) / 2, width: width, height: height)
        }
        let turn = axisTurn(inverse, sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
        return turn == nil ? .mipLevels : .axisTurn
    }

    /// `source` drawn onto a new transparent `width` × `height` canvas; nil when the homography is degenerate
    /// (the plane is seen edge on, so nothing would be drawn).
    public func apply(to source: Image, width: Int, height: Int) -> Image? {
        if let affine = homography.affine {
            return AffineWarp(transform: affine, filter: .bilinear, edgeMode: .transparent, threads: threads)
                .apply(to: source, width: width, height: height)
        }
        guard let inverse = homography.inverted() else { return nil }
        if source.width > PerspectiveWarp.largestSide || source.height > PerspectiveWarp.largestSide {
            return halved.apply(to: MipLevels.halved(source, threads: threads), width: width, height: height)
        }
        if let turn = axisTurn(
            inverse, sourceWidth: source.width, sourceHeight: source.height, width: width, height: height)
        {
            return turn.draw(source, kernels: kernels, threads: threads)
        }
        // Plans hold byte offsets into the levels in 32 bits: a view into a wider image is copied out first.
        if source.bytesPerRow * source.height > Int(Int32.max) {
            return apply(to: source.copy(), width: width, height: height)
        }
        let plan = PerspectiveWarp.levelPlan(inverse, width: width, height: height, source: source, threads: threads)
        let levels = MipLevels(source, regions: plan.regions, threads: threads)
        return PerspectiveWarp.draw(
            PerspectiveSampling(inverse: inverse, levels: levels), width: width, height: height, kernels: kernels,
            threads: threads)
    }

    /// This warp for the source halved (a source past `largestSide`).
    private var halved: PerspectiveWarp {
        var smaller = self
        smaller.homography = Homography(AffineTransform2D(scaleX: 2, y: 2)).concatenating(homography)
        return smaller
    }

    /// The two-pass plan, when this warp takes turns and the map is one within its limits.
    private func axisTurn(
        _ inverse: Homography, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
    )
        -> AxisTurnWarp?
    {
        guard takesAxisTurns else { return nil }
        return AxisTurnWarp(
            inverse: inverse, sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
    }

    /// The canvas `sampling` defines, drawn a tile at a time by `threads`.
    static func draw(
        _ sampling: PerspectiveSampling, width: Int, height: Int, kernels: any BilinearKernelSet.Type, threads: Int
    ) -> Image {
        let result = Image(uninitializedWidth: width, height: height)
        let (tileWidth, tileHeight) = PerspectiveWarp.tile
        let bands = (height + tileHeight - 1) / tileHeight
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
        levelPlan(inverse, width: width, height: height, source: source, threads: threads).count
    }

    /// `levelsNeeded`, and for each level above the source the region of it the canvas is expected to read (nil:
    /// the whole level): the box of the grid's points whose chunks read that level, widened by `regionSlack` of
    /// its pixels for the canvas points between the grid's. A chunk that reaches past a region anyway is drawn
    /// pixel by pixel, from pixels worked out when asked for (`MipLevels`): slower, never different. A region over
    /// most of its level is not worth the bookkeeping and stays whole.
    static func levelPlan(
        _ inverse: Homography, width: Int, height: Int, source: Image, threads: Int = 1
    ) -> (count: Int, regions: [MipLevels.Region?]) {
        var sampling = PerspectiveSampling(inverse: inverse, levels: MipLevels(source, count: 1, threads: 1))
        sampling.topDetail = .max
        let rows = Array(stride(from: 0, to: height, by: PerspectiveSampling.chunk)) + [height - 1]
        let workers = Parallel.workers(rows.count, threads: threads)
        var parts = [GridReads](repeating: GridReads(), count: workers)
        parts.withUnsafeMutableBufferPointer { parts in
            let parts = UncheckedSendable(parts)
            Parallel.forEach(workers, threads: workers) { part, _ in
                parts.value[part].scan(
                    rows: rows[Parallel.part(part, of: workers, count: rows.count)], width: width, sampling: sampling)
            }
        }
        var reads = GridReads()
        for part in parts { reads.merge(part) }
        let whole = Int(log2(Double(max(source.width, source.height))).rounded(.up)) + 1
        let count = min(max(Int(min(reads.largest, 64 << 8) + 255) >> 8 + 2, 1), whole)
        var regions: [MipLevels.Region?] = []
        var (levelWidth, levelHeight) = (source.width, source.height)
        for k in 1..<count {
            (levelWidth, levelHeight) = ((levelWidth + 1) / 2, (levelHeight + 1) / 2)
            // The last level is read by every point asking for it or more.
            guard let box = reads.box(levels: k..<(k == count - 1 ? GridReads.boxedLevels : k + 1)) else {
                regions.append(MipLevels.Region(x: 0, y: 0, width: 0, height: 0))
                continue
            }
            // Level k's pixel-centre coordinates of the box's corners, widened by the slack and the neighbourhood.
            let scale = Float(1 << k)
            let left = max(Int((box[0] / scale - 0.5).rounded(.down)) - regionSlack, 0)
            let right = min(Int((box[1] / scale - 0.5).rounded(.up)) + 2 + regionSlack, levelWidth)
            let top = max(Int((box[2] / scale - 0.5).rounded(.down)) - regionSlack, 0)
            let bottom = min(Int((box[3] / scale - 0.5).rounded(.up)) + 2 + regionSlack, levelHeight)
            let region = MipLevels.Region(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
            let mostOfIt = region.width * region.height * 10 > levelWidth * levelHeight * 6
            regions.append(mostOfIt ? nil : region)
        }
        return (count, regions)
    }

    /// What a share of the grid's rows asks of the levels: the largest level of detail, and per level the box of
    /// the points that read it (least u, greatest u, least v, greatest v; levels from `boxedLevels − 1` on share
    /// the last box).
    private struct GridReads {
        static let boxedLevels = 66
        static let empty = SIMD4<Float>(.infinity, -.infinity, .infinity, -.infinity)
        var largest: Int32 = 0
        var boxes = [SIMD4<Float>](repeating: empty, count: boxedLevels)

        /// The grid's chunks on `rows`, each row's in runs that read the same levels (a run's box taken at once).
        mutating func scan(rows: ArraySlice<Int>, width: Int, sampling: PerspectiveSampling) {
            let chunks = (width + PerspectiveSampling.chunk - 1) / PerspectiveSampling.chunk
            let capacity = (chunks + 7) / 8 * 8  // whole vectors of eight
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { details in
                withUnsafeTemporaryAllocation(of: SIMD2<Float>.self, capacity: capacity) { points in
                    for y in rows {
                        sampling.gridDetails(
                            sampling.row(y), width: width, into: details.baseAddress!, points: points.baseAddress!)
                        var c = 0
                        while c < chunks {
                            let detail = details[c]
                            var (low, high) = (points[c], points[c])
                            c += 1
                            guard detail >= 0 else { continue }
                            largest = max(largest, detail)
                            while c < chunks, details[c] >= 0, GridReads.readTheSameLevels(details[c], detail) {
                                largest = max(largest, details[c])
                                (low, high) = (pointwiseMin(low, points[c]), pointwiseMax(high, points[c]))
                                c += 1
                            }
                            include(low: low, high: high, levels: detail)
                        }
                    }
                }
            }
        }

        /// Whether chunks of these levels of detail read the same levels: the same lower one, both mixing in the
        /// next or neither.
        private static func readTheSameLevels(_ a: Int32, _ b: Int32) -> Bool {
            a >> 8 == b >> 8 && (a & 255 == 0) == (b & 255 == 0)
        }

        /// Points between `low` and `high` in the levels a chunk of level of detail `detail` reads.
        private mutating func include(low: SIMD2<Float>, high: SIMD2<Float>, levels detail: Int32) {
            let lower = Int(detail >> 8)
            for level in lower...lower + (detail & 255 == 0 ? 0 : 1) {
                let slot = min(level, GridReads.boxedLevels - 1)
                boxes[slot] = GridReads.union(boxes[slot], SIMD4(low.x, high.x, low.y, high.y))
            }
        }

        mutating func merge(_ other: GridReads) {
            largest = max(largest, other.largest)
            for slot in boxes.indices { boxes[slot] = GridReads.union(boxes[slot], other.boxes[slot]) }
        }

        /// The box of the points reading any of `levels`, nil when none does.
        func box(levels: Range<Int>) -> SIMD4<Float>? {
            let box = boxes[levels].reduce(GridReads.empty, GridReads.union)
            return box[0] <= box[1] && box[2] <= box[3] ? box : nil
        }

        private static func union(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
            SIMD4(min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))
        }
    }

    /// Level pixels a region reaches past the grid's points: a canvas point is at most four pixels across and
    /// four rows from one of the grid's, about 16 pixels of the level it reads, and as much again where the level
    /// of detail crosses from one level to the next between grid points.
    static let regionSlack = 32
}
