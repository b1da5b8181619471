import Compositor

/// A stack of layers drawn bottom first onto a canvas, as a screen of views is: the model `blurtool compose`
/// reads from a scene file, with the same names (see `SceneFile` in the `SceneFormat` module).
///
/// Geometry is in points; the canvas has `width·scale` × `height·scale` pixels. Every layer has a frame in
/// its parent's coordinates (nil: the parent's whole bounds), an opacity, a compositing operator, and a
/// transform applied about the frame's centre, as `UIView.transform` with the default anchor point.
public struct Scene: Equatable, Sendable {
    public var width: Double
    public var height: Double
    /// Pixels per point (3 on current iPhones).
    public var scale: Double
    public var background: RGBAColor
    public var space: WorkingSpace
    public var layers: [Layer]

    public init(
        width: Double, height: Double, scale: Double = 1, background: RGBAColor = .clear,
        space: WorkingSpace = .srgb, layers: [Layer] = []
    ) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
        self.space = space
        self.layers = layers
    }

    /// The canvas in pixels, each side limited to 0...2³¹ − 1 (a scene may say 1e300; callers check sizes).
    public var pixelWidth: Int { Scene.pixels(width * scale) }
    public var pixelHeight: Int { Scene.pixels(height * scale) }

    private static func pixels(_ extent: Double) -> Int {
        Int(saturating: extent.rounded(), within: 0...Int(Int32.max))
    }
}

/// One layer of a scene.
public struct Layer: Equatable, Sendable {
    public enum Content: Sendable {
        /// A picture laid out in the frame by `fit` (fill crops, as `.scaledToFill().clipped()`), its corners
        /// rounded by `cornerRadius` points.
        case image(Image, fit: FitMode, filter: ResampleFilter, cornerRadius: Double)
        /// A filled shape covering the frame, anti-aliased.
        case shape(Shape, color: RGBAColor)
        /// The same shape painted with a gradient lying in the frame (`GradientFill`: 0…1 across it, or points from
        /// its corner), as a `CAGradientLayer` with a `cornerRadius` draws one, or SwiftUI's
        /// `Capsule().fill(LinearGradient(…))`. Its opacity, frame and corners animate as a shape's; its colours
        /// do not.
        case gradientShape(Shape, GradientFill)
        /// A vector path filled in the frame by exact area coverage (`VectorShape`).
        case path(VectorShape)
        /// What lies beneath the frame, blurred and tinted by a material, as `UIVisualEffectView` draws it.
        case backdrop(BackdropMaterial)
        /// Layers in the frame's coordinates (origin at its top left), drawn as one: with an opacity below 1
        /// or another operator they are first drawn alone, then composited (an isolated group).
        case group([Layer])
        /// Text set by a `Typesetter` in the frame (wrapped to its width, centred in its height, as `UILabel`
        /// lays it out), its glyphs filled with the colour. The text may overflow the frame; it is not clipped.
        case text(any TypesetText, color: RGBAColor)
        /// Layers in the frame's coordinates drawn alone on a picture of the frame (the page; only the part of it
        /// on the canvas), which is then curled (`PageCurl`) and composited, as a view curling away in
        /// `.transitionCurlUp` or `.partialCurl`. The curl's progress animates (`AnimatedProperty.curl`).
        case curled([Layer], curl: PageCurl)
        /// Particles (`ParticleEmitter`, as a `CAEmitterLayer`) in the frame's coordinates, at the emitter's
        /// `time`, which `Scene.snapshot(at:)` sets: drawn as a group of image and circle layers, one a particle,
        /// not clipped to the frame.
        case emitter(ParticleEmitter)
    }

    public var content: Content
    public var frame: Rect?
    public var opacity: Double
    /// How the layer is composited onto what lies beneath it.
    public var blend: CompositeOperator
    public var transform: AffineTransform2D
    /// A label for messages; not drawn.
    public var name: String?
    /// How the layer's properties change over time (see `LayerAnimation`); a still frame is
    /// `Scene.snapshot(at:)`, which the renderer draws.
    public var animations: [LayerAnimation] = []
    /// A group drawn alone first and then composited as one even at full opacity with source-over (as
    /// `CALayer.shouldRasterize` draws it), so its layers' operators meet only each other: a cross-dissolve
    /// adds its two pictures with plus-lighter without adding them to what lies beneath.
    public var isolated = false
    /// A 3D transform applied after `transform`, about the frame's centre (`CALayer.transform` with the default
    /// anchor point); nil: none. One that draws the plane in perspective draws the layer flat first, then warps
    /// that picture (see `SceneRenderer`); an affine one joins `transform`.
    public var transform3D: Transform3D?
    /// A group clipped to its frame's rectangle with corners of this radius, as a view with `masksToBounds` and a
    /// `cornerRadius` (a presented card, a rounded screen); nil: not clipped. A clipped group is drawn alone first
    /// (isolated); `AnimatedProperty.cornerRadius` animates the radius. Other layers' corners are their content's.
    public var clipCornerRadius: Double?
    /// Whether the layer shows when its plane faces away (its projected winding reversed), as
    /// `CALayer.isDoubleSided`; seen exactly edge on, a layer never shows.
    public var isDoubleSided = true

    public init(
        _ content: Content, frame: Rect? = nil, opacity: Double = 1, blend: CompositeOperator = .sourceOver,
        transform: AffineTransform2D = .identity, name: String? = nil
    ) {
        self.content = content
        self.frame = frame
        self.opacity = opacity
        self.blend = blend
        self.transform = transform
        self.name = name
    }
}

public enum Shape: Equatable, Sendable {
    /// A rectangle with circular corners (radius clamped to half the shorter side).
    case rectangle(cornerRadius: Double)
    /// Fully rounded ends: a circle when the frame is square.
    case capsule
}

/// A backdrop material: the recipe's blur (in points), saturation and tints over what lies beneath the frame,
/// then `tintGradient`, then an optional black dim, clipped to a rounded rectangle.
public struct BackdropMaterial: Equatable, Sendable {
    public var recipe: MaterialRecipe
    /// A gradient laid over the material in the frame (after the recipe's tints, before the dim), its opacity times
    /// `effect` as theirs are: a `CAGradientLayer` over a `UIVisualEffectView`, such as a dark fade from the top
    /// that keeps a title legible. Nil: none.
    public var tintGradient: GradientFill?
    public var dim: Double
    public var cornerRadius: Double
    /// How much of the material shows, 0 (`UIVisualEffectView.effect = nil`) to 1 (all of it): blur,
    /// saturation, tints and grain all scale from identity, as an effect view animates its `effect`. The dim is
    /// separate.
    public var effect: Double

    public init(recipe: MaterialRecipe, dim: Double = 0, cornerRadius: Double = 0, effect: Double = 1) {
        self.recipe = recipe
        self.dim = dim
        self.cornerRadius = cornerRadius
        self.effect = effect
    }

    /// The recipe with `effect` applied: the blur radius and grain times the effect, the saturation that part
    /// of the way from 1, each tint's opacity times the effect.
    public var effectiveRecipe: MaterialRecipe {
        guard effect < 1 else { return recipe }
        var partial = recipe
        partial.set(recipe, showing: effect)
        return partial
    }
}

/// Layers as a renderer writes them in code, with the scene file's defaults: `.image(photo)`,
/// `.color(.black, opacity: 0.6)`, `.backdrop(.thin, .dark, cornerRadius: 24, frame: card)`.
extension Layer {
    public static func image(
        _ image: Image, frame: Rect? = nil, fit: FitMode = .fill, filter: ResampleFilter = .lanczos3,
        cornerRadius: Double = 0, opacity: Double = 1, blend: CompositeOperator = .sourceOver,
        transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(
            .image(image, fit: fit, filter: filter, cornerRadius: cornerRadius), frame: frame, opacity: opacity,
            blend: blend, transform: transform)
    }

    /// A colour filling the frame (the parent's bounds by default), as `Color.black.opacity(0.6)`.
    public static func color(
        _ color: RGBAColor, frame: Rect? = nil, opacity: Double = 1, blend: CompositeOperator = .sourceOver
    ) -> Layer {
        Layer(.shape(.rectangle(cornerRadius: 0), color: color), frame: frame, opacity: opacity, blend: blend)
    }

    public static func shape(
        _ shape: Shape, color: RGBAColor, frame: Rect? = nil, opacity: Double = 1,
        blend: CompositeOperator = .sourceOver, transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.shape(shape, color: color), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }

    /// A shape filled with a gradient in its frame: `.shape(.capsule, gradient: GradientFill(fade, units:
    /// .objectBoundingBox), frame: pill)`.
    public static func shape(
        _ shape: Shape, gradient: GradientFill, frame: Rect? = nil, opacity: Double = 1,
        blend: CompositeOperator = .sourceOver, transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.gradientShape(shape, gradient), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }

    public static func backdrop(
        _ recipe: MaterialRecipe, dim: Double = 0, cornerRadius: Double = 0, frame: Rect? = nil,
        opacity: Double = 1, transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(
            .backdrop(BackdropMaterial(recipe: recipe, dim: dim, cornerRadius: cornerRadius)), frame: frame,
            opacity: opacity, transform: transform)
    }

    /// A catalogue material in an appearance, as `.background(.thinMaterial)` draws it in that colour scheme.
    public static func backdrop(
        _ material: Material, _ appearance: Appearance, dim: Double = 0, cornerRadius: Double = 0,
        frame: Rect? = nil, opacity: Double = 1, transform: AffineTransform2D = .identity
    ) -> Layer {
        backdrop(
            material.recipe(for: appearance), dim: dim, cornerRadius: cornerRadius, frame: frame, opacity: opacity,
            transform: transform)
    }

    /// Text a typesetter has set (`FontTypesetter().typeset("Rate it", style: TextStyle(.headline))`), black
    /// unless `color` says otherwise, as a `UILabel` with `.label` in the light appearance.
    public static func text(
        _ text: any TypesetText, color: RGBAColor = .black, frame: Rect? = nil,
        opacity: Double = 1, blend: CompositeOperator = .sourceOver, transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.text(text, color: color), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }

    public static func group(
        _ layers: [Layer], frame: Rect? = nil, opacity: Double = 1, blend: CompositeOperator = .sourceOver,
        transform: AffineTransform2D = .identity
    ) -> Layer {
        Layer(.group(layers), frame: frame, opacity: opacity, blend: blend, transform: transform)
    }
}
