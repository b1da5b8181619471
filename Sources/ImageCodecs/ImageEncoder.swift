import CCodecShim
import Compositor

/// Encodes premultiplied images as JPEG or PNG bytes.
public enum ImageEncoder {
    /// - Throws: `CodecError.encodingFailed` when the library refuses, or when `options.iccProfile` cannot tag
    ///   the RGB pixels written (a CMYK, grey or device-link profile, or no valid header): a viewer would
    ///   misrender or reject the file, so the decoders drop such profiles and the encoder refuses them.
    public static func encode(
        _ image: Image, as format: ImageFormat, options: EncodeOptions = EncodeOptions()
    )
        throws -> [UInt8]
    {
        guard image.width > 0, image.height > 0 else { throw CodecError.encodingFailed("the image is empty") }
        if let profile = options.iccProfile, let reason = ICCProfileHeader.reasonItCannotTagRGB(profile) {
            throw CodecError.encodingFailed("refused the ICC profile: \(reason)")
        }
        switch format {
        case .jpeg: return try encodeJPEG(image, options: options)
        case .png: return try encodePNG(image, options: options)
        }
    }

    /// JPEG has no alpha: premultiplied colour is the image composited over black, which is what is written.
    private static func encodeJPEG(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: Int(BT_MESSAGE_LENGTH))
        let icc = options.iccProfile ?? []
        let status = icc.withUnsafeBufferPointer { icc in
            var shimOptions = bt_jpeg_encode_options(
                quality: Int32(min(max(options.quality, 1), 100)),
                chroma_444: options.chromaSubsampling == .yuv444 ? 1 : 0,
                optimize_huffman: options.optimizesHuffmanTables ? 1 : 0, progressive: options.isProgressive ? 1 : 0,
                icc: icc.isEmpty ? nil : icc.baseAddress, icc_length: icc.count)
            return bt_jpeg_encode(
                image.baseAddress, Int32(image.width), Int32(image.height), image.bytesPerRow,
                &shimOptions, &output, &length, &message)
        }
        return try takeOutput(status: status, output: output, length: length, message: message)
    }

    /// Opaque images become RGB PNGs, others RGBA (straight alpha, as PNG requires). Most are opaque, so the image
    /// is first encoded as RGB with the filter pass (which reads every pixel anyway) checking the alpha it drops;
    /// only a translucent one is then converted to straight alpha and encoded again, as RGBA.
    private static func encodePNG(_ image: Image, options: EncodeOptions) throws -> [UInt8] {
        if let asRGB = try encodePNGData(image, hasAlpha: false, options: options) { return asRGB }
        guard let asRGBA = try encodePNGData(straightCopy(of: image), hasAlpha: true, options: options) else {
            throw CodecError.encodingFailed("the encoder refused an image with alpha")  // never: RGBA is not checked
        }
        return asRGBA
    }

    /// The PNG of `pixels` (straight alpha) as RGBA, or as RGB unless a pixel is not opaque (nil then).
    private static func encodePNGData(_ pixels: Image, hasAlpha: Bool, options: EncodeOptions) throws -> [UInt8]? {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: Int(BT_MESSAGE_LENGTH))
        let icc = options.iccProfile ?? []
        let status = icc.withUnsafeBufferPointer { icc in
            var shimOptions = bt_png_encode_options(
                compression_level: Int32(min(max(options.pngCompressionLevel, 0), 9)), has_alpha: hasAlpha ? 1 : 0,
                check_opaque: hasAlpha ? 0 : 1, threads: Int32(clamping: max(options.threads, 1)),
                icc: icc.isEmpty ? nil : icc.baseAddress, icc_length: icc.count)
            return bt_png_encode(
                pixels.baseAddress, Int32(pixels.width), Int32(pixels.height), pixels.bytesPerRow,
                &shimOptions, &output, &length, &message)
        }
        if status == BT_PNG_NOT_OPAQUE { return nil }
        return try takeOutput(status: status, output: output, length: length, message: message)
    }

    private static func straightCopy(of image: Image) -> Image {
        let copy = Image(uninitializedWidth: image.width, height: image.height)  // every pixel is written below
        image.writeStraightRGBA(to: copy.baseAddress, bytesPerRow: copy.bytesPerRow)
        return copy
    }

    private static func takeOutput(
        status: Int32, output: UnsafeMutablePointer<UInt8>?, length: Int,
        message: [CChar]
    ) throws -> [UInt8] {
        guard status == 0, let output else {
            throw CodecError.encodingFailed(message.withUnsafeBytes(shimMessage))
        }
        defer { bt_free(output) }
        return [UInt8](UnsafeBufferPointer(start: output, count: length))
    }
}

/// The C shim's NUL-terminated message buffer (a fixed-size C array or a Swift one) as a String.
func shimMessage(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
}
