/// How an image fills a frame of another shape, as SwiftUI's `.scaledToFill()`, `.scaledToFit()` and
/// UIKit's content modes.
public enum FitMode: String, CaseIterable, Sendable {
    /// Aspect fill: cover the frame, cropping the overflow equally on both sides (`.scaledToFill()`).
    case fill
    /// Aspect fit: all of the image, letterboxed onto a background (`.scaledToFit()`).
    case fit
    /// Scale each axis independently to the frame (UIKit's `.scaleToFill`).
    case stretch
}

/// Where a source image goes in a frame: the source rectangle to read and the frame rectangle it fills.
public struct FitLayout: Equatable, Sendable {
    /// In source pixels; fractions allowed.
    public let sourceRect: (x: Double, y: Double, width: Double, height: Double)
    /// In frame pixels: the whole frame, except for `fit`, where the image is centred in it.
    public let frameRect: (x: Int, y: Int, width: Int, height: Int)

    public init(sourceWidth: Int, sourceHeight: Int, frameWidth: Int, frameHeight: Int, mode: FitMode) {
        let sw = Double(sourceWidth)
        let sh = Double(sourceHeight)
        let fw = Double(frameWidth)
        let fh = Double(frameHeight)
        switch mode {
        case .stretch:
            sourceRect = (0, 0, sw, sh)
            frameRect = (0, 0, frameWidth, frameHeight)
        case .fill:
            let scale = max(fw / sw, fh / sh)
            let width = fw / scale
            let height = fh / scale
            sourceRect = ((sw - width) / 2, (sh - height) / 2, width, height)
            frameRect = (0, 0, frameWidth, frameHeight)
        case .fit:
            let scale = min(fw / sw, fh / sh)
            let width = max(1, min(frameWidth, Int((sw * scale).rounded())))
            let height = max(1, min(frameHeight, Int((sh * scale).rounded())))
            sourceRect = (0, 0, sw, sh)
            frameRect = ((frameWidth - width) / 2, (frameHeight - height) / 2, width, height)
        }
    }

    public static func == (lhs: FitLayout, rhs: FitLayout) -> Bool {
        lhs.sourceRect == rhs.sourceRect && lhs.frameRect == rhs.frameRect
    }

    /// `sourceRect` in the pixels of the source reduced `scale` times on each axis (a JPEG decoded at 1/2–1/8
    /// of the size the layout was made for).
    public func sourceRect(
        reducedBy scale: (x: Double, y: Double)
    ) -> (
        x: Double, y: Double, width: Double, height: Double
    ) {
        (sourceRect.x / scale.x, sourceRect.y / scale.y, sourceRect.width / scale.x, sourceRect.height / scale.y)
    }

    /// How many source pixels one frame pixel spans (the larger of the two axes).
    public var shrinkFactor: Double {
        max(sourceRect.width / Double(frameRect.width), sourceRect.height / Double(frameRect.height))
    }
}

extension Resampler {
    /// `source` placed in a new `width` × `height` frame by `mode`; for `fit`, the rest of the frame is
    /// `background`.
    public func fit(
        _ source: Image, width: Int, height: Int, mode: FitMode, background: Pixel = .transparent,
        workspace: Workspace = Workspace()
    ) -> Image {
        let layout = FitLayout(
            sourceWidth: source.width, sourceHeight: source.height, frameWidth: width,
            frameHeight: height, mode: mode)
        return place(
            source, layout: layout, width: width, height: height, mode: mode, background: background,
            workspace: workspace)
    }

    /// `source` placed by a layout computed for an image `sourceScale` times larger (a JPEG decoded at
    /// 1/2–1/8 of the size the layout was made for): the source rectangle is scaled down to match.
    public func place(
        _ source: Image, layout: FitLayout, width: Int, height: Int, mode: FitMode,
        background: Pixel = .transparent, sourceScale: (x: Double, y: Double) = (1, 1),
        workspace: Workspace = Workspace()
    ) -> Image {
        let frame = layout.frameRect
        let crop = layout.sourceRect(reducedBy: sourceScale)
        let result =
            mode == .fit
            ? Image(width: width, height: height, fill: background)
            : Image(uninitializedWidth: width, height: height)
        resize(
            source, crop: crop, into: result.region(x: frame.x, y: frame.y, width: frame.width, height: frame.height),
            workspace: workspace)
        return result
    }
}
