/// A row given as the mix `upper + t · (lower − upper)` of two Float rows, as the pyramid makes its rows from
/// two upsampled small rows; a blur that has the row itself gives it as `upper` and `lower` with t = 0.
public struct MixedRow {
    public let upper: UnsafePointer<Float>
    public let lower: UnsafePointer<Float>
    public let t: Float

    public init(upper: UnsafePointer<Float>, lower: UnsafePointer<Float>, t: Float) {
        self.upper = upper
        self.lower = lower
        self.t = t
    }

    /// A row that is already whole.
    public init(_ row: UnsafePointer<Float>) {
        self.init(upper: row, lower: row, t: 0)
    }

    /// Writes the first `count` Floats (pixels · 4) of the mix, as `ConvolutionKernelSet.interpolate` does.
    public func write(count: Int, into destination: UnsafeMutablePointer<Float>) {
        if upper == lower && t == 0 {
            if destination != upper { destination.update(from: upper, count: count) }
        } else {
            SIMDKernels.interpolate(upper, lower, t: t, count: count, into: destination)
        }
    }
}

extension Quantizer {
    /// Rounds a mixed row exactly as `quantize` rounds the row `write` makes, without writing that row: the
    /// pyramid's rows go from two upsampled rows (in cache) straight to bytes, instead of through a Float row as
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
        let ditherRow = NoiseTile.dither.row(y)
        let (upper, lower, t) = (row.upper, row.lower, row.t)
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            let output = destination + x * 4
            let a = upper + x * 4
            let b = lower + x * 4
            // Written as `SIMDKernels.interpolate` mixes, lane by lane, in loops the compiler vectorises.
            if dither {
                let tile = ditherRow + ((firstX + x) & NoiseTile.mask) * 4
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(a[i] + t * (b[i] - a[i]) + tile[i]) }
            } else {
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(a[i] + t * (b[i] - a[i])) }
            }
            x += run
        }
        Quantizer.limitColoursToAlpha(destination, count: count)
    }
}
