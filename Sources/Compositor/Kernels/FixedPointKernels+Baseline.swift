// The fixed-point SIMD kernels of the default build (no `-target-cpu`: SSE2 on x86-64, NEON on arm64), where a
// register holds 8 16-bit values. The even/odd split of FixedPointKernels.swift costs there two bit operations
// and a 32-bit multiply per 4 values, and SSE2 has no 32-bit multiply; here each sum of pairs is widened in
// order and multiplied by a weight known to fit 16 bits, which LLVM compiles to `pmullw`, `pmulhuw` and two
// unpacks per 8 values, 16 values a step so that the vertical pass's four sums fit SSE2's 16 registers (the
// tuned kernels' 32 spilled). Same integers, same sums: the scalar twins agree to the bit with both.
#if !BLURTOOL_TARGET_CPU
extension SIMDKernels: FixedPointKernelSet {
    /// 16 values: one vector of products (`Words`, BilinearKernels.swift) once widened.
    private typealias Values = SIMD16<UInt16>

    @inline(__always)
    private static func values(_ pointer: UnsafePointer<UInt16>) -> Values {
        UnsafeRawPointer(pointer).loadUnaligned(as: Values.self)
    }

    /// `weight & mask` times each of 16 values, in 32 bits and in order. The values are widened by a lane loop
    /// LLVM folds into zero-extensions (the generic conversion stays a call per lane, SWIFT-PERFORMANCE.md); with
    /// the weight known to fit 16 bits, the SSE2 baseline multiplies with `pmullw` and `pmulhuw` and interleaves
    /// the halves, where AVX2 and AVX-512 widen and use `vpmulld`.
    @inline(__always)
    private static func products(_ values: Values, _ weight: UInt32, mask: UInt32) -> Words {
        var wide = Words()
        for lane in 0..<16 { wide[lane] = UInt32(values[lane]) }
        return Words(repeating: weight & mask) &* wide
    }

    /// Stores the low 16 bits of each word: a lane loop LLVM turns into packs (`vpmovdw` on AVX-512).
    @inline(__always)
    private static func storeLowHalves(_ words: Words, _ pointer: UnsafeMutablePointer<UInt16>) {
        for lane in 0..<16 { pointer[lane] = UInt16(truncatingIfNeeded: words[lane]) }
    }

    /// Stores the low byte of each word, likewise.
    @inline(__always)
    private static func storeLowBytes(_ words: Words, _ pointer: UnsafeMutablePointer<UInt8>) {
        for lane in 0..<16 { pointer[lane] = UInt8(truncatingIfNeeded: words[lane]) }
    }

    static func blurRow(
        _ line: UnsafePointer<UInt16>, step: Int, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into output: UnsafeMutablePointer<UInt16>
    ) {
        // Constant masks, each its own copy of the loop, so that LLVM sees them.
        let done =
            FixedPoint.fitsSixteenBits(weights)
            ? blurRow(line, step: step, weights: weights, mask: 0xFFFF, count: count, into: output)
            : blurRow(line, step: step, weights: weights, mask: .max, count: count, into: output)
        if done < count {
            ScalarKernels.blurRow(line + done, step: step, weights: weights, count: count - done, into: output + done)
        }
    }

    /// The vector part of `blurRow`, every weight read as `weight & mask`; returns how many values it did.
    @inline(__always)
    private static func blurRow(
        _ line: UnsafePointer<UInt16>, step: Int, weights: UnsafeBufferPointer<UInt32>, mask: UInt32, count: Int,
        into output: UnsafeMutablePointer<UInt16>
    ) -> Int {
        let radius = weights.count - 1
        let w = weights.baseAddress!
        let rounding = Words(repeating: 1 << (FixedPoint.horizontalShift - 1))
        var i = 0
        // Two runs of 16 per step: two independent chains of adds.
        while i + 32 <= count {
            let centre = line + i + radius * step
            var a = products(values(centre), w[0], mask: mask) &+ rounding
            var b = products(values(centre + 16), w[0], mask: mask) &+ rounding
            var k = 1
            while k <= radius {
                let left = centre - k * step
                let right = centre + k * step
                a = a &+ products(values(left) &+ values(right), w[k], mask: mask)
                b = b &+ products(values(left + 16) &+ values(right + 16), w[k], mask: mask)
                k += 1
            }
            storeLowHalves(a &>> FixedPoint.horizontalShift, output + i)
            storeLowHalves(b &>> FixedPoint.horizontalShift, output + i + 16)
            i += 32
        }
        return i
    }

    static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, count: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        let vectorEnd = count / 16 * 16
        if FixedPoint.fitsSixteenBits(weights) {
            combine(rows, weights: weights, mask: 0xFFFF, vectorEnd: vectorEnd, into: outputs)
        } else {
            combine(rows, weights: weights, mask: .max, vectorEnd: vectorEnd, into: outputs)
        }
        if vectorEnd < count {
            ScalarKernels.combine(rows, weights: weights, values: vectorEnd..<count, into: outputs)
        }
    }

    /// The vector part of `combine`, values 0..<vectorEnd, every weight read as `weight & mask`.
    @inline(__always)
    private static func combine(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, mask: UInt32,
        vectorEnd: Int, into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        if outputs.count == 4 {
            for i in stride(from: 0, to: vectorEnd, by: 16) {
                combine4(rows, weights: weights, mask: mask, at: i, into: outputs)
            }
        } else {
            for (r, output) in outputs.enumerated() {
                for i in stride(from: 0, to: vectorEnd, by: 16) {
                    combine1(rows + r, weights: weights, mask: mask, at: i, into: output)
                }
            }
        }
    }

    /// Values i..<i + 16 of the row whose centre is `rows[radius]`.
    @inline(__always)
    private static func combine1(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, mask: UInt32, at i: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        let radius = weights.count - 1
        let w = weights.baseAddress!
        let centre = rows + radius
        let rounding = Words(repeating: 1 << (FixedPoint.verticalShift - 1))
        var sum = products(values(centre[0] + i), w[0], mask: mask) &+ rounding
        var k = 1
        while k <= radius {
            sum = sum &+ products(values(centre[-k] + i) &+ values(centre[k] + i), w[k], mask: mask)
            k += 1
        }
        storeLowBytes(sum &>> FixedPoint.verticalShift, output + i)
    }

    /// Values i..<i + 16 of four consecutive rows: four independent sums keep the multipliers busy while each
    /// waits on its adds (16 values a row, so the four sums fit the 16 registers SSE2 has).
    @inline(__always)
    private static func combine4(
        _ rows: UnsafePointer<UnsafePointer<UInt16>>, weights: UnsafeBufferPointer<UInt32>, mask: UInt32, at i: Int,
        into outputs: UnsafeBufferPointer<UnsafeMutablePointer<UInt8>>
    ) {
        let radius = weights.count - 1
        let w = weights.baseAddress!
        let rounding = Words(repeating: 1 << (FixedPoint.verticalShift - 1))
        let centre = rows + radius
        var a0 = products(values(centre[0] + i), w[0], mask: mask) &+ rounding
        var a1 = products(values(centre[1] + i), w[0], mask: mask) &+ rounding
        var a2 = products(values(centre[2] + i), w[0], mask: mask) &+ rounding
        var a3 = products(values(centre[3] + i), w[0], mask: mask) &+ rounding
        var k = 1
        while k <= radius {
            a0 = a0 &+ products(values(centre[-k] + i) &+ values(centre[k] + i), w[k], mask: mask)
            a1 = a1 &+ products(values(centre[1 - k] + i) &+ values(centre[1 + k] + i), w[k], mask: mask)
            a2 = a2 &+ products(values(centre[2 - k] + i) &+ values(centre[2 + k] + i), w[k], mask: mask)
            a3 = a3 &+ products(values(centre[3 - k] + i) &+ values(centre[3 + k] + i), w[k], mask: mask)
            k += 1
        }
        storeLowBytes(a0 &>> FixedPoint.verticalShift, outputs[0] + i)
        storeLowBytes(a1 &>> FixedPoint.verticalShift, outputs[1] + i)
        storeLowBytes(a2 &>> FixedPoint.verticalShift, outputs[2] + i)
        storeLowBytes(a3 &>> FixedPoint.verticalShift, outputs[3] + i)
    }
}
#endif
