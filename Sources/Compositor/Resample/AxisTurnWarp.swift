/// A perspective warp whose plane turns about the vertical axis (a flip, a cube face, a card swung open, seen from
/// any distance), drawn as two one-dimensional resamplings (Catmull and Smith's two-pass warp): `PerspectiveWarp`
/// takes it whenever the homography allows, and the mip route otherwise.
///
/// Such a turn, with any perspective, scale and translation, leaves the inverse's u and w functions of the canvas
/// column alone: every canvas column x reads one span of source columns [u(x), u(x + 1)] and, down the column,
/// the source rows v = A(x) + y·B(x), a line. So the warp is exactly separable:
/// 1. Columns: each canvas column over every source row, the area average of the source columns its footprint
///    covers (a box at least a pixel wide, so bilinear where the plane comes nearer; in 1/256; outside the
///    source transparent, which anti-aliases the side edges);
/// 2. Rows: each canvas pixel from its column's values at rows v, bilinear where B ≤ 1, the area of the rows its
///    footprint covers where the plane recedes (B up to 2, wider footprints averaged over 2 rows; top and bottom
///    edges anti-aliased by clear rows beyond the source).
/// Both are area filters in their own axis, where the mip route filters isotropically (blurring the other axis
/// too). The canvas is drawn in strips of `stripWidth` columns: a strip's intermediate (its columns over the
/// source rows) stays in the second-level cache between the passes and never goes to memory. Every pixel is
/// defined from its own position alone (`AxisTurnKernels`), so strips may go to any thread.
struct AxisTurnWarp {
    /// Canvas columns a strip holds: 32 columns of a 3,024-row photo are 390 KB, within a 512 KB L2.
    static let stripWidth = 32
    /// The largest vertical scale B (source rows a canvas row) the route takes: the row pass's 8-row groups then
    /// read within `AxisTurnKernels.overrun` values. Footprints over 2 rows are averaged over 2.
    static let largestVerticalScale = 2.5
    static let widestVerticalFootprint: Float = 2

    let sourceWidth, sourceHeight, width, height: Int
    /// The canvas columns drawn; the others are clear.
    let columns: Range<Int>
    /// Per canvas column: its taps' first source column, their count and weights (`AxisTurnKernels.taps` each).
    private var firstTap, tapCount: [Int32]
    private var tapWeights: [Int16]
    /// Per canvas column, 8 Float terms for the row pass: A, B, then 0 (bilinear) or the footprint F, F/2, 256/F
    /// and the clamp of v that keeps a footprint past the source's ends in its clear rows (`AxisTurnKernels`).
    private var rowTerms: [Float]

    /// The plan for canvas `width` × `height` through `inverse` (canvas → source), or nil when the map is not a
    /// turn about the vertical axis or a column would need more than `AxisTurnKernels.taps` taps or a vertical
    /// scale past `largestVerticalScale` (the plane seen nearly edge on, or flipped upside down).
    init?(inverse: Homography, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        guard inverse.m21 == 0, inverse.m23 == 0, width > 0, height > 0, sourceWidth > 0, sourceHeight > 0 else {
            return nil
        }
        (self.sourceWidth, self.sourceHeight, self.width, self.height) = (sourceWidth, sourceHeight, width, height)
        let taps = AxisTurnKernels.taps
        firstTap = [Int32](repeating: 0, count: width)
        tapCount = [Int32](repeating: 0, count: width)
        tapWeights = [Int16](repeating: 0, count: width * taps)
        rowTerms = [Float](repeating: 0, count: width * 8)
        var (first, end) = (width, 0)
        for x in 0..<width {
            let (left, right) = (Double(x), Double(x + 1))
            let (wLeft, wRight, w) = (
                left * inverse.m13 + inverse.m33, right * inverse.m13 + inverse.m33,
                (left + 0.5) * inverse.m13 + inverse.m33
            )
            // Behind the eye, or reaching it: a clear column (its points are seen, if at all, far outside the source).
            guard wLeft > 0, wRight > 0 else { continue }
            let uLeft = (left * inverse.m11 + inverse.m31) / wLeft
            let uRight = (right * inverse.m11 + inverse.m31) / wRight
            var (low, high) = (min(uLeft, uRight), max(uLeft, uRight))
            if high - low < 1 { (low, high) = ((low + high) / 2 - 0.5, (low + high) / 2 + 0.5) }
            let (lowest, highest) = (max(low, 0), min(high, Double(sourceWidth)))
            guard highest > lowest else { continue }
            let (k0, k1) = (Int(lowest.rounded(.down)), Int(highest.rounded(.up)))
            guard k1 - k0 <= taps else { return nil }
            let b = inverse.m22 / w
            guard b > 0, b <= AxisTurnWarp.largestVerticalScale else { return nil }
            // Source columns k0..<k1, each weighted by its overlap with the footprint; a footprint inside the source
            // sums to 256 exactly (the largest weight takes the rounding), one reaching past it covers less.
            var sum = 0
            var largest = 0
            for k in k0..<k1 {
                let overlap = max(min(high, Double(k + 1)) - max(low, Double(k)), 0)
                let weight = Int((overlap / (high - low) * 256).rounded())
                tapWeights[x * taps + k - k0] = Int16(weight)
                sum += weight
                if weight > Int(tapWeights[x * taps + largest]) { largest = k - k0 }
            }
            if (low >= 0 && high <= Double(sourceWidth)) || sum > 256 {
                tapWeights[x * taps + largest] += Int16(256 - sum)
            }
            (firstTap[x], tapCount[x]) = (Int32(k0), Int32(k1 - k0))
            let a = ((left + 0.5) * inverse.m12 + 0.5 * inverse.m22 + inverse.m32) / w - 0.5
            AxisTurnWarp.writeRowTerms(
                into: &rowTerms, column: x, a: Float(a), b: Float(b), sourceHeight: Float(sourceHeight))
            (first, end) = (min(first, x), x + 1)
        }
        columns = first < end ? first..<end : 0..<0
    }

    private static func writeRowTerms(into terms: inout [Float], column x: Int, a: Float, b: Float, sourceHeight: Float)
    {
        terms[8 * x] = a
        terms[8 * x + 1] = b
        guard b > 1 else { return }
        let f = min(b, widestVerticalFootprint)
        terms[8 * x + 2] = f
        terms[8 * x + 3] = f / 2
        terms[8 * x + 4] = 256 / f
        terms[8 * x + 5] = -0.5 - f / 2
        terms[8 * x + 6] = sourceHeight - 0.5 + f / 2
    }

    /// Values a strip row holds: the clear rows at both ends and the row pass's reach past them, whole cache lines.
    private var pitch: Int { (sourceHeight + AxisTurnKernels.pad + AxisTurnKernels.overrun + 15) / 16 * 16 }

    /// `source` (`sourceWidth` × `sourceHeight`) warped onto a new canvas.
    func draw(_ source: Image, kernels: any BilinearKernelSet.Type, threads: Int) -> Image {
        precondition(source.width == sourceWidth && source.height == sourceHeight)
        let result = Image(uninitializedWidth: width, height: height)
        let clearBands = (height + 63) / 64
        Parallel.forEach(clearBands, threads: threads) { band, _ in
            for y in (band * 64)..<min(height, band * 64 + 64) {
                let row = result.baseAddress + y * result.bytesPerRow
                row.update(repeating: 0, count: columns.lowerBound * 4)
                (row + columns.upperBound * 4).update(repeating: 0, count: (width - columns.upperBound) * 4)
            }
        }
        let strips = (columns.count + AxisTurnWarp.stripWidth - 1) / AxisTurnWarp.stripWidth
        guard strips > 0 else { return result }
        let workers = Parallel.workers(strips, threads: threads)
        let (pitch, stripWidth) = (pitch, AxisTurnWarp.stripWidth)
        let stripValues = pitch * stripWidth
        let bandValues = (AxisTurnKernels.taps * stripWidth + 32) * 8
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: workers * (stripValues + bandValues))
        // Cleared once: no pass writes a strip row's clear rows, and the row pass loads values past them that it
        // never uses.
        scratch.initialize(repeating: 0, count: workers * (stripValues + bandValues))
        defer { scratch.deallocate() }
        firstTap.withUnsafeBufferPointer { firstTap in
            tapCount.withUnsafeBufferPointer { tapCount in
                tapWeights.withUnsafeBufferPointer { tapWeights in
                    rowTerms.withUnsafeBufferPointer { rowTerms in
                        let tables = UncheckedSendable((firstTap, tapCount, tapWeights, rowTerms))
                        // Strips handed out in turn: the plane's near side (few taps) and far side (more) shared.
                        Parallel.forEachBalanced(strips, threads: threads) { s, worker in
                            let (firstTap, tapCount, tapWeights, rowTerms) = tables.value
                            let x0 = columns.lowerBound + s * stripWidth
                            let count = min(stripWidth, columns.upperBound - x0)
                            let values = scratch + worker * (stripValues + bandValues)
                            let strip = AxisTurnKernels.Strip(
                                values: values, pitch: pitch, sourceHeight: sourceHeight, band: values + stripValues)
                            kernels.turnColumns(
                                AxisTurnKernels.Source(
                                    pixels: source.baseAddress, bytesPerRow: source.bytesPerRow, width: sourceWidth,
                                    height: sourceHeight),
                                AxisTurnKernels.Taps(
                                    first: firstTap.baseAddress! + x0, count: tapCount.baseAddress! + x0,
                                    weights: tapWeights.baseAddress! + x0 * AxisTurnKernels.taps, columns: count),
                                into: strip)
                            kernels.turnRows(
                                strip, terms: rowTerms.baseAddress! + 8 * x0,
                                into: AxisTurnKernels.Canvas(
                                    pixels: result.baseAddress + x0 * 4, bytesPerRow: result.bytesPerRow,
                                    columns: count, height: height))
                        }
                    }
                }
            }
        }
        return result
    }
}
