import Compositor

extension Layer {
    /// The 3D transform when it draws the plane in perspective; nil when there is none or it is affine.
    var perspective: Transform3D? {
        guard let transform3D, transform3D.affine == nil else { return nil }
        return transform3D
    }

    /// `transform` followed by the 3D transform when that is affine (so it takes the 2D path's exact routes).
    var planarTransform: AffineTransform2D {
        guard let affine = transform3D?.affine, !affine.isIdentity else { return transform }
        return transform.concatenating(affine)
    }

    /// Not drawn at all: its plane seen edge on (a flip at exactly 90°), or from behind when single-sided. A
    /// homography's Jacobian has the sign of its determinant wherever w > 0, so the sign is the winding seen.
    var isTurnedAway: Bool {
        guard let transform3D else { return false }
        let plane = transform3D.homography
        return plane.isDegenerate || (!isDoubleSided && plane.determinant < 0)
    }
}

/// A layer in perspective: drawn flat (its 3D transform removed, at full opacity with source-over) into a
/// picture at its parent's pixel density, which is then warped onto the target and composited with the layer's
/// opacity and operator.
struct Projection {
    var flat: Layer
    /// Where the flat layer is drawn: a picture of `width` × `height`.
    var picture: Placement
    /// The picture's pixels to the target's.
    var homography: Homography
    /// The target pixels the warped picture may touch.
    var box: PixelBox
}

extension SceneRenderer {
    /// How a layer with a perspective `transform3D` is drawn; nil when it shows nothing (turned away, behind the
    /// eye, outside the target).
    func projection(of layer: Layer, in placement: Placement) -> Projection? {
        guard let transform3D = layer.perspective, self.placement(of: layer, in: placement) != nil else { return nil }
        let frame = layer.frame ?? placement.bounds
        let p = placement.transform
        let density = abs(p.a * p.d - p.b * p.c).squareRoot()
        guard density.isFinite, density > 0 else { return nil }
        var flat = layer
        (flat.transform3D, flat.opacity, flat.blend, flat.isDoubleSided) = (nil, 1, .sourceOver, true)
        // The picture may hold what the layer draws up to a frame's size beyond each side of its frame (text and
        // children are not clipped); the box inside it is what they touch.
        let window = Rect(
            x: frame.x - frame.width, y: frame.y - frame.height, width: 3 * frame.width, height: 3 * frame.height)
        func pixels(_ extent: Double) -> Int { Int(saturating: (extent * density).rounded(.up), within: 0...(1 << 30)) }
        let windowPlacement = Placement(
            transform: AffineTransform2D(translationX: -window.x, y: -window.y)
                .concatenating(AffineTransform2D(scaleX: density, y: density)),
            bounds: placement.bounds, width: pixels(window.width), height: pixels(window.height))
        guard let pictureBox = pixelBox(of: flat, in: windowPlacement),
            let pointsFromPicture = windowPlacement.picture(pictureBox).transform.inverted()
        else { return nil }
        let centre = frame.center
        let homography = Homography(pointsFromPicture)
            .concatenating(Homography(AffineTransform2D(translationX: -centre.x, y: -centre.y)))
            .concatenating(transform3D.homography)
            .concatenating(Homography(AffineTransform2D(translationX: centre.x, y: centre.y)))
            .concatenating(Homography(p))
        guard
            let box = Projection.box(
                width: pictureBox.width, height: pictureBox.height, through: homography, within: placement.width,
                placement.height)
        else { return nil }
        return Projection(
            flat: flat, picture: windowPlacement.picture(pictureBox), homography: homography, box: box)
    }
}

extension Projection {
    /// The target pixels a `width` × `height` picture touches through the homography: its corners projected,
    /// with the part behind the eye cut off first (the polygon clipped at a w just above 0, whose points land
    /// past any canvas), one pixel of margin for the bilinear filter, within the target. Nil when none.
    static func box(width: Int, height: Int, through h: Homography, within targetWidth: Int, _ targetHeight: Int)
        -> PixelBox?
    {
        let (w, hgt) = (Double(width), Double(height))
        let corners = [(0.0, 0.0), (w, 0), (w, hgt), (0, hgt)].map { h.homogeneous($0) }
        let nearest = corners.map { abs($0.w) }.max() ?? 0
        guard nearest > 0, nearest.isFinite else { return nil }
        let floor = nearest * 1e-9
        var clipped: [(x: Double, y: Double, w: Double)] = []
        for (index, a) in corners.enumerated() {
            let b = corners[(index + 1) % corners.count]
            if a.w >= floor { clipped.append(a) }
            if (a.w >= floor) != (b.w >= floor) {
                let t = (floor - a.w) / (b.w - a.w)
                clipped.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, floor))
            }
        }
        guard !clipped.isEmpty else { return nil }
        let xs = clipped.map { min(max($0.x / $0.w, -1e12), 1e12) }
        let ys = clipped.map { min(max($0.y / $0.w, -1e12), 1e12) }
        func pixel(_ value: Double, _ limit: Int) -> Int { Int(saturating: value, within: 0...limit) }
        let left = pixel(xs.min()!.rounded(.down) - 1, targetWidth)
        let top = pixel(ys.min()!.rounded(.down) - 1, targetHeight)
        let right = pixel(xs.max()!.rounded(.up) + 1, targetWidth)
        let bottom = pixel(ys.max()!.rounded(.up) + 1, targetHeight)
        let box = PixelBox(x: left, y: top, width: right - left, height: bottom - top)
        return box.isEmpty ? nil : box
    }
}
