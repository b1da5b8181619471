/// The mixing loops of `PhotoTransition`, in fixed point: weights in 1/256, so a byte times a weight plus another
/// and a bias fits 16 bits (255 · 256 + 128 < 2¹⁶). The SIMD loops compute the same integers as their scalar
/// twins, bit for bit; a weight of 0 or 256 returns its input exactly.
///
/// The SIMD loops work on 16 pixels as 16 words, each split into its even bytes (red, blue) and odd bytes
/// (green, alpha) in 16-bit fields: every channel's sum fits its field, so no widening or narrowing shuffles are
/// needed (building bytes back from 16-bit lanes went lane by lane through the stack, 30 times slower).
package enum TransitionKernels {
    /// The weight that takes all of one side.
    package static let one = 256

    /// The weight in 1/256 nearest to `fraction` (clamped to 0...1; NaN counts as 0).
    package static func weight(_ fraction: Double) -> Int {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return one }
        return Int((fraction * Double(one)).rounded())
    }

    private typealias Words = SIMD16<UInt32>
    private static let fields = Words(repeating: 0x00FF_00FF)

    /// Per channel `(a · weightA + b · weightB + bias) >> 8`, for `count` pixels. `bias` is per channel (red,
    /// green, blue, alpha) and carries both the rounding half (128) and any constant colour mixed in (fadeblack's
    /// black times its weight); the caller keeps `255 · (weightA + weightB) + bias` below 2¹⁶.
    package static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
        count: Int, weightA: Int, weightB: Int, bias: SIMD4<UInt16>
    ) {
        let wa = Words(repeating: UInt32(weightA))
        let wb = Words(repeating: UInt32(weightB))
        let evenBias = Words(repeating: UInt32(bias[0]) | UInt32(bias[2]) << 16)
        let oddBias = Words(repeating: UInt32(bias[1]) | UInt32(bias[3]) << 16)
        var i = 0
        while i + 16 <= count {
            let p = words(a + i * 4)
            let q = words(b + i * 4)
            let even = (p & fields) &* wa &+ (q & fields) &* wb &+ evenBias
            let odd = (p &>> 8 & fields) &* wa &+ (q &>> 8 & fields) &* wb &+ oddBias
            store(even &>> 8 & fields | odd & ~fields, at: destination + i * 4)
            i += 16
        }
        ScalarTransitionKernels.mix(
            a + i * 4, b + i * 4, into: destination + i * 4, count: count - i, weightA: weightA, weightB: weightB,
            bias: bias)
    }

    /// Per channel `(a · (256 − w) + b · w + 128) >> 8` with pixel i's `w` = `weights[i]` (0...256), for `count`
    /// pixels.
    package static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, weights: UnsafePointer<UInt32>,
        into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        let full = Words(repeating: UInt32(one))
        let half = Words(repeating: 128 | 128 << 16)
        var i = 0
        while i + 16 <= count {
            let wb = UnsafeRawPointer(weights + i).loadUnaligned(as: Words.self)
            let wa = full &- wb
            let p = words(a + i * 4)
            let q = words(b + i * 4)
            let even = (p & fields) &* wa &+ (q & fields) &* wb &+ half
            let odd = (p &>> 8 & fields) &* wa &+ (q &>> 8 & fields) &* wb &+ half
            store(even &>> 8 & fields | odd & ~fields, at: destination + i * 4)
            i += 16
        }
        ScalarTransitionKernels.mix(
            a + i * 4, b + i * 4, weights: weights + i, into: destination + i * 4, count: count - i)
    }

    @inline(__always)
    private static func words(_ pixels: UnsafePointer<UInt8>) -> Words {
        UnsafeRawPointer(pixels).loadUnaligned(as: Words.self)
    }

    @inline(__always)
    private static func store(_ words: Words, at destination: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(destination).storeBytes(of: words, as: Words.self)
    }
}

/// The scalar twins of `TransitionKernels`: the same integer formulas one byte at a time (the tails of the SIMD
/// loops, and the reference the tests hold them to).
package enum ScalarTransitionKernels {
    package static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
        count: Int, weightA: Int, weightB: Int, bias: SIMD4<UInt16>
    ) {
        for i in 0..<(count * 4) {
            let sum = Int(a[i]) * weightA + Int(b[i]) * weightB + Int(bias[i & 3])
            destination[i] = UInt8(truncatingIfNeeded: sum >> 8)
        }
    }

    static func mix(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, weights: UnsafePointer<UInt32>,
        into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        for i in 0..<(count * 4) {
            let w = Int(weights[i / 4])
            let sum = Int(a[i]) * (TransitionKernels.one - w) + Int(b[i]) * w + 128
            destination[i] = UInt8(truncatingIfNeeded: sum >> 8)
        }
    }
}
