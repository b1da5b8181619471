import Compositor

extension Scene {
    /// Whether any layer (at any depth) carries an animation.
    public var isAnimated: Bool { layers.contains { $0.isAnimated } }

    /// How long the scene moves: the latest end of its animations, where one that repeats forever counts one
    /// pass (there and back when it autoreverses). 0 for a still scene. Emitters add nothing: they run as long
    /// as the rest of the scene (or the duration a caller asks for).
    public var animationDuration: Double { layers.map(\.animationDuration).max() ?? 0 }

    /// The period after which every frame repeats, when the scene is a loop: every animation starts at 0 and
    /// repeats for ever, each pass (there and back when it autoreverses) dividing `animationDuration`, and no
    /// emitter (particles never come back where they were). Nil otherwise. A looping output of such a scene shows
    /// the frames of t < period only: the frame at the period is the first again.
    public var loopPeriod: Double? {
        let period = animationDuration
        guard period > 0, !layers.contains(where: \.hasEmitter) else { return nil }
        var periodic = true
        func check(_ layer: Layer) {
            for animation in layer.animations {
                let timing = animation.timing
                let pass = timing.passDuration * (timing.autoreverses ? 2 : 1)
                let passes = period / pass
                if timing.endTime.isFinite || timing.startTime != 0 || pass <= 0
                    || abs(passes - passes.rounded()) > 1e-9 * passes
                {
                    periodic = false
                }
            }
            layer.content.sublayers?.forEach(check)
        }
        layers.forEach(check)
        return periodic ? period : nil
    }

    /// Whether every frame is fully opaque, whatever moves: an opaque background, and every layer drawn onto
    /// the canvas composited by an operator that keeps an opaque destination opaque (source-over, the blend
    /// modes, plus-lighter …; not copy, clear, xor or the in/out operators). An encoder can then drop alpha.
    public var staysOpaque: Bool {
        background.alpha >= 1 && layers.allSatisfy(\.keepsOpaqueCanvasOpaque)
    }

    /// The scene as it shows at `time` seconds: every animated property at its value then, no animations left.
    /// A frame of an animation is the render of its snapshot, so one frame alone equals that frame of the whole.
    public func snapshot(at time: Double) -> Scene {
        var still = self
        still.layers = layers.map { $0.snapshot(at: time) }
        return still
    }
}

extension Layer {
    /// Whether this layer or one inside it carries an animation, or is an emitter (which changes with time
    /// without one).
    public var isAnimated: Bool {
        if !animations.isEmpty { return true }
        if case .emitter = content { return true }
        if let layers = content.sublayers { return layers.contains { $0.isAnimated } }
        return false
    }

    var keepsOpaqueCanvasOpaque: Bool {
        // A backdrop replaces what it covers with the material of those same opaque pixels.
        if case .backdrop = content { return true }
        let keeps: Bool
        switch blend {
        case .sourceOver, .destinationOver, .sourceAtop, .destination, .plusLighter, .plusDarker: keeps = true
        case .clear, .copy, .sourceIn, .destinationIn, .sourceOut, .destinationOut, .destinationAtop, .xor:
            keeps = false
        default: keeps = blend.isBlendMode
        }
        guard keeps else { return false }
        // An isolated group reaches the canvas only through its own operator.
        if case .group(let layers) = content, !isIsolated || !animations.isEmpty {
            return layers.allSatisfy(\.keepsOpaqueCanvasOpaque)
        }
        return true
    }

    /// This layer and every one inside it, and the animations they carry: what each frame evaluates (an
    /// emitter's particles are counted by the cost model).
    var layerAndAnimationCounts: (layers: Int, animations: Int) {
        (content.sublayers ?? []).reduce((layers: 1, animations: animations.count)) {
            let inner = $1.layerAndAnimationCounts
            return ($0.layers + inner.layers, $0.animations + inner.animations)
        }
    }

    /// The emitters in this layer and inside it.
    var emitters: [ParticleEmitter] {
        if case .emitter(let emitter) = content { return [emitter] }
        return (content.sublayers ?? []).flatMap(\.emitters)
    }

    var hasEmitter: Bool {
        if case .emitter = content { return true }
        return content.sublayers?.contains(where: \.hasEmitter) ?? false
    }

    var animationDuration: Double {
        var end = animations.map { animation -> Double in
            let timing = animation.timing
            guard timing.endTime.isFinite else {
                return animation.timing.startTime + timing.passDuration * (timing.autoreverses ? 2 : 1)
            }
            return timing.endTime
        }.max() ?? 0
        if let layers = content.sublayers { end = max(end, layers.map(\.animationDuration).max() ?? 0) }
        return end
    }

    /// This layer at `time`, its animations applied and removed (children's too).
    public func snapshot(at time: Double) -> Layer {
        var layer = self
        layer.animations = []
        var model = ModelValues(self)
        // Animations of one property form a chain in list order, each starting from the model value the one
        // before it leaves.
        var chains: [PropertyKind: [ChainEntry]] = [:]
        for animation in animations {
            chains[PropertyKind(animation.property), default: []].append(ChainEntry(animation: animation, from: model))
            model.apply(endOf: animation)
        }
        // In a fixed order: a rotation turns the layer after its (possibly animated) transform is set.
        for kind in PropertyKind.allCases {
            if let chain = chains[kind] { layer.apply(chain, at: time) }
        }
        switch layer.content {
        case .group(let children): layer.content = .group(children.map { $0.snapshot(at: time) })
        case .curled(let children, let curl):
            layer.content = .curled(children.map { $0.snapshot(at: time) }, curl: curl)
        default: break
        }
        if case .emitter(var emitter) = layer.content {
            emitter.time = time
            layer.content = .emitter(emitter)
        }
        return layer
    }

    /// Sets the property a chain animates to the value the chain gives at `time`.
    private mutating func apply(_ chain: [ChainEntry], at time: Double) {
        /// The chain's value, each link's track and start picked out by `link` (nil: the entry does not apply).
        func value<Value: Combinable>(_ link: (AnimatedProperty, ModelValues) -> (Track<Value>, Value)?) -> Value? {
            let links = chain.compactMap { entry in
                link(entry.animation.property, entry.from).map {
                    ChainLink(animation: entry.animation, track: $0.0, start: $0.1)
                }
            }
            return links.isEmpty ? nil : links.chainValue(at: time)
        }
        switch chain[0].animation.property {
        case .opacity:
            guard let value = value({ if case .opacity(let t) = $0 { (t, $1.opacity) } else { nil } }) else { return }
            opacity = min(max(value, 0), 1)
        case .transform:
            transform = value({ if case .transform(let t) = $0 { (t, $1.transform) } else { nil } }) ?? transform
        case .rotation:
            let angle = value({ if case .rotation(let t) = $0 { (t, $1.rotation) } else { nil } }) ?? 0
            transform = transform.rotatedBy(angle)
        case .transform3D:
            transform3D =
                value({ if case .transform3D(let t) = $0 { (t, $1.transform3D ?? .identity) } else { nil } })
                ?? transform3D
        case .rotation3D:
            // The axis of the latest one that has begun (angles about different axes do not add).
            let latest = chain.last { $0.animation.timing.startTime <= time } ?? chain[0]
            guard case .rotation3D(let axis, _) = latest.animation.property else { return }
            let angle = value({ if case .rotation3D(_, let t) = $0 { (t, $1.rotation3D) } else { nil } }) ?? 0
            transform3D = axis.rotation(by: angle).concatenating(transform3D ?? .identity)
        case .frame:
            guard var rect = value({ property, start -> (Track<Rect>, Rect)? in
                guard case .frame(let t) = property, let from = t.from ?? start.frame else { return nil }
                return (t, from)
            }) else { return }
            (rect.width, rect.height) = (max(rect.width, 0), max(rect.height, 0))
            frame = rect
        case .color:
            switch content {
            case .shape(let shape, let color):
                content = .shape(shape, color: colorValue(chain, at: time, model: color) ?? color)
            case .text(let text, let color):
                content = .text(text, color: colorValue(chain, at: time, model: color) ?? color)
            case .path(var shape):
                // The fill's colour; a path with no fill at all, its stroke's; a gradient fill stays as it is.
                if let fill = shape.fill {
                    shape.fill = colorValue(chain, at: time, model: fill) ?? fill
                } else if let stroke = shape.stroke, !shape.isFilled {
                    shape.stroke?.color = colorValue(chain, at: time, model: stroke.color) ?? stroke.color
                }
                content = .path(shape)
            // A gradient's colours do not animate (scene files refuse `color` on a gradient-filled layer).
            case .gradientShape, .image, .backdrop, .group, .curled, .emitter: return
            }
        case .cornerRadius:
            let radius = value({ if case .cornerRadius(let t) = $0 { (t, $1.cornerRadius) } else { nil } })
            if let radius { setCornerRadius(max(radius, 0)) }
        case .effect:
            guard let effect = value({ if case .effect(let t) = $0 { (t, $1.effect) } else { nil } }) else { return }
            updateBackdrop { $0.effect = min(max(effect, 0), 1) }
        case .blur:
            guard let blur = value({ if case .blur(let t) = $0 { (t, $1.blur) } else { nil } }) else { return }
            updateBackdrop { $0.recipe.blurPoints = max(blur, 0) }
        case .dim:
            guard let dim = value({ if case .dim(let t) = $0 { (t, $1.dim) } else { nil } }) else { return }
            updateBackdrop { $0.dim = min(max(dim, 0), 1) }
        case .image:
            // A cross-dissolve does not add: the latest one that has begun dissolves from the picture before it.
            let latest = chain.last { $0.animation.timing.startTime <= time } ?? chain[0]
            guard case .image(let next) = latest.animation.property else { return }
            let progress = Progress(latest.animation, at: time)
            crossDissolve(from: latest.from.image, to: next, progress: min(max(progress.x, 0), 1))
        case .strokeColor:
            guard case .path(var shape) = content, let stroke = shape.stroke,
                let color = value({ property, start -> (Track<RGBAColor>, RGBAColor)? in
                    guard case .strokeColor(let t) = property else { return nil }
                    return (t, start.strokeColor ?? stroke.color)
                })
            else { return }
            shape.stroke?.color = color
            content = .path(shape)
        case .strokeEnd:
            guard case .path(var shape) = content,
                let value = value({ if case .strokeEnd(let t) = $0 { (t, $1.strokeEnd) } else { nil } })
            else { return }
            shape.strokeEnd = min(max(value, 0), 1)
            content = .path(shape)
        case .curl:
            guard case .curled(let layers, var curl) = content,
                let value = value({ if case .curl(let t) = $0 { (t, $1.curl) } else { nil } })
            else { return }
            curl.progress = min(max(value, 0), 1)
            content = .curled(layers, curl: curl)
        }
    }

    /// A colour chain's value, starting from the content's own colour where the model has none.
    private func colorValue(_ chain: [ChainEntry], at time: Double, model: RGBAColor) -> RGBAColor? {
        let links = chain.compactMap { entry -> ChainLink<RGBAColor>? in
            guard case .color(let track) = entry.animation.property else { return nil }
            return ChainLink(animation: entry.animation, track: track, start: entry.from.color ?? model)
        }
        return links.isEmpty ? nil : links.chainValue(at: time)
    }

    private mutating func setCornerRadius(_ radius: Double) {
        if case .group = content, clipCornerRadius != nil {
            clipCornerRadius = radius
            return
        }
        switch content {
        case .image(let image, let fit, let filter, _):
            content = .image(image, fit: fit, filter: filter, cornerRadius: radius)
        case .shape(.rectangle, let color): content = .shape(.rectangle(cornerRadius: radius), color: color)
        case .gradientShape(.rectangle, let gradient):
            content = .gradientShape(.rectangle(cornerRadius: radius), gradient)
        case .backdrop(var material):
            material.cornerRadius = radius
            content = .backdrop(material)
        case .shape(.capsule, _), .gradientShape(.capsule, _), .path, .group, .text, .curled, .emitter: break
        }
    }

    private mutating func updateBackdrop(_ change: (inout BackdropMaterial) -> Void) {
        guard case .backdrop(var material) = content else { return }
        change(&material)
        content = .backdrop(material)
    }

    /// Between the two pictures: both in the layer's frame, the old faded out and the new faded in and added,
    /// drawn alone first (so plus-lighter adds the pair, not the new picture to what lies beneath).
    private mutating func crossDissolve(from old: Image?, to new: Image, progress: Double) {
        guard case .image(let current, let fit, let filter, let cornerRadius) = content else { return }
        let old = old ?? current
        guard progress > 0 else {
            content = .image(old, fit: fit, filter: filter, cornerRadius: cornerRadius)
            return
        }
        guard progress < 1 else {
            content = .image(new, fit: fit, filter: filter, cornerRadius: cornerRadius)
            return
        }
        let box = frame.map { Rect(x: 0, y: 0, width: $0.width, height: $0.height) }
        content = .group([
            .image(old, frame: box, fit: fit, filter: filter, cornerRadius: cornerRadius, opacity: 1 - progress),
            .image(
                new, frame: box, fit: fit, filter: filter, cornerRadius: cornerRadius, opacity: progress,
                blend: .plusLighter),
        ])
        isolated = true
    }
}
