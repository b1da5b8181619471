import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AffineTransform2D {
    /// A transform taken apart as WebKit's `AffineTransform::decompose` does
    /// (`Source/WebCore/platform/graphics/transforms/AffineTransform.cpp`; CSS Transforms 1, "Interpolation of
    /// 2D matrices"): the transform is scale, then rotation, then the remaining (skew) matrix, then translation.
    struct Decomposition: Equatable {
        var scaleX, scaleY, angle: Double
        var remainderA, remainderB, remainderC, remainderD: Double
        var translateX, translateY: Double
    }

    func decomposed() -> Decomposition {
        var scaleX = (a * a + b * b).squareRoot()
        var scaleY = (c * c + d * d).squareRoot()
        // A negative determinant means one axis is flipped: WebKit flips the one whose unit vector kept the
        // smaller component along itself.
        if a * d - b * c < 0 {
            if a < d { scaleX = -scaleX } else { scaleY = -scaleY }
        }
        // Rows without their scale. WebKit divides by a zero scale too (giving NaN); a collapsed row is taken
        // perpendicular to the other one instead (both collapsed: the axes), so scale(0) → identity grows
        // the scale linearly.
        var row0 = scaleX == 0 ? nil : (a / scaleX, b / scaleX)
        var row1 = scaleY == 0 ? nil : (c / scaleY, d / scaleY)
        switch (row0, row1) {
        case (nil, nil): (row0, row1) = ((1, 0), (0, 1))
        case (nil, let other?): row0 = (other.1, -other.0)
        case (let other?, nil): row1 = (-other.1, other.0)
        default: break
        }
        let (r0, r1) = (row0!, row1!)
        let angle = atan2(r0.1, r0.0)
        // The normalised matrix is rotate(angle), then the remainder; so the remainder is rotate(−angle)
        // applied before the normalised matrix (WebKit's `m.rotateRadians(-angle)`), which mixes its rows.
        let (cosine, sine) = (cos(angle), sin(angle))
        return Decomposition(
            scaleX: scaleX, scaleY: scaleY, angle: angle,
            remainderA: cosine * r0.0 - sine * r1.0, remainderB: cosine * r0.1 - sine * r1.1,
            remainderC: sine * r0.0 + cosine * r1.0, remainderD: sine * r0.1 + cosine * r1.1,
            translateX: tx, translateY: ty)
    }

    /// The transform a decomposition describes: WebKit's `AffineTransform::recompose`.
    init(recomposing parts: Decomposition) {
        let remainder = AffineTransform2D(
            a: parts.remainderA, b: parts.remainderB, c: parts.remainderC, d: parts.remainderD,
            tx: parts.translateX, ty: parts.translateY)
        self = remainder.rotatedBy(parts.angle).scaledBy(x: parts.scaleX, y: parts.scaleY)
    }

    /// Core Animation's interpolation by decomposition; progress 0 → self, 1 → other, beyond extrapolates.
    ///
    /// Translation, scale, angle and the remaining matrix are each interpolated linearly (WebKit's
    /// `AffineTransform::blend`), so a rotating layer keeps its size through the middle, where a matrix lerp
    /// would shrink it; the angle goes the short way round (identity → rotate(350°) turns −10°); a flipped
    /// axis passes through a zero scale (scaleX 1 → −1 is 0 half-way); one transform flipped in x and the other
    /// in y becomes a rotation by 180° instead. Progress 0 and 1 give the end transforms exactly.
    public func interpolated(to other: AffineTransform2D, progress: Double) -> AffineTransform2D {
        if progress == 0 { return self }
        if progress == 1 { return other }
        var from = decomposed()
        var to = other.decomposed()
        if (from.scaleX < 0 && to.scaleY < 0) || (from.scaleY < 0 && to.scaleX < 0) {
            from.scaleX = -from.scaleX
            from.scaleY = -from.scaleY
            from.angle += from.angle < 0 ? .pi : -.pi
        }
        // atan2 gives angles in [−π, π]; more than π apart, go round the other way.
        if abs(from.angle - to.angle) > .pi {
            if from.angle > to.angle { from.angle -= 2 * .pi } else { to.angle -= 2 * .pi }
        }
        func mix(_ start: Double, _ end: Double) -> Double { start + (end - start) * progress }
        return AffineTransform2D(
            recomposing: Decomposition(
                scaleX: mix(from.scaleX, to.scaleX), scaleY: mix(from.scaleY, to.scaleY),
                angle: mix(from.angle, to.angle),
                remainderA: mix(from.remainderA, to.remainderA), remainderB: mix(from.remainderB, to.remainderB),
                remainderC: mix(from.remainderC, to.remainderC), remainderD: mix(from.remainderD, to.remainderD),
                translateX: mix(from.translateX, to.translateX), translateY: mix(from.translateY, to.translateY)))
    }
}

extension AffineTransform2D {
    /// The change from `start` to this transform as the parts of their decompositions (scale x and y, angle, the
    /// four remainder entries, translation x and y), the angle the short way round: what an additive animation
    /// adds, as UIKit adds overlapping transform animations by their decomposition.
    package func decompositionOffset(from start: AffineTransform2D) -> [Double] {
        let (a, b) = (start.decomposed(), decomposed())
        var angle = b.angle - a.angle
        if angle > .pi { angle -= 2 * .pi } else if angle < -.pi { angle += 2 * .pi }
        return [
            b.scaleX - a.scaleX, b.scaleY - a.scaleY, angle, b.remainderA - a.remainderA,
            b.remainderB - a.remainderB, b.remainderC - a.remainderC, b.remainderD - a.remainderD,
            b.translateX - a.translateX, b.translateY - a.translateY,
        ]
    }

    /// This transform with `offset` (as `decompositionOffset(from:)` gives one) added to its decomposition.
    package func addingDecompositionOffset(_ offset: [Double]) -> AffineTransform2D {
        let p = decomposed()
        return AffineTransform2D(
            recomposing: Decomposition(
                scaleX: p.scaleX + offset[0], scaleY: p.scaleY + offset[1], angle: p.angle + offset[2],
                remainderA: p.remainderA + offset[3], remainderB: p.remainderB + offset[4],
                remainderC: p.remainderC + offset[5], remainderD: p.remainderD + offset[6],
                translateX: p.translateX + offset[7], translateY: p.translateY + offset[8]))
    }
}
