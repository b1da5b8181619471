/// The pyramid blur's loops at full resolution: summing blocks of bytes into cells on the way down, and
/// interpolating a row of cells back out to pixels on the way up. `ScalarKernels` states each plainly (the
/// reference twin); `SIMDKernels` computes the same values 16 lanes at a time. Sums of integers are exact in any
/// order, and the interpolation does the same two Float operations per lane, so the twins agree to the bit.
protocol PyramidKernelSet: Sendable {
    /// `sums[i] = Σᵣ rows[r][i]` for i in 0..<count, over `rowCount` rows of bytes (zeros when there are none).
    static func sumRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt32>)

    /// `sumRows` into 16-bit sums, for at most `maximumNarrowRows` rows (255 · 257 = 65,535): half the widening
    /// and half the memory of 32-bit sums.
    static func sumNarrowRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt16>)

    /// For cell i in 0..<count and channel c, `output[i·4 + c] = Float(Σₖ sums[(i·factor + k)·4 + c]) · scale` with
    /// k in 0..<factor: each run of `factor` RGBA pixels summed and scaled.
    static func sumCells(
        _ sums: UnsafePointer<UInt32>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>)

    /// `sumCells` of 16-bit row sums (the cell sums are 32-bit).
    static func sumNarrowCells(
        _ sums: UnsafePointer<UInt16>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>)

    /// `output[i] = Σₖ weights[k] · line[i + 4k]` for i in 0..<count, k in order: `ConvolutionKernelSet.convolve`
    /// along interleaved RGBA, for the small grid's horizontal pass.
    static func convolveAcross(
        _ line: UnsafePointer<Float>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>)

    /// Pixel x in 0..<columns.count, channel c: `(((0 + w₀·s₋₁) + w₁·s₀) + w₂·s₁) + w₃·s₂` with
    /// sₖ = cells[(i + k)·4 + c] and (i, w) = `columns.taps[x]`.
    static func upsample(
        _ cells: UnsafePointer<Float>, columns: UpsampleColumns, into output: UnsafeMutablePointer<Float>)
}

/// The most rows whose byte sums fit 16 bits.
let maximumNarrowRows = Int(UInt16.max) / Int(UInt8.max)

extension Kernels {
    /// The pyramid loops that go with `kernels`: its own where it has them (the scalar twins, a C level),
    /// else the Swift SIMD ones.
    static func pyramid(matching kernels: any ConvolutionKernelSet.Type) -> any PyramidKernelSet.Type {
        kernels as? any PyramidKernelSet.Type ?? SIMDKernels.self
    }
}

extension ScalarKernels: PyramidKernelSet {
    static func convolveAcross(
        _ line: UnsafePointer<Float>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        convolve(line, step: 4, weights: weights, count: count, into: output)
    }

    static func sumRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt32>
    ) {
        rowSums(rows, rowCount: rowCount, columns: 0..<count, into: sums)
    }

    static func sumNarrowRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt16>
    ) {
        precondition(rowCount <= maximumNarrowRows)
        rowSums(rows, rowCount: rowCount, columns: 0..<count, into: sums)
    }

    static func sumNarrowCells(
        _ sums: UnsafePointer<UInt16>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        cellSums(sums, factor: factor, count: count, scale: scale, into: output)
    }

    static func sumCells(
        _ sums: UnsafePointer<UInt32>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        cellSums(sums, factor: factor, count: count, scale: scale, into: output)
    }

    /// `sums[j] = Σᵣ rows[r][j]` for j in `columns`, in the width of `Sum` (the SIMD loops' tails call it too).
    static func rowSums<Sum: FixedWidthInteger>(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, columns: Range<Int>,
        into sums: UnsafeMutablePointer<Sum>
    ) {
        for j in columns {
            var sum: Sum = 0
            for r in 0..<rowCount { sum &+= Sum(rows[r][j]) }
            sums[j] = sum
        }
    }

    /// Each cell's `factor` pixels summed per channel in 32 bits and scaled.
    private static func cellSums<Sum: FixedWidthInteger>(
        _ sums: UnsafePointer<Sum>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count {
            for c in 0..<4 {
                var sum: UInt32 = 0
                for k in 0..<factor { sum &+= UInt32(sums[(i * factor + k) * 4 + c]) }
                output[i * 4 + c] = Float(sum) * scale
            }
        }
    }
}

extension SIMDKernels: PyramidKernelSet {
    /// 16 bytes widened to 32-bit lanes: a lane loop LLVM folds into one vpmovzxbd (the generic conversion
    /// stays per lane, shared/SWIFT-PERFORMANCE.md).
    @inline(__always)
    private static func words(_ bytes: UnsafePointer<UInt8>) -> SIMD16<UInt32> {
        var result = SIMD16<UInt32>()
        for lane in 0..<16 { result[lane] = UInt32(bytes[lane]) }
        return result
    }

    /// Four cache lines' worth of columns per step, the rows added two at a time in registers, the sums stored
    /// once. (One row per step left the loop waiting on loads, clearly slower even at f = 3.)
    static func sumRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt32>
    ) {
        var i = 0
        while i + 64 <= count {
            var a0 = SIMD16<UInt32>(repeating: 0)
            var a1 = a0
            var a2 = a0
            var a3 = a0
            var r = 0
            while r + 2 <= rowCount {
                let p = rows[r] + i
                let q = rows[r + 1] + i
                a0 &+= words(p) &+ words(q)
                a1 &+= words(p + 16) &+ words(q + 16)
                a2 &+= words(p + 32) &+ words(q + 32)
                a3 &+= words(p + 48) &+ words(q + 48)
                r += 2
            }
            if r < rowCount {
                let p = rows[r] + i
                a0 &+= words(p)
                a1 &+= words(p + 16)
                a2 &+= words(p + 32)
                a3 &+= words(p + 48)
            }
            let out = UnsafeMutableRawPointer(sums + i)
            out.storeBytes(of: a0, as: SIMD16<UInt32>.self)
            out.storeBytes(of: a1, toByteOffset: 64, as: SIMD16<UInt32>.self)
            out.storeBytes(of: a2, toByteOffset: 128, as: SIMD16<UInt32>.self)
            out.storeBytes(of: a3, toByteOffset: 192, as: SIMD16<UInt32>.self)
            i += 64
        }
        ScalarKernels.rowSums(rows, rowCount: rowCount, columns: i..<count, into: sums)
    }

    /// 32 bytes widened to 16-bit lanes: one vpmovzxbw, when the bytes are loaded as one vector first (a lane
    /// loop reading memory, as `words` does, stayed 32 byte loads here).
    @inline(__always)
    private static func halfWords(_ bytes: UnsafePointer<UInt8>) -> SIMD32<UInt16> {
        let loaded = UnsafeRawPointer(bytes).loadUnaligned(as: SIMD32<UInt8>.self)
        var result = SIMD32<UInt16>()
        for lane in 0..<32 { result[lane] = UInt16(loaded[lane]) }
        return result
    }

    /// `sumRows` in 16-bit lanes: 32 columns per widening instead of 16, the sums half as large, so half the
    /// widenings and half the sum traffic. 256 columns per step where they fit: each row is then read in runs of
    /// four cache lines, which the many rows of a large factor (30 at σ 100) need to keep the prefetcher ahead.
    static func sumNarrowRows(
        _ rows: UnsafePointer<UnsafePointer<UInt8>>, rowCount: Int, count: Int, into sums: UnsafeMutablePointer<UInt16>
    ) {
        precondition(rowCount <= maximumNarrowRows)
        var i = 0
        while i + 256 <= count {
            var a = (SIMD32<UInt16>(), SIMD32<UInt16>(), SIMD32<UInt16>(), SIMD32<UInt16>())
            var b = a
            var r = 0
            while r + 2 <= rowCount {
                let p = rows[r] + i
                let q = rows[r + 1] + i
                a.0 &+= halfWords(p) &+ halfWords(q)
                a.1 &+= halfWords(p + 32) &+ halfWords(q + 32)
                a.2 &+= halfWords(p + 64) &+ halfWords(q + 64)
                a.3 &+= halfWords(p + 96) &+ halfWords(q + 96)
                b.0 &+= halfWords(p + 128) &+ halfWords(q + 128)
                b.1 &+= halfWords(p + 160) &+ halfWords(q + 160)
                b.2 &+= halfWords(p + 192) &+ halfWords(q + 192)
                b.3 &+= halfWords(p + 224) &+ halfWords(q + 224)
                r += 2
            }
            if r < rowCount {
                let p = rows[r] + i
                a.0 &+= halfWords(p)
                a.1 &+= halfWords(p + 32)
                a.2 &+= halfWords(p + 64)
                a.3 &+= halfWords(p + 96)
                b.0 &+= halfWords(p + 128)
                b.1 &+= halfWords(p + 160)
                b.2 &+= halfWords(p + 192)
                b.3 &+= halfWords(p + 224)
            }
            let out = UnsafeMutableRawPointer(sums + i)
            out.storeBytes(of: a.0, as: SIMD32<UInt16>.self)
            out.storeBytes(of: a.1, toByteOffset: 64, as: SIMD32<UInt16>.self)
            out.storeBytes(of: a.2, toByteOffset: 128, as: SIMD32<UInt16>.self)
            out.storeBytes(of: a.3, toByteOffset: 192, as: SIMD32<UInt16>.self)
            out.storeBytes(of: b.0, toByteOffset: 256, as: SIMD32<UInt16>.self)
            out.storeBytes(of: b.1, toByteOffset: 320, as: SIMD32<UInt16>.self)
            out.storeBytes(of: b.2, toByteOffset: 384, as: SIMD32<UInt16>.self)
            out.storeBytes(of: b.3, toByteOffset: 448, as: SIMD32<UInt16>.self)
            i += 256
        }
        while i + 32 <= count {  // the rest of the row, a vector at a time
            var sum = SIMD32<UInt16>(repeating: 0)
            for r in 0..<rowCount { sum &+= halfWords(rows[r] + i) }
            UnsafeMutableRawPointer(sums + i).storeBytes(of: sum, as: SIMD32<UInt16>.self)
            i += 32
        }
        ScalarKernels.rowSums(rows, rowCount: rowCount, columns: i..<count, into: sums)
    }

    /// Four vectors per step: each sum waits only on its own previous add, so four chains of adds overlap (with
    /// two, as in `convolve`, the adds' latency set the pace at small-grid kernel lengths).
    static func convolveAcross(
        _ line: UnsafePointer<Float>, weights: UnsafeBufferPointer<Float>, count: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        let w = weights.baseAddress!
        var i = 0
        while i + 64 <= count {
            var a0 = SIMD16<Float>(repeating: 0)
            var a1 = a0
            var a2 = a0
            var a3 = a0
            var p = UnsafeRawPointer(line + i)
            for k in 0..<weights.count {
                let weight = SIMD16<Float>(repeating: w[k])
                a0 = a0 + weight * p.loadUnaligned(as: SIMD16<Float>.self)
                a1 = a1 + weight * p.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
                a2 = a2 + weight * p.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self)
                a3 = a3 + weight * p.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self)
                p += 16
            }
            let out = UnsafeMutableRawPointer(output + i)
            out.storeBytes(of: a0, as: SIMD16<Float>.self)
            out.storeBytes(of: a1, toByteOffset: 64, as: SIMD16<Float>.self)
            out.storeBytes(of: a2, toByteOffset: 128, as: SIMD16<Float>.self)
            out.storeBytes(of: a3, toByteOffset: 192, as: SIMD16<Float>.self)
            i += 64
        }
        if i < count {
            convolve(line + i, step: 4, weights: weights, count: count - i, into: output + i)
        }
    }

    @inline(__always)
    private static func pixel(_ sums: UnsafePointer<UInt32>) -> SIMD4<UInt32> {
        UnsafeRawPointer(sums).loadUnaligned(as: SIMD4<UInt32>.self)
    }

    @inline(__always)
    private static func narrowPixel(_ sums: UnsafePointer<UInt16>) -> SIMD4<UInt32> {
        let value = UnsafeRawPointer(sums).loadUnaligned(as: SIMD4<UInt16>.self)
        return SIMD4(UInt32(value[0]), UInt32(value[1]), UInt32(value[2]), UInt32(value[3]))
    }

    /// `sumCells` of 16-bit sums, the same way.
    static func sumNarrowCells(
        _ sums: UnsafePointer<UInt16>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        let done = sumCellsByFour(sums, factor: factor, count: count, scale: scale, into: output, pixel: narrowPixel)
        if done < count {
            ScalarKernels.sumNarrowCells(
                sums + done * factor * 4, factor: factor, count: count - done, scale: scale, into: output + done * 4)
        }
    }

    static func sumCells(
        _ sums: UnsafePointer<UInt32>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        let done = sumCellsByFour(sums, factor: factor, count: count, scale: scale, into: output, pixel: pixel)
        if done < count {
            ScalarKernels.sumCells(
                sums + done * factor * 4, factor: factor, count: count - done, scale: scale, into: output + done * 4)
        }
    }

    /// One cell per SIMD4 sum; four cells converted and scaled as one SIMD16. Returns the cells done, a multiple
    /// of four; the caller's scalar twin does the rest.
    @inline(__always)
    private static func sumCellsByFour<Sum>(
        _ sums: UnsafePointer<Sum>, factor: Int, count: Int, scale: Float, into output: UnsafeMutablePointer<Float>,
        pixel: (UnsafePointer<Sum>) -> SIMD4<UInt32>
    ) -> Int {
        @inline(__always)
        func cell(_ i: Int) -> SIMD4<UInt32> {
            var p = sums + i * factor * 4
            var sum = pixel(p)
            for _ in 1..<factor {
                p += 4
                sum &+= pixel(p)
            }
            return sum
        }
        let scales = SIMD16<Float>(repeating: scale)
        var i = 0
        while i + 4 <= count {
            let words = SIMD16(
                lowHalf: SIMD8(lowHalf: cell(i), highHalf: cell(i + 1)),
                highHalf: SIMD8(lowHalf: cell(i + 2), highHalf: cell(i + 3)))
            var values = SIMD16<Float>()
            for lane in 0..<16 { values[lane] = Float(words[lane]) }
            UnsafeMutableRawPointer(output + i * 4).storeBytes(of: values * scales, as: SIMD16<Float>.self)
            i += 4
        }
        return i
    }
}
