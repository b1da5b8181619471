/// A perspective warp whose plane turns about the vertical axis (a flip, a cube face, a card swung open) or tilts
/// about the horizontal one (a flip from the top, a card falling back), seen from any distance, drawn as two
/// one-dimensional resamplings (Catmull and Smith's two-pass warp): `PerspectiveWarp` takes it whenever the
/// homography allows, and the mip route otherwise.
///
/// A turn about the vertical axis, with any perspective, scale and translation, leaves the inverse's u and w
/// functions of the canvas column alone: every canvas column x reads one span of source columns [u(x), u(x + 1)]
/// and, down the column, the source rows v = A(x) + y·B(x), a line. So the warp is exactly separable:
/// 1. Across: each canvas column over every source row, the area average of the source columns its footprint
///    covers (a box at least a pixel wide, so bilinear where the plane comes nearer; in 1/256; outside the
///    source transparent, which anti-aliases the side edges);
/// 2. Along: each canvas pixel from its column's values at rows v, bilinear where B ≤ 1, the area of the rows its
///    footprint covers where the plane recedes (B up to 2.5, wider footprints than 2 rows averaged over 2; the top
///    and bottom edges anti-aliased by clear rows beyond the source).
/// Both are area filters in their own axis, where the mip route filters isotropically (blurring the other axis
/// too). A turn's canvas is drawn in strips of `stripWidth` columns: a strip's intermediate (its columns over the
/// source rows) stays in the second-level cache between the passes and never goes to memory. A tilt is the same
/// with rows and columns exchanged (each canvas row one span of source rows, then positions along it), which the
/// image's layout needs no transposing for: row by row. Every pixel is defined from its own position alone
/// (`AxisTurnKernels`), so strips and rows may go to any thread.
struct AxisTurnWarp {
    enum Axis {
        /// A turn: canvas columns read source columns (the inverse's m21 and m23 are 0).
        case vertical
        /// A tilt: canvas rows read source rows (m12 and m13 are 0).
        case horizontal
    }

    /// Canvas columns a turn's strip holds: 32 columns of a 3,024-row photo are 390 KB, within a 512 KB L2.
    static let stripWidth = 32
    /// The largest scale along a line (source pixels a canvas pixel) the route takes: the second pass's groups of 8
    /// pixels then read within `AxisTurnKernels.overrun` values. Footprints over 2 pixels are averaged over 2.
    static let largestScaleAlong = 2.5
    static let widestFootprintAlong: Float = 2

    let axis: Axis
    let sourceWidth, sourceHeight, width, height: Int
    /// The canvas lines drawn (columns of a turn, rows of a tilt); the others are clear.
    let lines: Range<Int>
    /// Per canvas line: its taps' first source line, their count and weights (`AxisTurnKernels.taps` each).
    private var firstTap, tapCount: [Int32]
    private var tapWeights: [Int16]
    /// Per canvas line, 8 Float terms for the second pass: A, B, then 0 (bilinear) or the footprint F, F/2, 256/F
    /// and the clamp that keeps a footprint past the source's ends in its clear pixels (`AxisTurnKernels`).
    private var alongTerms: [Float]

    /// The plan for canvas `width` × `height` through `inverse` (canvas → source), or nil when the map is neither a
    /// turn nor a tilt, or a line's scale along is past `largestScaleAlong` (the plane stretched along the line far
    /// more than across it) or not positive (mirrored along it). Any footprint across is taken: past
    /// `AxisTurnKernels.taps` source lines, with `AxisTurnKernels.lineValue`'s three weights.
    init?(inverse m: Homography, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        guard width > 0, height > 0, sourceWidth > 0, sourceHeight > 0 else { return nil }
        // The inverse's entries as a turn reads them: w = t·wStep + m33 along the line coordinate t, the source
        // coordinate across (t·acrossScale + acrossOffset) / w, and along A + s·B.
        let (wStep, acrossScale, acrossOffset, alongScale, alongCross, alongOffset):
            (
                Double, Double, Double, Double, Double, Double
            )
        if m.m21 == 0 && m.m23 == 0 {
            axis = .vertical
            (wStep, acrossScale, acrossOffset, alongScale, alongCross, alongOffset) =
                (m.m13, m.m11, m.m31, m.m22, m.m12, m.m32)
        } else if m.m12 == 0 && m.m13 == 0 {
            axis = .horizontal
            (wStep, acrossScale, acrossOffset, alongScale, alongCross, alongOffset) =
                (m.m23, m.m22, m.m32, m.m11, m.m21, m.m31)
        } else {
            return nil
        }
        (self.sourceWidth, self.sourceHeight, self.width, self.height) = (sourceWidth, sourceHeight, width, height)
        let count = axis == .vertical ? width : height
        let (across, along) = axis == .vertical ? (sourceWidth, sourceHeight) : (sourceHeight, sourceWidth)
        let taps = AxisTurnKernels.taps
        firstTap = [Int32](repeating: 0, count: count)
        tapCount = [Int32](repeating: 0, count: count)
        tapWeights = [Int16](repeating: 0, count: count * taps)
        alongTerms = [Float](repeating: 0, count: count * 8)
        var (first, end) = (count, 0)
        for t in 0..<count {
            let (start, next, centre) = (Double(t), Double(t + 1), Double(t) + 0.5)
            let (wStart, wNext, w) = (start * wStep + m.m33, next * wStep + m.m33, centre * wStep + m.m33)
            // Behind the eye, or reaching it: a clear line (its points are seen, if at all, far outside the source).
            guard wStart > 0, wNext > 0 else { continue }
            let u0 = (start * acrossScale + acrossOffset) / wStart
            let u1 = (next * acrossScale + acrossOffset) / wNext
            var (low, high) = (min(u0, u1), max(u0, u1))
            if high - low < 1 { (low, high) = ((low + high) / 2 - 0.5, (low + high) / 2 + 0.5) }
            let (lowest, highest) = (max(low, 0), min(high, Double(across)))
            guard highest > lowest else { continue }
            let (k0, k1) = (Int(lowest.rounded(.down)), Int(highest.rounded(.up)))
            let b = alongScale / w
            guard b > 0, b <= AxisTurnWarp.largestScaleAlong else { return nil }
            let a = (centre * alongCross + 0.5 * alongScale + alongOffset) / w - 0.5
            // Positions along go through Float: a line whose A lies past every canvas pixel's reach of the source
            // (or is not a number, the map's entries overflowing) is clear, and A stays small enough for 1/256.
            let reach = Double(along) + AxisTurnWarp.largestScaleAlong * Double(max(width, height)) + 4
            guard a.isFinite, abs(a) <= reach else { continue }
            (firstTap[t], tapCount[t]) = (Int32(k0), Int32(k1 - k0))
            AxisTurnWarp.writeAlongTerms(into: &alongTerms, line: t, a: Float(a), b: Float(b), extent: Float(along))
            (first, end) = (min(first, t), t + 1)
            func overlap(_ k: Int) -> Double { max(min(high, Double(k + 1)) - max(low, Double(k)), 0) }
            guard k1 - k0 <= taps else {
                // Nearly edge on: the ends' overlaps and every source line between them (overlap 1) in 1/65536.
                for (slot, weight) in [overlap(k0), 1, overlap(k1 - 1)].enumerated() {
                    tapWeights[t * taps + slot] = Int16((weight / (high - low) * 65536).rounded())
                }
                continue
            }
            // Source lines k0..<k1, each weighted by its overlap with the footprint; a footprint inside the source
            // sums to 256 exactly (the largest weight takes the rounding), one reaching past it covers less.
            var sum = 0
            var largest = 0
            for k in k0..<k1 {
                let weight = Int((overlap(k) / (high - low) * 256).rounded())
                tapWeights[t * taps + k - k0] = Int16(weight)
                sum += weight
                if weight > Int(tapWeights[t * taps + largest]) { largest = k - k0 }
            }
            if (low >= 0 && high <= Double(across)) || sum > 256 {
                tapWeights[t * taps + largest] += Int16(256 - sum)
            }
        }
        lines = first < end ? first..<end : 0..<0
    }

    private static func writeAlongTerms(into terms: inout [Float], line t: Int, a: Float, b: Float, extent: Float) {
        terms[8 * t] = a
        terms[8 * t + 1] = b
        guard b > 1 else { return }
        let f = min(b, widestFootprintAlong)
        terms[8 * t + 2] = f
        terms[8 * t + 3] = f / 2
        terms[8 * t + 4] = 256 / f
        terms[8 * t + 5] = -0.5 - f / 2
        terms[8 * t + 6] = extent - 0.5 + f / 2
    }

    /// Values an intermediate line holds (a turn's strip row, a tilt's row): the clear pixels at both ends and the
    /// second pass's reach past them, whole cache lines.
    private static func pitch(along: Int) -> Int {
        (along + AxisTurnKernels.pad + AxisTurnKernels.overrun + 15) / 16 * 16
    }

    /// `source` (`sourceWidth` × `sourceHeight`) warped onto a new canvas.
    func draw(_ source: Image, kernels: any BilinearKernelSet.Type, threads: Int) -> Image {
        precondition(source.width == sourceWidth && source.height == sourceHeight)
        let result = Image(uninitializedWidth: width, height: height)
        firstTap.withUnsafeBufferPointer { firstTap in
            tapCount.withUnsafeBufferPointer { tapCount in
                tapWeights.withUnsafeBufferPointer { tapWeights in
                    alongTerms.withUnsafeBufferPointer { alongTerms in
                        let plan = Tables(
                            firstTap: firstTap.baseAddress!, tapCount: tapCount.baseAddress!,
                            tapWeights: tapWeights.baseAddress!, alongTerms: alongTerms.baseAddress!)
                        switch axis {
                        case .vertical: drawTurn(source, plan, into: result, kernels: kernels, threads: threads)
                        case .horizontal: drawTilt(source, plan, into: result, kernels: kernels, threads: threads)
                        }
                    }
                }
            }
        }
        return result
    }

    /// The per-line tables, for the workers.
    private struct Tables: @unchecked Sendable {
        let firstTap, tapCount: UnsafePointer<Int32>
        let tapWeights: UnsafePointer<Int16>
        let alongTerms: UnsafePointer<Float>
    }

    /// Cleared once: no pass writes an intermediate line's clear pixels, and the second pass loads values past
    /// them that it never uses.
    private static func scratch(workers: Int, values: Int) -> UnsafeMutablePointer<UInt32> {
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: workers * values)
        scratch.initialize(repeating: 0, count: workers * values)
        return scratch
    }

    private func drawTurn(
        _ source: Image, _ plan: Tables, into result: Image, kernels: any BilinearKernelSet.Type, threads: Int
    ) {
        let clearBands = (height + 63) / 64
        Parallel.forEach(clearBands, threads: threads) { band, _ in
            for y in (band * 64)..<min(height, band * 64 + 64) {
                let row = result.baseAddress + y * result.bytesPerRow
                row.update(repeating: 0, count: lines.lowerBound * 4)
                (row + lines.upperBound * 4).update(repeating: 0, count: (width - lines.upperBound) * 4)
            }
        }
        let strips = (lines.count + AxisTurnWarp.stripWidth - 1) / AxisTurnWarp.stripWidth
        guard strips > 0 else { return }
        let (pitch, stripWidth) = (AxisTurnWarp.pitch(along: sourceHeight), AxisTurnWarp.stripWidth)
        let stripValues = pitch * stripWidth
        // The C kernels' band: the source columns a strip's taps span (all of them, nearly edge on), 8 rows each.
        var widestSpan = 0
        for s in 0..<strips {
            let x0 = lines.lowerBound + s * stripWidth
            var (low, high) = (Int.max, Int.min)
            for x in x0..<min(x0 + stripWidth, lines.upperBound) where plan.tapCount[x] > 0 {
                (low, high) = (min(low, Int(plan.firstTap[x])), max(high, Int(plan.firstTap[x] + plan.tapCount[x])))
            }
            if low <= high { widestSpan = max(widestSpan, high - low) }
        }
        let bandValues = (widestSpan + 32) * 8
        let workers = Parallel.workers(strips, threads: threads)
        let scratch = AxisTurnWarp.scratch(workers: workers, values: stripValues + bandValues)
        defer { scratch.deallocate() }
        let sourceRows = AxisTurnKernels.Source(
            pixels: source.baseAddress, bytesPerRow: source.bytesPerRow, width: sourceWidth, height: sourceHeight)
        // Strips handed out in turn: the plane's near side (few taps) and far side (more) shared.
        Parallel.forEachBalanced(strips, threads: threads) { s, worker in
            let x0 = lines.lowerBound + s * stripWidth
            let count = min(stripWidth, lines.upperBound - x0)
            let values = scratch + worker * (stripValues + bandValues)
            let strip = AxisTurnKernels.Strip(
                values: values, pitch: pitch, sourceHeight: sourceHeight, band: values + stripValues)
            kernels.turnColumns(
                sourceRows,
                AxisTurnKernels.Taps(
                    first: plan.firstTap + x0, count: plan.tapCount + x0,
                    weights: plan.tapWeights + x0 * AxisTurnKernels.taps, columns: count),
                into: strip)
            kernels.turnRows(
                strip, terms: plan.alongTerms + 8 * x0,
                into: AxisTurnKernels.Canvas(
                    pixels: result.baseAddress + x0 * 4, bytesPerRow: result.bytesPerRow, columns: count,
                    height: height))
        }
    }

    private func drawTilt(
        _ source: Image, _ plan: Tables, into result: Image, kernels: any BilinearKernelSet.Type, threads: Int
    ) {
        let bandHeight = 16
        let bands = (height + bandHeight - 1) / bandHeight
        let pitch = AxisTurnWarp.pitch(along: sourceWidth)
        let workers = Parallel.workers(bands, threads: threads)
        let scratch = AxisTurnWarp.scratch(workers: workers, values: pitch)
        defer { scratch.deallocate() }
        Parallel.forEachBalanced(bands, threads: threads) { band, worker in
            let line = scratch + worker * pitch
            for y in (band * bandHeight)..<min(height, (band + 1) * bandHeight) {
                let out = UnsafeMutableRawPointer(result.row(y)).assumingMemoryBound(to: UInt32.self)
                let count = Int(plan.tapCount[y])
                guard lines.contains(y), count > 0 else {
                    out.update(repeating: 0, count: width)
                    continue
                }
                kernels.tiltCombine(
                    UnsafePointer(source.row(Int(plan.firstTap[y]))), bytesPerRow: source.bytesPerRow,
                    weights: plan.tapWeights + y * AxisTurnKernels.taps, count: count, width: sourceWidth,
                    into: line + AxisTurnKernels.pad)
                kernels.tiltAcross(
                    line, sourceWidth: sourceWidth, terms: plan.alongTerms + 8 * y, columns: width, into: out)
            }
        }
    }
}
