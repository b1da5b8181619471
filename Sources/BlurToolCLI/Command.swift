import Compositor
import ImageCodecs

/// What the user asked for, parsed from the arguments; nothing here has touched a file yet.
public enum Command: Equatable, Sendable {
    case help
    case version
    case listMaterials
    case info(paths: [String])
    /// One request per INPUT, in order.
    case render([RenderRequest])
    /// `blurtool compose SCENE`: the request's input is the scene file; only output, decoding, threading
    /// and precision options apply.
    case compose(RenderRequest)
    /// `blurtool curve SPEC`: a timing curve's samples or plot.
    case curve(CurveRequest)
    /// `blurtool animate SCENE`: the scene's frames to an animation, or one of them (`--at`) to an image.
    case animate(AnimationRequest)
    /// `blurtool transition FROM TO --style NAME`: one photo turning into the other, to an animation.
    case transition(TransitionRequest)
    /// `blurtool batch SOURCE -o DEST …`: a whole folder or list of photos, resumable and shardable.
    case batch(BatchRequest)
    /// `blurtool sheet PHOTO -o sheet.html`: the photo under every material, on one page.
    case sheet(SheetRequest)
}

/// `blurtool INPUT --material NAME …` or `blurtool INPUT --sigma S …`.
public struct RenderRequest: Equatable, Sendable {
    /// A path, or "-" for standard input.
    public var input: String
    /// A path, "-" for standard output, or nil for `<stem>-<material>.<ext>` beside the input. A path
    /// naming an existing directory puts that default name inside it.
    public var output: String?
    public var materialName: String?
    public var appearance: Appearance = .light
    public var dim: Double = 0
    /// Blur σ in pixels: the whole blur without a material, an override of its blur with one.
    public var sigma: Double?
    public var saturation: Double?
    public var tint: RGBAColor?
    public var grain: Double?
    public var pixelsPerPoint: Double?
    public var edgeMode: EdgeMode = .mirror
    public var precision: BlurPrecision = .auto
    public var format: ImageFormat?
    public var quality: Int = 90
    public var chromaSubsampling: EncodeOptions.ChromaSubsampling = .yuv420
    public var isProgressive = false
    public var optimizesHuffmanTables = false
    public var pngCompressionLevel = 1
    public var appliesOrientation = true
    public var isLenient = false
    public var maxPixels = DecodeOptions.defaultMaxPixels
    public var isVerbose = false
    /// Dither the rounding (always with a material; on request for a plain blur).
    public var dither = false
    /// Resample to this frame (width, height) before blurring, laid out by `fit`.
    public var size: FrameSize?
    public var fit: FitMode = .fill
    /// The resampling filter; nil chooses: bilinear when the blur that follows is so wide that no filter
    /// could show, Lanczos-3 otherwise.
    public var filter: ResampleFilter?
    /// Drawn through this transform (after any --size layout), onto a canvas of the same size.
    public var transform: AffineTransform2D?
    /// What `--fit fit` letterboxes onto.
    public var background: RGBAColor = .clear
    /// At most this many threads (default: every core).
    public var threads = Parallel.processorCount

    public init(input: String) {
        self.input = input
    }
}

/// A frame size in pixels, as `--size 1170x2532` gives it.
public struct FrameSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A mistake in the arguments: exit status 64 and the message, with a pointer to `--help`.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
