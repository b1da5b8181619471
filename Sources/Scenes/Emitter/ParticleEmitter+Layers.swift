import Compositor

extension ParticleEmitter {
    /// The particles alive at `time` as layers in the emitter layer's coordinates, oldest first: an image
    /// (stretched to its scaled size, bilinear) or a circle for each, turned by its rotation about its centre,
    /// with its opacity. The renderer draws an emitter layer as a group of these, so particles composite, isolate
    /// and are costed as any image or shape layer is.
    public func particleLayers() -> [Layer] {
        let looks = emitterCells.map(Look.init)
        return particles().compactMap { particle in
            guard let look = looks[particle.cell], particle.opacity > 0, particle.scale > 0 else { return nil }
            let (width, height) = (look.width * particle.scale, look.height * particle.scale)
            guard width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
            let frame = Rect(x: particle.x - width / 2, y: particle.y - height / 2, width: width, height: height)
            let transform = particle.rotation == 0 ? .identity : AffineTransform2D(rotationAngle: particle.rotation)
            switch look.kind {
            case .image(let image):
                return .image(
                    image, frame: frame, fit: .stretch, filter: .bilinear, opacity: particle.opacity,
                    transform: transform)
            case .circle(let color):
                // The circle's own alpha times the particle's opacity, in the colour: one fill, no isolation.
                return .shape(
                    .capsule, color: color.opacity(color.alpha * particle.opacity), frame: frame, transform: transform)
            }
        }
    }
}

/// What a cell's particles look like at scale 1: their content (tinted once per cell) and size in points.
private struct Look {
    enum Kind {
        case image(Image)
        case circle(RGBAColor)
    }

    let kind: Kind
    let width: Double
    let height: Double

    init?(_ cell: EmitterCell) {
        guard let contents = cell.contents else { return nil }
        let tint = cell.color
        switch contents {
        case .image(let image):
            guard image.width > 0, image.height > 0 else { return nil }
            let pixelsPerPoint = cell.contentsScale.isFinite && cell.contentsScale > 0 ? cell.contentsScale : 1
            kind = .image(Look.tinted(image, by: tint))
            (width, height) = (Double(image.width) / pixelsPerPoint, Double(image.height) / pixelsPerPoint)
        case .circle(let diameter, let color):
            guard diameter.isFinite, diameter > 0 else { return nil }
            let rgb = RGBAColor(
                red: color.red * tint.red, green: color.green * tint.green, blue: color.blue * tint.blue,
                alpha: color.alpha)
            kind = .circle(rgb)
            (width, height) = (diameter, diameter)
        }
    }

    /// The picture with its premultiplied channels times the tint's (as `CAEmitterCell.color` multiplies the
    /// contents); white leaves it as it is, shared, not copied.
    static func tinted(_ image: Image, by tint: RGBAColor) -> Image {
        func factor(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        let (red, green, blue) = (factor(tint.red), factor(tint.green), factor(tint.blue))
        guard red < 1 || green < 1 || blue < 1 else { return image }
        let result = Image(width: image.width, height: image.height)
        for y in 0..<image.height {
            let (source, target) = (image.row(y), result.row(y))
            for x in 0..<image.width {
                let at = x * Image.bytesPerPixel
                target[at] = UInt8((Double(source[at]) * red).rounded())
                target[at + 1] = UInt8((Double(source[at + 1]) * green).rounded())
                target[at + 2] = UInt8((Double(source[at + 2]) * blue).rounded())
                target[at + 3] = source[at + 3]
            }
        }
        return result
    }
}

extension Layer {
    /// A particle emitter in the frame's coordinates (the parent's bounds by default), as a `CAEmitterLayer`.
    public static func emitter(
        _ emitter: ParticleEmitter, frame: Rect? = nil, opacity: Double = 1, blend: CompositeOperator = .sourceOver,
        transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.emitter(emitter), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }

    /// An emitter layer as what it draws: a group of its particles, with the layer's frame, opacity, operator
    /// and transform. Other layers are returned as they are.
    var expandingEmitter: Layer {
        guard case .emitter(let emitter) = content else { return self }
        var group = self
        group.content = .group(emitter.particleLayers())
        return group
    }
}
