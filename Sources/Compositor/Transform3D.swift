#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 4×4 transform with `CATransform3D`'s fields and conventions: points are row vectors, (x, y, z, 1)·M, so
/// `t1.concatenating(t2)` applies t1, then t2 (`CATransform3DConcat`); +z points towards the viewer, and
/// m34 = −1/eyeDistance makes points nearer the viewer larger (the usual `transform.m34 = -1.0 / 500`).
///
/// A layer's plane is z = 0, so what a layer shows depends only on the 3×3 `homography` of that plane; the
/// z column and row matter only when transforms are concatenated.
public struct Transform3D: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(
        m11: Double, m12: Double, m13: Double, m14: Double, m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double, m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// The rows as arrays, top first (for loops; the fields are the API).
    package init(rows: [[Double]]) {
        self.init(
            m11: rows[0][0], m12: rows[0][1], m13: rows[0][2], m14: rows[0][3],
            m21: rows[1][0], m22: rows[1][1], m23: rows[1][2], m24: rows[1][3],
            m31: rows[2][0], m32: rows[2][1], m33: rows[2][2], m34: rows[2][3],
            m41: rows[3][0], m42: rows[3][1], m43: rows[3][2], m44: rows[3][3])
    }

    package var rows: [[Double]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// The affine transform acting on the plane z = 0, as `CATransform3DMakeAffineTransform`.
    public init(_ affine: AffineTransform2D) {
        self = .identity
        (m11, m12, m21, m22, m41, m42) = (affine.a, affine.b, affine.c, affine.d, affine.tx, affine.ty)
    }

    public static func translation(x: Double, y: Double, z: Double) -> Transform3D {
        var t = Transform3D.identity
        (t.m41, t.m42, t.m43) = (x, y, z)
        return t
    }

    public static func scale(x: Double, y: Double, z: Double) -> Transform3D {
        var t = Transform3D.identity
        (t.m11, t.m22, t.m33) = (x, y, z)
        return t
    }

    /// A rotation by `angle` radians about the axis (x, y, z) through the origin, as `CATransform3DMakeRotation`:
    /// about (0, 0, 1) it is `AffineTransform2D(rotationAngle:)`; about (0, 1, 0) a positive angle takes +x away
    /// from the viewer. A zero or non-finite axis gives the identity (Core Animation's answer too).
    public static func rotation(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { return .identity }
        let (x, y, z) = (x / length, y / length, z / length)
        let (s, c) = (sin(angle), cos(angle))
        let t = 1 - c
        return Transform3D(
            m11: x * x * t + c, m12: x * y * t + z * s, m13: x * z * t - y * s, m14: 0,
            m21: x * y * t - z * s, m22: y * y * t + c, m23: y * z * t + x * s, m24: 0,
            m31: x * z * t + y * s, m32: y * z * t - x * s, m33: z * z * t + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// A camera `eyeDistance` away on the z axis looking at the plane z = 0: m34 = −1/eyeDistance.
    public static func perspective(eyeDistance: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = -1 / eyeDistance
        return t
    }

    public var isIdentity: Bool { self == .identity }

    /// This transform, then `other` (`CATransform3DConcat(self, other)`).
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let a = rows
        let b = other.rows
        var product = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0..<4 {
            for j in 0..<4 {
                product[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j]
            }
        }
        return Transform3D(rows: product)
    }

    /// How the plane z = 0 is drawn: (x, y, 1)·H = (X·w, Y·w, w) for the point (x, y, 0) landing on (X, Y).
    public var homography: Homography {
        Homography(m11: m11, m12: m12, m13: m14, m21: m21, m22: m22, m23: m24, m31: m41, m32: m42, m33: m44)
    }

    /// The map of the plane z = 0 as a 2D affine transform, when it is one (no projective part: m14 = m24 = 0
    /// and m44 ≠ 0); nil when it draws the plane in perspective. A rotation about x or y without perspective is
    /// affine: seen straight on, it only squashes the plane.
    public var affine: AffineTransform2D? { homography.affine }

    public var description: String {
        "matrix3d(" + rows.flatMap { $0 }.map { "\($0)" }.joined(separator: ", ") + ")"
    }
}
