import CKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hot loops of separable convolution, over Float lanes. Two implementations with the same meaning:
/// `SIMDKernels` (16 lanes at a time, the fast path) and `ScalarKernels` (its reference twin, one lane at a
/// time). Both add the taps in the same order, so they agree to the bit; tests hold them together.
///
/// Loops follow shared/SWIFT-PERFORMANCE.md: pointers taken once, `SIMD16<Float>` built from unaligned
/// loads, plain `a + w * x` (no `addingProduct`, which calls `fmaf` per lane at the default target).
@_spi(Benchmarks) public protocol ConvolutionKernelSet: Sendable {
    /// `output[i] = Σₖ weights[k] · input[i + k·step]` for i in 0..<count (a 1-D convolution along memory,
    /// `step` floats between taps: 4 for interleaved RGBA, 1 for a plane).
    static func convolve(
        _ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>)

    /// `output[i] = Σₖ weights[k] · rows[k][i]` for i in 0..<count (the vertical pass: rows are contiguous).
    static func combine(
        _ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>)

    /// Four consecutive output rows at once: `outputs[r][i] = Σₖ weights[k] · rows[k + r][i]`, with
    /// `rows` holding taps + 3 rows. Each loaded row feeds all four sums, quartering the loads.
    /// `paddedWeights` is the kernel with three zeros before and after it (see `PaddedWeights`).
    static func combine4(
        _ rows: UnsafePointer<UnsafePointer<Float>>, paddedWeights: UnsafeBufferPointer<Float>,
        count: Int, into outputs: UnsafePointer<UnsafeMutablePointer<Float>>)

    /// `output[i] = Σₖ weights[k] · rows[k][i]` over rows of bytes (a resize's vertical pass, straight from
    /// the 8-bit source).
    static func combineBytes(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>)

    /// One row of a horizontal resample over RGBA Floats: channel c of output pixel i is
    /// Σₖ weights[(i·taps + k)·4 + c] · span[(first[i] + k)·4 + c] for k in 0..<taps (`taps` even), summed as the
    /// even taps and the odd taps, each in order, then the two added: the SIMD kernel holds a pair of taps.
    static func resampleRow(
        _ span: UnsafePointer<Float>, first: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps: Int,
        count: Int, into output: UnsafeMutablePointer<Float>)

    /// `resampleRow` on two rows with the same columns (`span` into `output`, `secondSpan` into
    /// `secondOutput`): each weight loaded serves both rows.
    static func resampleRowPair(
        _ span: UnsafePointer<Float>, _ secondSpan: UnsafePointer<Float>, first: UnsafePointer<Int>,
        weights: UnsafePointer<Float>, taps: Int, count: Int, into output: UnsafeMutablePointer<Float>,
        _ secondOutput: UnsafeMutablePointer<Float>)
}

@_spi(Benchmarks) public enum ScalarKernels: ConvolutionKernelSet {
    public static func convolve(
        _ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count {
            var sum: Float = 0
            for k in 0..<weights.count {
                sum = sum + weights[k] * input[i + k * step]
            }
            output[i] = sum
        }
    }

    public static func combine(
        _ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count {
            var sum: Float = 0
            for k in 0..<weights.count {
                sum = sum + weights[k] * rows[k][i]
            }
            output[i] = sum
        }
    }

    public static func combine4(
        _ rows: UnsafePointer<UnsafePointer<Float>>, paddedWeights: UnsafeBufferPointer<Float>,
        count: Int, into outputs: UnsafePointer<UnsafeMutablePointer<Float>>
    ) {
        let weights = UnsafeBufferPointer(rebasing: paddedWeights[3..<(paddedWeights.count - 3)])
        for r in 0..<4 {
            combine(rows + r, weights: weights, count: count, into: outputs[r])
        }
    }

    public static func combineBytes(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count {
            var sum: Float = 0
            for k in 0..<weights.count {
                sum = sum + weights[k] * Float(rows[k][i])
            }
            output[i] = sum
        }
    }
}

@_spi(Benchmarks) public enum SIMDKernels: ConvolutionKernelSet {
    /// 16 Float lanes: one zmm register where the build targets AVX-512, two ymm registers on AVX2.
    typealias Vector = SIMD16<Float>
    static let lanes = 16

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>) -> Vector {
        UnsafeRawPointer(pointer).loadUnaligned(as: Vector.self)
    }

    @inline(__always)
    private static func store(_ value: Vector, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: Vector.self)
    }

    public static func convolve(
        _ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let taps = weights.count
        let w = weights.baseAddress!
        var i = 0
        // Two vectors per iteration: twice the independent adds in flight.
        while i + 2 * lanes <= count {
            var a = Vector(repeating: 0)
            var b = Vector(repeating: 0)
            var p = input + i
            for k in 0..<taps {
                let weight = Vector(repeating: w[k])
                a = a + weight * load(p)
                b = b + weight * load(p + lanes)
                p += step
            }
            store(a, output + i)
            store(b, output + i + lanes)
            i += 2 * lanes
        }
        while i + lanes <= count {
            var a = Vector(repeating: 0)
            var p = input + i
            for k in 0..<taps {
                a = a + Vector(repeating: w[k]) * load(p)
                p += step
            }
            store(a, output + i)
            i += lanes
        }
        if i < count {
            ScalarKernels.convolve(input + i, step: step, weights: weights, count: count - i, into: output + i)
        }
    }

    public static func combine(
        _ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let taps = weights.count
        let w = weights.baseAddress!
        var i = 0
        while i + lanes <= count {
            var a = Vector(repeating: 0)
            for k in 0..<taps {
                a = a + Vector(repeating: w[k]) * load(rows[k] + i)
            }
            store(a, output + i)
            i += lanes
        }
        if i < count {
            combine(rows, weights: weights, count: count - i, into: output + i, offset: i)
        }
    }

    public static func combine4(
        _ rows: UnsafePointer<UnsafePointer<Float>>, paddedWeights: UnsafeBufferPointer<Float>,
        count: Int, into outputs: UnsafePointer<UnsafeMutablePointer<Float>>
    ) {
        // Sum r takes padded[k + 3 − r] for loaded row k, so every sum still adds its taps in order (the extra
        // terms add exactly zero).
        let taps = paddedWeights.count - 6
        let padded = paddedWeights.baseAddress!
        let weights = UnsafeBufferPointer(rebasing: paddedWeights[3..<(taps + 3)])
        let out0 = outputs[0]
        let out1 = outputs[1]
        let out2 = outputs[2]
        let out3 = outputs[3]
        var i = 0
        while i + lanes <= count {
            var a0 = Vector(repeating: 0)
            var a1 = a0
            var a2 = a0
            var a3 = a0
            for k in 0..<(taps + 3) {
                let v = load(rows[k] + i)
                let w = padded + k + 3
                a0 = a0 + Vector(repeating: w[0]) * v
                a1 = a1 + Vector(repeating: w[-1]) * v
                a2 = a2 + Vector(repeating: w[-2]) * v
                a3 = a3 + Vector(repeating: w[-3]) * v
            }
            store(a0, out0 + i)
            store(a1, out1 + i)
            store(a2, out2 + i)
            store(a3, out3 + i)
            i += lanes
        }
        if i < count {
            for r in 0..<4 {
                combine(rows + r, weights: weights, count: count - i, into: outputs[r] + i, offset: i)
            }
        }
    }

    /// The scalar tail of `combine` for columns from `offset` on.
    private static func combine(
        _ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>, offset: Int
    ) {
        for j in 0..<count {
            var sum: Float = 0
            for k in 0..<weights.count {
                sum = sum + weights[k] * rows[k][offset + j]
            }
            output[j] = sum
        }
    }

    /// 16 bytes as Floats. A lane loop, because the generic SIMD conversions stay per-lane calls here
    /// (shared/SWIFT-PERFORMANCE.md); LLVM folds this into vpmovzxbd + vcvtdq2ps.
    @inline(__always)
    private static func floats(_ bytes: UnsafePointer<UInt8>) -> Vector {
        var result = Vector()
        for lane in 0..<lanes { result[lane] = Float(bytes[lane]) }
        return result
    }

    public static func combineBytes(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, weights: UnsafeBufferPointer<Float>,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let taps = weights.count
        var i = 0
        // Four vectors per step: each add waits for the one before it in its own sum only, so four chains of
        // adds overlap (one chain left the adds' latency, not their throughput, as the limit).
        while i + 4 * lanes <= count {
            var a0 = Vector(repeating: 0)
            var a1 = a0
            var a2 = a0
            var a3 = a0
            for k in 0..<taps {
                let weight = Vector(repeating: weights[k])
                let row = rows[k] + i
                a0 = a0 + weight * floats(row)
                a1 = a1 + weight * floats(row + lanes)
                a2 = a2 + weight * floats(row + 2 * lanes)
                a3 = a3 + weight * floats(row + 3 * lanes)
            }
            store(a0, output + i)
            store(a1, output + i + lanes)
            store(a2, output + i + 2 * lanes)
            store(a3, output + i + 3 * lanes)
            i += 4 * lanes
        }
        while i + lanes <= count {
            var a = Vector(repeating: 0)
            for k in 0..<taps {
                a = a + Vector(repeating: weights[k]) * floats(rows[k] + i)
            }
            store(a, output + i)
            i += lanes
        }
        for j in i..<count {
            var sum: Float = 0
            for k in 0..<taps {
                sum = sum + weights[k] * Float(rows[k][j])
            }
            output[j] = sum
        }
    }
}

/// A kernel's weights with three zeros before and after, as `combine4` reads them.
enum PaddedWeights {
    static func write(_ weights: [Float], into destination: UnsafeMutablePointer<Float>) {
        destination.initialize(repeating: 0, count: weights.count + 6)
        weights.withUnsafeBufferPointer { (destination + 3).update(from: $0.baseAddress!, count: weights.count) }
    }
}

/// The kernel sets chosen once for the process (`KernelChoice`): the best C level the CPU has, unless
/// `BLURTOOL_KERNELS` names another set (`reference` for the scalar twins, `swift` for the Swift SIMD kernels,
/// `baseline`, `avx2`, `avx512`). A name that is no set, or a set this CPU lacks, leaves the default running and
/// sets `environmentProblem`, which the tools report before they exit; the library itself never stops a process.
/// `name` says which set runs, for `--verbose` and benchmarks.
public enum Kernels {
    private static let parsed = KernelChoice.parse(
        environmentValue: getenv("BLURTOOL_KERNELS").map { String(cString: $0) })

    @_spi(Benchmarks) public static let choice: KernelChoice = (try? parsed.get()) ?? .best

    @_spi(Benchmarks) public static let active: any ConvolutionKernelSet.Type = choice.kernels

    /// The C loops at the chosen level for what the kernel-set protocols leave out (the quantiser, source-over's
    /// fast path), or nil (their Swift loops) under `swift` and `reference`.
    static let cLoops = choice.table

    /// Why `BLURTOOL_KERNELS` was not honoured (one line), or nil.
    public static var environmentProblem: String? {
        if case .failure(let error) = parsed { return error.message }
        return nil
    }

    /// Which kernels run, e.g. "x86-64-v3 (AVX2+FMA), C" or "scalar reference".
    public static var name: String { choice.name }

    /// The CPU the kernels were compiled for, since the same Swift SIMD code runs at very different speeds on
    /// the two: `make release` passes `-target-cpu` (and defines BLURTOOL_TARGET_CPU) to the whole build; a plain
    /// `swift build -c release`, what a package depending on the library gets, targets the architecture's
    /// baseline (SSE2 on x86-64).
    public static var build: String {
        #if BLURTOOL_TARGET_CPU
            return "tuned to the building CPU (-target-cpu)"
        #elseif arch(x86_64)
            return "default (x86-64 baseline: SSE2)"
        #else
            return "default (architecture baseline)"
        #endif
    }
}
