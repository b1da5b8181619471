/// A row given as the mix `((w₀·r₀ + w₁·r₁) + w₂·r₂) + w₃·r₃` of four Float rows, as the pyramid makes its rows
/// from four upsampled small rows; a blur that has the row itself gives it alone (`init(_:)`). Where w₀ and w₃
/// are zero, r₀ and r₃ are never read (a linear mix need not fill them) and the mix is w₁·r₁ + w₂·r₂, which is
/// the same value.
public struct MixedRow {
    public let rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>)
    public let weights: SIMD4<Float>

    public init(
        _ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, _ third: UnsafePointer<Float>,
        _ fourth: UnsafePointer<Float>, weights: SIMD4<Float>
    ) {
        rows = (first, second, third, fourth)
        self.weights = weights
    }

    /// A row that is already whole.
    public init(_ row: UnsafePointer<Float>) {
        self.init(row, row, row, row, weights: SIMD4(0, 1, 0, 0))
    }

    /// The row itself when it is whole, else nil.
    var whole: UnsafePointer<Float>? {
        weights == SIMD4(0, 1, 0, 0) ? rows.1 : nil
    }

    /// Writes the first `count` Floats (pixels · 4) of the mix.
    public func write(count: Int, into destination: UnsafeMutablePointer<Float>) {
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

extension Quantizer {
    /// Rounds a mixed row exactly as `quantize` rounds the row `write` makes, without writing that row: the
    /// pyramid's rows go from four upsampled rows (in cache) straight to bytes, instead of through a Float row as
    /// wide as the image and back. The same two passes as `quantize`, the first mixing as it rounds.
    /// - Parameters:
    ///   - rowScratch, grainScratch: room for `count * 4` Floats each, used only when `grain` is not zero.
    public func quantize(
        _ row: MixedRow, count: Int, into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int = 0,
        rowScratch: UnsafeMutablePointer<Float>, grainScratch: UnsafeMutablePointer<Float>
    ) {
        guard grain == 0 else {
            row.write(count: count * 4, into: rowScratch)
            quantize(rowScratch, count: count, into: destination, y: y, firstX: firstX, grainScratch: grainScratch)
            return
        }
        if let whole = row.whole {
            quantize(whole, count: count, into: destination, y: y, firstX: firstX)
            return
        }
        if row.weights[0] == 0 && row.weights[3] == 0 {
            quantizeMiddle(row, count: count, into: destination, y: y, firstX: firstX)
            return
        }
        let ditherRow = NoiseTile.dither.row(y)
        let (w0, w1, w2, w3) = (row.weights[0], row.weights[1], row.weights[2], row.weights[3])
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            let output = destination + x * 4
            let (r0, r1, r2, r3) = (row.rows.0 + x * 4, row.rows.1 + x * 4, row.rows.2 + x * 4, row.rows.3 + x * 4)
            // The same expression as `MixedRow.value`, in loops the compiler vectorises.
            if dither {
                let tile = ditherRow + ((firstX + x) & NoiseTile.mask) * 4
                for i in 0..<(run * 4) {
                    output[i] = Quantizer.byte(w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i] + tile[i])
                }
            } else {
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i]) }
            }
            x += run
        }
        Quantizer.limitColoursToAlpha(destination, count: count)
    }

    /// `quantize` of a mix whose outer weights are zero (a linear mix, or a cubic at a small sample): the same
    /// values, as adding exact zeros changes nothing, from half the rows.
    private func quantizeMiddle(
        _ row: MixedRow, count: Int, into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int
    ) {
        let ditherRow = NoiseTile.dither.row(y)
        let (w1, w2) = (row.weights[1], row.weights[2])
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            let output = destination + x * 4
            let (r1, r2) = (row.rows.1 + x * 4, row.rows.2 + x * 4)
            if dither {
                let tile = ditherRow + ((firstX + x) & NoiseTile.mask) * 4
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(w1 * r1[i] + w2 * r2[i] + tile[i]) }
            } else {
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(w1 * r1[i] + w2 * r2[i]) }
            }
            x += run
        }
        Quantizer.limitColoursToAlpha(destination, count: count)
    }
}
