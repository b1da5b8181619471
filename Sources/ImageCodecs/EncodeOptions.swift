/// How to encode.
public struct EncodeOptions: Sendable {
    public enum ChromaSubsampling: String, Sendable {
        /// Half-resolution colour in both directions: the smallest files, and what cameras write.
        case yuv420 = "4:2:0"
        /// Full-resolution colour.
        case yuv444 = "4:4:4"
    }

    /// JPEG quality, 1...100.
    public var quality: Int
    public var chromaSubsampling: ChromaSubsampling
    /// Smaller JPEGs for about twice the encoding time.
    public var optimizesHuffmanTables: Bool
    /// Progressive JPEG, for about four times the encoding time.
    public var isProgressive: Bool
    /// PNG compression, 0...9 as zlib counts it: 0 stores, 1 (the default, for speed) deflates with ISA-L's igzip,
    /// 2...9 with libdeflate at that level (smaller than zlib's same level, and faster), except that at 2...6 an
    /// image with runs (transparent areas, flat colour) takes the project's own encoder, made for them, on every
    /// thread (`bt_png_frame.c`).
    public var pngCompressionLevel: Int
    /// Threads a PNG's rows are filtered and deflated on (level 1's bands are deflated in parallel too); the bytes
    /// are the same for every count.
    public var threads: Int
    /// Embedded in the output (JPEG APP2, PNG iCCP) when set; the decoder's profile passes through here.
    public var iccProfile: [UInt8]?

    public init(
        quality: Int = 90, chromaSubsampling: ChromaSubsampling = .yuv420, optimizesHuffmanTables: Bool = false,
        isProgressive: Bool = false, pngCompressionLevel: Int = 1, iccProfile: [UInt8]? = nil, threads: Int = 1
    ) {
        self.quality = quality
        self.chromaSubsampling = chromaSubsampling
        self.optimizesHuffmanTables = optimizesHuffmanTables
        self.isProgressive = isProgressive
        self.pngCompressionLevel = pngCompressionLevel
        self.iccProfile = iccProfile
        self.threads = max(threads, 1)
    }
}
