// The SPI for `ScalarKernels.bilinearPixel`, the bilinear twin a curl samples its page with.
@_spi(Benchmarks) import Compositor

/// Drawing a curl row by row: each run of pixels mapped, sampled and quantised to weights, then layered by
/// `PageCurlKernels`.
extension CurlGeometry {
    /// Pixels per run: its samples and weights (eight words a pixel) stay in L1 until they are layered.
    static let run = 128

    /// Output row `y` into `destination`, sampling `padded` (the page with its last column and row repeated).
    func drawRow(_ y: Int, from padded: Image, into destination: UnsafeMutablePointer<UInt8>) {
        let width = Int(self.width)
        let count = CurlGeometry.run
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: (2 + PageCurlKernels.Weights.planes) * count) {
            let base = $0.baseAddress!
            let (backs, fronts) = (base, base + count)
            let weights = PageCurlKernels.Weights(base: base + 2 * count, count: count)
            var start = 0
            while start < width {
                // The distance behind the axis is linear along the row, so each kind covers whole runs.
                let kind = self.kind(x: start, y: y)
                var end = start + 1
                while end < width, kind != .curled || end - start < count, self.kind(x: end, y: y) == kind {
                    end += 1
                }
                let n = end - start
                switch kind {
                case .flat:
                    (destination + start * 4).update(from: padded.row(y) + start * 4, count: n * 4)
                case .gone:
                    (destination + start * 4).update(repeating: 0, count: n * 4)
                case .curled:
                    for k in 0..<n {
                        let point = self.point(x: start + k, y: y)
                        backs[k] = sample(padded, at: point.back)
                        fronts[k] = sample(padded, at: point.front)
                        store(CurlGeometry.weights(of: point), at: k, in: weights)
                    }
                    PageCurlKernels.layer(
                        back: backs, front: fronts, weights: weights, count: n, into: destination + start * 4)
                }
                start = end
            }
        }
    }

    enum Kind { case flat, gone, curled }

    /// Which pixels need no mapping: `flat` ones lie ahead of the axis where no fold reaches (the fold's page would
    /// lie more than a pixel behind the page's rearmost point, so its coverage is 0 and the front is the pixel
    /// itself, weight 256: the layering would return the page's pixel exactly), `gone` ones behind the roll, its
    /// shadow and their anti-aliasing (every weight 0).
    func kind(x: Int, y: Int) -> Kind {
        let behind = axis - ((Double(x) + 0.5) * n.x + (Double(y) + 0.5) * n.y - rearmost)
        if behind < min(0, Double.pi * r - axis - 1) { return .flat }
        if behind > r + shadowWidth + 0.5 { return .gone }
        return .curled
    }

    /// The page bilinearly at a point (pixel centres at i + 0.5), clamped to the page, its position rounded to
    /// 1/256 of a pixel: a pixel centre is that pixel exactly.
    func sample(_ padded: Image, at point: (x: Double, y: Double)) -> UInt32 {
        let x = Int((min(max(point.x - 0.5, 0), width - 1) * 256).rounded())
        let y = Int((min(max(point.y - 0.5, 0), height - 1) * 256).rounded())
        let upper = UnsafeRawPointer(padded.row(y >> 8) + (x >> 8) * 4)
        let lower = upper + padded.bytesPerRow
        return ScalarKernels.bilinearPixel(
            (
                upper.loadUnaligned(as: UInt32.self), upper.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                lower.loadUnaligned(as: UInt32.self), lower.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
            ), fx: UInt32(x & 255), fy: UInt32(y & 255))
    }

    /// A point's layering in 1/256: the alpha weights from the running coverage (back over front over shadow, each
    /// rounded as a running total so they add up to at most 256), the colour weights from those and the light.
    static func weights(of point: Point) -> SIMD8<UInt32> {
        let back = point.backCoverage
        let front = point.frontCoverage * (1 - back)
        let shadow = point.shadow * (1 - point.frontCoverage) * (1 - back)
        let backAlpha = TransitionKernels.weight(back)
        let frontAlpha = TransitionKernels.weight(back + front) - backAlpha
        let shadowAlpha = TransitionKernels.weight(back + front + shadow) - backAlpha - frontAlpha
        let lit = Double(backAlpha) * point.backShade
        let backColor = Int((lit * backShare).rounded())
        let backPaper = min(Int((lit * paperGrey * (1 - backShare)).rounded()), backAlpha - backColor)
        let frontColor = Int((Double(frontAlpha) * point.frontShade).rounded())
        return SIMD8(
            truncatingIfNeeded: SIMD8(backColor, backPaper, backAlpha, frontColor, frontAlpha, shadowAlpha, 0, 0))
    }

    /// The weights' first six lanes into the planes (a SIMD8 rather than an array: no allocation a pixel).
    private func store(_ values: SIMD8<UInt32>, at k: Int, in weights: PageCurlKernels.Weights) {
        for plane in 0..<PageCurlKernels.Weights.planes { weights.base[plane * weights.count + k] = values[plane] }
    }
}
