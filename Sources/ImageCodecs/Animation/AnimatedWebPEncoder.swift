import CWebP
import Compositor

/// Writes animated WebP through libwebp's WebPAnimEncoder, lossless or lossy. Not Sendable: one thread feeds it
/// the frames in order (libwebp diffs each against the one before).
public final class AnimatedWebPEncoder {
    public let width: Int
    public let height: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private var lastTimestamp = Int.min
    private var isFinished = false
    private var straight: [UInt8] = []

    /// WebP's limit on a side, from its 14-bit size fields.
    public static let maximumDimension = Int(WEBP_MAX_DIMENSION)

    /// - Parameters:
    ///   - quality: 0...100; for lossy frames the picture's quality, for lossless the effort spent on size.
    ///   - loopCount: plays of the whole animation, 0 meaning forever; WebP stores it in 16 bits.
    /// - Throws: `CodecError.limitExceeded` for a side over 16383 pixels or a loop count over 65535,
    ///   `.encodingFailed` or `.outOfMemory` when libwebp refuses.
    public init(width: Int, height: Int, lossless: Bool, quality: Double, loopCount: Int = 0) throws(CodecError) {
        let limit = AnimatedWebPEncoder.maximumDimension
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw .limitExceeded("WebP frames are 1 to \(limit) pixels a side; this animation is \(width)x\(height)")
        }
        guard (0...0xFFFF).contains(loopCount) else {
            throw .limitExceeded("a WebP loop count is 0 (forever) to 65535, not \(loopCount)")
        }
        guard WebPConfigInit(&config) != 0 else { throw .encodingFailed("libwebp's configuration version differs") }
        config.lossless = lossless ? 1 : 0
        config.quality = Float(quality.isNaN ? 75 : min(max(quality, 0), 100))
        guard WebPValidateConfig(&config) != 0 else { throw .encodingFailed("libwebp refused the configuration") }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else {
            throw .encodingFailed("libwebp's animation encoder version differs")
        }
        options.anim_params.loop_count = Int32(loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw .outOfMemory("libwebp's animation encoder")
        }
        self.width = width
        self.height = height
        self.encoder = encoder
    }

    deinit {
        WebPAnimEncoderDelete(encoder)
    }

    /// Adds the frame that shows from `timestampMilliseconds` until the next frame's (or the end's) timestamp.
    /// - Throws: `CodecError.encodingFailed` for a frame of another size, a timestamp before the previous one,
    ///   a call after `finish`, or libwebp's refusal; `.outOfMemory`.
    public func add(_ frame: Image, timestampMilliseconds: Int) throws(CodecError) {
        guard !isFinished else { throw .encodingFailed("a frame added after the animation was finished") }
        guard frame.width == width, frame.height == height else {
            throw .encodingFailed("a \(frame.width)x\(frame.height) frame in a \(width)x\(height) animation")
        }
        guard let timestamp = Int32(exactly: timestampMilliseconds), timestampMilliseconds >= lastTimestamp else {
            throw .encodingFailed("frame timestamp \(timestampMilliseconds) ms is before the last or out of range")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed("libwebp's picture version differs") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        // WebP stores straight alpha. Opaque premultiplied pixels are straight already, so they are imported
        // in place; others are converted into a buffer kept across frames (a fresh 12 MB one per frame cost
        // its page faults each time).
        let imported: Int32
        if frame.isOpaque {
            imported = WebPPictureImportRGBA(&picture, frame.baseAddress, Int32(frame.bytesPerRow))
        } else {
            if straight.count != width * height * 4 { straight = [UInt8](repeating: 0, count: width * height * 4) }
            imported = straight.withUnsafeMutableBufferPointer { buffer in
                frame.writeStraightRGBA(to: buffer.baseAddress!, bytesPerRow: width * 4)
                return WebPPictureImportRGBA(&picture, buffer.baseAddress, Int32(width * 4))
            }
        }
        guard imported != 0 else { throw AnimatedWebPEncoder.error(picture.error_code, doing: "importing a frame") }
        guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
            throw AnimatedWebPEncoder.error(picture.error_code, doing: lastError())
        }
        lastTimestamp = timestampMilliseconds
    }

    /// The whole file; the last frame shows until `endTimestampMilliseconds`.
    /// - Throws: `CodecError.encodingFailed` when no frame was added, the end is before the last frame, the
    ///   encoder was already finished, or libwebp fails.
    public func finish(endTimestampMilliseconds: Int) throws(CodecError) -> [UInt8] {
        guard !isFinished else { throw .encodingFailed("the animation was already finished") }
        guard lastTimestamp != Int.min else { throw .encodingFailed("an animation without frames") }
        guard let end = Int32(exactly: endTimestampMilliseconds), endTimestampMilliseconds >= lastTimestamp else {
            throw .encodingFailed("the end timestamp \(endTimestampMilliseconds) ms is before the last frame's")
        }
        isFinished = true
        guard WebPAnimEncoderAdd(encoder, nil, end, nil) != 0 else { throw .encodingFailed(lastError()) }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw .encodingFailed(lastError())
        }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private func lastError() -> String {
        guard let message = WebPAnimEncoderGetError(encoder), message.pointee != 0 else { return "libwebp failed" }
        return String(cString: message)
    }

    private static func error(_ code: WebPEncodingError, doing context: String) -> CodecError {
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return .outOfMemory(context)
        case VP8_ENC_ERROR_BAD_DIMENSION: return .encodingFailed("\(context): a size WebP cannot hold")
        case VP8_ENC_ERROR_FILE_TOO_BIG: return .encodingFailed("\(context): the file would pass WebP's 4 GiB")
        default: return .encodingFailed("\(context) (libwebp error \(code.rawValue))")
        }
    }
}
