import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `PageCurl` laid over a page of one size: where each output pixel finds its two surfaces on the flat page.
///
/// Along the unit vector `n` (the direction the curl travels) a point's distance behind the axis is
/// u′ = axis − (p·n − rearmost). Page material u behind the axis lies on the cylinder at the angle φ = u/r and
/// shows at u′ = r·sin φ; past φ = π it lies flat on top again at u′ = πr − u, folded over the page ahead of the
/// axis. Seen from above, a pixel at u′ ≤ r has two surfaces over it: the back (φ in [π/2, π] or folded
/// flat, on top) and the front (φ in [0, π/2], or the page still flat ahead of the axis). Behind r the page is gone.
/// A surface whose material lies outside the page is absent; its coverage fades over half a pixel either side of
/// the page's edge and the silhouette, which anti-aliases both.
struct CurlGeometry: Sendable {
    let width: Double
    let height: Double
    /// The direction the curl travels, a unit vector.
    let n: (x: Double, y: Double)
    /// The page's rearmost point along n (where the curl starts), as p·n.
    let rearmost: Double
    /// The axis's distance ahead of the rearmost point.
    let axis: Double
    let r: Double
    let shadowWidth: Double

    /// What of the page's own colour shows on its back; the rest is paper grey.
    static let backShare = 0.3
    static let paperGrey = 0.93
    /// The light a surface facing sideways keeps on the roll (1 when facing the viewer).
    static let ambient = 0.65
    static let shadowOpacity = 0.35

    /// Nil when the curl is flat (progress 0) or gone (progress 1).
    init?(_ curl: PageCurl, width: Int, height: Int) {
        let progress = curl.clampedProgress
        guard progress > 0, progress < 1 else { return nil }
        self.width = Double(width)
        self.height = Double(height)
        let angle = curl.clampedAngle
        // The right-hand corner leads: it is the rearmost point along n for a positive angle.
        let n = (x: -sin(angle), y: curl.direction == .up ? -cos(angle) : cos(angle))
        self.n = n
        let along = [(0.0, 0.0), (Double(width), 0), (0, Double(height)), (Double(width), Double(height))].map {
            $0.0 * n.x + $0.1 * n.y
        }
        rearmost = along.min()!
        r = max(curl.clampedRadius * Double(min(width, height)), 0.5)
        shadowWidth = max(r, 2)
        // At progress 1 the axis is a radius, the shadow and the anti-aliasing past the foremost point: nothing
        // of the page, its roll or its shadow is left in view.
        axis = progress * (along.max()! - rearmost + r + shadowWidth + 1)
    }

    /// One output pixel: its two surfaces' points on the flat page and how each shows.
    struct Point {
        /// Where the back and the front come from, in the page's continuous coordinates (pixel centres at
        /// i + 0.5).
        var back: (x: Double, y: Double)
        var front: (x: Double, y: Double)
        /// Coverage 0...1 of each surface (the back lies over the front).
        var backCoverage: Double
        var frontCoverage: Double
        /// Light on each surface, 0...1.
        var backShade: Double
        var frontShade: Double
        /// The roll's shadow beneath both, 0...1 black.
        var shadow: Double
    }

    /// The surfaces over the centre of pixel (x, y).
    func point(x: Int, y: Int) -> Point {
        let p = (x: Double(x) + 0.5, y: Double(y) + 0.5)
        let behind = axis - (p.x * n.x + p.y * n.y - rearmost)
        let silhouette = clamp(r + 0.5 - behind)
        let onPage = min(behind, r)
        let back: Double
        let front: Double
        var shade = 1.0
        if onPage <= 0 {
            (back, front) = (Double.pi * r - onPage, onPage)
        } else {
            let phi = asin(onPage / r)
            (back, front) = (r * (Double.pi - phi), r * phi)
            let facing = (1 - (onPage / r) * (onPage / r)).squareRoot()
            shade = CurlGeometry.ambient + (1 - CurlGeometry.ambient) * facing
        }
        // Material u behind the axis lies (behind − u) further along n than the pixel.
        let backPoint = (x: p.x + (behind - back) * n.x, y: p.y + (behind - back) * n.y)
        let frontPoint = (x: p.x + (behind - front) * n.x, y: p.y + (behind - front) * n.y)
        var shadow = 0.0
        if behind > r - 0.5, behind < r + shadowWidth {
            // Under the roll only where the roll has page in it (its top, φ = π/2, over this pixel).
            let top = Double.pi / 2 * r
            let roll = coverage(x: p.x + (behind - top) * n.x, y: p.y + (behind - top) * n.y)
            let fade = 1 - max(behind - r, 0) / shadowWidth
            shadow = CurlGeometry.shadowOpacity * fade * fade * roll
        }
        return Point(
            back: backPoint, front: frontPoint, backCoverage: silhouette * coverage(x: backPoint.x, y: backPoint.y),
            frontCoverage: silhouette * coverage(x: frontPoint.x, y: frontPoint.y), backShade: shade,
            frontShade: shade, shadow: shadow)
    }

    /// How much of a pixel centred at (x, y) lies on the page: 1 half a pixel inside its edges, ½ on them.
    private func coverage(x: Double, y: Double) -> Double {
        clamp(min(x, width - x, y, height - y) + 0.5)
    }

    private func clamp(_ value: Double) -> Double { min(max(value, 0), 1) }
}
