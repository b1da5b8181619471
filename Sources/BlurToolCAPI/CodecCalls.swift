import CBlurToolAPI
import Compositor
import ImageCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A codec's error as the C status it stands for.
private func failure(_ error: any Error) -> CallFailure {
    guard let error = error as? CodecError else { return .data("\(error)") }
    switch error {
    case .tooManyPixels, .limitExceeded: return .limit(error.description)
    case .outOfMemory: return .memory(error.description)
    default: return .data(error.description)
    }
}

/// The bytes in memory from `malloc`, for the caller to free with `blurtool_free`.
private func mallocCopy(of bytes: [UInt8]) throws(CallFailure) -> UnsafeMutablePointer<UInt8> {
    guard let memory = malloc(max(bytes.count, 1))?.assumingMemoryBound(to: UInt8.self) else {
        throw .memory("could not allocate \(bytes.count) bytes")
    }
    memory.initialize(from: bytes, count: bytes.count)
    return memory
}

@_cdecl("blurtool_decode")
public func blurtool_decode(
    _ data: UnsafeRawPointer?, _ size: Int, _ maxPixels: Int64, _ alpha: blurtool_alpha_t,
    _ output: UnsafeMutablePointer<blurtool_buffer_t>?
) -> blurtool_status_t {
    entry("blurtool_decode") { () throws(CallFailure) in
        guard let data else { throw .argument("data", "is NULL") }
        guard let output else { throw .argument("image", "is NULL") }
        guard size > 0 else { throw .argument("size", "must be above 0") }
        guard maxPixels >= 0 else {
            throw .argument("max_pixels", "must be 0 (100 megapixels) or more, not \(maxPixels)")
        }
        guard alpha == BLURTOOL_ALPHA_PREMULTIPLIED || alpha == BLURTOOL_ALPHA_STRAIGHT else {
            throw .argument("alpha", "must be BLURTOOL_ALPHA_PREMULTIPLIED or _STRAIGHT, not \(alpha.rawValue)")
        }
        let limit = maxPixels == 0 ? DecodeOptions.defaultMaxPixels : Int(min(maxPixels, 1 << 30))
        let image: Image
        do {
            let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
            image = try ImageDecoder.decode(bytes, options: DecodeOptions(maxPixels: limit)).image
        } catch {
            throw failure(error)
        }
        let stride = image.width * 4
        guard let pixels = malloc(stride * image.height)?.assumingMemoryBound(to: UInt8.self) else {
            throw .memory("could not allocate \(image.width)x\(image.height) pixels")
        }
        if alpha == BLURTOOL_ALPHA_STRAIGHT {
            image.writeStraightRGBA(to: pixels, bytesPerRow: stride)
        } else {
            Image(borrowing: pixels, width: image.width, height: image.height, bytesPerRow: stride).copyPixels(
                from: image)
        }
        output.pointee = blurtool_buffer_t(
            pixels: pixels, width: Int32(image.width), height: Int32(image.height), stride: Int64(stride), alpha: alpha)
    }
}

@_cdecl("blurtool_encode")
public func blurtool_encode(
    _ imagePointer: UnsafePointer<blurtool_buffer_t>?, _ format: blurtool_format_t, _ quality: Int32,
    _ data: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ size: UnsafeMutablePointer<Int>?
) -> blurtool_status_t {
    entry("blurtool_encode") { () throws(CallFailure) in
        let buffer = try CallerBuffer(imagePointer, "image")
        guard let data else { throw .argument("data", "is NULL") }
        guard let size else { throw .argument("size", "is NULL") }
        let imageFormat: ImageFormat
        var options = EncodeOptions()
        switch format {
        case BLURTOOL_FORMAT_PNG: imageFormat = .png
        case BLURTOOL_FORMAT_JPEG:
            imageFormat = .jpeg
            guard (1...100).contains(quality) else { throw .argument("quality", "must be 1 to 100, not \(quality)") }
            options.quality = Int(quality)
        default: throw .argument("format", "must be BLURTOOL_FORMAT_PNG or _JPEG, not \(format.rawValue)")
        }
        let image = buffer.premultiplied(buffer.whole)
        let encoded: [UInt8]
        do {
            encoded = try ImageEncoder.encode(image, as: imageFormat, options: options)
        } catch {
            throw failure(error)
        }
        data.pointee = try mallocCopy(of: encoded)
        size.pointee = encoded.count
    }
}
