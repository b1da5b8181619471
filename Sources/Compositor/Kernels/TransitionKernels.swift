/// The mixing loops of `PhotoTransition`, in fixed point: weights in 1/256, so every product of a byte and a
/// weight and the sum of three fits 16 bits (255 · 256 + 128 < 2¹⁶) and the SIMD loops and their scalar twins
/// compute the same integers, bit for bit. A weight of 0 or 256 returns its input exactly.
enum TransitionKernels {
    /// The weight that takes all of one side.
    static let one = 256

    /// The weight in 1/256 nearest to `fraction` (clamped to 0...1; NaN counts as 0).
    static func weight(_ fraction: Double) -> Int {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return one }
        return Int((fraction * Double(one)).rounded())
    }

    /// Per channel `(a · weightA + b · weightB + bias) >> 8`, for `count` pixels. `bias` is per channel (red,
    /// green, blue, alpha) and carries both the rounding half (128) and any constant colour mixed in (fadeblack's
    /// black times its weight); the caller keeps `255 · (weightA + weightB) + bias` within 16 bits.
    static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
        count: Int, weightA: Int, weightB: Int, bias: SIMD4<UInt16>
    ) {
        let wa = SIMD32<UInt16>(repeating: UInt16(weightA))
        let wb = SIMD32<UInt16>(repeating: UInt16(weightB))
        var biases = SIMD32<UInt16>()
        for lane in 0..<32 { biases[lane] = bias[lane & 3] }
        var i = 0
        let bytes = count * 4
        while i + 32 <= bytes {
            let sum = halfWords(a + i) &* wa &+ halfWords(b + i) &* wb &+ biases
            store(sum &>> 8, at: destination + i)
            i += 32
        }
        ScalarTransitionKernels.mix(
            a + i, b + i, into: destination + i, count: (bytes - i) / 4, weightA: weightA, weightB: weightB,
            bias: bias)
    }

    /// Per channel `(a · (256 − w) + b · w + 128) >> 8` with `w` from `weights`, one per channel (so four equal
    /// values per pixel: the loop then needs no shuffle), for `count` pixels.
    static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, weights: UnsafePointer<UInt16>,
        into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        let full = SIMD32<UInt16>(repeating: UInt16(one))
        let half = SIMD32<UInt16>(repeating: 128)
        var i = 0
        let bytes = count * 4
        while i + 32 <= bytes {
            let w = UnsafeRawPointer(weights + i).loadUnaligned(as: SIMD32<UInt16>.self)
            let sum = halfWords(a + i) &* (full &- w) &+ halfWords(b + i) &* w &+ half
            store(sum &>> 8, at: destination + i)
            i += 32
        }
        ScalarTransitionKernels.mix(
            a + i, b + i, weights: weights + i, into: destination + i, count: (bytes - i) / 4)
    }

    /// 32 bytes widened to 16-bit lanes (loaded as one vector first, so the widening is one instruction).
    @inline(__always)
    private static func halfWords(_ bytes: UnsafePointer<UInt8>) -> SIMD32<UInt16> {
        let loaded = UnsafeRawPointer(bytes).loadUnaligned(as: SIMD32<UInt8>.self)
        var result = SIMD32<UInt16>()
        for lane in 0..<32 { result[lane] = UInt16(loaded[lane]) }
        return result
    }

    /// The low bytes of 32 lanes that are at most 255.
    @inline(__always)
    private static func store(_ values: SIMD32<UInt16>, at destination: UnsafeMutablePointer<UInt8>) {
        var narrow = SIMD32<UInt8>()
        for lane in 0..<32 { narrow[lane] = UInt8(truncatingIfNeeded: values[lane]) }
        UnsafeMutableRawPointer(destination).storeBytes(of: narrow, as: SIMD32<UInt8>.self)
    }
}

/// The scalar twins of `TransitionKernels`: the same integer formulas one byte at a time (the tails of the SIMD
/// loops, and the reference the tests hold them to).
enum ScalarTransitionKernels {
    static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
        count: Int, weightA: Int, weightB: Int, bias: SIMD4<UInt16>
    ) {
        for i in 0..<(count * 4) {
            let sum = Int(a[i]) * weightA + Int(b[i]) * weightB + Int(bias[i & 3])
            destination[i] = UInt8(truncatingIfNeeded: sum >> 8)
        }
    }

    static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, weights: UnsafePointer<UInt16>,
        into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        for i in 0..<(count * 4) {
            let w = Int(weights[i])
            let sum = Int(a[i]) * (TransitionKernels.one - w) + Int(b[i]) * w + 128
            destination[i] = UInt8(truncatingIfNeeded: sum >> 8)
        }
    }
}
