import CKernels

/// The exact Gaussian's hot loops in integers: bytes in, bytes out, with one rounding in between.
///
/// Horizontal: `(Σₖ Wₖ · byte + 2⁹) >> 10` with weights in 1/2¹⁶, giving values in 1/64 of a level (≤ 16,320),
/// stored as UInt16. Vertical: `(Σₖ Vₖ · value + 2²²) >> 23` with weights in 1/2¹⁷, giving the byte. Every
/// sum fits a UInt32 (255 · 2¹⁶ and 16,320 · 2¹⁷ + 2²² < 2³²), so nothing wraps and the order of the adds
/// cannot matter: the SIMD kernels and their scalar twins agree to the bit by construction.
///
/// Why 1/64 and not 1/128: a vertical sum of symmetric pairs (≤ 32,640) then fits a signed 16-bit word, which
/// AVX2's `vpmaddwd` multiplies two taps at a time with no offset to take off and add back (nine fewer operations
/// per 16 values at σ 2). It costs 0.5/128 of a level more in the bound (`errorBound`).
///
/// The SIMD kernels fold the symmetric taps (left + right, then one multiply) and add the pairs in 16 bits
/// (≤ 510 horizontally, ≤ 32,640 vertically: no overflow). In a build for a given CPU (AVX2, AVX-512) they
/// take 32 at a time and read each sum of pairs as 16 words: the even values are `word & 0xFFFF` and the odd
/// ones `word >> 16`, multiplied in 32 bits and packed back in order at the end. That costs two bit
/// operations per vector instead of the shuffles a widening load needs, and the vertical pass, with four rows
/// in flight, gains most; with it the integer route beats the Float engine at every radius it takes. The
/// default build's kernels (FixedPointKernels+Baseline.swift) widen instead: see there.
protocol FixedPointKernelSet: Sendable {
    /// One horizontally blurred row: `output[i] = (W₀·c[0] + Σₖ Wₖ·(c[−k·step] + c[k·step]) + 2⁹) >> 10`
    /// where `c = line + i + radius·step` and `weights` holds W₀…W_radius. `line` holds
    /// `count + 2·radius·step` values, each at most 255.
    static func blurRow(
        _ line: UnsafePointer<UInt16>, step: Int, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into output: UnsafeMutablePointer<UInt16>)

    /// `outputs.count` (1…4) consecutive output rows: row r is
    /// `(V₀·rows[r + radius] + Σₖ Vₖ·(rows[r + radius − k] + rows[r + radius + k]) + 2²²) >> 23`, per value,
    /// where `rows` holds 2·radius + outputs.count rows of values at most `FixedPoint.largestIntermediate`.
    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>)

    /// `combine`, naming to the CPU meanwhile the source rows the engine reads next, spread over the sums so that
    /// their loads overlap them (`bt_upcoming_rows`). The same bytes as `combine`; kernels that cannot prefetch
    /// (the Swift ones) only combine.
    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>, prefetching upcoming: UpcomingRows)
}

/// The source rows a vertical pass's kernels may start loading (`FixedPointKernelSet.combine(…prefetching:)`).
typealias UpcomingRows = UnsafePointer<bt_upcoming_rows>

extension FixedPointKernelSet {
    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>, prefetching upcoming: UpcomingRows
    ) {
        combine(rows, weights: weights, count: count, into: outputs)
    }
}

/// The fixed-point formats shared by the kernels and the engine.
enum FixedPoint {
    /// Horizontal weights sum to 2¹⁶; the sum is shifted right by 10, leaving 1/64 of a level. The C kernels'
    /// BT_HORIZONTAL_SHIFT (level.inc) is the same.
    static let horizontalScale = 1 << 16
    static let horizontalShift: UInt32 = 10
    /// The largest horizontally blurred value: 255 in 1/64 of a level.
    static let largestIntermediate: UInt16 = 255 << 6
    /// Vertical weights sum to 2¹⁷; with the horizontal 2⁶ that makes 2²³, shifted out at the end
    /// (BT_VERTICAL_SHIFT).
    static let verticalScale = 1 << 17
    static let verticalShift: UInt32 = 23

    /// `kernel`'s weights from the centre out (W₀…W_r, r = `radius(of:)`) in units of 1/`scale`, summing to
    /// `scale` exactly: the side weights are rounded and the centre takes the rest (the dropped taps' weight
    /// too), so a uniform image stays uniform. The centre's error is then at most r units and the dropped
    /// weight, the others' half a unit or their whole weight, which bounds the weights' effect on a result by
    /// 127.5 · (2r / scale + 4 · dropped) levels (see `errorBound`).
    /// `radius` (tests only) keeps that many taps instead.
    static func weights(_ kernel: GaussianKernel, scale: Int, radius: Int? = nil) -> [UInt32] {
        let radius = radius ?? FixedPoint.radius(of: kernel)
        return [UInt32](unsafeUninitializedCapacity: radius + 1) { buffer, count in
            write(kernel, radius: radius, scale: scale, into: buffer.baseAddress!)
            count = radius + 1
        }
    }

    /// `weights(kernel, scale:, radius:)` written to `result` (radius + 1 values), allocating nothing.
    static func write(_ kernel: GaussianKernel, radius: Int, scale: Int, into result: UnsafeMutablePointer<UInt32>) {
        var sides = 0
        for k in stride(from: 1, through: radius, by: 1) {
            let value = Int((Double(kernel.weights[kernel.radius + k]) * Double(scale)).rounded())
            result[k] = UInt32(value)
            sides += 2 * value
        }
        result[0] = UInt32(scale - sides)
    }

    /// The largest radius the integer route takes: the weights' error grows with the radius (the bound below
    /// stays under `largestErrorBound` up to here, σ 8); wider kernels take the Float route.
    static let maximumRadius = 32

    /// What the integer route promises: every result within this many levels of its kernel evaluated exactly
    /// (`errorBound` at σ 8, the widest kernel it takes, is 0.695).
    static let largestErrorBound = 0.7

    /// The taps the integer route keeps of `kernel` on each side: its outermost ones are dropped (their weight
    /// given to the centre) while the bound stays within `largestErrorBound`. Each tap costs every value of both
    /// passes a multiply-add, and the last ones of a 4σ kernel weigh next to nothing: at σ 2 the eighth weighs
    /// 6.7·10⁻⁵, and dropping it leaves 8 terms a side (centre included) where the multiply-add kernels take two
    /// at a time, not 9, for 0.068 of a level more in the bound (0.554 → 0.617); at σ 3, 12 → 11; at σ 8 none.
    static func radius(of kernel: GaussianKernel) -> Int {
        var radius = kernel.radius
        while radius > 1, errorBound(kernel, radius: radius - 1) <= largestErrorBound { radius -= 1 }
        return radius
    }

    /// How far, in levels, a result may lie from `kernel` evaluated exactly, its taps beyond `radius` dropped:
    /// the final rounding (0.5), the intermediate rounding to 1/64 (0.5/64), the two passes' weight rounding
    /// (127.5·2r/2¹⁶ and 127.5·2r/2¹⁷) and, in each pass, 127.5·4 times the weight dropped from a side.
    static func errorBound(_ kernel: GaussianKernel, radius: Int? = nil) -> Double {
        let radius = radius ?? self.radius(of: kernel)
        var dropped = 0.0
        for k in stride(from: radius + 1, through: kernel.radius, by: 1) {
            dropped += Double(kernel.weights[kernel.radius + k])
        }
        let rounding = 127.5 * 2 * Double(radius) * (1.0 / Double(horizontalScale) + 1.0 / Double(verticalScale))
        return 0.5 + 0.5 / 64 + rounding + 2 * 127.5 * 4 * dropped
    }

    /// Whether every weight fits 16 bits (the vertical centre weight passes 2¹⁶ up to σ 0.75). Then the default
    /// build's SIMD loops mask each weight with 0xFFFF, which leaves it unchanged but tells LLVM that both factors
    /// of every multiply fit 16 bits: the x86-64 baseline (SSE2) has no 32-bit multiply (`pmulld` is SSE4.1) and
    /// otherwise builds each product from two `pmuludq` and shuffles; with the mask it uses `pmullw` and
    /// `pmulhuw`.
    @inline(__always)
    static func fitsSixteenBits(_ weights: UnsafeBufferPointer<UInt32>) -> Bool {
        !weights.contains { $0 > 0xFFFF }
    }
}

extension ScalarKernels: FixedPointKernelSet {
    static func blurRow(
        _ line: UnsafePointer<UInt16>, step: Int, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into output: UnsafeMutablePointer<UInt16>
    ) {
        let radius = weights.count - 1
        for i in 0..<count {
            let centre = line + i + radius * step
            var sum = weights[0] * UInt32(centre[0]) + (1 << (FixedPoint.horizontalShift - 1))
            for k in stride(from: 1, through: radius, by: 1) {
                sum += weights[k] * (UInt32(centre[-k * step]) + UInt32(centre[k * step]))
            }
            output[i] = UInt16(sum >> FixedPoint.horizontalShift)
        }
    }

    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        combine(rows, weights: weights, values: 0..<count, into: outputs)
    }

    /// `combine` for the values in `values` only (the SIMD kernels' tail).
    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, values: Range<Int>,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        let radius = weights.count - 1
        for (r, output) in outputs.enumerated() {
            let centre = rows + r + radius
            for i in values {
                var sum = weights[0] * UInt32(centre[0][i]) + (1 << (FixedPoint.verticalShift - 1))
                for k in stride(from: 1, through: radius, by: 1) {
                    sum += weights[k] * (UInt32(centre[-k][i]) + UInt32(centre[k][i]))
                }
                output[i] = UInt8(sum >> FixedPoint.verticalShift)
            }
        }
    }
}

// The SIMD kernels of a build for a given CPU (`make release`, which defines BLURTOOL_TARGET_CPU): AVX2 or AVX-512
// registers hold a whole sum of pairs. The default build's are in FixedPointKernels+Baseline.swift.
#if BLURTOOL_TARGET_CPU
extension SIMDKernels: FixedPointKernelSet {
    /// 32 values; `Words` (BilinearKernels.swift) reads the same bits as 16 words of two values each.
    private typealias Values = SIMD32<UInt16>

    @inline(__always)
    private static func words(_ pointer: UnsafePointer<UInt16>) -> Words {
        UnsafeRawPointer(pointer).loadUnaligned(as: Words.self)
    }

    /// The 16-bit sum of two runs of 32 values, as words.
    @inline(__always)
    private static func pairs(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>) -> Words {
        let sum =
            UnsafeRawPointer(a).loadUnaligned(as: Values.self) &+ UnsafeRawPointer(b).loadUnaligned(as: Values.self)
        return unsafeBitCast(sum, to: Words.self)
    }

    /// Stores the low 16 bits of each word: a lane loop LLVM turns into one `vpmovdw`.
    @inline(__always)
    private static func storeLowHalves(_ words: Words, _ pointer: UnsafeMutableRawPointer) {
        for lane in 0..<16 {
            pointer.storeBytes(of: UInt16(truncatingIfNeeded: words[lane]), toByteOffset: 2 * lane, as: UInt16.self)
        }
    }

    static func blurRow(
        _ line: UnsafePointer<UInt16>, step: Int, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into output: UnsafeMutablePointer<UInt16>
    ) {
        var i = 0
        #if _endian(little)  // even values are the low halves of the words
            let radius = weights.count - 1
            let w = weights.baseAddress!
            let low = Words(repeating: 0xFFFF)
            let rounding = Words(repeating: 1 << (FixedPoint.horizontalShift - 1))
            while i + 32 <= count {
                let centre = line + i + radius * step
                let middle = words(centre)
                var even = Words(repeating: w[0]) &* (middle & low) &+ rounding
                var odd = Words(repeating: w[0]) &* (middle &>> 16) &+ rounding
                var k = 1
                while k <= radius {
                    let weight = Words(repeating: w[k])
                    let sum = pairs(centre - k * step, centre + k * step)
                    even = even &+ weight &* (sum & low)
                    odd = odd &+ weight &* (sum &>> 16)
                    k += 1
                }
                let packed = (even &>> FixedPoint.horizontalShift) | ((odd &>> FixedPoint.horizontalShift) &<< 16)
                UnsafeMutableRawPointer(output + i).storeBytes(of: packed, as: Words.self)
                i += 32
            }
        #endif
        if i < count {
            ScalarKernels.blurRow(line + i, step: step, weights: weights, count: count - i, into: output + i)
        }
    }

    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        var vectorEnd = 0
        #if _endian(little)
            vectorEnd = count / 32 * 32
            if outputs.count == 4 {
                for i in stride(from: 0, to: vectorEnd, by: 32) {
                    combine4(rows, weights: weights, at: i, into: outputs)
                }
            } else {
                for (r, output) in outputs.enumerated() {
                    for i in stride(from: 0, to: vectorEnd, by: 32) {
                        combine1(rows + r, weights: weights, at: i, into: output)
                    }
                }
            }
        #endif
        if vectorEnd < count {
            ScalarKernels.combine(rows, weights: weights, values: vectorEnd..<count, into: outputs)
        }
    }

    /// Values i..<i + 32 of the row whose centre is `rows[radius]`.
    @inline(__always)
    private static func combine1(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, at i: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        let radius = weights.count - 1
        let w = weights.baseAddress!
        let low = Words(repeating: 0xFFFF)
        let centre = rows + radius
        let middle = words(centre[0] + i)
        let rounding = Words(repeating: 1 << (FixedPoint.verticalShift - 1))
        var even = Words(repeating: w[0]) &* (middle & low) &+ rounding
        var odd = Words(repeating: w[0]) &* (middle &>> 16) &+ rounding
        var k = 1
        while k <= radius {
            let weight = Words(repeating: w[k])
            let sum = pairs(centre[-k] + i, centre[k] + i)
            even = even &+ weight &* (sum & low)
            odd = odd &+ weight &* (sum &>> 16)
            k += 1
        }
        emit(even, odd, output + i)
    }

    /// Values i..<i + 32 of four consecutive rows: four independent sums keep the multipliers busy while
    /// each waits on its adds.
    @inline(__always)
    private static func combine4(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, at i: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        let radius = weights.count - 1
        let w = weights.baseAddress!
        let low = Words(repeating: 0xFFFF)
        let rounding = Words(repeating: 1 << (FixedPoint.verticalShift - 1))
        let centre = rows + radius
        let w0 = Words(repeating: w[0])
        let m0 = words(centre[0] + i)
        let m1 = words(centre[1] + i)
        let m2 = words(centre[2] + i)
        let m3 = words(centre[3] + i)
        var e0 = w0 &* (m0 & low) &+ rounding
        var o0 = w0 &* (m0 &>> 16) &+ rounding
        var e1 = w0 &* (m1 & low) &+ rounding
        var o1 = w0 &* (m1 &>> 16) &+ rounding
        var e2 = w0 &* (m2 & low) &+ rounding
        var o2 = w0 &* (m2 &>> 16) &+ rounding
        var e3 = w0 &* (m3 & low) &+ rounding
        var o3 = w0 &* (m3 &>> 16) &+ rounding
        var k = 1
        while k <= radius {
            let weight = Words(repeating: w[k])
            let s0 = pairs(centre[-k] + i, centre[k] + i)
            let s1 = pairs(centre[1 - k] + i, centre[1 + k] + i)
            let s2 = pairs(centre[2 - k] + i, centre[2 + k] + i)
            let s3 = pairs(centre[3 - k] + i, centre[3 + k] + i)
            e0 = e0 &+ weight &* (s0 & low)
            o0 = o0 &+ weight &* (s0 &>> 16)
            e1 = e1 &+ weight &* (s1 & low)
            o1 = o1 &+ weight &* (s1 &>> 16)
            e2 = e2 &+ weight &* (s2 & low)
            o2 = o2 &+ weight &* (s2 &>> 16)
            e3 = e3 &+ weight &* (s3 & low)
            o3 = o3 &+ weight &* (s3 &>> 16)
            k += 1
        }
        emit(e0, o0, outputs[0] + i)
        emit(e1, o1, outputs[1] + i)
        emit(e2, o2, outputs[2] + i)
        emit(e3, o3, outputs[3] + i)
    }

    /// 32 bytes from the sums of the even and the odd values: each word becomes the pair of bytes it stood for.
    @inline(__always)
    private static func emit(_ even: Words, _ odd: Words, _ output: UnsafeMutablePointer<UInt8>) {
        let bytePairs = (even &>> FixedPoint.verticalShift) | ((odd &>> FixedPoint.verticalShift) &<< 8)
        storeLowHalves(bytePairs, UnsafeMutableRawPointer(output))
    }
}
#endif
