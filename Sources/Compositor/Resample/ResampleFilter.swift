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
            guard t > 0 else { return 1 }
            // sinc(t)·sinc(t/3) with one sine: sin(πt) = 3s − 4s³ for s = sin(πt/3) (a resize evaluates this
            // tens of thousands of times, and the sines were a measurable part of it).
            let s = sin(.pi * t / 3)
            return 3 * s * s * (3 - 4 * s * s) / (.pi * .pi * t * t)
        }
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
