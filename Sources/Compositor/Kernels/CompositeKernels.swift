/// Sixteen premultiplied pixels, one vector per channel, in unit floats: every operator becomes a few vector
/// operations with selects for the spec's cases, and the non-separable modes (which mix channels) need no
/// shuffles.
struct Planar16 {
    typealias Lanes = SIMD16<Float>
    var red, green, blue, alpha: Lanes

    init(red: Lanes, green: Lanes, blue: Lanes, alpha: Lanes) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    init(repeating p: UnitPixel) {
        self.init(
            red: Lanes(repeating: p.red), green: Lanes(repeating: p.green), blue: Lanes(repeating: p.blue),
            alpha: Lanes(repeating: p.alpha))
    }

    /// Sixteen RGBA8 pixels read as little-endian words. (Constants are literals, not static lets: a static
    /// costs a `swift_once` check per use in the loop.)
    @inline(__always)
    init(words: SIMD16<UInt32>) {
        @inline(__always) func unit(_ shift: UInt32) -> Lanes {
            // OR-ing a byte into the mantissa of 2²³ and subtracting 2²³ converts without a per-lane call.
            let bits = ((words &>> shift) & 0xFF) | 0x4B00_0000
            return (unsafeBitCast(bits, to: Lanes.self) - 8_388_608) * (1 / 255)
        }
        self.init(red: unit(0), green: unit(8), blue: unit(16), alpha: unit(24))
    }

    /// Back to words: scaled to 0...255, clamped, rounded to nearest even, colour limited to alpha.
    @_transparent  // inlined for certain: with @inline(__always) it stayed a call costing 18% of a blend
    func packedWords() -> SIMD16<UInt32> {
        @inline(__always) func byte(_ unit: Lanes) -> SIMD16<UInt32> {
            var v = unit * 255
            v.replace(with: 0, where: .!(v .> 0))  // also sends NaN to 0
            v.replace(with: 255, where: v .> 255)
            // Adding 1.5·2²³ rounds to nearest, ties to even, into the low mantissa bits.
            return unsafeBitCast(v + 12_582_912, to: SIMD16<UInt32>.self) & 0xFF
        }
        let a = byte(alpha)
        var r = byte(red)
        var g = byte(green)
        var b = byte(blue)
        r.replace(with: a, where: r .> a)
        g.replace(with: a, where: g .> a)
        b.replace(with: a, where: b .> a)
        return r | (g &<< 8) | (b &<< 16) | (a &<< 24)
    }

    @inline(__always)
    func scaled(by factor: Lanes) -> Planar16 {
        Planar16(red: red * factor, green: green * factor, blue: blue * factor, alpha: alpha * factor)
    }

    /// self + (other − self)·t, per channel.
    @inline(__always)
    func mixed(with other: Planar16, by t: Lanes) -> Planar16 {
        Planar16(
            red: red + (other.red - red) * t, green: green + (other.green - green) * t,
            blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }
}

/// Vector helpers written as compare-and-select, which stay single instructions (`pointwiseMin` and `abs` on
/// SIMD types can stay outlined generic calls: see SWIFT-PERFORMANCE.md).
extension SIMD16 where Scalar == Float {
    @inline(__always) func minimum(_ other: Self) -> Self { replacing(with: other, where: other .< self) }
    @inline(__always) func maximum(_ other: Self) -> Self { replacing(with: other, where: other .> self) }
    @inline(__always) func clampedToUnit() -> Self { maximum(.zero).minimum(Self(repeating: 1)) }
    /// self/divisor, and 0 where the divisor is 0 (a transparent pixel's straight colour is taken as black, as
    /// the spec does). A true division, not `self * (1 / divisor)`: that rounds twice, so a colour equal to its
    /// alpha came out 0.99999994 for 30 alphas (15, 30, 59, …) and missed the spec's Cb = 1 cases (color-burn
    /// burnt such a backdrop to black); a correctly rounded c/c is exactly 1, as in the scalar twin.
    @inline(__always) func dividedOrZero(by divisor: Self) -> Self {
        (self / divisor).replacing(with: 0, where: divisor .== 0)
    }
}

/// One operator on 16 planar pixels. Each kind is its own type so that the row loop, generic over it, is
/// specialised with the operator's arithmetic inlined: a switch over all kinds inside the loop left the
/// operator an out-of-line call passing 256-byte structs through memory, several times slower.
protocol PlanarOperator {
    func composite(source s: Planar16, backdrop b: Planar16) -> Planar16
}

/// co = Fa·cs + Fb·cb with Fa = fa0 + faSlope·αb and Fb = fb0 + fbSlope·αs (every Porter-Duff factor is one of
/// 0, 1, α, 1 − α of the other side), clamped to 1 for plus-lighter.
struct PorterDuffOperator: PlanarOperator {
    let fa0, faSlope, fb0, fbSlope: Float
    let clamps: Bool

    init?(_ op: CompositeOperator) {
        guard let at0 = op.porterDuffFactors(sourceAlpha: 0, backdropAlpha: 0),
            let at1 = op.porterDuffFactors(sourceAlpha: 1, backdropAlpha: 1)
        else { return nil }
        (fa0, faSlope, fb0, fbSlope) = (at0.0, at1.0 - at0.0, at0.1, at1.1 - at0.1)
        clamps = op == .plusLighter
    }

    @inline(__always)
    func composite(source s: Planar16, backdrop b: Planar16) -> Planar16 {
        let fa = fa0 + faSlope * b.alpha
        let fb = fb0 + fbSlope * s.alpha
        var out = Planar16(
            red: fa * s.red + fb * b.red, green: fa * s.green + fb * b.green, blue: fa * s.blue + fb * b.blue,
            alpha: fa * s.alpha + fb * b.alpha)
        if clamps {
            let one = Planar16.Lanes(repeating: 1)
            out = Planar16(
                red: out.red.minimum(one), green: out.green.minimum(one), blue: out.blue.minimum(one),
                alpha: out.alpha.minimum(one))
        }
        return out
    }
}

struct PlusDarkerOperator: PlanarOperator {
    @inline(__always)
    func composite(source s: Planar16, backdrop b: Planar16) -> Planar16 {
        let alpha = (s.alpha + b.alpha).minimum(Planar16.Lanes(repeating: 1))
        let loss = s.alpha + b.alpha - alpha  // αo − (αs − cs) − (αb − cb) = cs + cb − loss
        return Planar16(
            red: (s.red + b.red - loss).maximum(.zero), green: (s.green + b.green - loss).maximum(.zero),
            blue: (s.blue + b.blue - loss).maximum(.zero), alpha: alpha)
    }
}

/// A blend mode: co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs); αo = αs + αb − αs·αb.
protocol BlendOperator: PlanarOperator {
    func blend(backdrop: RGB16, source: RGB16) -> RGB16
}

extension BlendOperator {
    @inline(__always)
    func composite(source s: Planar16, backdrop b: Planar16) -> Planar16 {
        let mixed = blend(
            backdrop: RGB16(
                red: b.red.dividedOrZero(by: b.alpha), green: b.green.dividedOrZero(by: b.alpha),
                blue: b.blue.dividedOrZero(by: b.alpha)),
            source: RGB16(
                red: s.red.dividedOrZero(by: s.alpha), green: s.green.dividedOrZero(by: s.alpha),
                blue: s.blue.dividedOrZero(by: s.alpha)))
        let keepSource = 1 - b.alpha
        let keepBackdrop = 1 - s.alpha
        let both = s.alpha * b.alpha
        return Planar16(
            red: s.red * keepSource + b.red * keepBackdrop + both * mixed.red,
            green: s.green * keepSource + b.green * keepBackdrop + both * mixed.green,
            blue: s.blue * keepSource + b.blue * keepBackdrop + both * mixed.blue,
            alpha: s.alpha + b.alpha - both)
    }
}

struct SeparableBlendOperator: BlendOperator {
    let mode: BlendMode

    @inline(__always)
    func blend(backdrop cb: RGB16, source cs: RGB16) -> RGB16 {
        RGB16(
            red: mode.blend(backdrop: cb.red, source: cs.red), green: mode.blend(backdrop: cb.green, source: cs.green),
            blue: mode.blend(backdrop: cb.blue, source: cs.blue))
    }
}

/// hue, saturation, color and luminosity (§ 10.2).
struct NonSeparableBlendOperator: BlendOperator {
    let op: CompositeOperator

    @inline(__always)
    func blend(backdrop cb: RGB16, source cs: RGB16) -> RGB16 {
        switch op {
        case .hue: return cs.withSaturation(cb.saturation).withLuminosity(cb.luminosity)
        case .saturation: return cb.withSaturation(cs.saturation).withLuminosity(cb.luminosity)
        case .color: return cs.withLuminosity(cb.luminosity)
        default: return cb.withLuminosity(cs.luminosity)
        }
    }
}

/// The SIMD compositor for one operator: 16 pixels per step, planar (rows in `Image+Draw.swift`).
struct CompositeKernel {
    let op: CompositeOperator

    init(_ op: CompositeOperator) {
        self.op = op
    }
}

/// Straight colours of 16 pixels, for the non-separable modes (§ 10.2), written channel-parallel: SetSat maps
/// each channel c to (c − min)·s / (max − min), which is the spec's Cmax/Cmid/Cmin procedure without sorting.
struct RGB16 {
    typealias Lanes = SIMD16<Float>
    var red, green, blue: Lanes

    var luminosity: Lanes { 0.3 * red + 0.59 * green + 0.11 * blue }
    private var smallest: Lanes { red.minimum(green).minimum(blue) }
    private var largest: Lanes { red.maximum(green).maximum(blue) }
    var saturation: Lanes { largest - smallest }

    func withSaturation(_ s: Lanes) -> RGB16 {
        let low = smallest
        let range = largest - low
        let scale = (s / range).replacing(with: 0, where: .!(range .> 0))
        return RGB16(red: (red - low) * scale, green: (green - low) * scale, blue: (blue - low) * scale)
    }

    func withLuminosity(_ l: Lanes) -> RGB16 {
        let d = l - luminosity
        return RGB16(red: red + d, green: green + d, blue: blue + d).clipped()
    }

    private func clipped() -> RGB16 {
        let l = luminosity
        let n = smallest
        let x = largest
        var out = self
        let under = n .< 0
        if any(under) {
            // l − n is 0 only when every channel equals l (to rounding): then any k gives l; 0 avoids 0/0.
            let k = (l / (l - n)).replacing(with: 0, where: .!(l .> n))
            out = RGB16(
                red: out.red.replacing(with: l + (out.red - l) * k, where: under),
                green: out.green.replacing(with: l + (out.green - l) * k, where: under),
                blue: out.blue.replacing(with: l + (out.blue - l) * k, where: under))
        }
        let over = x .> 1
        if any(over) {
            let k = ((1 - l) / (x - l)).replacing(with: 0, where: .!(x .> l))
            out = RGB16(
                red: out.red.replacing(with: l + (out.red - l) * k, where: over),
                green: out.green.replacing(with: l + (out.green - l) * k, where: over),
                blue: out.blue.replacing(with: l + (out.blue - l) * k, where: over))
        }
        return out
    }
}

extension BlendMode {
    /// B(Cb, Cs) on 16 straight components at once: the same cases as `blend(backdrop:source:)`, as selects.
    @inline(__always)
    func blend(backdrop cb: SIMD16<Float>, source cs: SIMD16<Float>) -> SIMD16<Float> {
        typealias Lanes = SIMD16<Float>
        let one = Lanes(repeating: 1)
        switch self {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return BlendMode.hardLight.blend(backdrop: cs, source: cb)
        case .darken: return cb.minimum(cs)
        case .lighten: return cb.maximum(cs)
        case .colorDodge:
            return (cb / (1 - cs)).minimum(one).replacing(with: 1, where: cs .>= 1).replacing(with: 0, where: cb .== 0)
        case .colorBurn:
            return (1 - ((1 - cb) / cs).minimum(one)).replacing(with: 0, where: cs .<= 0)
                .replacing(with: 1, where: cb .>= 1)
        case .hardLight:
            let twice = 2 * cs
            let screened = cb + (twice - 1) - cb * (twice - 1)
            return screened.replacing(with: cb * twice, where: cs .<= 0.5)
        case .softLight:
            let d = (((16 * cb - 12) * cb + 4) * cb).replacing(with: cb.squareRoot(), where: cb .> 0.25)
            let lighter = cb + (2 * cs - 1) * (d - cb)
            let darker = cb - (1 - 2 * cs) * cb * (1 - cb)
            return lighter.replacing(with: darker, where: cs .<= 0.5)
        case .difference:
            let d = cb - cs
            return d.replacing(with: -d, where: d .< 0)
        case .exclusion: return cb + cs - 2 * cb * cs
        }
    }
}
