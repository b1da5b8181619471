#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Compositor
import ImageCodecs

/// How every command turns an image file's bytes into pixels: the header read with `--max-pixels` checked, the
/// decoded picture checked against what this process may hold before anything is allocated, codec errors as one
/// line naming the file, and the decoder's warnings printed, one line each.
struct ImageLoading {
    let request: RenderRequest
    let console: BlurTool.Console

    /// The header alone, `--max-pixels` checked. `path` is the file as given (`-` for standard input).
    func inspect(_ bytes: [UInt8], path: String) throws -> ImageInfo {
        do {
            return try ImageDecoder.inspect(bytes, maxPixels: request.maxPixels)
        } catch let error as CodecError {
            throw ToolFailure(.dataError, Self.subject(path), error.description)
        }
    }

    /// The picture, decoded at 1/`scale` (a JPEG's DCT scaling), upright unless `--no-auto-orient`.
    func decode(_ bytes: [UInt8], header: ImageInfo, path: String, scale: Int = 1) throws -> DecodedImage {
        let subject = Self.subject(path)
        // DCT scaling rounds each side up.
        try MemoryBudget.check(
            width: (header.storedWidth + scale - 1) / scale, height: (header.storedHeight + scale - 1) / scale,
            what: "the image", subject: ToolFailure.display(subject))
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(
                bytes,
                options: DecodeOptions(
                    maxPixels: request.maxPixels, appliesOrientation: request.appliesOrientation,
                    scaleDenominator: scale, isLenient: request.isLenient))
        } catch let error as CodecError {
            throw ToolFailure(.dataError, subject, error.description)
        }
        for warning in decoded.warnings {
            console.err("blurtool: warning: \(ToolFailure.display(subject)): \(warning)".escapedForMessageLine())
        }
        return decoded
    }

    /// The picture's size as it shows (after EXIF orientation unless `--no-auto-orient`).
    func upright(_ header: ImageInfo) -> (width: Int, height: Int) {
        let swaps = request.appliesOrientation && header.orientation.swapsDimensions
        return swaps ? (header.storedHeight, header.storedWidth) : (header.storedWidth, header.storedHeight)
    }

    static func subject(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}

/// Decodes each image file of a scene once, however many layers, emitter cells and animations use it and
/// however its path is written (`a.png`, `./a.png`, a link to it): files are told apart by device and inode.
/// The decoded pictures together stay within `byteLimit`, so a scene cannot hold unbounded memory through many
/// distinct large images.
final class SceneImages {
    private let loading: ImageLoading
    private let byteLimit: Int
    private var images: [FileIdentity: Image] = [:]
    private var decodedBytes = 0

    /// A quarter of what this process may use (at most 4 GiB): the rest is the scene's drawing (its own limit)
    /// and the encoder.
    static var defaultByteLimit: Int { min(4 << 30, MemoryBudget.limit / 4) }

    init(loading: ImageLoading, byteLimit: Int = SceneImages.defaultByteLimit) {
        self.loading = loading
        self.byteLimit = byteLimit
    }

    func load(_ path: String) throws -> Image {
        let identity = FileIdentity(path)
        if let identity, let image = images[identity] { return image }
        let bytes = try FileIO.readImage(path)
        let header = try loading.inspect(bytes, path: path)
        let needed = header.storedWidth * header.storedHeight * Image.bytesPerPixel
        guard needed <= byteLimit - decodedBytes else {
            func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
            throw ToolFailure(
                .cannotCreate, path,
                "decoding it would bring the scene's images to \(size(decodedBytes + needed)); the limit is "
                    + "\(size(byteLimit)) (a quarter of the memory this process may use, at most 4 GiB)")
        }
        let image = try loading.decode(bytes, header: header, path: path).image
        decodedBytes += image.height * image.bytesPerRow
        // A file that cannot be told apart (stat failed after the read worked) is decoded each time it is named.
        if let identity { images[identity] = image }
        return image
    }
}

/// A file as the system knows it, whatever path names it.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// Nil when the file cannot be asked about (it does not exist: reading it gives the error).
    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
