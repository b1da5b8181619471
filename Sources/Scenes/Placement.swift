import Compositor

/// Where a layer lands on the image it is drawn into: the transform from the current coordinates to that
/// image's pixels, the bounds a layer without a frame fills, and the image's size. Drawing and costing a
/// scene walk it the same way, so the cost counts exactly the pixels drawing will touch.
struct Placement {
    var transform: AffineTransform2D
    var bounds: Rect
    var width: Int
    var height: Int

    /// The placement for a group's layers: coordinates start at the group frame's top left (when it has
    /// one), and a layer without a frame fills the group's.
    func inside(_ group: Layer, transform: AffineTransform2D) -> Placement {
        var inner = self
        inner.transform = transform
        if let frame = group.frame {
            inner.transform = AffineTransform2D(translationX: frame.x, y: frame.y).concatenating(transform)
            inner.bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        }
        return inner
    }

    /// The same layers drawn into a picture covering `box` of this placement's image (an isolated group's).
    func picture(_ box: PixelBox) -> Placement {
        var inner = self
        inner.transform = transform.concatenating(
            AffineTransform2D(translationX: -Double(box.x), y: -Double(box.y)))
        (inner.width, inner.height) = (box.width, box.height)
        return inner
    }
}

extension Layer {
    /// Fully transparent under an operator that then leaves the destination as it was.
    var drawsNothing: Bool { opacity <= 0 && (blend == .sourceOver || blend.isBlendMode) }

    /// A group drawn alone on a picture of its own, then composited as one.
    var isIsolated: Bool { isolated || opacity < 1 || blend != .sourceOver || clipCornerRadius != nil }
}

extension SceneRenderer {
    /// Local coordinates to the target's pixels for this layer: its transform acts about its frame's centre,
    /// then the parent's. Nil when there is nothing to draw (an empty frame, a transform that squashes it).
    func placement(of layer: Layer, in placement: Placement) -> AffineTransform2D? {
        let frame = layer.frame ?? placement.bounds
        guard frame.width > 0, frame.height > 0 else { return nil }
        guard !layer.isTurnedAway else { return nil }
        let centre = frame.center
        let transform = AffineTransform2D(translationX: -centre.x, y: -centre.y)
            .concatenating(layer.planarTransform)
            .concatenating(AffineTransform2D(translationX: centre.x, y: centre.y))
            .concatenating(placement.transform)
        return transform.inverted() == nil ? nil : transform
    }

    /// The target pixels a layer may touch (for a group, what its layers may touch).
    func pixelBox(of layer: Layer, in placement: Placement) -> PixelBox? {
        guard let transform = self.placement(of: layer, in: placement) else { return nil }
        if layer.perspective != nil { return projection(of: layer, in: placement)?.box }
        if case .emitter = layer.content { return pixelBox(of: layer.expandingEmitter, in: placement) }
        if case .group(let layers) = layer.content {
            return pixelBox(ofLayers: layers, in: placement.inside(layer, transform: transform))
        }
        if case .text(let text, _) = layer.content {
            return textBox(text, frame: layer.frame ?? placement.bounds, transform: transform, in: placement)
        }
        let box = PixelBox(
            covering: layer.frame ?? placement.bounds, through: transform, within: placement.width, placement.height)
        return box.isEmpty ? nil : box
    }

    /// The target pixels a text layer's glyphs may touch (text is not clipped to its frame); nil when none.
    func textBox(_ text: any TypesetText, frame: Rect, transform: AffineTransform2D, in placement: Placement)
        -> PixelBox?
    {
        guard let ink = text.inkBounds(frameWidth: frame.width, height: frame.height) else { return nil }
        let placed = Rect(x: frame.x + ink.x, y: frame.y + ink.y, width: ink.width, height: ink.height)
        let box = PixelBox(covering: placed, through: transform, within: placement.width, placement.height)
        return box.isEmpty ? nil : box
    }

    /// Where an image layer's pixels land: the part of the frame the picture covers (`fit` lays it out: fill
    /// overflows the frame and is clipped, fit leaves bands), the target pixels that part touches, and the map
    /// from the picture's pixels to the target's. Nil when nothing would be drawn.
    func imageLayout(
        _ image: Image, fit: FitMode, frame: Rect, transform: AffineTransform2D, in placement: Placement
    ) -> (visible: Rect, box: PixelBox, pixelsFromImage: AffineTransform2D)? {
        guard image.width > 0, image.height > 0 else { return nil }
        var scaleX = frame.width / Double(image.width)
        var scaleY = frame.height / Double(image.height)
        switch fit {
        case .fill: (scaleX, scaleY) = (max(scaleX, scaleY), max(scaleX, scaleY))
        case .fit: (scaleX, scaleY) = (min(scaleX, scaleY), min(scaleX, scaleY))
        case .stretch: break
        }
        let placed = Rect(
            x: frame.x + (frame.width - Double(image.width) * scaleX) / 2,
            y: frame.y + (frame.height - Double(image.height) * scaleY) / 2,
            width: Double(image.width) * scaleX, height: Double(image.height) * scaleY)
        let visible = frame.intersection(placed)
        let box = PixelBox(covering: visible, through: transform, within: placement.width, placement.height)
        guard !box.isEmpty, visible.width > 0, visible.height > 0 else { return nil }
        let t = AffineTransform2D(scaleX: scaleX, y: scaleY)
            .concatenating(AffineTransform2D(translationX: placed.x, y: placed.y))
            .concatenating(transform)
        // A picture shrunk more than 10⁴ times along an axis covers less than a pixel there; resampling it would
        // take filters as wide as the picture for every pixel (a hostile scene could ask for 10⁻³⁰⁰).
        guard (t.a * t.a + t.b * t.b).squareRoot() >= 1e-4, (t.c * t.c + t.d * t.d).squareRoot() >= 1e-4 else {
            return nil
        }
        return (visible, box, t)
    }

    /// The smallest box holding every pixel the layers may touch; nil when they touch none.
    func pixelBox(ofLayers layers: [Layer], in placement: Placement) -> PixelBox? {
        layers.reduce(nil) { PixelBox.union($0, pixelBox(of: $1, in: placement)) }
    }
}

extension PixelBox {
    /// The smallest box holding both (either may be nil).
    static func union(_ a: PixelBox?, _ b: PixelBox?) -> PixelBox? {
        guard let a else { return b }
        guard let b else { return a }
        return a.union(b)
    }
}
