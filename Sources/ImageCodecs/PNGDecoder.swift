import CCodecShim
import Compositor

/// PNG decoding through libpng's full read API, behind the C shim (see bt_png_decode.c for why not the
/// simplified API); iCCP and eXIf come from a Swift chunk walk, which also refuses lying chunk lengths.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], options: DecodeOptions, headerOnly: Bool = false) throws -> DecodedImage {
        let chunks = PNGChunks(bytes)
        // The header's claim is checked before libpng reads anything else, so no later chunk can hide it.
        if chunks.width > 0, chunks.height > 0 {
            let (pixels, overflow) = chunks.width.multipliedReportingOverflow(by: chunks.height)
            if overflow || pixels > options.maxPixels {
                throw CodecError.tooManyPixels(width: chunks.width, height: chunks.height, limit: options.maxPixels)
            }
        }
        if let truncatedChunk = chunks.truncatedChunk { throw CodecError.corrupt(truncatedChunk) }
        var shimOptions = bt_png_decode_options(
            max_pixels: UInt64(max(options.maxPixels, 0)),
            header_only: headerOnly ? 1 : 0)
        var decoded = bt_png_decoded()
        let status = bytes.withUnsafeBufferPointer { bt_png_decode($0.baseAddress, $0.count, &shimOptions, &decoded) }
        defer { bt_free(decoded.pixels) }
        let message = withUnsafeBytes(of: decoded.message, shimMessage)
        let width = Int(decoded.width)
        let height = Int(decoded.height)
        var warnings: [String] = []
        switch UInt32(bitPattern: status) {
        case BT_PNG_OK.rawValue:
            if decoded.warnings > 0 { warnings.append(message) }
        case BT_PNG_TOO_LARGE.rawValue:
            throw CodecError.tooManyPixels(width: width, height: height, limit: options.maxPixels)
        case BT_PNG_PARTIAL.rawValue:
            guard options.isLenient else { throw CodecError.corrupt(message) }
            warnings.append("corrupt or truncated PNG data, kept \(decoded.rows_decoded) of \(height) rows: \(message)")
        default:
            throw CodecError.corrupt(message)
        }
        let info = ImageInfo(
            format: .png, storedWidth: width, storedHeight: height,
            orientation: chunks.exif.flatMap(EXIFReader.orientation(in:)) ?? .up,
            colorType: chunks.colorTypeName, bitsPerSample: chunks.bitDepth,
            hasAlpha: chunks.colorType == 4 || chunks.colorType == 6 || chunks.hasTransparency,
            isInterlaced: chunks.isInterlaced, iccProfile: chunks.iccProfile)
        guard let pixels = decoded.pixels, !headerOnly else {
            return DecodedImage(image: Image(width: 0, height: 0), info: info, warnings: warnings)
        }
        decoded.pixels = nil  // the image owns them now
        let image = Image(adoptingMallocedPixels: pixels, width: width, height: height, bytesPerRow: width * 4)
        image.premultiplyInPlace()  // libpng gives straight alpha
        return DecodedImage(image: image, info: info, warnings: warnings)
    }
}
