import CPNG
import Compositor

/// PNG decoding through libpng's simplified API (`png_image_*`), which reports errors in a struct instead of
/// longjmp-ing, and converts every colour type and bit depth to 8-bit sRGB RGBA.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], options: DecodeOptions, headerOnly: Bool = false) throws -> DecodedImage {
        let chunks = PNGChunks(bytes)
        if let truncatedChunk = chunks.truncatedChunk { throw CodecError.corrupt(truncatedChunk) }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&png) }
        let began = bytes.withUnsafeBufferPointer { png_image_begin_read_from_memory(&png, $0.baseAddress, $0.count) }
        guard began != 0 else { throw CodecError.corrupt(message(of: png)) }
        let width = Int(png.width), height = Int(png.height)
        guard width.multipliedReportingOverflow(by: height).partialValue <= options.maxPixels,
              !width.multipliedReportingOverflow(by: height).overflow else {
            throw CodecError.tooManyPixels(width: width, height: height, limit: options.maxPixels)
        }
        let info = ImageInfo(
            format: .png, storedWidth: width, storedHeight: height,
            orientation: chunks.exif.flatMap(EXIFReader.orientation(in:)) ?? .up,
            colorType: chunks.colorTypeName, bitsPerSample: chunks.bitDepth,
            hasAlpha: png.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0, isInterlaced: chunks.isInterlaced,
            iccProfile: chunks.iccProfile)
        if headerOnly {
            return DecodedImage(image: Image(width: 0, height: 0), info: info, warnings: [])
        }
        png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
        // Without gAMA or sRGB, libpng would take 16-bit samples as linear light; files mean sRGB.
        png.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        let image = Image(width: width, height: height)  // zeroed: rows a failed decode never reached stay clear
        let finished = png_image_finish_read(&png, nil, image.baseAddress, Int32(image.bytesPerRow), nil)
        var warnings: [String] = []
        if finished == 0 {
            guard options.isLenient else { throw CodecError.corrupt(message(of: png)) }
            warnings.append("corrupt or truncated PNG data, kept what decoded: \(message(of: png))")
        } else if png.warning_or_error & UInt32(PNG_IMAGE_WARNING) != 0 {
            warnings.append(message(of: png))
        }
        image.premultiplyInPlace()  // libpng gives straight alpha
        return DecodedImage(image: image, info: info, warnings: warnings)
    }

    private static func message(of png: png_image) -> String {
        withUnsafeBytes(of: png.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
