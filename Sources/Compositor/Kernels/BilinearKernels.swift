/// The hot loop of a bilinear warp, in fixed point: positions are 16.16 numbers whose bits 8–15 are the
/// weight of the right (lower) neighbour in 1/256, and the four weights' products add up to exactly 2¹⁶,
/// so a result is the exact weighted sum of its corners rounded half up. Premultiplied inputs stay
/// premultiplied: each channel is the same weighted sum, and rounding is monotone.
///
/// `ScalarKernels` (the reference twin: the four products per channel, as the formula reads) and
/// `SIMDKernels` (16 pixels at a time, pairs of channels per 32-bit lane) compute the same integers.
protocol BilinearKernelSet: Sendable {
    /// For k in 0..<count, `output[k]` is `source` sampled at (u[k] + origin.u, v[k] + origin.v), each sum
    /// wrapping in 32 bits: the integer part is the top-left pixel of the 2×2 neighbourhood read, which
    /// must lie inside the image (the caller checks). Each eight consecutive neighbourhoods must lie within 2³¹
    /// bytes of each other, as they do in any image under 2 GiB and, with rows under 2²⁷ bytes, in any warp that
    /// does not minify (the C loops read them through 32-bit offsets). `source` is RGBA8 with rows `bytesPerRow`
    /// apart.
    static func bilinear(
        _ source: UnsafePointer<UInt8>, bytesPerRow: Int, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>,
        origin: (u: Int32, v: Int32), count: Int, into output: UnsafeMutablePointer<UInt32>)

    /// The perspective warp's trilinear loop over a planned run of `count` pixels (`PerspectiveKernels`).
    static func trilinear(
        _ levels: MipLevels.Table, plan: PerspectiveSampling.Plan, count: Int,
        into output: UnsafeMutablePointer<UInt32>)

    /// `sampling.plan(chunk:)` of the `count` chunks of `row` from canvas x `start` into `plan`, each chunk's kind
    /// (`ChunkKind.rawValue`) into `kinds`.
    static func planChunks(
        _ sampling: PerspectiveSampling, from start: Int, count: Int, _ row: PerspectiveSampling.Row,
        into plan: PerspectiveSampling.Plan, kinds: UnsafeMutablePointer<UInt8>)

    /// A turn's first pass over a strip of canvas columns, each value `AxisTurnKernels.lineValue`.
    static func turnColumns(
        _ source: AxisTurnKernels.Source, _ taps: AxisTurnKernels.Taps, into strip: AxisTurnKernels.Strip)

    /// A turn's second pass over a strip's columns into the canvas, each pixel `AxisTurnKernels.rowValue`.
    static func turnRows(
        _ strip: AxisTurnKernels.Strip, terms: UnsafePointer<Float>, into canvas: AxisTurnKernels.Canvas)

    /// A tilt's first pass: `width` pixels, each `AxisTurnKernels.lineValue` of the `count` source rows from
    /// `firstRow`, `bytesPerRow` apart.
    static func tiltCombine(
        _ firstRow: UnsafePointer<UInt8>, bytesPerRow: Int, weights: UnsafePointer<Int16>, count: Int, width: Int,
        into output: UnsafeMutablePointer<UInt32>)

    /// A tilt's second pass: `columns` canvas pixels of a row from its intermediate row, each
    /// `AxisTurnKernels.rowValue`.
    static func tiltAcross(
        _ values: UnsafePointer<UInt32>, sourceWidth: Int, terms: UnsafePointer<Float>, columns: Int,
        into output: UnsafeMutablePointer<UInt32>)
}

extension BilinearKernelSet {
    /// In Swift, a chunk at a time: the reference twin's and the Swift SIMD set's planning.
    static func planChunks(
        _ sampling: PerspectiveSampling, from start: Int, count: Int, _ row: PerspectiveSampling.Row,
        into plan: PerspectiveSampling.Plan, kinds: UnsafeMutablePointer<UInt8>
    ) {
        let chunk = PerspectiveSampling.chunk
        for c in 0..<count {
            kinds[c] = sampling.plan(chunk: start + chunk * c, row, into: plan.advanced(by: chunk * c)).rawValue
        }
    }
}

extension Kernels {
    /// The bilinear loops matching `active`: the scalar twin when `BLURTOOL_KERNELS=reference`.
    static var bilinear: any BilinearKernelSet.Type {
        active as? any BilinearKernelSet.Type ?? SIMDKernels.self
    }
}

extension ScalarKernels: BilinearKernelSet {
    static func bilinear(
        _ source: UnsafePointer<UInt8>, bytesPerRow: Int, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>,
        origin: (u: Int32, v: Int32), count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        for k in 0..<count {
            let x = UInt32(bitPattern: u[k] &+ origin.u)
            let y = UInt32(bitPattern: v[k] &+ origin.v)
            let upper = UnsafeRawPointer(source + Int(y >> 16) * bytesPerRow + Int(x >> 16) * 4)
            let lower = upper + bytesPerRow
            output[k] = bilinearPixel(
                (
                    upper.loadUnaligned(as: UInt32.self), upper.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                    lower.loadUnaligned(as: UInt32.self), lower.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
                ), fx: (x >> 8) & 255, fy: (y >> 8) & 255)
        }
    }

    static func trilinear(
        _ levels: MipLevels.Table, plan: PerspectiveSampling.Plan, count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        PerspectiveKernels.scalar(levels, plan: plan, count: count, into: output)
    }

    /// One pixel from its corners (top-left, top-right, bottom-left, bottom-right) as little-endian RGBA words
    /// and the weights (0..<256) of the right column and the lower row. The warp's edge pixels use it too.
    @inline(__always)
    package static func bilinearPixel(_ corners: (UInt32, UInt32, UInt32, UInt32), fx: UInt32, fy: UInt32) -> UInt32 {
        let weights = ((256 - fx) * (256 - fy), fx * (256 - fy), (256 - fx) * fy, fx * fy)
        var result: UInt32 = 0
        for shift in stride(from: UInt32(0), through: 24, by: 8) {
            let top: UInt32 = (corners.0 >> shift & 255) * weights.0 + (corners.1 >> shift & 255) * weights.1
            let bottom: UInt32 = (corners.2 >> shift & 255) * weights.2 + (corners.3 >> shift & 255) * weights.3
            let sum = top + bottom
            result |= ((sum + 32768) >> 16) << shift
        }
        return result
    }
}

extension SIMDKernels: BilinearKernelSet {
    typealias Words = SIMD16<UInt32>

    /// Pixels per chunk. A chunk's neighbourhoods are loaded first, with scalar loads stored to the stack, then
    /// read back as vectors: filling vector lanes one by one was slower, and so were the hardware gathers LLVM
    /// makes of a neighbourhood loop (gathers are slow on the project's AMD machines).
    /// Whole chunks before any arithmetic let the loads run ahead instead of waiting on each other's stores.
    static let chunk = 32

    static func trilinear(
        _ levels: MipLevels.Table, plan: PerspectiveSampling.Plan, count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        PerspectiveKernels.simd(levels, plan: plan, count: count, into: output)
    }

    static func bilinear(
        _ source: UnsafePointer<UInt8>, bytesPerRow: Int, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>,
        origin: (u: Int32, v: Int32), count: Int, into output: UnsafeMutablePointer<UInt32>
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * chunk) { corners in
            let corners = corners.baseAddress!
            var k = 0
            while k + 16 <= count {
                let n = min(chunk, (count - k) & ~15)
                gather(source, bytesPerRow: bytesPerRow, u: u + k, v: v + k, origin: origin, count: n, into: corners)
                for lane in stride(from: 0, to: n, by: 16) {
                    let x =
                        UnsafeRawPointer(u + k + lane).loadUnaligned(as: Words.self)
                        &+ Words(repeating: UInt32(bitPattern: origin.u))
                    let y =
                        UnsafeRawPointer(v + k + lane).loadUnaligned(as: Words.self)
                        &+ Words(repeating: UInt32(bitPattern: origin.v))
                    let top = UnsafeRawPointer(corners + 2 * lane).loadUnaligned(as: SIMD32<UInt32>.self)
                    let bottom = UnsafeRawPointer(corners + 2 * (chunk + lane)).loadUnaligned(as: SIMD32<UInt32>.self)
                    let pixels = interpolate(
                        evens(top), odds(top), evens(bottom), odds(bottom), fx: (x &>> 8) & 255,
                        fy: (y &>> 8) & 255)
                    UnsafeMutableRawPointer(output + k + lane).storeBytes(of: pixels, as: Words.self)
                }
                k += n
            }
            if k < count {
                ScalarKernels.bilinear(
                    source, bytesPerRow: bytesPerRow, u: u + k, v: v + k, origin: origin, count: count - k,
                    into: output + k)
            }
        }
    }

    /// The neighbourhoods of `count` pixels as two arrays `chunk` pairs apart: the top pairs (left, right
    /// interleaved), then the bottom pairs; the vector loop takes them apart with `evens` and `odds`.
    @inline(__always)
    private static func gather(
        _ source: UnsafePointer<UInt8>, bytesPerRow: Int, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>,
        origin: (u: Int32, v: Int32), count: Int, into corners: UnsafeMutablePointer<UInt32>
    ) {
        for k in 0..<count {
            let x = UInt32(bitPattern: u[k] &+ origin.u)
            let y = UInt32(bitPattern: v[k] &+ origin.v)
            let offset: Int = Int(y >> 16) &* bytesPerRow &+ Int(x >> 16) &* 4
            let upper = UnsafeRawPointer(source + offset)
            let top = upper.loadUnaligned(as: UInt64.self)
            let bottom = upper.loadUnaligned(fromByteOffset: bytesPerRow, as: UInt64.self)
            UnsafeMutableRawPointer(corners).storeBytes(of: top, toByteOffset: k * 8, as: UInt64.self)
            UnsafeMutableRawPointer(corners).storeBytes(of: bottom, toByteOffset: (chunk + k) * 8, as: UInt64.self)
        }
    }

    /// The even lanes, as `evenHalf`, whose specialisation stays a call inside the larger kernels; constant lane
    /// indices compile to shuffles.
    @inline(__always)
    static func evens(_ v: SIMD32<UInt32>) -> Words {
        Words(v[0], v[2], v[4], v[6], v[8], v[10], v[12], v[14], v[16], v[18], v[20], v[22], v[24], v[26], v[28], v[30])
    }

    /// The odd lanes, as `oddHalf` (see `evens`).
    @inline(__always)
    static func odds(_ v: SIMD32<UInt32>) -> Words {
        Words(v[1], v[3], v[5], v[7], v[9], v[11], v[13], v[15], v[17], v[19], v[21], v[23], v[25], v[27], v[29], v[31])
    }

    /// The across step on red+blue and green+alpha as two 16-bit fields per lane (each at most 255 · 256, so
    /// no carry crosses), then the down step per channel in 32 bits. The across step multiplies 16-bit lanes:
    /// the x86-64 baseline (SSE2) has a 16-bit multiply but no 32-bit one (`pmulld` is SSE4.1), which LLVM
    /// builds from two 64-bit `pmuludq` and shuffles; AVX2 runs `vpmullw` as one µop against `vpmulld`'s two.
    @inline(__always)
    static func interpolate(
        _ topLeft: Words, _ topRight: Words, _ bottomLeft: Words, _ bottomRight: Words, fx: Words, fy: Words
    ) -> Words {
        typealias Fields = SIMD32<UInt16>
        @inline(__always) func fields(_ words: Words) -> Fields {
            unsafeBitCast(words & 0x00FF_00FF, to: Fields.self)
        }
        @inline(__always) func across(
            _ left: Words, _ right: Words, _ weightLeft: Fields, _ weightRight: Fields
        )
            -> Words
        {
            unsafeBitCast(fields(left) &* weightLeft &+ fields(right) &* weightRight, to: Words.self)
        }
        let low = Words(repeating: 0xFFFF)
        let left = 256 &- fx
        let upper = 256 &- fy
        // Each weight in both halves of its lane, for the two fields.
        let leftFields = unsafeBitCast(left | left &<< 16, to: Fields.self)
        let fxFields = unsafeBitCast(fx | fx &<< 16, to: Fields.self)
        let redBlueTop = across(topLeft, topRight, leftFields, fxFields)
        let greenAlphaTop = across(topLeft &>> 8, topRight &>> 8, leftFields, fxFields)
        let redBlueBottom = across(bottomLeft, bottomRight, leftFields, fxFields)
        let greenAlphaBottom = across(bottomLeft &>> 8, bottomRight &>> 8, leftFields, fxFields)
        let half = Words(repeating: 32768)
        let red = ((redBlueTop & low) &* upper &+ (redBlueBottom & low) &* fy &+ half) &>> 16
        let green = ((greenAlphaTop & low) &* upper &+ (greenAlphaBottom & low) &* fy &+ half) &>> 16
        let blue = ((redBlueTop &>> 16) &* upper &+ (redBlueBottom &>> 16) &* fy &+ half) &>> 16
        let alpha = ((greenAlphaTop &>> 16) &* upper &+ (greenAlphaBottom &>> 16) &* fy &+ half) &>> 16
        return red | green &<< 8 | blue &<< 16 | alpha &<< 24
    }
}
