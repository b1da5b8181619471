import Compositor

/// A path drawn as `CAShapeLayer` draws one: filled by a rule, in the layer's frame. The path is not clipped to
/// the frame; the frame places it (and sizes it, with a `viewBox`).
public struct VectorShape: Equatable, Sendable {
    public var path: Path
    /// The box of path coordinates shown in the frame, scaled uniformly to fit it and centred (SVG's `viewBox` with
    /// `preserveAspectRatio="xMidYMid meet"`, how an icon's 24 × 24 grid is drawn at any size); nil: path
    /// coordinates are points from the frame's top-left corner.
    public var viewBox: Rect?
    /// The fill's colour; nil: not filled.
    public var fill: RGBAColor?
    /// A gradient painted instead of `fill`'s colour, with the map from its coordinates to the path's (SVG's
    /// `gradientUnits` and `gradientTransform` resolved).
    public var gradient: GradientFill?
    public var fillRule: FillRule

    public init(_ path: Path, viewBox: Rect? = nil, fill: RGBAColor? = .black, fillRule: FillRule = .nonZero) {
        self.path = path
        self.viewBox = viewBox
        self.fill = fill
        self.fillRule = fillRule
    }

    /// Whether anything is painted inside the outline.
    var isFilled: Bool { fill != nil || gradient != nil }

    /// Path coordinates to the frame's local coordinates (its top-left corner at `frame`'s origin).
    func pathToFrame(_ frame: Rect) -> AffineTransform2D {
        guard let box = viewBox, box.width > 0, box.height > 0 else {
            return AffineTransform2D(translationX: frame.x, y: frame.y)
        }
        let scale = min(frame.width / box.width, frame.height / box.height)
        let x = frame.x + (frame.width - box.width * scale) / 2 - box.x * scale
        let y = frame.y + (frame.height - box.height * scale) / 2 - box.y * scale
        return AffineTransform2D(a: scale, b: 0, c: 0, d: scale, tx: x, ty: y)
    }
}

extension Layer {
    /// A filled path, as `CAShapeLayer` with a `path` and a `fillColor`.
    public static func path(
        _ shape: VectorShape, frame: Rect? = nil, opacity: Double = 1, blend: CompositeOperator = .sourceOver,
        transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.path(shape), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }
}

/// A gradient filling a path, and where it lies: `transform` maps the gradient's coordinates to the path's.
public struct GradientFill: Equatable, Sendable {
    public var gradient: Gradient
    public var transform: AffineTransform2D

    public init(_ gradient: Gradient, transform: AffineTransform2D = .identity) {
        self.gradient = gradient
        self.transform = transform
    }
}
