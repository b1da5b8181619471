import Compositor

/// A path drawn as `CAShapeLayer` draws one: filled by a rule, then stroked, in the layer's frame. The path is not
/// clipped to the frame; the frame places it (and sizes it, with a `viewBox`).
public struct VectorShape: Equatable, Sendable {
    public var path: Path
    /// The box of path coordinates shown in the frame, scaled uniformly to fit it and centred (SVG's `viewBox` with
    /// `preserveAspectRatio="xMidYMid meet"`, how an icon's 24 × 24 grid is drawn at any size); nil: path
    /// coordinates are points from the frame's top-left corner.
    public var viewBox: Rect?
    /// Path coordinates to view-box coordinates (an SVG element's `transform`), before the view box is fitted: a
    /// stroke is drawn in path units, so its width scales with it.
    public var transform = AffineTransform2D.identity
    /// The fill's colour; nil: not filled.
    public var fill: RGBAColor?
    /// A gradient painted instead of `fill`'s colour, with the map from its coordinates to the path's (SVG's
    /// `gradientUnits` and `gradientTransform` resolved).
    public var gradient: GradientFill?
    public var fillRule: FillRule
    /// The stroke drawn over the fill (SVG's paint order); nil: none.
    public var stroke: PathStroke?
    /// How much of the path the stroke follows, 0…1 of its length (`CAShapeLayer.strokeEnd`): a checkmark drawn on.
    public var strokeEnd = 1.0

    public init(_ path: Path, viewBox: Rect? = nil, fill: RGBAColor? = .black, fillRule: FillRule = .nonZero) {
        self.path = path
        self.viewBox = viewBox
        self.fill = fill
        self.fillRule = fillRule
    }

    /// Whether anything is painted inside the outline.
    var isFilled: Bool { fill != nil || gradient != nil }

    /// Whether anything is painted at all.
    var paintsSomething: Bool { isFilled || (stroke != nil && strokeEnd > 0) }

    /// How far a stroke may reach past the path's bounds, in path units: half the width, times the miter limit
    /// where joins are mitred (a sharp miter reaches that far), and a square cap's corner.
    var strokeReach: Double {
        guard let stroke else { return 0 }
        let half = stroke.style.width / 2
        return stroke.style.join == .miter ? half * max(stroke.style.miterLimit, 1.5) : half * 1.5
    }

    /// Path coordinates to the frame's local coordinates (its top-left corner at `frame`'s origin).
    func pathToFrame(_ frame: Rect) -> AffineTransform2D {
        transform.concatenating(viewBoxToFrame(frame))
    }

    private func viewBoxToFrame(_ frame: Rect) -> AffineTransform2D {
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

/// A path's stroke: its colour and the style Core Graphics and SVG give one (width, caps, joins, dashes).
public struct PathStroke: Equatable, Sendable {
    public var color: RGBAColor
    public var style: StrokeStyle

    public init(color: RGBAColor, style: StrokeStyle = StrokeStyle()) {
        self.color = color
        self.style = style
    }
}
