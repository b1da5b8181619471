import Dispatch

/// Which Gaussian route to use.
public enum BlurPrecision: String, CaseIterable, Sendable {
    /// The direct convolution: cost grows with σ.
    case exact
    /// The pyramid route: cost independent of σ, within the error stated by `PyramidGaussianBlur`.
    case fast
    /// Exact while the pyramid would not shrink the image (σ below 10 pixels), fast above.
    case auto
}

/// A Gaussian blur with σ (standard deviation, in pixels) as its one unit, on premultiplied images.
public struct GaussianBlur: Sendable {
    public var sigma: Double
    public var edgeMode: EdgeMode
    public var precision: BlurPrecision

    public init(sigma: Double, edgeMode: EdgeMode = .mirror, precision: BlurPrecision = .auto) {
        self.sigma = sigma
        self.edgeMode = edgeMode
        self.precision = precision
    }

    /// The route `precision` resolves to for this σ.
    public var usesPyramid: Bool {
        switch precision {
        case .exact: return false
        case .fast: return PyramidGaussianBlur.factor(forSigma: sigma) > 1
        case .auto: return PyramidGaussianBlur.factor(forSigma: sigma) > 1
        }
    }

    /// The blurred rows of `source`, ready to be finished row by row.
    public func rows(of source: Image) -> any BlurredRows {
        if usesPyramid {
            return PyramidGaussianBlur(source: source, sigma: sigma, edgeMode: edgeMode)
        }
        return ReferenceGaussianBlur(source: source, sigma: sigma, edgeMode: edgeMode)
    }

    /// A new blurred image of the same size.
    public func apply(to source: Image) -> Image {
        let result = Image(width: source.width, height: source.height)
        rows(of: source).render(into: result) { row, _, _ in row }
        return result
    }
}

extension BlurredRows {
    /// Finishes every row into `destination` (which has this size), in parallel bands.
    ///
    /// - Parameter finish: turns one Float row (y given) into the row to quantise; it may modify the row
    ///   in place and return it, and must depend only on the row and y, so results never depend on banding.
    public func render(into destination: Image, dither: Bool = false,
                       finish: @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> UnsafeMutablePointer<Float>) {
        precondition(destination.width == width && destination.height == height, "destination size differs")
        let bandHeight = 32
        let bands = (height + bandHeight - 1) / bandHeight
        let rowCount = width * 4
        let scratchCount = max(self.scratchCount, 1)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
                let row = UnsafeMutablePointer<Float>.allocate(capacity: max(rowCount, 1))
                let scratch = UnsafeMutablePointer<Float>.allocate(capacity: scratchCount)
                defer {
                    row.deallocate()
                    scratch.deallocate()
                }
                for y in (band * bandHeight)..<min(height, (band + 1) * bandHeight) {
                    fillRow(y, into: row, scratch: scratch)
                    let finished = finish(row, y, width)
                    quantize(finished, count: width, into: destination.row(y), y: y, dither: dither)
                }
            }
    }
}

/// Rounds premultiplied Float pixels to RGBA8, keeping each colour at or below its alpha.
///
/// With `dither`, each value is rounded up or down at random with the probabilities that keep its mean
/// (a ±0.5 LSB rectangular dither from a hash of the position): smooth gradients show no bands, and values
/// that are already whole numbers come out unchanged, so a uniform image stays uniform. The three colour
/// channels share one offset, so greys stay grey (no chroma noise).
@inline(__always)
func quantize(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<UInt8>, y: Int,
              dither: Bool) {
    for x in 0..<count {
        let s = source + x * 4
        let d = destination + x * 4
        let offset: (Float, Float, Float, Float)
        if dither {
            offset = DitherNoise.offsets(x: x, y: y)
        } else {
            offset = (0.5, 0.5, 0.5, 0.5)
        }
        let alpha = min(max(s[3] + offset.3, 0), 255).rounded(.down)
        d[3] = UInt8(alpha)
        d[0] = UInt8(min(max(s[0] + offset.0, 0).rounded(.down), alpha))
        d[1] = UInt8(min(max(s[1] + offset.0, 0).rounded(.down), alpha))
        d[2] = UInt8(min(max(s[2] + offset.0, 0).rounded(.down), alpha))
    }
}

/// Deterministic per-pixel noise: four values in [0.0005, 0.9995) from an integer hash of the position.
enum DitherNoise {
    @inline(__always)
    static func offsets(x: Int, y: Int) -> (Float, Float, Float, Float) {
        var h = UInt64(truncatingIfNeeded: x) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: y) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 29
        h &*= 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        @inline(__always) func unit(_ bits: UInt64) -> Float {
            Float(bits & 0xFFFF) * (0.999 / 65536) + 0.0005
        }
        return (unit(h), unit(h >> 16), unit(h >> 32), unit(h >> 48))
    }
}
