/// The trilinear loop of a perspective warp: each pixel of a planned run (`PerspectiveSampling.Plan`) is the
/// bilinear sample of its chunk's lower level, mixed per channel with the upper level's when the chunk's weight w
/// is not zero: `(lower·(256 − w) + upper·w + 128) >> 8`. Every neighbourhood lies inside its level (the plan
/// says so).
///
/// `simd` gathers the neighbourhoods of two chunks per level with scalar loads (see `SIMDKernels.chunk`), each
/// chunk's level pointer and stride read once, interpolates them with the bilinear kernel's arithmetic and mixes
/// in 16-bit fields (each sum at most 255·256 + 128); a pair of chunks neither of which mixes skips its upper
/// levels. `scalar` is the twin it is held to, bit for bit: the bilinear formula and `MipLevels.mix` per pixel.
enum PerspectiveKernels {
    typealias Words = SIMD16<UInt32>
    private static let chunk = PerspectiveSampling.chunk

    static func scalar(
        _ levels: MipLevels.Table, plan: PerspectiveSampling.Plan, count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        for k in 0..<count {
            let detail = plan.detail[k / chunk]
            let level = Int(detail >> 8)
            let weight = UInt32(detail & 255)
            let fractions = plan.fractions[k]
            let lower = sample(levels, level, offset: plan.lowerOffset[k], fractions: fractions)
            guard weight > 0 else {
                output[k] = lower
                continue
            }
            let upper = sample(levels, level + 1, offset: plan.upperOffset[k], fractions: fractions >> 16)
            output[k] = MipLevels.mix(lower, upper, weight: weight)
        }
    }

    @inline(__always)
    private static func sample(_ levels: MipLevels.Table, _ level: Int, offset: Int32, fractions: UInt32) -> UInt32 {
        let upper = levels.pixels[level] + Int(offset)
        let lower = upper + levels.rowBytes[level]
        return ScalarKernels.bilinearPixel(
            (
                upper.loadUnaligned(as: UInt32.self), upper.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                lower.loadUnaligned(as: UInt32.self), lower.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
            ), fx: fractions & 255, fy: fractions >> 8 & 255)
    }

    /// Two chunks (16 pixels) a step; an odd last chunk and a partial one go to the twin.
    static func simd(
        _ levels: MipLevels.Table, plan: PerspectiveSampling.Plan, count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 32) { corners in
            let corners = UnsafeMutableRawPointer(corners.baseAddress!)
            var k = 0
            while k + 2 * chunk <= count {
                let step = plan.advanced(by: k)
                let (first, second) = (step.detail[0], step.detail[1])
                let fractions = UnsafeRawPointer(step.fractions).loadUnaligned(as: Words.self)
                gather(levels, Int(first >> 8), step.lowerOffset, into: corners, half: 0)
                gather(levels, Int(second >> 8), step.lowerOffset + chunk, into: corners, half: 1)
                let lower = interpolate(corners, fx: fractions & 255, fy: fractions &>> 8 & 255)
                if (first | second) & 255 == 0 {
                    UnsafeMutableRawPointer(output + k).storeBytes(of: lower, as: Words.self)
                } else {
                    // A chunk that does not mix reads its lower level again, weighted 0.
                    gatherUpper(levels, first, step, into: corners, half: 0)
                    gatherUpper(levels, second, step, into: corners, half: 1)
                    let upper = interpolate(corners, fx: fractions &>> 16 & 255, fy: fractions &>> 24)
                    let weight = Words(
                        lowHalf: SIMD8(repeating: UInt32(first & 255)), highHalf: SIMD8(repeating: UInt32(second & 255)))
                    UnsafeMutableRawPointer(output + k).storeBytes(of: mix(lower, upper, weight), as: Words.self)
                }
                k += 2 * chunk
            }
            if k < count { scalar(levels, plan: plan.advanced(by: k), count: count - k, into: output + k) }
        }
    }

    /// The neighbourhoods of a chunk's pixels in one level, as `SIMDKernels.bilinear` lays them out: the top
    /// pairs (left, right), then 16 pairs on, the bottom pairs; `half` 1 fills the second eight of each.
    @inline(__always)
    private static func gather(
        _ table: MipLevels.Table, _ level: Int, _ offsets: UnsafePointer<Int32>, into corners: UnsafeMutableRawPointer,
        half: Int
    ) {
        let (pixels, rowBytes) = (table.pixels[level], table.rowBytes[level])
        for k in 0..<8 {
            let top = pixels + Int(offsets[k])
            let slot = (8 * half + k) * 8
            corners.storeBytes(of: top.loadUnaligned(as: UInt64.self), toByteOffset: slot, as: UInt64.self)
            corners.storeBytes(
                of: top.loadUnaligned(fromByteOffset: rowBytes, as: UInt64.self), toByteOffset: 128 + slot,
                as: UInt64.self)
        }
    }

    /// `gather` of a chunk's upper level, or of its lower one again when it does not mix.
    @inline(__always)
    private static func gatherUpper(
        _ table: MipLevels.Table, _ detail: Int32, _ plan: PerspectiveSampling.Plan,
        into corners: UnsafeMutableRawPointer, half: Int
    ) {
        let mixes = detail & 255 != 0
        let offsets = (mixes ? plan.upperOffset : plan.lowerOffset) + chunk * half
        gather(table, Int(detail >> 8) + (mixes ? 1 : 0), offsets, into: corners, half: half)
    }

    @inline(__always)
    private static func interpolate(_ corners: UnsafeMutableRawPointer, fx: Words, fy: Words) -> Words {
        let top = UnsafeRawPointer(corners).loadUnaligned(as: SIMD32<UInt32>.self)
        let bottom = UnsafeRawPointer(corners + 128).loadUnaligned(as: SIMD32<UInt32>.self)
        return SIMDKernels.interpolate(
            SIMDKernels.evens(top), SIMDKernels.odds(top), SIMDKernels.evens(bottom), SIMDKernels.odds(bottom), fx: fx,
            fy: fy)
    }

    /// `MipLevels.mix` on 16 pixels: red+blue and green+alpha as two 16-bit fields per lane.
    @inline(__always)
    private static func mix(_ lower: Words, _ upper: Words, _ weight: Words) -> Words {
        typealias Fields = SIMD32<UInt16>
        let both = unsafeBitCast(weight | weight &<< 16, to: Fields.self)
        let rest = Fields(repeating: 256) &- both
        let half = Fields(repeating: 128)
        func fields(_ words: Words) -> Fields { unsafeBitCast(words & 0x00FF_00FF, to: Fields.self) }
        let redBlue = unsafeBitCast(fields(lower) &* rest &+ fields(upper) &* both &+ half, to: Words.self)
        let greenAlpha = unsafeBitCast(
            fields(lower &>> 8) &* rest &+ fields(upper &>> 8) &* both &+ half, to: Words.self)
        return (redBlue &>> 8) & 0x00FF_00FF | greenAlpha & 0xFF00_FF00
    }
}
