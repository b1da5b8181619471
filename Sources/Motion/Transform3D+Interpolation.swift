import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Transform3D {
    /// A transform taken apart as CSS Transforms 2's "decomposing a 3D matrix" does, in row-vector form:
    /// M = scale · skew · rotation · translation · perspective, where the perspective is the identity with last
    /// column (x, y, z, w), so it applies last and m34 = −1/d stays a camera d away.
    struct Decomposition: Equatable {
        var scale: SIMD3<Double>
        /// The shears xy, xz, yz of the unit lower-triangular matrix between scale and rotation.
        var skew: SIMD3<Double>
        /// A unit quaternion (x, y, z, w).
        var quaternion: SIMD4<Double>
        var translation: SIMD3<Double>
        var perspective: SIMD4<Double>
    }

    /// Nil when the matrix has no such form: m44 = 0 or the 3×3 part singular (CSS then animates discretely).
    func decomposed() -> Decomposition? {
        guard m44 != 0, m44.isFinite else { return nil }
        let n = rows.map { $0.map { $0 / m44 } }
        var row = (0..<3).map { SIMD3(n[$0][0], n[$0][1], n[$0][2]) }
        let translation = SIMD3(n[3][0], n[3][1], n[3][2])
        // M[i][3] = row[i]·p for i < 3 and M[3][3] = t·p + p₄ (see the type's comment).
        guard let inverse = Transform3D.inverse3(row) else { return nil }
        let column = SIMD3(n[0][3], n[1][3], n[2][3])
        let p = inverse.0 * column.x + inverse.1 * column.y + inverse.2 * column.z
        let perspective = SIMD4(p.x, p.y, p.z, n[3][3] - (translation * p).sum())
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        var scale = SIMD3<Double>(repeating: 0)
        var skew = SIMD3<Double>(repeating: 0)
        scale.x = length(row[0])
        row[0] /= scale.x
        skew.x = (row[0] * row[1]).sum()
        row[1] -= skew.x * row[0]
        scale.y = length(row[1])
        row[1] /= scale.y
        skew.x /= scale.y
        skew.y = (row[0] * row[2]).sum()
        row[2] -= skew.y * row[0]
        skew.z = (row[1] * row[2]).sum()
        row[2] -= skew.z * row[1]
        scale.z = length(row[2])
        row[2] /= scale.z
        (skew.y, skew.z) = (skew.y / scale.z, skew.z / scale.z)
        let cross = SIMD3(
            row[1].y * row[2].z - row[1].z * row[2].y, row[1].z * row[2].x - row[1].x * row[2].z,
            row[1].x * row[2].y - row[1].y * row[2].x)
        if (row[0] * cross).sum() < 0 {
            scale = -scale
            row = row.map { -$0 }
        }
        return Decomposition(
            scale: scale, skew: skew, quaternion: Transform3D.quaternion(row), translation: translation,
            perspective: perspective)
    }

    init(recomposing parts: Decomposition) {
        let (x, y, z, w) = (parts.quaternion.x, parts.quaternion.y, parts.quaternion.z, parts.quaternion.w)
        let rotation = [
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
            SIMD3(2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
            SIMD3(2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)),
        ]
        let (s, k) = (parts.scale, parts.skew)
        let a = [
            s.x * rotation[0], s.y * (k.x * rotation[0] + rotation[1]),
            s.z * (k.y * rotation[0] + k.z * rotation[1] + rotation[2]),
        ]
        let p = SIMD3(parts.perspective.x, parts.perspective.y, parts.perspective.z)
        let t = parts.translation
        self.init(rows: [
            [a[0].x, a[0].y, a[0].z, (a[0] * p).sum()], [a[1].x, a[1].y, a[1].z, (a[1] * p).sum()],
            [a[2].x, a[2].y, a[2].z, (a[2] * p).sum()], [t.x, t.y, t.z, (t * p).sum() + parts.perspective.w],
        ])
    }

    /// Core Animation's interpolation by decomposition; progress 0 → self, 1 → other exactly, beyond extrapolates.
    ///
    /// Scale, skew, translation and perspective are interpolated linearly and the rotation along the shorter
    /// great circle between the two quaternions (slerp), so a turn keeps the layer's size and its camera. Two
    /// orientations half a turn apart have no shorter way: use `AnimatedProperty.rotation3D` for flips. A matrix
    /// with no decomposition switches at half way, as CSS does.
    public func interpolated(to other: Transform3D, progress: Double) -> Transform3D {
        if progress == 0 { return self }
        if progress == 1 { return other }
        guard let from = decomposed(), let to = other.decomposed() else { return progress < 0.5 ? self : other }
        func mix<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar == Double { a + (b - a) * progress }
        var end = to.quaternion
        var dot = (from.quaternion * end).sum()
        if dot < 0 { (end, dot) = (-end, -dot) }
        let quaternion: SIMD4<Double>
        if dot > 0.9999 {
            let q = mix(from.quaternion, end)
            quaternion = q / (q * q).sum().squareRoot()
        } else {
            let angle = acos(min(dot, 1))
            let a = sin((1 - progress) * angle) / sin(angle)
            let b = sin(progress * angle) / sin(angle)
            quaternion = from.quaternion * a + end * b
        }
        return Transform3D(
            recomposing: Decomposition(
                scale: mix(from.scale, to.scale), skew: mix(from.skew, to.skew), quaternion: quaternion,
                translation: mix(from.translation, to.translation),
                perspective: mix(from.perspective, to.perspective)))
    }

    /// The inverse of the matrix with these rows, as its columns (so v = Σ column·b solves rows·v = b); nil when
    /// singular.
    private static func inverse3(_ r: [SIMD3<Double>]) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)? {
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        let (c0, c1, c2) = (cross(r[1], r[2]), cross(r[2], r[0]), cross(r[0], r[1]))
        let det = (r[0] * c0).sum()
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        return (c0 / det, c1 / det, c2 / det)
    }

    /// The unit quaternion of a rotation matrix (rows), by its largest component (Shepperd's method), so half
    /// turns keep their axis.
    private static func quaternion(_ r: [SIMD3<Double>]) -> SIMD4<Double> {
        let trace = r[0].x + r[1].y + r[2].z
        let q: SIMD4<Double>
        if trace > 0 {
            let s = 2 * (trace + 1).squareRoot()
            q = SIMD4((r[2].y - r[1].z) / s, (r[0].z - r[2].x) / s, (r[1].x - r[0].y) / s, s / 4)
        } else if r[0].x >= r[1].y && r[0].x >= r[2].z {
            let s = 2 * (1 + r[0].x - r[1].y - r[2].z).squareRoot()
            q = SIMD4(s / 4, (r[0].y + r[1].x) / s, (r[0].z + r[2].x) / s, (r[2].y - r[1].z) / s)
        } else if r[1].y >= r[2].z {
            let s = 2 * (1 + r[1].y - r[0].x - r[2].z).squareRoot()
            q = SIMD4((r[0].y + r[1].x) / s, s / 4, (r[1].z + r[2].y) / s, (r[0].z - r[2].x) / s)
        } else {
            let s = 2 * (1 + r[2].z - r[0].x - r[1].y).squareRoot()
            q = SIMD4((r[0].z + r[2].x) / s, (r[1].z + r[2].y) / s, s / 4, (r[1].x - r[0].y) / s)
        }
        return q / (q * q).sum().squareRoot()
    }
}
