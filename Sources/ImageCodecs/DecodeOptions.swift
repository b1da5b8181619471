import Compositor

/// How to decode.
public struct DecodeOptions: Sendable {
    /// Refuse images whose header claims more pixels than this, before allocating any pixel memory.
    public var maxPixels: Int
    /// Turn the pixels upright according to the EXIF orientation (JPEG APP1, PNG eXIf).
    public var appliesOrientation: Bool
    /// 1, 2, 4 or 8: decode a JPEG at 1/n size in libjpeg's DCT domain (PNG ignores it).
    public var scaleDenominator: Int
    /// Keep what decoded from truncated or corrupt pixel data (with a warning) instead of failing.
    public var isLenient: Bool
    /// Refuse progressive JPEGs with more scans than this (the scan-bomb defence; real files have ≤ ~20).
    public var maxProgressiveScans: Int

    /// 100 megapixels: larger than any phone camera, small enough to stop decompression bombs.
    public static let defaultMaxPixels = 100_000_000

    public init(
        maxPixels: Int = DecodeOptions.defaultMaxPixels, appliesOrientation: Bool = true,
        scaleDenominator: Int = 1, isLenient: Bool = false, maxProgressiveScans: Int = 100
    ) {
        self.maxPixels = maxPixels
        self.appliesOrientation = appliesOrientation
        self.scaleDenominator = scaleDenominator
        self.isLenient = isLenient
        self.maxProgressiveScans = maxProgressiveScans
    }
}

/// What a decoder found besides the pixels.
public struct ImageInfo: Sendable {
    public var format: ImageFormat
    /// Dimensions as stored in the file, before scaling and orientation.
    public var storedWidth: Int
    public var storedHeight: Int
    /// The EXIF orientation of the stored pixels (`.up` when absent or invalid).
    public var orientation: Orientation
    /// A human-readable colour type: "YCbCr", "CMYK (Adobe)", "RGBA 16-bit", "palette 4-bit", …
    public var colorType: String
    public var bitsPerSample: Int
    public var hasAlpha: Bool
    /// JPEG: progressive; PNG: Adam7 interlaced.
    public var isInterlaced: Bool
    /// The embedded ICC profile when it describes the decoded pixels, to pass through to the output: nil when
    /// the file has none, or when its profile is not a valid one for RGB pixels (a CMYK or grey profile, a
    /// device link, a malformed header), since the decoders always return RGB(A). A dropped profile leaves a
    /// warning in `DecodedImage.warnings`; the output is then untagged, which viewers take as sRGB. CMYK is
    /// converted to RGB by formula (Adobe's inverted CMYK), not through the dropped profile.
    public var iccProfile: [UInt8]?
    /// Why the file's embedded profile is not in `iccProfile`, when it had one that was dropped.
    public var droppedICCProfileReason: String?
}

/// A decoded image, upright unless orientation was turned off, with what was learnt on the way.
public struct DecodedImage: Sendable {
    public var image: Image
    public var info: ImageInfo
    /// One line each: problems that lost no pixels, or (lenient mode) what was lost.
    public var warnings: [String]
}
