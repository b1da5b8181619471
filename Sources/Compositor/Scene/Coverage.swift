/// A rectangle of whole pixels.
struct PixelBox: Equatable {
    var x, y, width, height: Int

    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels the transformed rectangle touches, within `width` × `height`.
    init(covering rect: Rect, through transform: AffineTransform2D, within width: Int, _ height: Int) {
        let box = transform.apply(toRect: rect.tuple)
        // A hair of slack so that 10.0000000001 (rounding in the transform) does not take in a whole column.
        let left = max(Int((box.x + 1e-7).rounded(.down)), 0)
        let top = max(Int((box.y + 1e-7).rounded(.down)), 0)
        let right = min(Int((box.x + box.width - 1e-7).rounded(.up)), width)
        let bottom = min(Int((box.y + box.height - 1e-7).rounded(.up)), height)
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}

/// Anti-aliased coverage of rounded rectangles seen through an affine transform, from the signed distance to
/// the outline: coverage = clamp(½ − distance in pixels, 0, 1) at each pixel centre, which is exact for a
/// straight edge crossing a pixel and smooth along curves.
enum Coverage {
    /// The coverage of `rect` (local coordinates, corners rounded by `radius`, clamped to half the shorter
    /// side) drawn through `transform` (local to pixels), over the pixels of `box`; nil when every pixel of the
    /// box is fully covered (the caller then needs no mask). The transform must be invertible.
    static func roundedRectangle(
        _ rect: Rect, radius: Double, through transform: AffineTransform2D, over box: PixelBox
    ) -> Plane? {
        guard let inverse = transform.inverted() else { preconditionFailure("singular transform") }
        let r = Float(min(max(radius, 0), min(rect.width, rect.height) / 2))
        let halfWidth = Float(rect.width / 2)
        let halfHeight = Float(rect.height / 2)
        // Distances are measured in local units; this many pixels per unit (the geometric mean of the axes).
        let pixelsPerUnit = Float(abs(transform.a * transform.d - transform.b * transform.c).squareRoot())
        let plane = Plane(width: box.width, height: box.height)
        var everyPixelCovered = true
        typealias Lanes = SIMD16<Float>
        var steps = Lanes()
        for i in 0..<16 { steps[i] = Float(i) }
        for row in 0..<box.height {
            // The local position of this row's first pixel centre, relative to the rectangle's centre, in
            // Double (positions can be thousands of points), then Float steps along the row.
            let start = inverse.apply(to: (Double(box.x) + 0.5, Double(box.y + row) + 0.5))
            let originX = Float(start.x - rect.center.x)
            let originY = Float(start.y - rect.center.y)
            let output = plane.row(row)
            var x = 0
            while x < box.width {
                let offsets = steps + Float(x)
                let px = originX + offsets * Float(inverse.a)
                let py = originY + offsets * Float(inverse.b)
                // Signed distance to a rounded box (negative inside).
                let qx = px.replacing(with: -px, where: px .< 0) - (halfWidth - r)
                let qy = py.replacing(with: -py, where: py .< 0) - (halfHeight - r)
                let outX = qx.maximum(.zero)
                let outY = qy.maximum(.zero)
                let outside = (outX * outX + outY * outY).squareRoot()
                let inside = qx.maximum(qy).minimum(.zero)
                let distance = outside + inside - r
                let coverage = ((0.5 - distance * pixelsPerUnit) * 255).clampedTo255() + 0.5
                let count = min(16, box.width - x)
                for i in 0..<count {
                    let value = UInt8(truncatingIfNeeded: Int32(coverage[i]))
                    output[x + i] = value
                    everyPixelCovered = everyPixelCovered && value == 255
                }
                x += 16
            }
        }
        return everyPixelCovered ? nil : plane
    }
}

extension SIMD16 where Scalar == Float {
    @inline(__always) func clampedTo255() -> Self { maximum(.zero).minimum(Self(repeating: 255)) }
}
