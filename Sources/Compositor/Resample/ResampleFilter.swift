#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reconstruction filters of resampling, each with its support (half-width) in source pixels at 1:1.
public enum ResampleFilter: String, CaseIterable, Sendable {
    case nearest
    /// Linear interpolation (a triangle).
    case bilinear
    /// Cubic with B = 0, C = 0.5: sharp, interpolating; Pillow's and libvips' "bicubic".
    case catmullRom = "catmull-rom"
    /// Cubic with B = C = 1/3: softer, fewer halos.
    case mitchell
    /// Windowed sinc with three lobes: the sharpest here, as Pillow's and libvips' default.
    case lanczos3

    public var support: Double {
        switch self {
        case .nearest: return 0.5
        case .bilinear: return 1
        case .catmullRom, .mitchell: return 2
        case .lanczos3: return 3
        }
    }

    /// The filter's value at distance x (in source pixels at 1:1).
    public func weight(_ x: Double) -> Double {
        let t = abs(x)
        switch self {
        case .nearest:
            return t < 0.5 ? 1 : (t == 0.5 && x < 0 ? 1 : 0)  // [-0.5, 0.5): each output picks exactly one
        case .bilinear:
            return max(0, 1 - t)
        case .catmullRom:
            return ResampleFilter.cubic(t, b: 0, c: 0.5)
        case .mitchell:
            return ResampleFilter.cubic(t, b: 1.0 / 3, c: 1.0 / 3)
        case .lanczos3:
            guard t < 3 else { return 0 }
            return ResampleFilter.sinc(t) * ResampleFilter.sinc(t / 3)
        }
    }

    private static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(.pi * x) / (.pi * x)
    }

    /// Mitchell–Netravali's family of cubics.
    private static func cubic(_ t: Double, b: Double, c: Double) -> Double {
        if t < 1 {
            return ((12 - 9 * b - 6 * c) * t * t * t + (-18 + 12 * b + 6 * c) * t * t + (6 - 2 * b)) / 6
        }
        if t < 2 {
            return ((-b - 6 * c) * t * t * t + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

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
        let taps = max(1, Int((2 * reach).rounded(.up)) + 1)
        var first = [Int](repeating: 0, count: count)
        var weights = [Float](repeating: 0, count: count * taps)
        for i in 0..<count {
            let centre = start + (Double(i) + 0.5) * scale - 0.5
            var low = Int((centre - reach).rounded(.up))
            if filter == .nearest { low = Int((centre + 0.5).rounded(.down)) }  // the one pixel it lands in
            low = min(max(low, 0), sourceCount - 1)
            var values = [Double](repeating: 0, count: taps)
            for k in 0..<taps {
                let j = low + k
                guard j < sourceCount else { break }
                values[k] = filter == .nearest ? (k == 0 ? 1 : 0) : filter.weight((Double(j) - centre) / stretch)
            }
            var total = values.reduce(0, +)
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
}
