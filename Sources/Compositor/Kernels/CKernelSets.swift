import CKernels

/// A CPU level the C kernels (Sources/CKernels) are compiled for: each level's copy of a kernel is the same C
/// body compiled under that level's target attribute, reached through the level's table of function pointers.
protocol CKernelLevel: Sendable {
    /// The table of this level's kernels, from `bt_kernels`.
    static var table: bt_kernel_table { get }
}

/// The architecture's baseline (SSE2 on x86-64, NEON on arm64): every CPU of the architecture runs it.
enum BaselineLevel: CKernelLevel {
    static let table = bt_kernels(BT_LEVEL_BASELINE)!.pointee
}

#if arch(x86_64)
    /// x86-64-v3: AVX2, FMA and BMI2.
    enum X86_64_V3Level: CKernelLevel {
        static let table = bt_kernels(BT_LEVEL_X86_64_V3)!.pointee
    }

    /// x86-64-v4: AVX-512 F, BW, DQ and VL.
    enum X86_64_V4Level: CKernelLevel {
        static let table = bt_kernels(BT_LEVEL_X86_64_V4)!.pointee
    }
#endif

/// The kernel sets whose moved kernels (the fixed-point blur, the Float convolution, the resize, the pyramid's row
/// sums, small-grid pass and upsampling, the affine and perspective warps' bilinear loops and the perspective
/// planning) are C compiled for `Level`; the others (the pyramid's cell sums) are the Swift SIMD kernels as this
/// build compiled them. Only made for a level the CPU has (`KernelChoice.isAvailable`): a level's code may use
/// instructions an older CPU lacks.
enum CKernels<Level: CKernelLevel>: ConvolutionKernelSet {
    static func convolve(
        _ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        Level.table.convolve(input, step, weights.baseAddress!, weights.count, count, output)
    }

    static func combine(
        _ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        Level.table.combine(rows, weights.baseAddress!, weights.count, count, output)
    }

    static func combine4(
        _ rows: UnsafePointer<UnsafePointer<Float>>, paddedWeights: UnsafeBufferPointer<Float>, count: Int,
        into outputs: UnsafePointer<UnsafeMutablePointer<Float>>
    ) {
        Level.table.combine4(rows, paddedWeights.baseAddress!, paddedWeights.count - 6, count, outputs)
    }

    static func combineBytes(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        Level.table.combine_bytes(rows, weights.baseAddress!, weights.count, count, output)
    }

    static func resampleRow(
        _ span: UnsafePointer<Float>, first: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps: Int,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        Level.table.resample_row(span, first, weights, taps, count, output)
    }

    static func resampleRowPair(
        _ span: UnsafePointer<Float>, _ secondSpan: UnsafePointer<Float>, first: UnsafePointer<Int>,
        weights: UnsafePointer<Float>, taps: Int, count: Int, into output: UnsafeMutablePointer<Float>,
        _ secondOutput: UnsafeMutablePointer<Float>
    ) {
        Level.table.resample_row_pair(span, secondSpan, first, weights, taps, count, output, secondOutput)
    }
}

extension CKernels: FixedPointKernelSet {
    static func blurRow(
        _ line: UnsafePointer<UInt16>, step: Int, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into output: UnsafeMutablePointer<UInt16>
    ) {
        Level.table.fixed_blur_row(line, step, weights.baseAddress!, weights.count, count, output)
    }

    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        Level.table.fixed_combine(
            rows, weights.baseAddress!, weights.count, count, outputs.baseAddress!, outputs.count, nil)
    }

    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>, prefetching upcoming: UpcomingRows
    ) {
        Level.table.fixed_combine(
            rows, weights.baseAddress!, weights.count, count, outputs.baseAddress!, outputs.count, upcoming)
    }
}

extension CKernels: BilinearKernelSet {
    static func bilinear(
        _ source: UnsafePointer<UInt8>, bytesPerRow: Int, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>,
        origin: (u: Int32, v: Int32), count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        // The C loop's 32-bit offsets (CKernels.h) need rows under 2²⁷ bytes; wider ones take 64-bit Swift offsets.
        guard bytesPerRow < 1 << 27 else {
            return SIMDKernels.bilinear(
                source, bytesPerRow: bytesPerRow, u: u, v: v, origin: origin, count: count, into: output)
        }
        Level.table.bilinear(source, bytesPerRow, u, v, origin.u, origin.v, count, output)
    }

    static func trilinear(
        _ levels: MipLevels.Table, plan: PerspectiveSampling.Plan, count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        Level.table.perspective(
            levels.pixels, levels.rowBytes, plan.detail, plan.lowerOffset, plan.upperOffset, plan.fractions, count,
            output)
    }

    static func planChunks(
        _ sampling: PerspectiveSampling, from start: Int, count: Int, _ row: PerspectiveSampling.Row,
        into plan: PerspectiveSampling.Plan, kinds: UnsafeMutablePointer<UInt8>
    ) {
        withUnsafeBytes(of: sampling.planTerms(row)) { terms in
            sampling.bounds.withUnsafeBufferPointer { bounds in
                Level.table.perspective_plan(
                    terms.baseAddress!.assumingMemoryBound(to: Float.self), start, count, plan.detail,
                    sampling.levels.table.rowBytes, sampling.levels.table.origins, bounds.baseAddress!,
                    plan.lowerOffset, plan.upperOffset, plan.fractions, kinds)
            }
        }
    }

    static func turnColumns(
        _ source: AxisTurnKernels.Source, _ taps: AxisTurnKernels.Taps, into strip: AxisTurnKernels.Strip
    ) {
        Level.table.turn_columns(
            source.pixels, source.bytesPerRow, source.width, source.height, taps.first, taps.count, taps.weights,
            taps.columns, strip.values, strip.pitch, strip.band)
    }

    static func turnRows(
        _ strip: AxisTurnKernels.Strip, terms: UnsafePointer<Float>, into canvas: AxisTurnKernels.Canvas
    ) {
        Level.table.turn_rows(
            strip.values, strip.pitch, strip.sourceHeight, terms, canvas.columns, canvas.height, canvas.pixels,
            canvas.bytesPerRow)
    }

    static func tiltCombine(
        _ firstRow: UnsafePointer<UInt8>, bytesPerRow: Int, weights: UnsafePointer<Int16>, count: Int, width: Int,
        into output: UnsafeMutablePointer<UInt32>
    ) {
        Level.table.tilt_combine(firstRow, bytesPerRow, weights, count, width, output)
    }

    static func tiltAcross(
        _ values: UnsafePointer<UInt32>, sourceWidth: Int, terms: UnsafePointer<Float>, columns: Int,
        into output: UnsafeMutablePointer<UInt32>
    ) {
        Level.table.tilt_across(values, sourceWidth, terms, columns, output)
    }
}

extension CKernels: PyramidKernelSet {
    static func sumRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt32>
    ) {
        Level.table.sum_rows(rows, rowCount, count, sums)
    }

    static func sumNarrowRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt16>
    ) {
        precondition(rowCount <= maximumNarrowRows)
        Level.table.sum_narrow_rows(rows, rowCount, count, sums)
    }

    static func sumCells(
        _ sums: UnsafePointer<UInt32>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        SIMDKernels.sumCells(sums, factor: factor, count: count, scale: scale, into: output)
    }

    static func sumNarrowCells(
        _ sums: UnsafePointer<UInt16>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        SIMDKernels.sumNarrowCells(sums, factor: factor, count: count, scale: scale, into: output)
    }

    static func convolveAcross(
        _ line: UnsafePointer<Float>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        Level.table.convolve_across(line, weights.baseAddress!, weights.count, count, output)
    }

    static func upsample(
        _ cells: UnsafePointer<Float>, columns: UpsampleColumns, into output: UnsafeMutablePointer<Float>
    ) {
        let cubic: Int32 = columns.interpolation == .cubic ? 1 : 0
        Level.table.upsample_groups(cells, columns.groups, columns.fractions, columns.count, cubic, output)
        SIMDKernels.upsampleLeftovers(cells, columns: columns, into: output)
    }
}
