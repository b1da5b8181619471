import Compositor

/// How a text layer's string is set: the font, its size and weight, and the paragraph's layout, with the names
/// and defaults of UIKit and SwiftUI (`UIFont.TextStyle`, `NSParagraphStyle`, `Text.lineLimit`).
///
/// The Compositor only carries this description; a `Typesetter` (the `Typesetting` module, with fontconfig,
/// HarfBuzz and FreeType) turns a string in a style into `TypesetText`, which the scene renderer draws.
public struct TextStyle: Hashable, Sendable {
    /// Where the font comes from.
    public enum Font: Hashable, Sendable {
        /// The platform's UI face in the style's `design`: for the default design Inter where it is installed,
        /// else DejaVu Sans (the closest open designs to San Francisco); see `FontDesign` for the others.
        case system
        /// A family name that fontconfig resolves with the weight and slant ("Inter", "DejaVu Serif").
        case family(String)
        /// A font file (TrueType, OpenType or a collection's first face), by absolute path.
        case file(String)
    }

    public var font: Font
    /// The system face's design, as `Font.system(_:design:)` chooses it (a family or a file ignores it).
    public var design: FontDesign
    /// The size in points (the em square; pixels are points times the scene's scale).
    public var size: Double
    public var weight: FontWeight
    public var italic: Bool
    public var alignment: TextAlignment
    /// The most lines shown, the last one truncated at its tail by "…" when the text needs more; 0 shows as
    /// many as the frame's height holds (always at least one).
    public var lineLimit: Int
    /// Points added between lines, beyond the font's own line height (`NSParagraphStyle.lineSpacing`).
    public var lineSpacing: Double
    /// Points added after every character (`UIFont`'s tracking, SwiftUI's `.tracking`).
    public var tracking: Double
    /// How far each edge of every glyph's outline is moved outwards, in ems (negative: inwards), as FreeType's
    /// `FT_Outline_EmboldenXY` moves it: a weight the face does not have, synthesised from the one it has (symbol
    /// layers' weights, `SymbolCatalog.outlineGrowth(for:)`). Stems widen by twice this; 0 draws the outline as is.
    public var outlineGrowth = 0.0

    public init(
        font: Font = .system, design: FontDesign = .default, size: Double = 17, weight: FontWeight = .regular,
        italic: Bool = false,
        alignment: TextAlignment = .natural, lineLimit: Int = 0, lineSpacing: Double = 0, tracking: Double = 0
    ) {
        self.font = font
        self.design = design
        self.size = size
        self.weight = weight
        self.italic = italic
        self.alignment = alignment
        self.lineLimit = lineLimit
        self.lineSpacing = lineSpacing
        self.tracking = tracking
    }

    /// A text style's size and weight in the system face, as `UIFont.preferredFont(forTextStyle:)` gives them
    /// at the default content size.
    public init(_ name: TextStyleName, design: FontDesign = .default) {
        self.init(design: design, size: name.size, weight: name.weight)
    }
}

/// The system font's designs (SwiftUI's `Font.Design`), each drawn by an open face from Debian's font packages,
/// since Apple's (SF Pro, SF Pro Rounded, New York, SF Mono) cannot be shipped.
public enum FontDesign: String, CaseIterable, Sendable {
    /// Inter (`fonts-inter`), else DejaVu Sans.
    case `default`
    /// Quicksand (`fonts-quicksand`, OFL): the one rounded sans in Debian with round stroke ends and the light to
    /// bold weights SF Pro Rounded is used in (Comfortaa and Dosis are display faces, M+ is not rounded); without
    /// it, the default design.
    case rounded
    /// DejaVu Serif (`fonts-dejavu-core`, installed with the default design's fallback): a transitional serif
    /// drawn for screens with a large x-height, as New York is, in regular and bold.
    case serif
    /// DejaVu Sans Mono (`fonts-dejavu-core`), the monospaced companion of the fallback sans, as SF Mono is of SF.
    case monospaced
}

/// The iOS text styles at the default (Large) content size category, by UIKit's names (`UIFont.TextStyle`).
/// SwiftUI names two of them differently: its `title` is `title1`, its `caption` is `caption1` (see `init(swiftUI:)`).
public enum TextStyleName: String, CaseIterable, Sendable {
    case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

    /// A style by SwiftUI's name (`Font.TextStyle`: `largeTitle`, `title`, `title2`, `title3`, `headline`,
    /// `subheadline`, `body`, `callout`, `footnote`, `caption`, `caption2`) or UIKit's.
    public init?(swiftUI name: String) {
        switch name {
        case "title": self = .title1
        case "caption": self = .caption1
        default:
            guard let style = TextStyleName(rawValue: name) else { return nil }
            self = style
        }
    }

    /// Every name `init(swiftUI:)` takes.
    public static let allNames = allCases.map(\.rawValue) + ["title", "caption"]

    /// The point size.
    public var size: Double {
        switch self {
        case .largeTitle: 34
        case .title1: 28
        case .title2: 22
        case .title3: 20
        case .headline, .body: 17
        case .callout: 16
        case .subheadline: 15
        case .footnote: 13
        case .caption1: 12
        case .caption2: 11
        }
    }

    public var weight: FontWeight { self == .headline ? .semibold : .regular }
}

/// A font weight, named as `UIFont.Weight` and `Font.Weight` name them, with its OpenType value (`usWeightClass`).
public enum FontWeight: Int, CaseIterable, Sendable {
    case ultraLight = 100, thin = 200, light = 300, regular = 400, medium = 500, semibold = 600, bold = 700
    case heavy = 800, black = 900

    /// The weight by name ("semibold"), as scene files write it.
    public init?(name: String) {
        guard let weight = FontWeight.allCases.first(where: { "\($0)" == name }) else { return nil }
        self = weight
    }
}

/// Where each line sits across the frame.
public enum TextAlignment: String, CaseIterable, Sendable {
    /// Left.
    case leading
    case center
    /// Right.
    case trailing
    /// Leading for left-to-right paragraphs, trailing for right-to-left ones (`NSTextAlignment.natural`).
    case natural
}
