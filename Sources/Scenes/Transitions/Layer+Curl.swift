import Compositor

extension Layer.Content {
    /// The layers inside a group or a curled layer; nil for a layer that draws itself.
    var sublayers: [Layer]? {
        switch self {
        case .group(let layers), .curled(let layers, _): layers
        case .image, .shape, .backdrop, .text, .emitter: nil
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
    /// The pixels of a curled layer's page: its frame's, within the target (nil when none are).
    func pageBox(of layer: Layer, in placement: Placement) -> PixelBox? {
        guard let transform = self.placement(of: layer, in: placement) else { return nil }
        let box = PixelBox(
            covering: layer.frame ?? placement.bounds, through: transform, within: placement.width, placement.height)
        return box.isEmpty ? nil : box
    }
}
