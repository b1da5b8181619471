/// How a path's outline is stroked, as SVG's stroke properties and Core Graphics' line parameters describe it:
/// a line `width` wide centred on the outline, its open ends shaped by `cap`, its corners by `join` (a miter
/// limited by `miterLimit`), and optionally broken into dashes.
///
/// ```swift
/// let rounded = StrokeStyle(width: 2, cap: .round, join: .round)
/// let dotted = try StrokeStyle(width: 3, cap: .round).dashed([0, 6])
/// image.stroke(check, style: rounded, color: .white)
/// ```
///
/// Lengths are in the path's units, before the drawing's transform, so a stroke scales with it as Core
/// Graphics' does (and is an ellipse's width under a non-uniform scale). A width of 0 is a hairline: one device
/// pixel wide whatever the transform, as Core Graphics and Skia draw one.
public struct StrokeStyle: Hashable, Sendable {
    /// The shape at the open ends of a stroke (SVG's `stroke-linecap`, `CGLineCap`).
    public enum LineCap: String, CaseIterable, Sendable {
        /// The stroke stops square at the end point.
        case butt
        /// A half disc of the stroke's width about the end point.
        case round
        /// The stroke goes on half its width past the end point, square.
        case square
    }

    /// The shape at a stroke's corners (SVG's `stroke-linejoin`, `CGLineJoin`).
    public enum LineJoin: String, CaseIterable, Sendable {
        /// The outer edges extended until they meet, unless that point is further than `miterLimit` half-widths
        /// from the corner, when the join is a bevel.
        case miter
        /// A disc's arc about the corner.
        case round
        /// The outer corners of the two segments joined by a straight line.
        case bevel
    }

    /// The line's width in path units; 0 draws a hairline, one device pixel wide, and a width that is negative
    /// or not finite draws nothing.
    public var width: Double
    /// The shape at open ends, and of a subpath of zero length (a dot, as SVG 2 draws one).
    public var cap: LineCap
    /// The shape at corners.
    public var join: LineJoin
    /// The longest miter, as a ratio of miter length (corner to tip, twice) to width: SVG's
    /// `stroke-miterlimit`, 4 by default as in SVG and Skia (Core Graphics' default is 10). A corner
    /// of interior angle θ has the ratio 1 / sin(θ / 2), so 4 bevels corners sharper than about 29°. Below 1
    /// counts as 1 (SVG calls it an error; every corner is then a bevel).
    public var miterLimit: Double
    /// The dash pattern, on and off lengths in path units starting with on, as given: an odd count is repeated
    /// to make it even, as SVG says. Empty for a solid line. Set it with `dashed(_:phase:)`, which checks it.
    public private(set) var dashes: [Double] = []
    /// How far into the dash pattern each subpath starts (SVG's `stroke-dashoffset`, Core Graphics' phase); may
    /// be negative.
    public private(set) var dashPhase: Double = 0

    /// A solid stroke. A `width` that is negative or not finite draws nothing (SVG calls a negative width an
    /// error); a `miterLimit` below 1 or NaN counts as 1.
    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4) {
        (self.width, self.cap, self.join, self.miterLimit) = (width, cap, join, miterLimit)
    }

    /// This style broken into dashes of `pattern`'s on and off lengths, starting `phase` into it.
    ///
    /// - Throws: `StrokeStyleError` when an entry is negative or not finite, when every entry is zero, or when
    ///   the phase is not finite. SVG renders such a pattern as a solid line (the property is invalid, so
    ///   `none`): a caller drawing SVG catches the error and strokes without the dashes. An empty pattern is a
    ///   solid line.
    public func dashed(_ pattern: [Double], phase: Double = 0) throws(StrokeStyleError) -> StrokeStyle {
        for (index, length) in pattern.enumerated() where !(length >= 0 && length.isFinite) {
            throw length.isFinite ? .negativeDash(index: index) : .dashNotFinite(index: index)
        }
        if !pattern.isEmpty, pattern.allSatisfy({ $0 == 0 }) { throw .allDashesZero }
        guard phase.isFinite else { throw .phaseNotFinite }
        var result = self
        result.dashes = pattern
        result.dashPhase = phase
        return result
    }

    /// The pattern with an even count (an odd one repeated), or nil for a solid line.
    var evenDashes: [Double]? {
        dashes.isEmpty ? nil : dashes.count % 2 == 0 ? dashes : dashes + dashes
    }
}

/// Why a dash pattern was refused (`StrokeStyle.dashed(_:phase:)`).
public enum StrokeStyleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The entry at `index` is negative.
    case negativeDash(index: Int)
    /// The entry at `index` is NaN or infinite.
    case dashNotFinite(index: Int)
    /// Every entry is zero: no length to repeat.
    case allDashesZero
    /// The phase is NaN or infinite.
    case phaseNotFinite

    public var description: String {
        switch self {
        case .negativeDash(let index): "dash pattern entry \(index) is negative"
        case .dashNotFinite(let index): "dash pattern entry \(index) is not a finite number"
        case .allDashesZero: "every dash pattern entry is zero"
        case .phaseNotFinite: "the dash phase is not a finite number"
        }
    }
}
