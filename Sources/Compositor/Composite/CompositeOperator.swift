/// How a source is drawn onto a destination: a Porter-Duff operator (W3C Compositing and Blending Level 1,
/// § 9), Apple's plus-darker, or a blend mode (§ 10) followed by source-over, as CSS `mix-blend-mode` and
/// Core Graphics' `CGBlendMode` do.
///
/// Raw values are the CSS names (`source-over`, `color-dodge`, `plus-lighter`); `init?(name:)` also takes
/// camelCase (`sourceOver`), Core Graphics' names without the prefix and the common aliases (`over`,
/// `lighter`, `plus`).
public enum CompositeOperator: String, CaseIterable, Sendable {
    // Porter-Duff: co = Fa·cs + Fb·cb, αo = Fa·αs + Fb·αb (premultiplied).
    case clear, copy, destination
    case sourceOver = "source-over"
    case destinationOver = "destination-over"
    case sourceIn = "source-in"
    case destinationIn = "destination-in"
    case sourceOut = "source-out"
    case destinationOut = "destination-out"
    case sourceAtop = "source-atop"
    case destinationAtop = "destination-atop"
    case xor
    /// The sum, clamped to 1 (CSS `plus-lighter`, Canvas `lighter`, `CGBlendMode.plusLighter`).
    case plusLighter = "plus-lighter"
    /// Apple's `R = max(0, 1 − ((1 − D) + (1 − S)))`, generalised to premultiplied colour (see
    /// `ReferenceCompositing`).
    case plusDarker = "plus-darker"

    // Blend modes: B(Cb, Cs) mixed in by source-over.
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color-dodge"
    case colorBurn = "color-burn"
    case hardLight = "hard-light"
    case softLight = "soft-light"
    case difference, exclusion
    case hue, saturation, color, luminosity

    /// The operator a name denotes, in any of the spellings listed on the type; nil when unknown.
    public init?(name: String) {
        let key = CompositeOperator.key(name)
        if let match = CompositeOperator.allCases.first(where: { CompositeOperator.key($0.rawValue) == key }) {
            self = match
            return
        }
        switch key {
        case "over": self = .sourceOver
        case "lighter", "plus": self = .plusLighter
        case "darker": self = .plusDarker
        case "src": self = .copy
        case "dst": self = .destination
        default: return nil
        }
    }

    /// Case, dashes and underscores ignored: `color-dodge`, `colorDodge` and `COLOR_DODGE` compare equal.
    private static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }

    /// The separable blend function, for the modes that have one (normal through exclusion).
    var separableBlend: BlendMode? { BlendMode(rawValue: rawValue) }

    /// A blend mode, as opposed to a Porter-Duff operator.
    public var isBlendMode: Bool {
        separableBlend != nil || self == .hue || self == .saturation || self == .color || self == .luminosity
    }

    /// The Porter-Duff factors (Fa, Fb) for the source and backdrop alphas, for the operators that have them.
    @inline(__always)
    func porterDuffFactors(sourceAlpha αs: Float, backdropAlpha αb: Float) -> (Float, Float)? {
        switch self {
        case .clear: return (0, 0)
        case .copy: return (1, 0)
        case .destination: return (0, 1)
        case .sourceOver: return (1, 1 - αs)
        case .destinationOver: return (1 - αb, 1)
        case .sourceIn: return (αb, 0)
        case .destinationIn: return (0, αs)
        case .sourceOut: return (1 - αb, 0)
        case .destinationOut: return (0, 1 - αs)
        case .sourceAtop: return (αb, 1 - αs)
        case .destinationAtop: return (1 - αb, αs)
        case .xor: return (1 - αb, 1 - αs)
        case .plusLighter: return (1, 1)
        default: return nil
        }
    }
}

/// Whether compositing arithmetic sees sRGB-encoded values (as browsers and Core Graphics do by default) or
/// linear light (physically additive; softer dark fringes), decoded before and encoded after each operation.
public enum WorkingSpace: String, CaseIterable, Sendable {
    case srgb, linear
}
