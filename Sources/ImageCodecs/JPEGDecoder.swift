import CCodecShim
import Compositor

/// JPEG decoding through libjpeg-turbo (the C shim keeps libjpeg's longjmp away from Swift).
enum JPEGDecoder {
    static func decode(_ bytes: [UInt8], options: DecodeOptions, headerOnly: Bool = false) throws -> DecodedImage {
        var shimOptions = bt_jpeg_decode_options(
            scale_denominator: Int32(options.scaleDenominator), max_pixels: UInt64(max(options.maxPixels, 0)),
            max_scans: Int32(clamping: options.maxProgressiveScans), header_only: headerOnly ? 1 : 0)
        var decoded = bt_jpeg_decoded()
        let status = bytes.withUnsafeBufferPointer { buffer in
            bt_jpeg_decode(buffer.baseAddress, buffer.count, &shimOptions, &decoded)
        }
        defer { bt_jpeg_decoded_free(&decoded) }
        let message = withUnsafeBytes(of: decoded.message, shimMessage)
        switch UInt32(bitPattern: status) {
        case BT_JPEG_OK.rawValue: break
        case BT_JPEG_TOO_LARGE.rawValue:
            throw CodecError.tooManyPixels(
                width: Int(decoded.image_width), height: Int(decoded.image_height),
                limit: options.maxPixels)
        case BT_JPEG_TOO_MANY_SCANS.rawValue: throw CodecError.limitExceeded(message)
        case BT_JPEG_UNSUPPORTED.rawValue: throw CodecError.unsupported(message)
        case BT_JPEG_OUT_OF_MEMORY.rawValue: throw CodecError.outOfMemory(message)
        default: throw CodecError.corrupt(message)
        }
        var warnings: [String] = []
        if decoded.lost_data != 0 {
            guard options.isLenient else { throw CodecError.corrupt(message) }
            warnings.append("corrupt or truncated JPEG data, kept what decoded: \(message)")
        } else if decoded.warnings > 0 {
            warnings.append(message)
        }
        let exif = decoded.exif.map { [UInt8](UnsafeBufferPointer(start: $0, count: decoded.exif_length)) }
        let icc = decoded.icc.map { [UInt8](UnsafeBufferPointer(start: $0, count: decoded.icc_length)) }
        let info = ImageInfo(
            format: .jpeg, storedWidth: Int(decoded.image_width), storedHeight: Int(decoded.image_height),
            orientation: exif.flatMap(EXIFReader.orientation(in:)) ?? .up,
            colorType: colorTypeName(decoded), bitsPerSample: Int(decoded.precision), hasAlpha: false,
            isInterlaced: decoded.progressive != 0, iccProfile: icc)
        guard let pixels = decoded.pixels else {
            return DecodedImage(image: Image(width: 0, height: 0), info: info, warnings: warnings)
        }
        decoded.pixels = nil  // the image owns them now
        let image = Image(
            adoptingMallocedPixels: pixels, width: Int(decoded.width), height: Int(decoded.height),
            bytesPerRow: Int(decoded.width) * 4)
        return DecodedImage(image: image, info: info, warnings: warnings)
    }

    private static func colorTypeName(_ decoded: bt_jpeg_decoded) -> String {
        var name: String
        switch UInt32(decoded.color) {
        case BT_JPEG_GRAY.rawValue: name = "greyscale"
        case BT_JPEG_RGB.rawValue: name = "RGB"
        case BT_JPEG_YCBCR.rawValue: name = "YCbCr"
        case BT_JPEG_CMYK.rawValue: name = "CMYK"
        case BT_JPEG_YCCK.rawValue: name = "YCCK"
        default: name = "\(decoded.components)-component"
        }
        if decoded.progressive != 0 { name += ", progressive" }
        if decoded.arithmetic != 0 { name += ", arithmetic-coded" }
        return name
    }
}
