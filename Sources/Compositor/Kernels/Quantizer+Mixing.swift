/// A row given as the mix `((w₀·r₀ + w₁·r₁) + w₂·r₂) + w₃·r₃` of four Float rows, as the pyramid makes its rows
/// from four upsampled small rows; a blur that has the row itself gives it alone (`init(_:)`). Where w₀ and w₃
/// are zero, r₀ and r₃ are never read (a linear mix need not fill them) and the mix is w₁·r₁ + w₂·r₂, which is
/// the same value.
struct MixedRow {
    let rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)
    let weights: SIMD4<Float>

    init(
        _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ third: UnsafePointer<Float>,
        _ fourth: UnsafePointer<Float>, weights: SIMD4<Float>
    ) {
        rows = (first, second, third, fourth)
        self.weights = weights
    }

    /// A row that is already whole.
    init(_ row: UnsafePointer<Float>) {
        self.init(row, row, row, row, weights: SIMD4(0, 1, 0, 0))
    }

    /// The row itself when it is whole, else nil.
    var whole: UnsafePointer<Float>? {
        weights == SIMD4(0, 1, 0, 0) ? rows.1 : nil
    }

    /// Writes the first `count` Floats (pixels · 4) of the mix.
    func write(count: Int, into destination: UnsafeMutablePointer<Float>) {
        if let whole {
            if destination != whole { destination.update(from: whole, count: count) }
            return
        }
        let (r0, r1, r2, r3) = rows
        let (w0, w1, w2, w3) = (weights[0], weights[1], weights[2], weights[3])
        if w0 == 0 && w3 == 0 {  // the outer rows may not hold anything (a linear mix): leave them unread
            for i in 0..<count { destination[i] = w1 * r1[i] + w2 * r2[i] }
        } else {
            for i in 0..<count { destination[i] = w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i] }
        }
    }
}

/// Rows that mix the same four rows, each with its own weights: the pyramid's rows between two small rows.
struct MixedRowGroup {
    let rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)
    /// One set of weights per row of the group.
    let weights: UnsafeBufferPointer<SIMD4<Float>>

    init(
        _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
        weights: UnsafeBufferPointer<SIMD4<Float>>
    ) {
        self.rows = rows
        self.weights = weights
    }

    var count: Int { weights.count }

    subscript(row: Int) -> MixedRow {
        MixedRow(rows.0, rows.1, rows.2, rows.3, weights: weights[row])
    }
}

extension Quantizer {
    /// Rounds a mixed row exactly as `quantize` rounds the row `write` makes, without writing that row: the
    /// pyramid's rows go from four upsampled rows (in cache) straight to bytes, instead of through a Float row as
    /// wide as the image and back. The same two passes as `quantize`, the first mixing as it rounds.
    /// - Parameters:
    ///   - rowScratch, grainScratch: room for `count * 4` Floats each, used only when `grain` is not zero.
    func quantize(
        _ row: MixedRow, count: Int, into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int = 0,
        rowScratch: UnsafeMutablePointer<Float>, grainScratch: UnsafeMutablePointer<Float>
    ) {
        guard grain == 0 else {
            row.write(count: count * 4, into: rowScratch)
            quantize(rowScratch, count: count, into: destination, y: y, firstX: firstX, grainScratch: grainScratch)
            return
        }
        quantizeWhole(row, count: count, into: destination, y: y, firstX: firstX)
    }

    /// `quantize` of one mixed row without grain.
    private func quantizeWhole(
        _ row: MixedRow, count: Int, into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int
    ) {
        if let whole = row.whole {
            quantize(whole, count: count, into: destination, y: y, firstX: firstX)
            return
        }
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            quantizeRun(row, x: x, pixels: run, into: destination, y: y, firstX: firstX)
            x += run
        }
        Quantizer.limitColoursToAlpha(destination, count: count, loops: loops)
    }

    /// `quantize` of each row of `group` (without grain), row r into `destination + r · bytesPerRow`, as the row
    /// y + r of the noise: the same bytes. Cubic mixes are made a run of 128 pixels at a time for every row of the
    /// group, so the runs of the four shared rows (8 KB) are read from L1 for each row instead of from L2 (256 KB a
    /// row at 12 MP), which is what makes grouping pay. Linear mixes, two rows, were slower that way.
    func quantize(
        _ group: MixedRowGroup, count: Int, into destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, y: Int,
        firstX: Int = 0
    ) {
        precondition(grain == 0, "grain is added row by row")
        guard group.weights.contains(where: { $0[0] != 0 || $0[3] != 0 }) else {
            // Two rows a mix (linear): row by row is faster, the loops longer and the rows' reads half as many.
            for r in 0..<group.count {
                quantizeWhole(group[r], count: count, into: destination + r * bytesPerRow, y: y + r, firstX: firstX)
            }
            return
        }
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            for r in 0..<group.count {
                quantizeRun(group[r], x: x, pixels: run, into: destination + r * bytesPerRow, y: y + r, firstX: firstX)
            }
            x += run
        }
        for r in 0..<group.count {
            Quantizer.limitColoursToAlpha(destination + r * bytesPerRow, count: count, loops: loops)
        }
    }

    /// Pixels x..<x + pixels of a mixed row to bytes (before colours are limited to alpha), in loops the compiler
    /// vectorises. Outer weights of zero leave the outer rows unread (they may hold nothing, see `MixedRow`).
    @inline(__always)
    private func quantizeRun(
        _ row: MixedRow, x: Int, pixels: Int, into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int
    ) {
        let output = destination + x * 4
        let (r0, r1, r2, r3) = (row.rows.0 + x * 4, row.rows.1 + x * 4, row.rows.2 + x * 4, row.rows.3 + x * 4)
        let (w0, w1, w2, w3) = (row.weights[0], row.weights[1], row.weights[2], row.weights[3])
        let tile = NoiseTile.dither.row(y) + ((firstX + x) & NoiseTile.mask) * 4
        let count = pixels * 4
        if let loops {
            withUnsafePointer(to: row.weights) { weights in
                weights.withMemoryRebound(to: Float.self, capacity: 4) { w in
                    loops.mix_quantize(r0, r1, r2, r3, w, dither ? tile : nil, count, output)
                }
            }
            return
        }
        switch (w0 == 0 && w3 == 0, dither) {
        case (true, true):
            for i in 0..<count { output[i] = Quantizer.byte(w1 * r1[i] + w2 * r2[i] + tile[i]) }
        case (true, false):
            for i in 0..<count { output[i] = Quantizer.byte(w1 * r1[i] + w2 * r2[i]) }
        case (false, true):
            for i in 0..<count {
                output[i] = Quantizer.byte(w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i] + tile[i])
            }
        case (false, false):
            for i in 0..<count { output[i] = Quantizer.byte(w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i]) }
        }
    }
}
