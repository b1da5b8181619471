/// Light or dark, as SwiftUI's `ColorScheme` and UIKit's `UIUserInterfaceStyle`.
public enum Appearance: String, CaseIterable, Sendable {
    case light, dark
}

/// One layer drawn over the blurred backdrop: a colour at an opacity, with a blend mode.
public struct TintLayer: Equatable, Sendable {
    /// The colour; its alpha is the layer's opacity.
    public var color: RGBAColor
    public var blendMode: BlendMode

    public init(_ color: RGBAColor, blendMode: BlendMode = .normal) {
        self.color = color
        self.blendMode = blendMode
    }
}

/// How to draw one material in one appearance.
public struct MaterialRecipe: Equatable, Sendable {
    /// Blur σ in points; multiplied by the pixels per point of the output (see `MaterialEffect`).
    public var blurPoints: Double
    /// 1 leaves colours as they are; above 1 makes them more vivid (Rec. 709 luma kept).
    public var saturation: Double
    /// Drawn in order over the blurred, saturated backdrop.
    public var tints: [TintLayer]
    /// Amplitude of monochrome grain, as a fraction of full scale (0 for none; Haze's default is 0.15).
    public var grain: Double

    public init(blurPoints: Double, saturation: Double = 1, tints: [TintLayer] = [], grain: Double = 0) {
        self.blurPoints = blurPoints
        self.saturation = saturation
        self.tints = tints
        self.grain = grain
    }

    /// `base` with only part of it showing, as `UIVisualEffectView` animates its `effect` from nil: the blur
    /// radius and grain times `amount` (0...1), the saturation that part of the way from 1, each tint's opacity
    /// times it. Written over this recipe, whose tints' storage is reused when the counts match, so a renderer
    /// animating the effect frame by frame allocates nothing.
    public mutating func set(_ base: MaterialRecipe, showing amount: Double) {
        let amount = amount.isNaN ? 1 : min(max(amount, 0), 1)
        blurPoints = base.blurPoints * amount
        saturation = 1 + (base.saturation - 1) * amount
        grain = base.grain * amount
        if tints.count != base.tints.count { tints = base.tints }
        for (index, tint) in base.tints.enumerated() {
            tints[index] = TintLayer(tint.color.opacity(tint.color.alpha * amount), blendMode: tint.blendMode)
        }
    }

    /// How much of the backdrop the normal-blended tints hide together: 1 − Π(1 − opacity).
    public var coverage: Double {
        1 - tints.filter { $0.blendMode == .normal }.reduce(1) { $0 * (1 - $1.color.alpha) }
    }
}

/// A named material: a recipe for each appearance, and where its numbers come from. The catalogue's are
/// `Material.thin`, `.ultraThick`, `.chrome`, … (see `MaterialCatalog`); a recipe needs an appearance:
/// `Material.thin.recipe(for: .dark)`.
public struct Material: Sendable {
    /// The canonical name, as SwiftUI or UIKit spells it (`ultraThin`, `extraLight`).
    public let name: String
    public let summary: String
    let lightRecipe: MaterialRecipe
    let darkRecipe: MaterialRecipe
    /// Set when the material exists in one appearance only (UIKit's `…Light`/`…Dark` and legacy styles).
    public let fixedAppearance: Appearance?
    /// Where each number comes from.
    public let sources: String

    public init(
        name: String, summary: String, light: MaterialRecipe, dark: MaterialRecipe,
        fixedAppearance: Appearance? = nil, sources: String
    ) {
        self.name = name
        self.summary = summary
        self.lightRecipe = light
        self.darkRecipe = dark
        self.fixedAppearance = fixedAppearance
        self.sources = sources
    }

    /// The recipe in `appearance`, or in the material's fixed appearance when it has one.
    public func recipe(for appearance: Appearance) -> MaterialRecipe {
        switch fixedAppearance ?? appearance {
        case .light: return lightRecipe
        case .dark: return darkRecipe
        }
    }
}
