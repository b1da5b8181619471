/// A rectangle of whole pixels.
package struct PixelBox: Hashable {
    package var x, y, width, height: Int

    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The smallest box holding both.
    package func union(_ other: PixelBox) -> PixelBox {
        let left = min(x, other.x)
        let top = min(y, other.y)
        return PixelBox(
            x: left, y: top, width: max(x + width, other.x + other.width) - left,
            height: max(y + height, other.y + other.height) - top)
    }

    /// The overlap (empty when they do not meet).
    package func intersection(_ other: PixelBox) -> PixelBox {
        let left = max(x, other.x)
        let top = max(y, other.y)
        return PixelBox(
            x: left, y: top, width: max(min(x + width, other.x + other.width) - left, 0),
            height: max(min(y + height, other.y + other.height) - top, 0))
    }

    /// This box grown by `margin` pixels on every side (not clipped).
    package func expanded(by margin: Int) -> PixelBox {
        PixelBox(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }

    /// The pixels the transformed rectangle touches, within `width` × `height`.
    package init(covering rect: Rect, through transform: AffineTransform2D, within width: Int, _ height: Int) {
        let box = transform.apply(toRect: rect.tuple)
        // Limited to the canvas before converting (a frame may say 1e300), with a hair of slack so that
        // 10.0000000001 (rounding in the transform) does not take in a whole column.
        func pixel(_ value: Double, _ limit: Int, _ rule: FloatingPointRoundingRule) -> Int {
            Int(saturating: value.rounded(rule), within: 0...limit)
        }
        let left = pixel(box.x + 1e-7, width, .down)
        let top = pixel(box.y + 1e-7, height, .down)
        let right = pixel(box.x + box.width - 1e-7, width, .up)
        let bottom = pixel(box.y + box.height - 1e-7, height, .up)
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }

    package init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}

/// Anti-aliased coverage of rounded rectangles seen through an affine transform, from the signed distance to
/// the outline: coverage = clamp(½ − distance in pixels, 0, 1) at each pixel centre, which is exact for a
/// straight edge crossing a pixel and smooth along curves.
package enum Coverage {
    /// The coverage of `rect` (local coordinates, corners rounded by `radius`, clamped to half the shorter
    /// side) drawn through `transform` (local to pixels), over the pixels of `box`; nil when every pixel of the
    /// box is fully covered (the caller then needs no mask). The transform must be invertible.
    package static func roundedRectangle(
        _ rect: Rect, radius: Double, through transform: AffineTransform2D, over box: PixelBox
    ) -> Plane? {
        guard let inverse = transform.inverted() else { preconditionFailure("singular transform") }
        if radius <= 0, transform.b == 0, transform.c == 0 {
            return axisAlignedRectangle(rect, through: transform, over: box)
        }
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
                let coverage = (0.5 - distance * pixelsPerUnit) * 255
                // Clamp, then round to nearest by adding 1.5·2²³ (the integer lands in the low mantissa bits).
                let bits = unsafeBitCast(
                    coverage.maximum(.zero).minimum(Lanes(repeating: 255)) + 12_582_912, to: SIMD16<UInt32>.self)
                let count = min(16, box.width - x)
                if count == 16 {
                    for i in 0..<16 { output[x + i] = UInt8(truncatingIfNeeded: bits[i]) }
                    everyPixelCovered = everyPixelCovered && all(bits & 0xFF .== 255)
                } else {
                    for i in 0..<count {
                        output[x + i] = UInt8(truncatingIfNeeded: bits[i])
                        everyPixelCovered = everyPixelCovered && bits[i] & 0xFF == 255
                    }
                }
                x += 16
            }
        }
        return everyPixelCovered ? nil : plane
    }
}

extension Coverage {
    /// A sharp-cornered rectangle that keeps its axes: each pixel's coverage is the product of the fractions of
    /// its column and row inside, which is the exact area; nil when that is 1 everywhere (edges on pixel
    /// boundaries, as a full-screen colour has).
    private static func axisAlignedRectangle(
        _ rect: Rect, through transform: AffineTransform2D, over box: PixelBox
    )
        -> Plane?
    {
        let corner = transform.apply(to: (rect.x, rect.y))
        let opposite = transform.apply(to: (rect.x + rect.width, rect.y + rect.height))
        func fractions(_ a: Double, _ b: Double, first: Int, count: Int) -> [Float] {
            let (low, high) = (min(a, b), max(a, b))
            return (0..<count).map { i in
                let start = Double(first + i)
                // Within a millionth of a pixel counts as exact: transforms leave 10.0000000001.
                let inside = min(high, start + 1) - max(low, start)
                return inside > 1 - 1e-6 ? 1 : Float(max(inside, 0))
            }
        }
        let columns = fractions(corner.x, opposite.x, first: box.x, count: box.width)
        let rows = fractions(corner.y, opposite.y, first: box.y, count: box.height)
        guard columns.contains(where: { $0 < 1 }) || rows.contains(where: { $0 < 1 }) else { return nil }
        let plane = Plane(width: box.width, height: box.height)
        for (y, rowFraction) in rows.enumerated() {
            let output = plane.row(y)
            for (x, columnFraction) in columns.enumerated() {
                output[x] = UInt8((columnFraction * rowFraction * 255).rounded())
            }
        }
        return plane
    }
}
