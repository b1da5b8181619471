// The pyramid's way back up: each small row interpolated across to full width once (`upsample`), for the
// rows around it to mix. `ScalarKernels` states it plainly; `SIMDKernels` computes the same sums four pixels
// at a time, in the same order, so the twins agree to the bit.

/// Where each pixel of an upsampled row reads its four cells (`InterpolationTap`), in the forms the two kernels
/// want. The memory belongs to a workspace (see `PyramidGaussianBlur`).
struct UpsampleColumns {
    let count: Int
    let taps: UnsafeMutablePointer<InterpolationTap>
    /// Each tap's fraction t repeated for the four channels, so four pixels' fractions load as one SIMD16 (the
    /// SIMD kernel computes the weights from them: loading four weights per pixel, 256 KB for a 12 MP row, for
    /// every small row cost more than the arithmetic).
    let fractions: UnsafeMutablePointer<Float>
    /// For each whole group of four pixels 4g..<4g + 4: (i << 4) | m, where i is the first pixel's cell and bit k
    /// of m is set when pixel 4g + k reads cells i + 1 and i + 2 instead; −1 when the group spans more cells.
    let groups: UnsafeMutablePointer<Int32>
    let interpolation: PyramidGaussianBlur.Interpolation

    /// Fills `groups` from `taps` (both `count` long; `groups` count / 4).
    static func writeGroups(
        _ taps: UnsafePointer<InterpolationTap>, count: Int, into groups: UnsafeMutablePointer<Int32>
    ) {
        for g in 0..<(count / 4) {
            let first = taps[g * 4].index
            var bits: Int32 = 0
            var spansTwo = true
            for k in 0..<4 {
                switch taps[g * 4 + k].index - first {
                case 0: break
                case 1: bits |= 1 << k
                default: spansTwo = false
                }
            }
            groups[g] = spansTwo && first < 1 << 26 ? Int32(first) << 4 | bits : -1
        }
    }
}

extension ScalarKernels {
    static func upsample(
        _ cells: UnsafePointer<Float>, columns: UpsampleColumns, into output: UnsafeMutablePointer<Float>
    ) {
        for x in 0..<columns.count {
            let tap = columns.taps[x]
            for c in 0..<4 {
                var value: Float = 0
                for k in 0..<4 { value = value + tap.weights[k] * cells[(tap.index - 1 + k) * 4 + c] }
                output[x * 4 + c] = value
            }
        }
    }
}

extension SIMDKernels {
    @inline(__always)
    private static func repeated(_ pixel: UnsafePointer<Float>) -> SIMD16<Float> {
        let value = UnsafeRawPointer(pixel).loadUnaligned(as: SIMD4<Float>.self)
        let twice = SIMD8(lowHalf: value, highHalf: value)
        return SIMD16(lowHalf: twice, highHalf: twice)
    }

    /// For each 4-bit pixel choice m, all ones in the lanes of the pixels whose bit is set: a table, because
    /// computing the mask from m compiled to a dozen shuffles. Allocated once, never freed.
    nonisolated(unsafe) private static let pixelMasks: UnsafePointer<SIMD16<UInt32>> = {
        let masks = UnsafeMutablePointer<SIMD16<UInt32>>.allocate(capacity: 16)
        for bits in 0..<16 {
            masks[bits] = SIMD16((0..<16).map { bits & (1 << ($0 / 4)) != 0 ? UInt32.max : 0 })
        }
        return UnsafePointer(masks)
    }()

    /// Four pixels per step. Where their cells start at one of two neighbours (every group, as f ≥ 3), each tap
    /// is one cell repeated across the four pixels, its neighbour chosen per pixel with a bit mask: a blend instead
    /// of four separate loads. (A `SIMDMask` from a comparison compiled to a lane loop here.) A linear mix leaves
    /// out the outer taps, whose weights are exact zeros: the sums are the same.
    static func upsample(
        _ cells: UnsafePointer<Float>, columns: UpsampleColumns, into output: UnsafeMutablePointer<Float>
    ) {
        if columns.interpolation == .cubic {
            upsampleGroups(cells, columns: columns, cubic: true, into: output)
        } else {
            upsampleGroups(cells, columns: columns, cubic: false, into: output)
        }
    }

    @inline(__always)
    private static func upsampleGroups(
        _ cells: UnsafePointer<Float>, columns: UpsampleColumns, cubic: Bool, into output: UnsafeMutablePointer<Float>
    ) {
        let masks = pixelMasks
        var x = 0
        while x + 4 <= columns.count {
            let group = columns.groups[x >> 2]
            if group >= 0 {
                let first = cells + Int(group >> 4) * 4
                let next = masks[Int(group & 15)]
                let t = UnsafeRawPointer(columns.fractions + x * 4).loadUnaligned(as: SIMD16<Float>.self)
                let (w0, w1, w2, w3) = columns.interpolation.weights(atLanes: t)
                let (c0, c1, c2) = (repeated(first), repeated(first + 4), repeated(first + 8))
                var value = SIMD16<Float>()
                if cubic { value = value + w0 * blend(repeated(first - 4), c0, next) }
                value = value + w1 * blend(c0, c1, next)
                value = value + w2 * blend(c1, c2, next)
                if cubic { value = value + w3 * blend(c2, repeated(first + 12), next) }
                UnsafeMutableRawPointer(output + x * 4).storeBytes(of: value, as: SIMD16<Float>.self)
            } else {
                for k in x..<(x + 4) { upsamplePixel(cells, tap: columns.taps[k], into: output + k * 4) }
            }
            x += 4
        }
        while x < columns.count {
            upsamplePixel(cells, tap: columns.taps[x], into: output + x * 4)
            x += 1
        }
    }

    /// The pixels `upsample_groups` (the C kernels, Sources/CKernels/upsample.inc) leaves: the groups that span more
    /// than two cells and the last `count % 4` pixels, one at a time as `upsample` does them.
    static func upsampleLeftovers(
        _ cells: UnsafePointer<Float>, columns: UpsampleColumns, into output: UnsafeMutablePointer<Float>
    ) {
        for g in 0..<(columns.count / 4) where columns.groups[g] < 0 {
            for k in (g * 4)..<(g * 4 + 4) { upsamplePixel(cells, tap: columns.taps[k], into: output + k * 4) }
        }
        for x in (columns.count / 4 * 4)..<columns.count {
            upsamplePixel(cells, tap: columns.taps[x], into: output + x * 4)
        }
    }

    /// `b` in the lanes where `mask` is all ones, `a` where it is zero.
    @inline(__always)
    private static func blend(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ mask: SIMD16<UInt32>) -> SIMD16<Float> {
        let bitsA = unsafeBitCast(a, to: SIMD16<UInt32>.self)
        let bitsB = unsafeBitCast(b, to: SIMD16<UInt32>.self)
        return unsafeBitCast(bitsA & ~mask | bitsB & mask, to: SIMD16<Float>.self)
    }

    @inline(__always)
    private static func upsamplePixel(
        _ cells: UnsafePointer<Float>, tap: InterpolationTap, into output: UnsafeMutablePointer<Float>
    ) {
        let samples = UnsafeRawPointer(cells + (tap.index - 1) * 4)
        var value = SIMD4<Float>()
        for k in 0..<4 {
            value =
                value + SIMD4(repeating: tap.weights[k])
                * samples.loadUnaligned(fromByteOffset: k * 16, as: SIMD4<Float>.self)
        }
        UnsafeMutableRawPointer(output).storeBytes(of: value, as: SIMD4<Float>.self)
    }
}
