/// For one axis of a resize: which source pixels each output pixel reads, and with what weights.
///
/// Output pixel i covers the source interval [start + i·scale, start + (i + 1)·scale) with
/// scale = length / count, and is centred there. When shrinking (scale > 1) the filter is stretched by
/// the scale so it averages every source pixel it covers (no aliasing), as Pillow and libvips do. Taps
/// outside the image are dropped and the rest renormalised, so edges neither darken nor fade.
struct ResampleWeights: Sendable {
    /// The first source index each output pixel reads.
    let first: [Int]
    /// Taps per output pixel (every row has `taps` entries; unused ones are zero).
    let taps: Int
    let weights: [Float]

    init(filter: ResampleFilter, sourceCount: Int, start: Double, length: Double, count: Int) {
        let scale = length / Double(count)
        let stretch = max(scale, 1)
        let reach = filter.support * stretch
        // The filter is zero from `reach` on, so the open interval (centre − reach, centre + reach) holds
        // every tap that counts: at most ⌈2·reach⌉ whole numbers.
        let taps = max(1, Int((2 * reach).rounded(.up)))
        var first = [Int](repeating: 0, count: count)
        var weights = [Float](repeating: 0, count: count * taps)
        var values = [Double](repeating: 0, count: taps)
        for i in 0..<count {
            let centre = start + (Double(i) + 0.5) * scale - 0.5
            let pixels = 0...max(sourceCount - 1, 0)
            var low = Int(saturating: (centre - reach).rounded(.up), within: pixels)
            if filter == .nearest {  // the one pixel it lands in
                low = Int(saturating: (centre + 0.5).rounded(.down), within: pixels)
            }
            var total = 0.0
            for k in 0..<taps {
                let j = low + k
                values[k] =
                    j >= sourceCount
                    ? 0
                    : filter == .nearest ? (k == 0 ? 1 : 0) : filter.weight((Double(j) - centre) / stretch)
                total += values[k]
            }
            if total == 0 {  // a degenerate window (a 1-pixel source): take the nearest pixel
                values[0] = 1
                total = 1
            }
            first[i] = low
            for k in 0..<taps { weights[i * taps + k] = Float(values[k] / total) }
        }
        self.first = first
        self.taps = taps
        self.weights = weights
    }

    /// Weights that average groups of `factor` consecutive outputs of `frame` (a resize to `frameCount`
    /// pixels): cell i averages outputs (firstCell + i)·factor ..< (firstCell + i + 1)·factor, read through
    /// `edgeMode` (an output read as transparent adds nothing). Resampling with these equals resampling with
    /// `frame` and then averaging the cells, without making the frame: the sum is linear.
    init(cellsOf frame: ResampleWeights, frameCount: Int, factor: Int, firstCell: Int, count: Int, edgeMode: EdgeMode) {
        func outputs(_ cell: Int) -> [Int] {
            (0..<factor).map { edgeMode.sourceIndex((firstCell + cell) * factor + $0, count: frameCount) }
                .filter { $0 >= 0 }
        }
        // Each cell reads from its outputs' lowest first tap to their highest nonzero one.
        var first = [Int](repeating: 0, count: count)
        var taps = 1
        for cell in 0..<count {
            var low = Int.max
            var high = Int.min
            for x in outputs(cell) {
                for k in 0..<frame.taps where frame.weights[x * frame.taps + k] != 0 {
                    low = min(low, frame.first[x] + k)
                    high = max(high, frame.first[x] + k)
                }
            }
            if low <= high {
                first[cell] = low
                taps = max(taps, high - low + 1)
            }
        }
        var weights = [Float](repeating: 0, count: count * taps)
        var sums = [Double](repeating: 0, count: taps)
        for cell in 0..<count {
            for k in 0..<taps { sums[k] = 0 }
            for x in outputs(cell) {
                for k in 0..<frame.taps where frame.weights[x * frame.taps + k] != 0 {
                    sums[frame.first[x] + k - first[cell]] += Double(frame.weights[x * frame.taps + k])
                }
            }
            for k in 0..<taps { weights[cell * taps + k] = Float(sums[k] / Double(factor)) }
        }
        self.first = first
        self.taps = taps
        self.weights = weights
    }

    /// The layout `resampleRow` reads: each first tap counted from `firstColumn`, and `taps` (≥ these
    /// weights' taps, even) weights per output, each repeated for the four channels, zero past the real ones.
    func writeRowLayout(
        firstColumn: Int, taps: Int, first: UnsafeMutablePointer<Int>, weights: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<self.first.count {
            first[i] = self.first[i] - firstColumn
            for k in 0..<taps {
                let weight = k < self.taps ? self.weights[i * self.taps + k] : 0
                for c in 0..<4 { weights[(i * taps + k) * 4 + c] = weight }
            }
        }
    }
}
