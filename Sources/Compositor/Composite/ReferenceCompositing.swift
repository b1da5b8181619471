#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A premultiplied pixel in unit floats, for the reference formulas.
struct UnitPixel: Equatable, Sendable {
    var red, green, blue, alpha: Float

    init(red: Float, green: Float, blue: Float, alpha: Float) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }
}

/// The spec's formulas one pixel at a time, written as W3C Compositing and Blending Level 1 states them
/// (straight colours Cs, Cb inside the blend functions; premultiplied cs, cb outside): the scalar twin of
/// `CompositeKernel`, which tests hold within ±1 LSB of it, and what `BLURTOOL_KERNELS=reference` runs.
enum ReferenceCompositing {
    /// `source` drawn onto `backdrop` with `op`, both premultiplied.
    static func composite(_ op: CompositeOperator, source s: UnitPixel, backdrop b: UnitPixel) -> UnitPixel {
        if let (fa, fb) = op.porterDuffFactors(sourceAlpha: s.alpha, backdropAlpha: b.alpha) {
            var out = UnitPixel(
                red: fa * s.red + fb * b.red, green: fa * s.green + fb * b.green, blue: fa * s.blue + fb * b.blue,
                alpha: fa * s.alpha + fb * b.alpha)
            if op == .plusLighter {
                out = UnitPixel(
                    red: min(out.red, 1), green: min(out.green, 1), blue: min(out.blue, 1), alpha: min(out.alpha, 1))
            }
            return out
        }
        if op == .plusDarker {
            // Apple documents R = max(0, 1 − ((1 − D) + (1 − S))) for opaque pixels; the draft spec's
            // premultiplied form is known to be wrong (w3c/fxtf-drafts#447). This one reduces to Apple's when
            // opaque, leaves the other unchanged when one side is transparent, and keeps co ≤ αo.
            let alpha = min(1, s.alpha + b.alpha)
            func channel(_ cs: Float, _ cb: Float) -> Float { max(0, alpha - (s.alpha - cs) - (b.alpha - cb)) }
            return UnitPixel(
                red: channel(s.red, b.red), green: channel(s.green, b.green), blue: channel(s.blue, b.blue),
                alpha: alpha)
        }
        // A blend mode: co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs); αo = αs + αb·(1 − αs).
        let cs = straight(s)
        let cb = straight(b)
        let blended = blend(op, backdrop: cb, source: cs)
        func channel(_ csp: Float, _ cbp: Float, _ mixed: Float) -> Float {
            csp * (1 - b.alpha) + cbp * (1 - s.alpha) + s.alpha * b.alpha * mixed
        }
        return UnitPixel(
            red: channel(s.red, b.red, blended.0), green: channel(s.green, b.green, blended.1),
            blue: channel(s.blue, b.blue, blended.2), alpha: s.alpha + b.alpha * (1 - s.alpha))
    }

    typealias RGB = (Float, Float, Float)

    private static func straight(_ p: UnitPixel) -> RGB {
        p.alpha > 0 ? (p.red / p.alpha, p.green / p.alpha, p.blue / p.alpha) : (0, 0, 0)
    }

    /// B(Cb, Cs) for a blend mode.
    static func blend(_ op: CompositeOperator, backdrop cb: RGB, source cs: RGB) -> RGB {
        if let mode = op.separableBlend {
            return (
                mode.blend(backdrop: cb.0, source: cs.0), mode.blend(backdrop: cb.1, source: cs.1),
                mode.blend(backdrop: cb.2, source: cs.2)
            )
        }
        switch op {
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        case .luminosity: return setLum(cb, lum(cs))
        default: preconditionFailure("\(op) is not a blend mode")
        }
    }

    // § 10.2 (non-separable blend modes), line by line.
    static func lum(_ c: RGB) -> Float { 0.3 * c.0 + 0.59 * c.1 + 0.11 * c.2 }

    static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c)
        let n = min(c.0, c.1, c.2)
        let x = max(c.0, c.1, c.2)
        var out = c
        // The `l > n` and `x > l` guards only skip 0/0 when all channels equal l (rounding can make n < 0 then).
        if n < 0 && l > n {
            out = (l + (out.0 - l) * l / (l - n), l + (out.1 - l) * l / (l - n), l + (out.2 - l) * l / (l - n))
        }
        if x > 1 && x > l {
            out = (
                l + (out.0 - l) * (1 - l) / (x - l), l + (out.1 - l) * (1 - l) / (x - l),
                l + (out.2 - l) * (1 - l) / (x - l)
            )
        }
        return out
    }

    static func setLum(_ c: RGB, _ l: Float) -> RGB {
        let d = l - lum(c)
        return clipColor((c.0 + d, c.1 + d, c.2 + d))
    }

    static func sat(_ c: RGB) -> Float { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) }

    /// The spec's Cmax/Cmid/Cmin procedure, on the channels sorted by value.
    static func setSat(_ c: RGB, _ s: Float) -> RGB {
        var channels = [c.0, c.1, c.2]
        let order = [0, 1, 2].sorted { channels[$0] < channels[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        if channels[hi] > channels[lo] {
            channels[mid] = (channels[mid] - channels[lo]) * s / (channels[hi] - channels[lo])
            channels[hi] = s
        } else {
            channels[mid] = 0
            channels[hi] = 0
        }
        channels[lo] = 0
        return (channels[0], channels[1], channels[2])
    }

    // sRGB transfer functions (IEC 61966-2-1), exactly.
    static func linearFromSRGB(_ v: Float) -> Float {
        v <= 0.04045 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4)
    }

    static func srgbFromLinear(_ v: Float) -> Float {
        v <= 0.003_130_8 ? v * 12.92 : 1.055 * powf(v, 1 / 2.4) - 0.055
    }

    /// A premultiplied pixel with its straight colour run through `transfer`.
    static func convert(_ p: UnitPixel, _ transfer: (Float) -> Float) -> UnitPixel {
        guard p.alpha > 0 else { return UnitPixel(red: 0, green: 0, blue: 0, alpha: 0) }
        return UnitPixel(
            red: transfer(min(p.red / p.alpha, 1)) * p.alpha, green: transfer(min(p.green / p.alpha, 1)) * p.alpha,
            blue: transfer(min(p.blue / p.alpha, 1)) * p.alpha, alpha: p.alpha)
    }

    /// One row: `count` pixels of `source` (or of `solid`, repeated) drawn onto `destination` in place, with
    /// the source scaled by `opacity` and the result mixed with the old destination by `mask` (coverage, as a
    /// clip). Pixels are premultiplied RGBA8; the result rounds to nearest, ties to even, colour ≤ alpha.
    static func compositeRow(
        _ op: CompositeOperator, source: UnsafePointer<UInt8>?, solid: UnitPixel, mask: UnsafePointer<UInt8>?,
        destination: UnsafeMutablePointer<UInt8>, count: Int, opacity: Float, space: WorkingSpace
    ) {
        for x in 0..<count {
            var s = solid
            if let source {
                let p = source + x * 4
                s = UnitPixel(
                    red: Float(p[0]) / 255, green: Float(p[1]) / 255, blue: Float(p[2]) / 255, alpha: Float(p[3]) / 255)
            }
            s = UnitPixel(
                red: s.red * opacity, green: s.green * opacity, blue: s.blue * opacity, alpha: s.alpha * opacity)
            let d = destination + x * 4
            var b = UnitPixel(
                red: Float(d[0]) / 255, green: Float(d[1]) / 255, blue: Float(d[2]) / 255, alpha: Float(d[3]) / 255)
            if space == .linear {
                s = convert(s, linearFromSRGB)
                b = convert(b, linearFromSRGB)
            }
            var out = composite(op, source: s, backdrop: b)
            if let mask {
                let m = Float(mask[x]) / 255
                out = UnitPixel(
                    red: b.red + (out.red - b.red) * m, green: b.green + (out.green - b.green) * m,
                    blue: b.blue + (out.blue - b.blue) * m, alpha: b.alpha + (out.alpha - b.alpha) * m)
            }
            if space == .linear { out = convert(out, srgbFromLinear) }
            let alpha = byte(out.alpha)
            d[0] = min(byte(out.red), alpha)
            d[1] = min(byte(out.green), alpha)
            d[2] = min(byte(out.blue), alpha)
            d[3] = alpha
        }
    }

    private static func byte(_ unit: Float) -> UInt8 {
        UInt8(min(max(unit * 255, 0), 255).rounded(.toNearestOrEven))
    }
}
