/// The two passes of `AxisTurnWarp` over one strip of canvas columns, and their scalar twins: the definition every
/// kernel set is held to, bit for bit (the C kernels in Sources/CKernels/axis_turn.inc).
///
/// Columns: strip row x holds canvas column x over every source row r, each the `lineValue` of the source pixels its
/// footprint covers on row r (its taps lie on the source; beyond it the footprint weighs nothing). Rows: canvas pixel
/// (x, y) from strip row x with the column's Float terms (`AxisTurnWarp.alongTerms`): v = A + y·B in source
/// pixel-centre rows, then either the bilinear blend of rows ⌊v⌋ and ⌊v⌋ + 1 (v clamped to −1…height, weight rounded to
/// 1/256, (p₀·256 + (p₁ − p₀)·w + 128) >> 8), or the area of the rows a footprint F rows tall covers, three at most
/// (weights rounded to 1/256, the middle one taking the rest). Every Float step is one IEEE operation in this order, as
/// the C kernels write them with FP_CONTRACT off.
///
/// A tilt (about the horizontal axis) is the same with rows and columns exchanged: its first pass sums whole source
/// rows for each canvas row (`lineValue` down each column), its second takes `rowValue` along that row.
enum AxisTurnKernels {
    /// Taps a canvas line has at most with weights of its own in 1/256 (`BT_TURN_TAPS`); a wider footprint is
    /// summed with one weight for the pixels between its ends (`lineValue`).
    static let taps = 8
    /// Clear rows above a strip row's first source row (`BT_TURN_PAD`); three more follow its last.
    static let pad = 2
    /// Values a strip row reads past its last source row: the row pass loads 24 values from the first row a group
    /// of 8 canvas rows reads (`AxisTurnWarp.largestScaleAlong` keeps that group's taps within them).
    static let overrun = 24

    /// The source a strip is made from: RGBA8, rows `bytesPerRow` apart.
    struct Source {
        var pixels: UnsafePointer<UInt8>
        var bytesPerRow: Int
        var width: Int
        var height: Int
    }

    /// A strip's columns' taps: for each of `columns` canvas columns, `count[x]` taps from source column
    /// `first[x]`, all on the source, weights at `weights[x·taps…]` (`lineValue`'s).
    struct Taps {
        var first: UnsafePointer<Int32>
        var count: UnsafePointer<Int32>
        var weights: UnsafePointer<Int16>
        var columns: Int
    }

    /// A strip: row x (of `pitch` values) holds canvas column x over the source's rows, source row r at
    /// `pad + r`, rows −2, −1 and height…height + 2 clear; `band` is the C kernels' scratch, (the taps' span + 32)·8
    /// pixels.
    struct Strip {
        var values: UnsafeMutablePointer<UInt32>
        var pitch: Int
        var sourceHeight: Int
        var band: UnsafeMutablePointer<UInt32>
    }

    /// Where a strip's canvas columns go: `columns` columns from `pixels`, `height` rows `bytesPerRow` apart.
    struct Canvas {
        var pixels: UnsafeMutablePointer<UInt8>
        var bytesPerRow: Int
        var columns: Int
        var height: Int
    }

    /// One intermediate value from the `count` source pixels under a line's footprint, `step` bytes apart from
    /// `first` (along a source row for a turn, down a column for a tilt). Up to `taps` of them each weighted in 1/256
    /// (summing to at most 256): each channel (128 + Σₖ wₖ·pₖ) >> 8, at most 65,408, exact in 16 bits. More (the
    /// plane nearly edge on): `weights[0]` (the first), `weights[1]` (each between) and `weights[2]` (the last) in
    /// 1/65536, each channel min(255, (32768 + w₀·p₀ + w₁·Σ pₖ + w₂·pₙ₋₁) >> 16); a weight is then under 65536/7, so
    /// every sum fits 32 bits.
    static func lineValue(
        _ first: UnsafePointer<UInt8>, step: Int, count: Int, weights: UnsafePointer<Int16>
    )
        -> UInt32
    {
        func pixel(_ k: Int) -> SIMD4<UInt32> {
            let p = first + k * step
            return SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
        }
        var values: SIMD4<UInt32>
        if count > taps {
            var between = SIMD4<UInt32>(repeating: 0)
            for k in 1..<(count - 1) { between &+= pixel(k) }
            var sums = SIMD4<UInt32>(repeating: 32768) &+ pixel(0) &* UInt32(weights[0])
            sums &+= between &* UInt32(weights[1]) &+ pixel(count - 1) &* UInt32(weights[2])
            values = pointwiseMin(sums &>> 16, SIMD4(repeating: 255))
        } else {
            var sums = SIMD4<UInt32>(repeating: 128)
            for k in 0..<count { sums &+= pixel(k) &* UInt32(weights[k]) }
            values = sums &>> 8
        }
        return values[0] | values[1] << 8 | values[2] << 16 | values[3] << 24
    }

    /// Canvas row y of the column whose strip row is `values` (row −2 at index 0).
    static func rowValue(
        _ values: UnsafePointer<UInt32>, sourceHeight: Int, terms t: UnsafePointer<Float>, y: Int
    )
        -> UInt32
    {
        let row0 = values + pad
        let unclamped = t[0] + Float(y) * t[1]
        func channel(_ pixel: UInt32, _ c: Int) -> Int32 { Int32(pixel >> UInt32(8 * c) & 255) }
        var result: UInt32 = 0
        if t[2] == 0 {
            let v = max(min(unclamped, Float(sourceHeight)), -1)
            let below = v.rounded(.down)
            let row = Int(below)
            let w = Int32(((v - below) * 256).rounded(.toNearestOrEven))
            let (top, bottom) = (row0[row], row0[row + 1])
            for c in 0..<4 {
                let (p0, p1) = (channel(top, c), channel(bottom, c))
                result |= UInt32((p0 * 256 + (p1 - p0) * w + 128) >> 8) << UInt32(8 * c)
            }
            return result
        }
        let centre = max(min(unclamped, t[6]), t[5])
        let a = centre - t[3]
        let b = a + t[2]
        let cell = (a + 0.5).rounded(.down)
        let w0 = Int32((((cell + 0.5) - a) * t[4]).rounded(.toNearestOrEven))
        let w2 = Int32((max(b - (cell + 1.5), 0) * t[4]).rounded(.toNearestOrEven))
        let weights = [w0, 256 - (w0 + w2), w2]
        let first = Int(cell)
        for c in 0..<4 {
            var sum: Int32 = 128
            for k in 0..<3 { sum += channel(row0[first + k], c) * weights[k] }
            result |= UInt32(sum >> 8) << UInt32(8 * c)
        }
        return result
    }
}

extension BilinearKernelSet {
    /// The scalar twin's first pass, the Swift SIMD set's too: value by value.
    static func turnColumns(
        _ source: AxisTurnKernels.Source, _ taps: AxisTurnKernels.Taps, into strip: AxisTurnKernels.Strip
    ) {
        for x in 0..<taps.columns {
            let row = strip.values + x * strip.pitch + AxisTurnKernels.pad
            let weights = taps.weights + x * AxisTurnKernels.taps
            for r in 0..<source.height {
                let first = source.pixels + r * source.bytesPerRow + Int(taps.first[x]) * 4
                row[r] = AxisTurnKernels.lineValue(first, step: 4, count: Int(taps.count[x]), weights: weights)
            }
        }
    }

    /// The scalar twin's second pass, the Swift SIMD set's too: pixel by pixel.
    static func turnRows(
        _ strip: AxisTurnKernels.Strip, terms: UnsafePointer<Float>, into canvas: AxisTurnKernels.Canvas
    ) {
        for x in 0..<canvas.columns {
            for y in 0..<canvas.height {
                let out = UnsafeMutableRawPointer(canvas.pixels + y * canvas.bytesPerRow + x * 4)
                out.storeBytes(
                    of: AxisTurnKernels.rowValue(
                        strip.values + x * strip.pitch, sourceHeight: strip.sourceHeight, terms: terms + x * 8, y: y),
                    as: UInt32.self)
            }
        }
    }

    /// The scalar twin's tilt rows, the Swift SIMD set's too: pixel by pixel.
    static func tiltCombine(
        _ firstRow: UnsafePointer<UInt8>, bytesPerRow: Int, weights: UnsafePointer<Int16>, count: Int, width: Int,
        into output: UnsafeMutablePointer<UInt32>
    ) {
        for x in 0..<width {
            output[x] = AxisTurnKernels.lineValue(firstRow + x * 4, step: bytesPerRow, count: count, weights: weights)
        }
    }

    /// The scalar twin's tilt pixels along a row, the Swift SIMD set's too.
    static func tiltAcross(
        _ values: UnsafePointer<UInt32>, sourceWidth: Int, terms: UnsafePointer<Float>, columns: Int,
        into output: UnsafeMutablePointer<UInt32>
    ) {
        for x in 0..<columns {
            output[x] = AxisTurnKernels.rowValue(values, sourceHeight: sourceWidth, terms: terms, y: x)
        }
    }
}
