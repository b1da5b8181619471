import Compositor

extension Layer.Content {
    /// The layers inside a group or a curled layer; nil for a layer that draws itself.
    var sublayers: [Layer]? {
        switch self {
        case .group(let layers), .curled(let layers, _): layers
        case .image, .shape, .gradientShape, .path, .backdrop, .text, .emitter: nil
        }
    }
}

extension Layer {
    var curl: PageCurl? {
        if case .curled(_, let curl) = content { return curl }
        return nil
    }

    /// `layers` drawn as one page in `frame` and curled by `curl`, as `.curled` describes.
    public static func curled(
        _ layers: [Layer], curl: PageCurl, frame: Rect? = nil, opacity: Double = 1,
        blend: CompositeOperator = .sourceOver, transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.curled(layers, curl: curl), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }
}

extension SceneRenderer {
    /// The pixels of a curled layer's page: its whole frame's, even where it lies off the target, so that a page
    /// partly off the canvas curls from its own edge, not the canvas's (a curl turns the page's far parts into
    /// view). Bounded to the target grown by half its size on each side, which holds any page that shows, so a
    /// frame of a million points costs no more than that. Nil when the page is empty.
    func pageBox(of layer: Layer, in placement: Placement) -> PixelBox? {
        guard let transform = self.placement(of: layer, in: placement) else { return nil }
        let (marginX, marginY) = ((placement.width + 1) / 2, (placement.height + 1) / 2)
        let shifted = transform.concatenating(AffineTransform2D(translationX: Double(marginX), y: Double(marginY)))
        var box = PixelBox(
            covering: layer.frame ?? placement.bounds, through: shifted, within: placement.width + 2 * marginX,
            placement.height + 2 * marginY)
        (box.x, box.y) = (box.x - marginX, box.y - marginY)
        return box.isEmpty || box.intersection(PixelBox(x: 0, y: 0, width: placement.width, height: placement.height))
            .isEmpty ? nil : box
    }
}
