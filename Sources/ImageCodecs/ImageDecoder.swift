import Compositor

/// Decodes JPEG and PNG bytes into upright premultiplied images.
public enum ImageDecoder {
    /// Decodes `bytes`, recognising the format by its magic bytes (never by a file name).
    /// - Throws: `CodecError` for empty, unrecognised, oversized, unsupported or corrupt input.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        var decoded = try decode(bytes, options: options, headerOnly: false)
        if options.appliesOrientation && decoded.info.orientation != .up {
            decoded.image = decoded.image.oriented(decoded.info.orientation)
        }
        return decoded
    }

    /// Reads the header and metadata only: sizes, colour type, orientation, ICC. Allocates no pixels.
    public static func inspect(_ bytes: [UInt8], maxPixels: Int = Int.max) throws -> ImageInfo {
        try decode(bytes, options: DecodeOptions(maxPixels: maxPixels), headerOnly: true).info
    }

    private static func decode(_ bytes: [UInt8], options: DecodeOptions, headerOnly: Bool) throws -> DecodedImage {
        guard !bytes.isEmpty else { throw CodecError.empty }
        var decoded: DecodedImage
        switch ImageFormat(sniffing: bytes) {
        case .jpeg: decoded = try JPEGDecoder.decode(bytes, options: options, headerOnly: headerOnly)
        case .png: decoded = try PNGDecoder.decode(bytes, options: options, headerOnly: headerOnly)
        case nil: throw CodecError.unrecognizedFormat
        }
        // The pixels are RGB(A) whatever the file stored, so only an RGB profile may travel on with them.
        if let profile = decoded.info.iccProfile, let reason = ICCProfileHeader.reasonItCannotTagRGB(profile) {
            decoded.info.iccProfile = nil
            decoded.info.droppedICCProfileReason = reason
            decoded.warnings.append("dropped the embedded ICC profile: \(reason)")
        }
        return decoded
    }
}
