#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Normalised weights of a sampled Gaussian: `weights[radius + k]` is the weight of offset k.
///
/// The kernel is truncated at 4σ (the mass beyond is below 7·10⁻⁵) and normalised to sum to exactly 1 in
/// Double before rounding to Float, so a uniform image stays uniform. Below σ ≈ 0.8 a sampled Gaussian's
/// standard deviation falls short of σ (at 0.5 by 7%), as in OpenCV and libvips.
///
/// Every blur takes σ through `usableSigma(_:)`, so no σ can trap: NaN, zero and negative σ mean no blur, and σ
/// above `maximumSigma` (+∞ included) is `maximumSigma`.
public struct GaussianKernel: Sendable {
    /// The σ used: `usableSigma` of the one asked for.
    public let sigma: Double
    public let radius: Int
    public let weights: [Float]

    /// The number of standard deviations kept on each side.
    public static let truncation = 4.0

    /// The largest σ any blur uses, in pixels. The pyramid route's factor is then 3030, so a cell's sum of f²
    /// bytes (at most 255·f² < 2³²) cannot overflow its 32-bit lanes, which it would from σ ≈ 13,500; by then
    /// the blur of any image smaller than σ is close to its mean anyway.
    public static let maximumSigma = 10_000.0

    /// σ as every blur uses it: 0 (no blur) for NaN, zero and negative σ (−∞ included); `maximumSigma` for σ
    /// above it (+∞ included); otherwise σ.
    public static func usableSigma(_ sigma: Double) -> Double {
        guard sigma > 0 else { return 0 }  // NaN compares false too
        return min(sigma, maximumSigma)
    }

    /// The radius `init(sigma:)` gives, without making the weights.
    public static func radius(forSigma sigma: Double) -> Int {
        let sigma = usableSigma(sigma)
        return sigma > 0 ? max(1, Int((truncation * sigma).rounded(.up))) : 0
    }

    public init(sigma: Double) {
        let sigma = GaussianKernel.usableSigma(sigma)
        self.sigma = sigma
        guard sigma > 0 else {
            radius = 0
            weights = [1]
            return
        }
        let radius = GaussianKernel.radius(forSigma: sigma)
        var values = (-radius...radius).map { offset -> Double in
            // x/σ first: for σ = 1e-300, 2σ² underflows to 0 and x²/(2σ²) at x = 0 would be 0/0.
            let z = Double(offset) / sigma
            return exp(-z * z / 2)
        }
        let total = values.reduce(0, +)
        values = values.map { $0 / total }
        self.radius = radius
        self.weights = values.map(Float.init)
    }

    /// The standard deviation of the discrete weights, which tests compare with `sigma`.
    public var measuredSigma: Double {
        var variance = 0.0
        for (index, weight) in weights.enumerated() {
            let offset = Double(index - radius)
            variance += Double(weight) * offset * offset
        }
        return variance.squareRoot()
    }
}
