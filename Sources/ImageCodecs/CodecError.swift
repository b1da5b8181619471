/// Why an image could not be decoded or encoded. Every case carries enough to print one line.
public enum CodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Zero bytes.
    case empty
    /// The bytes are not a format this library reads (the magic bytes say so).
    case unrecognizedFormat
    /// The header asks for more pixels than the limit allows; nothing was allocated.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A limit other than the pixel count was reached (progressive scans, say).
    case limitExceeded(String)
    /// A valid file using a feature this library does not decode (12-bit JPEG, say).
    case unsupported(String)
    /// The data is corrupt or truncated so that pixels are missing or wrong (the library's message).
    case corrupt(String)
    /// The encoder failed (the library's message).
    case encodingFailed(String)
    case outOfMemory(String)

    public var description: String {
        switch self {
        case .empty: return "empty file"
        case .unrecognizedFormat: return "not a JPEG or PNG image"
        case .tooManyPixels(let width, let height, let limit):
            return "\(width)x\(height) is \(width * height) pixels, more than the limit of \(limit)"
        case .limitExceeded(let message): return "refused: \(message)"
        case .unsupported(let message): return "unsupported: \(message)"
        case .corrupt(let message): return "corrupt or truncated image data: \(message)"
        case .encodingFailed(let message): return "could not encode: \(message)"
        case .outOfMemory(let message): return "out of memory: \(message)"
        }
    }
}
