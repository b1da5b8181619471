import Compositor

// What `Layer.snapshot(at:)` chains animations by: the property each drives and the model values each starts from.

/// An animation in its property's chain, with the model values it starts from.
struct ChainEntry {
    let animation: LayerAnimation
    let from: ModelValues
}

/// Which property an animation drives (animations of one kind chain; different kinds are independent).
enum PropertyKind: Hashable, CaseIterable {
    case opacity, transform, rotation, transform3D, rotation3D, frame, color, cornerRadius, effect, blur, dim, image,
        curl, strokeEnd, strokeColor

    init(_ property: AnimatedProperty) {
        switch property {
        case .opacity: self = .opacity
        case .transform: self = .transform
        case .rotation: self = .rotation
        case .transform3D: self = .transform3D
        case .rotation3D: self = .rotation3D
        case .frame: self = .frame
        case .color: self = .color
        case .cornerRadius: self = .cornerRadius
        case .effect: self = .effect
        case .blur: self = .blur
        case .dim: self = .dim
        case .image: self = .image
        case .curl: self = .curl
        case .strokeEnd: self = .strokeEnd
        case .strokeColor: self = .strokeColor
        }
    }
}

/// A layer's model values: what an animation without `from` starts from, updated as a chain of animations ends.
struct ModelValues {
    var opacity: Double
    var transform: AffineTransform2D
    var rotation = 0.0
    var transform3D: Transform3D?
    var rotation3D = 0.0
    var frame: Rect?
    var color: RGBAColor?
    var cornerRadius = 0.0
    var effect = 1.0
    var blur = 0.0
    var dim = 0.0
    var image: Image?
    var curl = 0.0
    var strokeEnd = 1.0
    var strokeColor: RGBAColor?

    init(_ layer: Layer) {
        opacity = layer.opacity
        transform = layer.transform
        transform3D = layer.transform3D
        frame = layer.frame
        switch layer.content {
        case .image(let image, _, _, let radius): (self.image, cornerRadius) = (image, radius)
        case .shape(let shape, let color):
            self.color = color
            if case .rectangle(let radius) = shape { cornerRadius = radius }
        case .gradientShape(let shape, _):
            if case .rectangle(let radius) = shape { cornerRadius = radius }
        case .backdrop(let material):
            (effect, blur, dim, cornerRadius) =
                (material.effect, material.recipe.blurPoints, material.dim, material.cornerRadius)
        case .text(_, let color): self.color = color
        case .group: cornerRadius = layer.clipCornerRadius ?? 0
        case .emitter: break
        case .curled(_, let curl): self.curl = curl.progress
        case .path(let shape):
            // `color` is the fill's; a path with no fill at all lends it to the stroke (a gradient fill has none).
            (color, strokeEnd) = (shape.fill ?? (shape.isFilled ? nil : shape.stroke?.color), shape.strokeEnd)
            strokeColor = shape.stroke?.color
        }
    }

    /// Where `animation` leaves its property once it has ended (an animation repeating forever: its last
    /// keyframe, as a later one in the chain only starts from there in the model).
    mutating func apply(endOf animation: LayerAnimation) {
        let end = Progress(animation, at: animation.timing.endTime.isFinite ? animation.timing.endTime : .infinity)
        switch animation.property {
        case .opacity(let track): opacity = end.value(of: track, from: opacity)
        case .transform(let track): transform = end.value(of: track, from: transform)
        case .rotation(let track): rotation = end.value(of: track, from: rotation)
        case .transform3D(let track): transform3D = end.value(of: track, from: transform3D ?? .identity)
        case .rotation3D(_, let track): rotation3D = end.value(of: track, from: rotation3D)
        case .frame(let track): frame = (track.from ?? frame).map { end.value(of: track, from: $0) }
        case .color(let track): color = (track.from ?? color).map { end.value(of: track, from: $0) }
        case .cornerRadius(let track): cornerRadius = end.value(of: track, from: cornerRadius)
        case .effect(let track): effect = end.value(of: track, from: effect)
        case .blur(let track): blur = end.value(of: track, from: blur)
        case .dim(let track): dim = end.value(of: track, from: dim)
        case .image(let next): if end.x >= 1 { image = next }
        case .curl(let track): curl = end.value(of: track, from: curl)
        case .strokeEnd(let track): strokeEnd = end.value(of: track, from: strokeEnd)
        case .strokeColor(let track): strokeColor = (track.from ?? strokeColor).map { end.value(of: track, from: $0) }
        }
    }
}
