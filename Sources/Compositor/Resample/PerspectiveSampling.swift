/// Where and how a perspective warp samples, in Float: the definition each canvas pixel is held to, and the
/// same arithmetic a chunk of eight pixels at a time for the planning pass.
///
/// A canvas pixel centre (x + ½, y + ½) maps back through the inverse homography to source point (uc, vc), in
/// pixels from the source's top-left corner. Each chunk of eight pixels along a row (from x = 0) has one level
/// of detail t, in 1/256 of a level: 128·log₂ of the local stretch at the chunk's centre (the larger of the
/// squared lengths of the two source axes' gradients, from the Jacobian) less half a level (`detailBias`),
/// clamped to the levels there are. The stretch changes little over eight pixels, and one t per chunk makes its
/// levels, weight and strides scalars.
/// A pixel is the trilinear sample of levels t >> 8 and the next one, the upper weighted (t & 255)/256. Level
/// k's position is uc·2⁻ᵏ − ½ in its pixel-centre coordinates, rounded to 1/256 (the bilinear kernel's
/// weights). Every step is one IEEE Float operation or integer bit arithmetic (log₂ from the exponent bits and a
/// quartic in the mantissa: within 1.2·10⁻⁴ of log₂, far inside the 1/256 the weight is rounded to), written
/// identically in `point` and `plan`, so the two agree to the bit and each pixel depends on its own position
/// alone. Float keeps positions within about 10⁻³ of a pixel over the largest source taken (16,000 pixels a
/// side), finer than the 1/256 they are rounded to.
struct PerspectiveSampling {
    let inverse: Homography
    let levels: MipLevels
    /// The inverse's entries that multiply canvas x and y, in Float; the constant terms enter per row.
    private let m11, m12, m13, m21, m22, m23: Float
    /// The largest level of detail: the last level, no mixing.
    var topDetail: Int32
    private let sourceWidth, sourceHeight: Int32
    /// Where a chunk's ends must lie (source pixels from the corner) for its neighbourhoods to lie inside the
    /// stored levels it reads: for level L reading alone, then L mixing in L + 1, the least and greatest u, then v
    /// (`plan(chunk:)`).
    let bounds: [Float]

    /// Points further than this from the source (in source pixels) lie past every level's reach.
    private static let reach: Float = 1e6

    init(inverse: Homography, levels: MipLevels) {
        self.inverse = inverse
        self.levels = levels
        (m11, m12, m13) = (Float(inverse.m11), Float(inverse.m12), Float(inverse.m13))
        (m21, m22, m23) = (Float(inverse.m21), Float(inverse.m22), Float(inverse.m23))
        topDetail = Int32(levels.count - 1) << 8
        let source = levels.levels[0]
        (sourceWidth, sourceHeight) = (Int32(source.width), Int32(source.height))
        bounds = PerspectiveSampling.bounds(levels)
    }

    /// `bounds`: a point at least 2^K source pixels inside the source's edges (K the highest level read) has its
    /// neighbourhoods inside each level read (see `plan(chunk:)`); inside a stored region of level k, level k's
    /// position uc·2⁻ᵏ − ½ must lie in [x + ½, x + width − 1½], so uc in [(x + 1)·2ᵏ, (x + width − 1)·2ᵏ]. Whole
    /// levels ask nothing more than the edges do.
    private static func bounds(_ levels: MipLevels) -> [Float] {
        let (width, height) = (Float(levels.levels[0].width), Float(levels.levels[0].height))
        var bounds: [Float] = []
        for lower in 0..<levels.count {
            for read in [lower...lower, lower...min(lower + 1, levels.count - 1)] {
                let margin = Float(1 << (lower + (read.count - 1)))
                var (uLow, uHigh, vLow, vHigh) = (margin, width - margin, margin, height - margin)
                for k in read {
                    let (region, scale) = (levels.levels[k].region, Float(1 << k))
                    uLow = max(uLow, Float(region.x + 1) * scale)
                    uHigh = min(uHigh, Float(region.x + region.width - 1) * scale)
                    vLow = max(vLow, Float(region.y + 1) * scale)
                    vHigh = min(vHigh, Float(region.y + region.height - 1) * scale)
                }
                bounds += [uLow, uHigh, vLow, vHigh]
            }
        }
        return bounds
    }

    /// A canvas row's share of the homogeneous point: the y and constant terms, summed in Double, rounded once.
    struct Row {
        var x, y, w: Float
    }

    func row(_ y: Int) -> Row {
        let centre = Double(y) + 0.5
        return Row(
            x: Float(centre * inverse.m21 + inverse.m31), y: Float(centre * inverse.m22 + inverse.m32),
            w: Float(centre * inverse.m23 + inverse.m33))
    }

    // MARK: The definition, one pixel

    /// Pixels per chunk: a chunk shares one level of detail, so its levels, weight and strides are scalars.
    static let chunk = 8

    /// Where canvas pixel x of `row` samples, from the source's corner; nil behind the eye (w ≤ 0) or beyond
    /// every level's reach, where the pixel is transparent.
    @inline(__always)
    func point(_ x: Int, _ row: Row) -> (uc: Float, vc: Float)? {
        let (w, _, uc, vc) = project(Float(x) + 0.5, row)
        let reach = PerspectiveSampling.reach
        guard w > 0, uc > -reach, uc < reach, vc > -reach, vc < reach else { return nil }
        return (uc, vc)
    }

    /// Canvas x `centre` of `row` through the inverse: w, its reciprocal q, and the source point (uc, vc).
    @inline(__always)
    private func project(_ centre: Float, _ row: Row) -> (w: Float, q: Float, uc: Float, vc: Float) {
        let w = row.w + centre * m13
        let q = 1 / w
        return (w, q, (row.x + centre * m11) * q, (row.y + centre * m12) * q)
    }

    /// The level of detail, in 1/256, of the chunk of `row` that starts at canvas x `start` (a multiple of
    /// `chunk`): from the local stretch at the chunk's centre, the last level where that lies behind the eye.
    func detail(chunk start: Int, _ row: Row) -> Int32 {
        let (w, q, uc, vc) = project(Float(start) + Float(PerspectiveSampling.chunk / 2), row)
        guard w > 0, uc.isFinite, vc.isFinite else { return topDetail }
        // The Jacobian of (u, v) in canvas (x, y): d(x'/w) = (dx' − u·dw)/w.
        let ux = (m11 - uc * m13) * q
        let uy = (m21 - uc * m23) * q
        let vx = (m12 - vc * m13) * q
        let vy = (m22 - vc * m23) * q
        let stretch = max(ux * ux + uy * uy, vx * vx + vy * vy)
        return min(max(PerspectiveSampling.detail(stretch), 0), topDetail)
    }

    /// The pixel at a point and level of detail: levels mixed, corners outside a level transparent.
    @inline(__always)
    func trilinear(uc: Float, vc: Float, detail: Int32) -> UInt32 {
        let level = detail >> 8
        let weight = UInt32(detail & 255)
        let lower = bilinear(level: level, uc: uc, vc: vc)
        guard weight > 0 else { return lower }
        return MipLevels.mix(lower, bilinear(level: level + 1, uc: uc, vc: vc), weight: weight)
    }

    /// The whole definition for canvas pixel x of `row`, given its chunk's level of detail.
    func pixel(_ x: Int, _ row: Row, detail: Int32) -> UInt32 {
        point(x, row).map { trilinear(uc: $0.uc, vc: $0.vc, detail: detail) } ?? 0
    }

    /// The whole definition for canvas pixel x of `row`.
    func pixel(_ x: Int, _ row: Row) -> UInt32 {
        pixel(x, row, detail: detail(chunk: x - x % PerspectiveSampling.chunk, row))
    }

    @inline(__always)
    private func bilinear(level: Int32, uc: Float, vc: Float) -> UInt32 {
        let u = PerspectiveSampling.position(uc, level: level)
        let v = PerspectiveSampling.position(vc, level: level)
        let (i, j) = (Int(u >> 8), Int(v >> 8))
        func corner(_ i: Int, _ j: Int) -> UInt32 { levels.pixel(level: Int(level), x: i, y: j) }
        return ScalarKernels.bilinearPixel(
            (corner(i, j), corner(i + 1, j), corner(i, j + 1), corner(i + 1, j + 1)),
            fx: UInt32(u & 255), fy: UInt32(v & 255))
    }

    /// 128·log₂(stretch) rounded to the nearest integer, less `detailBias` (unclamped): the exponent read from the
    /// bits, log₂ of the mantissa m ∈ [1, 2) as z·(c₁ + z·(c₂ + z·(c₃ + z·c₄))) with z = m − 1 (a least-squares fit
    /// at Chebyshev nodes, within 1.2·10⁻⁴). Int↔Float conversions go through 1.5·2²³, whose last bits hold small
    /// integers.
    @inline(__always)
    static func detail(_ stretch: Float) -> Int32 {
        let bits = stretch.bitPattern
        let exponent = Float(bitPattern: magicBits &+ bits >> 23) - (magic + 127)
        let z = Float(bitPattern: bits & 0x007F_FFFF | 0x3F80_0000) - 1
        let log = exponent + z * (log2C1 + z * (log2C2 + z * (log2C3 + z * log2C4)))
        return Int32(bitPattern: (log * 128 + magic).bitPattern &- magicBits) &- detailBias
    }

    /// Half a level, taken off every level of detail: a chunk reads the level whose pixels are about √2 times
    /// its canvas pixels rather than equal to them. The box levels and the bilinear tap over them already spread
    /// a sample over more than a level's pixel, and the larger axis's stretch counts a receding plane's lesser one
    /// as if it receded too: unbiased, the warp blurs. Measured against a 4×4-supersampled float64 warp of the
    /// apples photo at 2016×1512 (RGB PSNR where the plane is seen, dB; bias in 1/256 of a level):
    ///
    ///     view (turn about y, eye)   0      64     128    192    256    OpenCV warpPerspective
    ///     30°, 1000 px              47.18  48.21  48.52  48.33  47.84  47.33
    ///     50°, 1000 px              43.94  46.48  47.80  47.57  47.06  44.31
    ///     65°, 600 px               41.24  43.23  44.88  45.65  45.29  41.50
    ///     75°, 400 px               39.77  41.43  42.87  43.81  44.03  39.05
    ///
    /// Half a level gains 1.3–3.9 dB over none, is within 1.2 dB of the best column at every view, and is ahead of
    /// OpenCV's unfiltered bilinear at all four.
    static let detailBias: Int32 = 128

    /// Level k's position of a corner-based coordinate in 1/256 of its pixel-centre coordinates: c·2⁻ᵏ − ½,
    /// clamped to [−64, 16,380] (both past every level's edge: sources are at most 16,000 wide) so the rounding
    /// through 1.5·2²³ holds, then rounded to nearest, ties to even.
    @inline(__always)
    static func position(_ coordinate: Float, level: Int32) -> Int32 {
        let scale = Float(bitPattern: UInt32(bitPattern: 127 &- level) << 23)
        let clamped = min(max(coordinate * scale - 0.5, -64), 16_380)
        return Int32(bitPattern: (clamped * 256 + magic).bitPattern &- magicBits)
    }

    static let magic: Float = 12_582_912
    static let magicBits: UInt32 = 0x4B40_0000
    static let log2C1: Float = 1.438_637_971_878_051_8
    static let log2C2: Float = -0.677_743_256_092_071_5
    static let log2C3: Float = 0.321_879_714_727_401_73
    static let log2C4: Float = -0.082_860_700_786_113_74

    // MARK: A chunk at once

    /// How a chunk is drawn (its raw value is what the C planner, `bt_perspective_plan`, writes).
    enum ChunkKind: UInt8 {
        /// Every pixel transparent (behind the eye, or far outside the source).
        case clear = 0
        /// Every pixel's neighbourhoods inside their levels: the kernel set draws them from the plan.
        case inside = 1
        /// Pixels near an edge or the horizon: drawn one by one by `pixel`.
        case mixed = 2
    }

    /// What the trilinear kernels read for a segment of a row (PerspectiveKernels): per chunk its level of
    /// detail, per pixel the byte offsets of its top-left corners in the lower and upper levels and the bilinear
    /// weights of both (1/256: lower fx, lower fy, upper fx, upper fy, a byte each). A chunk that does not mix
    /// has no upper offsets or weights: the kernels never read them.
    struct Plan {
        static func words(pixels: Int) -> Int { 3 * pixels + pixels / PerspectiveSampling.chunk }
        let detail: UnsafeMutablePointer<Int32>
        let lowerOffset, upperOffset: UnsafeMutablePointer<Int32>
        let fractions: UnsafeMutablePointer<UInt32>

        init(_ base: UnsafeMutablePointer<Int32>, pixels: Int) {
            (lowerOffset, upperOffset) = (base, base + pixels)
            fractions = UnsafeMutableRawPointer(base + 2 * pixels).assumingMemoryBound(to: UInt32.self)
            detail = base + 3 * pixels
        }

        /// The plan from pixel k on (a multiple of `chunk`).
        func advanced(by k: Int) -> Plan {
            Plan(detail: detail + k / PerspectiveSampling.chunk, lowerOffset: lowerOffset + k,
                 upperOffset: upperOffset + k, fractions: fractions + k)
        }

        private init(
            detail: UnsafeMutablePointer<Int32>, lowerOffset: UnsafeMutablePointer<Int32>,
            upperOffset: UnsafeMutablePointer<Int32>, fractions: UnsafeMutablePointer<UInt32>
        ) {
            (self.detail, self.lowerOffset, self.upperOffset, self.fractions) =
                (detail, lowerOffset, upperOffset, fractions)
        }
    }

    private typealias Floats = SIMD8<Float>
    private typealias Ints = SIMD8<Int32>

    /// Plans the chunk of `row` that starts at canvas x `start` into `plan` (at its start, its level of detail
    /// already there) with `point`'s arithmetic in vectors, and says how it is drawn; only `.inside` chunks are
    /// planned.
    ///
    /// Along a row w is linear in x and u, v are ratios of linear functions, monotone where w keeps its sign: when
    /// w > 0 at both ends of the chunk, its points lie between those of the ends (to within rounding, far inside
    /// the margins below), so two points bound all eight. A point at least 2^K source pixels inside every edge has
    /// its neighbourhoods inside levels L to K (level k's position uc·2⁻ᵏ − ½ lies in [½, ⌈side/2ᵏ⌉ − 1½] for
    /// k ≤ K), where K is L + 1 for a chunk that mixes in the upper level and L for one that reads level L alone
    /// (the magnified side of a view, where a source pixel spans many canvas pixels: half the margin there halves
    /// the band of chunks drawn pixel by pixel along its edges); one 2^(K+2) pixels outside an edge reads nothing.
    @inline(__always)
    func plan(chunk start: Int, _ row: Row, into plan: Plan) -> ChunkKind {
        let detail = plan.detail[0]
        let centre = Floats(repeating: Float(start) + 0.5) + Floats(0, 1, 2, 3, 4, 5, 6, 7)
        let (w, _, uc, vc) = project(centre, row)
        let (first, last) = (w[0], w[7])
        guard first > 0, last > 0 else { return first <= 0 && last <= 0 ? .clear : .mixed }
        let level = detail >> 8
        let mixes = detail & 255 != 0 ? 1 : 0
        let margin = Float(bitPattern: UInt32(127 + level + Int32(mixes)) << 23)  // 2^K
        let (width, height) = (Float(sourceWidth), Float(sourceHeight))
        let (u0, u7, v0, v7) = (uc[0], uc[7], vc[0], vc[7])
        let bound = 4 * (2 * Int(level) + mixes)
        let (uLow, uHigh, vLow, vHigh) = (bounds[bound], bounds[bound + 1], bounds[bound + 2], bounds[bound + 3])
        // Each end tested itself (not through min and max, which would pass a NaN end over for the other): NaN and
        // infinite ends fail every test and are drawn pixel by pixel.
        guard u0 >= uLow, u7 >= uLow, v0 >= vLow, v7 >= vLow, u0 <= uHigh, u7 <= uHigh, v0 <= vHigh, v7 <= vHigh
        else {
            let far = 4 * margin
            let outside =
                (u0 < -far && u7 < -far) || (u0 > width + far && u7 > width + far) || (v0 < -far && v7 < -far)
                || (v0 > height + far && v7 > height + far)
            return outside ? .clear : .mixed
        }
        let lower = neighbourhood(uc, vc, level: level)
        UnsafeMutableRawPointer(plan.lowerOffset).storeBytes(of: lower.offset, as: Ints.self)
        guard detail & 255 != 0 else {
            UnsafeMutableRawPointer(plan.fractions).storeBytes(of: lower.fractions, as: Ints.self)
            return .inside
        }
        let upper = neighbourhood(uc, vc, level: level + 1)
        UnsafeMutableRawPointer(plan.upperOffset).storeBytes(of: upper.offset, as: Ints.self)
        let fractions = lower.fractions | upper.fractions &<< 16
        UnsafeMutableRawPointer(plan.fractions).storeBytes(of: fractions, as: Ints.self)
        return .inside
    }

    /// `project` of eight canvas x centres at once, lane by lane the same operations.
    @inline(__always)
    private func project(_ centre: Floats, _ row: Row) -> (w: Floats, q: Floats, uc: Floats, vc: Floats) {
        let w = Floats(repeating: row.w) + centre * Floats(repeating: m13)
        let q = Floats(repeating: 1) / w
        let uc = (Floats(repeating: row.x) + centre * Floats(repeating: m11)) * q
        return (w, q, uc, (Floats(repeating: row.y) + centre * Floats(repeating: m12)) * q)
    }

    /// What the C planner reads for `row`, in Float: the inverse's m11, m12 and m13, the source's width and height,
    /// and the row's x, y and w terms.
    func planTerms(_ row: Row) -> SIMD8<Float> {
        SIMD8(m11, m12, m13, Float(sourceWidth), Float(sourceHeight), row.x, row.y, row.w)
    }

    @inline(__always)
    private static func position(_ coordinate: Floats, scale: Floats) -> Ints {
        unsafeBitCast((coordinate * scale - 0.5) * 256 + magic, to: Ints.self) &- Int32(bitPattern: magicBits)
    }

    /// `detail(chunk:)` of the `count` chunks from canvas x `start` into `details`, eight chunks at a time (the
    /// scalar one is a long chain of dependent operations). Writes whole vectors: `details` holds `count`
    /// rounded up to eight.
    func details(from start: Int, count: Int, _ row: Row, into details: UnsafeMutablePointer<Int32>) {
        let spacing = Float(PerspectiveSampling.chunk)
        let offsets = Floats(0, 1, 2, 3, 4, 5, 6, 7) * spacing + spacing / 2
        for first in stride(from: 0, to: count, by: 8) {
            let centre = Floats(repeating: Float(start + PerspectiveSampling.chunk * first)) + offsets
            let (w, q, uc, vc) = project(centre, row)
            let ux = (Floats(repeating: m11) - uc * Floats(repeating: m13)) * q
            let uy = (Floats(repeating: m21) - uc * Floats(repeating: m23)) * q
            let vx = (Floats(repeating: m12) - vc * Floats(repeating: m13)) * q
            let vy = (Floats(repeating: m22) - vc * Floats(repeating: m23)) * q
            // Comparisons as integer arithmetic on the bits (`SIMDMask` ones compile to a loop over the lanes):
            // non-negative Floats order like their bits, NaN above infinity.
            let infinity = Int32(bitPattern: Float.infinity.bitPattern)
            func less(_ a: Ints, _ b: Ints) -> Ints { (a &- b) &>> 31 }
            func magnitude(_ f: Floats) -> Ints { unsafeBitCast(f, to: Ints.self) & 0x7FFF_FFFF }
            let wBits = unsafeBitCast(w, to: Ints.self)
            let positive = ~(wBits &>> 31) & ((0 &- wBits) &>> 31)
            let seen = positive & less(magnitude(uc), Ints(repeating: infinity))
                & less(magnitude(vc), Ints(repeating: infinity))
            let (a, b) = (unsafeBitCast(ux * ux + uy * uy, to: Ints.self), unsafeBitCast(vx * vx + vy * vy, to: Ints.self))
            let larger = less(a, b)
            let stretch = b & larger | a & ~larger
            var detail = PerspectiveSampling.detail(unsafeBitCast(stretch, to: Floats.self))
            detail &= ~(detail &>> 31)
            let top = Ints(repeating: topDetail)
            let above = less(top, detail) | ~seen
            detail = top & above | detail & ~above
            UnsafeMutableRawPointer(details + first).storeBytes(of: detail, as: Ints.self)
        }
    }

    /// `levelsNeeded`'s grid test for the chunks of `row` from canvas x = 0 to `width`: a chunk's `detail(chunk:)`
    /// where its middle pixel's point (`point(x + chunk / 2)`) lands less than 1.5 source pixels outside the source,
    /// −1 where it does not, into `details` (which holds the chunk count rounded up to eight; the lanes past the
    /// last chunk are −1 too), and each chunk's middle point (uc, vc) into `points` when given. Eight chunks at a
    /// time with `point`'s operations, so each lane's point is the scalar one.
    func gridDetails(
        _ row: Row, width: Int, into details: UnsafeMutablePointer<Int32>,
        points: UnsafeMutablePointer<SIMD2<Float>>? = nil
    ) {
        let chunks = (width + PerspectiveSampling.chunk - 1) / PerspectiveSampling.chunk
        self.details(from: 0, count: chunks, row, into: details)
        let spacing = Float(PerspectiveSampling.chunk)
        let lanes = Floats(0, 1, 2, 3, 4, 5, 6, 7)
        // Float(x + 4) + 0.5 for each chunk's x: whole numbers and halves, exact in either order.
        let middles = lanes * spacing + (spacing / 2 + 0.5)
        let (right, bottom) = (Float(sourceWidth) + 1.5, Float(sourceHeight) + 1.5)
        for first in stride(from: 0, to: chunks, by: 8) {
            let centre = Floats(repeating: Float(PerspectiveSampling.chunk * first)) + middles
            let (w, _, uc, vc) = project(centre, row)
            // `point`'s reach (±10⁶) is implied: the source is at most 16,000 pixels a side. NaN fails every test.
            let inside = (uc .> -1.5) .& (vc .> -1.5) .& (uc .< right) .& (vc .< bottom)
            let near = (w .> 0) .& inside .& (lanes .< Floats(repeating: Float(chunks - first)))
            let chunkDetails = UnsafeMutableRawPointer(details + first)
            let found = chunkDetails.loadUnaligned(as: Ints.self)
            chunkDetails.storeBytes(of: found.replacing(with: -1, where: .!near), as: Ints.self)
            guard let points else { continue }
            for lane in 0..<min(8, chunks - first) { points[first + lane] = SIMD2(uc[lane], vc[lane]) }
        }
    }

    /// `detail(stretch)`, lane by lane.
    @inline(__always)
    private static func detail(_ stretch: Floats) -> Ints {
        let bits = unsafeBitCast(stretch, to: SIMD8<UInt32>.self)
        let exponent = unsafeBitCast(magicBits &+ bits &>> 23, to: Floats.self) - (magic + 127)
        let z = unsafeBitCast(bits & 0x007F_FFFF | 0x3F80_0000, to: Floats.self) - 1
        let log = exponent + z * (log2C1 + z * (log2C2 + z * (log2C3 + z * log2C4)))
        return unsafeBitCast(log * 128 + magic, to: Ints.self) &- Int32(bitPattern: magicBits) &- detailBias
    }

    /// Where eight points fall in level `level`: the top-left corner's byte offset and the two weights
    /// (fx | fy << 8), with `position`'s arithmetic (no clamp: the points lie inside the level).
    @inline(__always)
    private func neighbourhood(_ uc: Floats, _ vc: Floats, level: Int32) -> (offset: Ints, fractions: Ints) {
        let scale = Floats(repeating: Float(bitPattern: UInt32(bitPattern: 127 &- level) << 23))
        let u = PerspectiveSampling.position(uc, scale: scale)
        let v = PerspectiveSampling.position(vc, scale: scale)
        let rowBytes = Int32(levels.table.rowBytes[Int(level)])
        let origin = Int32(truncatingIfNeeded: levels.table.origins[Int(level)])
        return ((v &>> 8) &* rowBytes &+ (u &>> 8) &<< 2 &- origin, u & 255 | (v & 255) &<< 8)
    }
}
