import Compositor

/// Makes `TypesetText` from a string in a style: fonts found, the string shaped. The `Typesetting` module's
/// `FontTypesetter` is the one this project ships (fontconfig, HarfBuzz, FreeType); scene files and callers
/// hand it in, so neither Scenes nor the Compositor links a font library.
public protocol Typesetter: Sendable {
    /// - Throws: an error whose description is one line a user can act on (a family that is not installed, with
    ///   the families close to it; a font file that is not a font).
    func typeset(_ text: String, style: TextStyle) throws -> any TypesetText
}

/// Text that knows how to lay itself out in a frame and draw its glyphs as coverage: what the scene renderer
/// needs of a text layer. Layout depends only on the frame's size (it wraps to the width and centres
/// vertically in the height, as `UILabel` does); the pixels depend on the transform, so glyphs are
/// rasterised for the scale, rotation and subpixel position they are seen at.
///
/// Implementations are shared by frames and threads: both methods may be called concurrently.
/// A class: a text is set once and shared by the layers and frames that show it, and two layers hold equal text
/// when they hold the same set text (`Layer` is `Equatable` by it).
public protocol TypesetText: AnyObject, Sendable {
    /// A rectangle in the frame's coordinates (origin at its top left, points) holding every pixel the text
    /// may cover when laid out in a `width` × `height` frame, ink and anti-aliasing included; nil when nothing
    /// would be drawn (empty text). It may lie partly outside the frame: text is not clipped to it.
    func inkBounds(frameWidth width: Double, height: Double) -> Rect?

    /// Adds the coverage (0 none … 255 full) of the text laid out in a `width` × `height` frame into `mask`,
    /// where `transform` maps the frame's coordinates to the mask's pixel coordinates (pixel centres at
    /// half-integers). Glyphs that overlap combine as coverage composited source-over,
    /// `a + b − a·b/255`; pixels outside the mask are skipped.
    func addCoverage(
        frameWidth width: Double, height: Double, through transform: AffineTransform2D, into mask: Plane)

    /// The size the text takes wrapped to `width` points (0 or infinity: unwrapped) with no height limit, in
    /// points: its widest line and its lines' height, as `UILabel.sizeThatFits` gives it. A frame of this size
    /// shows the text whole.
    func fittingSize(width: Double) -> Size
}

extension TypesetText {
    /// For text that knows only its ink: the ink's extent from the frame's origin.
    public func fittingSize(width: Double) -> Size {
        guard let ink = inkBounds(frameWidth: width > 0 ? width : .infinity, height: .infinity) else { return .zero }
        return Size(width: max(ink.x + ink.width, 0), height: max(ink.y + ink.height, 0))
    }
}
