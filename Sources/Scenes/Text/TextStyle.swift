import Compositor

/// How a text layer's string is set: the font, its size and weight, and the paragraph's layout, with the names
/// and defaults of UIKit and SwiftUI (`UIFont.TextStyle`, `NSParagraphStyle`, `Text.lineLimit`).
///
/// The Compositor only carries this description; a `Typesetter` (the `Typesetting` module, with fontconfig,
/// HarfBuzz and FreeType) turns a string in a style into `TypesetText`, which the scene renderer draws.
public struct TextStyle: Hashable, Sendable {
    /// Where the font comes from.
    public enum Font: Hashable, Sendable {
        /// The platform's UI face: Inter where it is installed, else DejaVu Sans (the closest open designs to
        /// San Francisco).
        case system
        /// A family name that fontconfig resolves with the weight and slant ("Inter", "DejaVu Serif").
        case family(String)
        /// A font file (TrueType, OpenType or a collection's first face), by absolute path.
        case file(String)
    }

    public var font: Font
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

    public init(
        font: Font = .system, size: Double = 17, weight: FontWeight = .regular, italic: Bool = false,
        alignment: TextAlignment = .natural, lineLimit: Int = 0, lineSpacing: Double = 0, tracking: Double = 0
    ) {
        self.font = font
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
    public init(_ name: TextStyleName) {
        self.init(size: name.size, weight: name.weight)
    }
}

/// The iOS text styles at the default (Large) content size category.
public enum TextStyleName: String, CaseIterable, Sendable {
    case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

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
