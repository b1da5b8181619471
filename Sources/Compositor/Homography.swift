/// A projective map of the plane in row-vector form, as `Transform3D` draws the plane z = 0: the point (x, y)
/// maps to (X, Y) = (x', y') / w where (x', y', w) = (x, y, 1)·H. `h1.concatenating(h2)` applies h1, then h2.
/// Where w ≤ 0 the point lies behind the eye and is not seen.
public struct Homography: Equatable, Hashable, Sendable {
    public var m11, m12, m13: Double
    public var m21, m22, m23: Double
    public var m31, m32, m33: Double

    public init(
        m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double, m31: Double, m32: Double,
        m33: Double
    ) {
        (self.m11, self.m12, self.m13) = (m11, m12, m13)
        (self.m21, self.m22, self.m23) = (m21, m22, m23)
        (self.m31, self.m32, self.m33) = (m31, m32, m33)
    }

    public static let identity = Homography(AffineTransform2D.identity)

    public init(_ affine: AffineTransform2D) {
        self.init(m11: affine.a, m12: affine.b, m13: 0, m21: affine.c, m22: affine.d, m23: 0,
            m31: affine.tx, m32: affine.ty, m33: 1)
    }

    /// The affine map, when there is no projective part (m13 = m23 = 0, m33 ≠ 0, divided out).
    public var affine: AffineTransform2D? {
        guard m13 == 0, m23 == 0, m33 != 0, m33.isFinite else { return nil }
        if m33 == 1 { return AffineTransform2D(a: m11, b: m12, c: m21, d: m22, tx: m31, ty: m32) }
        return AffineTransform2D(
            a: m11 / m33, b: m12 / m33, c: m21 / m33, d: m22 / m33, tx: m31 / m33, ty: m32 / m33)
    }

    /// This map, then `other`.
    public func concatenating(_ other: Homography) -> Homography {
        let o = other
        return Homography(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31, m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31, m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31, m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// Whether the map squashes the plane onto a line (seen edge on), relative to the size of its entries.
    public var isDegenerate: Bool {
        func length(_ a: Double, _ b: Double, _ c: Double) -> Double { (a * a + b * b + c * c).squareRoot() }
        let scale = length(m11, m12, m13) * length(m21, m22, m23) * length(m31, m32, m33)
        let det = determinant
        return !(scale.isFinite && det.isFinite) || abs(det) <= 1e-9 * scale
    }

    /// The inverse, scaled so that w keeps its sign: a point seen (w > 0) maps back with w > 0 too. Nil when
    /// degenerate.
    public func inverted() -> Homography? {
        guard !isDegenerate else { return nil }
        let det = determinant
        return Homography(
            m11: (m22 * m33 - m23 * m32) / det, m12: (m13 * m32 - m12 * m33) / det,
            m13: (m12 * m23 - m13 * m22) / det,
            m21: (m23 * m31 - m21 * m33) / det, m22: (m11 * m33 - m13 * m31) / det,
            m23: (m13 * m21 - m11 * m23) / det,
            m31: (m21 * m32 - m22 * m31) / det, m32: (m12 * m31 - m11 * m32) / det,
            m33: (m11 * m22 - m12 * m21) / det)
    }

    /// (x', y', w) for the point: divide by w (when it is positive) for where it lands.
    public func homogeneous(_ point: (x: Double, y: Double)) -> (x: Double, y: Double, w: Double) {
        (
            point.x * m11 + point.y * m21 + m31, point.x * m12 + point.y * m22 + m32,
            point.x * m13 + point.y * m23 + m33
        )
    }

    /// Where the point lands; nil behind the eye (w ≤ 0).
    public func apply(to point: (x: Double, y: Double)) -> (x: Double, y: Double)? {
        let p = homogeneous(point)
        guard p.w > 0 else { return nil }
        return (p.x / p.w, p.y / p.w)
    }
}
