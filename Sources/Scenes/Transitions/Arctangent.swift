import Compositor

/// atan2 as a polynomial, 16 lanes at a time, with a scalar twin doing the same Float operations in the same
/// order: radial's sweep needs an angle per pixel, and libm's atan2f, one call per pixel, took most of a frame.
///
/// atan on [0, 1] is a degree-11 odd minimax polynomial (error about 1e-5 rad, held by the tests); the octant
/// and quadrant are restored as atan2 does, for arguments that are never −0 (pixel offsets from the centre).
enum Arctangent {
    private static let c1: Float = 0.999_977_26
    private static let c3: Float = -0.332_623_47
    private static let c5: Float = 0.193_543_46
    private static let c7: Float = -0.116_432_87
    private static let c9: Float = 0.052_653_32
    private static let c11: Float = -0.011_721_20

    /// atan2(y, x) for 16 pairs.
    @inline(__always)
    static func atan2(_ y: SIMD16<Float>, _ x: SIMD16<Float>) -> SIMD16<Float> {
        let ay = magnitude(y)
        let ax = magnitude(x)
        // pointwiseMin/Max compiled lane by lane here; selections by sign bits stay vectors.
        let larger = select(ay, ax, whereNegative: ay - ax)
        let smaller = select(ax, ay, whereNegative: ay - ax)
        let a = smaller / (larger + .leastNormalMagnitude)  // (0, 0) → 0; absorbed by any offset of a pixel
        let s = a * a
        var r = a * (c1 + s * (c3 + s * (c5 + s * (c7 + s * (c9 + s * c11)))))
        // Selections by sign bits (ay > ax is ax − ay < 0, whose sign is exact): `replace(with:where:)` compiled
        // to a branch per lane, which made the polynomial slower than libm.
        r = select(r, Float.pi / 2 - r, whereNegative: ax - ay)
        r = select(r, Float.pi - r, whereNegative: x)
        return select(r, -r, whereNegative: y)
    }

    /// `b` in the lanes where `sign` has its sign bit set, `a` elsewhere.
    @inline(__always)
    static func select(
        _ a: SIMD16<Float>, _ b: SIMD16<Float>, whereNegative sign: SIMD16<Float>
    ) -> SIMD16<Float> {
        let mask = unsafeBitCast(unsafeBitCast(sign, to: SIMD16<Int32>.self) &>> 31, to: SIMD16<UInt32>.self)
        let bits = unsafeBitCast(a, to: SIMD16<UInt32>.self) & ~mask | unsafeBitCast(b, to: SIMD16<UInt32>.self) & mask
        return unsafeBitCast(bits, to: SIMD16<Float>.self)
    }

    /// The lanes without their sign bits (as `Float.magnitude` does for one).
    @inline(__always)
    private static func magnitude(_ v: SIMD16<Float>) -> SIMD16<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD16<UInt32>.self) & 0x7FFF_FFFF, to: SIMD16<Float>.self)
    }

    /// atan2(y, x) for one pair: `atan2(_:_:)`'s lane.
    static func atan2(_ y: Float, _ x: Float) -> Float {
        let ay = y.magnitude
        let ax = x.magnitude
        let larger = max(ay, ax)
        let smaller = min(ay, ax)
        let a = smaller / (larger + .leastNormalMagnitude)
        let s = a * a
        var r = a * (c1 + s * (c3 + s * (c5 + s * (c7 + s * (c9 + s * c11)))))
        if ay > ax { r = Float.pi / 2 - r }
        if x < 0 { r = Float.pi - r }
        if y < 0 { r = -r }
        return r
    }
}
