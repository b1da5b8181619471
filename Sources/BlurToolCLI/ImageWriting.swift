import Compositor
import ImageCodecs

/// Encoding with the request's options, each failure mapped to an exit status.
enum ImageWriting {
    /// - Throws: `ToolFailure` 73 when the encoder runs out of memory (the size the user asked for is too large
    ///   for this machine, not a bug), 70 for any other encoder failure.
    static func encode(
        _ image: Image, as format: ImageFormat, request: RenderRequest, iccProfile: [UInt8]? = nil,
        outputPath: String
    ) throws(ToolFailure) -> [UInt8] {
        do {
            return try ImageEncoder.encode(
                image, as: format,
                options: EncodeOptions(
                    quality: request.quality, chromaSubsampling: request.chromaSubsampling,
                    optimizesHuffmanTables: request.optimizesHuffmanTables, isProgressive: request.isProgressive,
                    pngCompressionLevel: request.pngCompressionLevel, iccProfile: iccProfile,
                    threads: request.threads))
        } catch let error as CodecError {
            if isOutOfMemory(error) {
                throw ToolFailure(
                    .cannotCreate, outputPath,
                    "\(error.description) (\(image.width)x\(image.height) is too large to encode in the memory "
                        + "available; ask for a smaller --size or canvas)")
            }
            throw ToolFailure(.internalError, outputPath, error.description)
        } catch {
            throw ToolFailure(.internalError, outputPath, "\(error)")
        }
    }

    /// The shim reports an allocation failure as `outOfMemory` or, from libpng's and libjpeg's error paths, as
    /// `encodingFailed` with libpng's "out of memory …" or libjpeg's "Insufficient memory …".
    static func isOutOfMemory(_ error: CodecError) -> Bool {
        switch error {
        case .outOfMemory: return true
        case .encodingFailed(let message):
            let lowered = message.lowercased()
            return lowered.contains("out of memory") || lowered.contains("insufficient memory")
        default: return false
        }
    }
}
