import CBlurToolAPI
import Compositor
import ImageCodecs
import SceneFormat
import Scenes
import Typesetting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `blurtool_scene_t`: a scene read from its file and the frames drawn of it so far (the frame cache).
final class SceneHandle {
    let frames: AnimationRenderer.FrameSource

    init(_ scene: Scene) {
        frames = AnimationRenderer.FrameSource(scene: scene)
    }
}

/// The images of one scene file: each file decoded once (by its real path), the decoded bytes of them all
/// bounded, so a scene cannot name one image many ways or many large ones to exhaust memory.
private final class SceneImageLoader {
    /// Decoded bytes one scene may hold: 2 GiB, 5 photos of 100 megapixels.
    static let byteBudget = 2 << 30
    /// Image files above this are refused before they are read.
    static let maximumFileBytes = 256 << 20
    private var decoded: [String: Image] = [:]
    private var bytes = 0

    func load(_ path: String) throws -> Image {
        guard let resolved = realpath(path, nil) else {
            throw LoadFailure("cannot open: \(String(cString: strerror(errno)))")
        }
        let key = String(cString: resolved)
        free(resolved)
        if let image = decoded[key] { return image }
        let file = try readFile(key, limit: Self.maximumFileBytes)
        let header = try ImageDecoder.inspect(file)
        let needed = header.storedWidth * header.storedHeight * Image.bytesPerPixel
        guard bytes + needed <= Self.byteBudget else {
            throw LoadFailure("the scene's images would take more than \(Self.byteBudget >> 20) MiB decoded")
        }
        let image = try ImageDecoder.decode(file).image
        bytes += needed
        decoded[key] = image
        return image
    }
}

struct LoadFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A whole file's bytes, refused past `limit`.
func readFile(_ path: String, limit: Int) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw LoadFailure("cannot open: \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if count == 0 { break }
        bytes += chunk[..<count]
        guard bytes.count <= limit else { throw LoadFailure("larger than \(limit >> 20) MiB") }
    }
    guard ferror(file) == 0 else { throw LoadFailure("cannot read: \(String(cString: strerror(errno)))") }
    return bytes
}

private func makeScene(json: [UInt8], folder: String) throws(CallFailure) -> OpaquePointer {
    let loader = SceneImageLoader()
    var reader = SceneFile(
        directory: folder, maxPixels: DecodeOptions.defaultMaxPixels, typesetter: FontTypesetter(),
        loadImage: { try loader.load($0) })
    let scene: Scene
    do {
        scene = try reader.scene(fromJSON: json)
    } catch {
        throw .data(error.description)
    }
    return OpaquePointer(Unmanaged.passRetained(SceneHandle(scene)).toOpaque())
}

@_cdecl("blurtool_scene_load")
public func blurtool_scene_load(
    _ path: UnsafePointer<CChar>?, _ output: UnsafeMutablePointer<OpaquePointer?>?
) -> blurtool_status_t {
    entry("blurtool_scene_load") { () throws(CallFailure) in
        let file = try string(path, "path")
        guard let output else { throw .argument("scene", "is NULL") }
        let json: [UInt8]
        do {
            json = try readFile(file, limit: SceneFile.maximumBytes)
        } catch {
            throw CallFailure(status: BLURTOOL_ERROR_FILE, message: "\(file.debugDescription): \(error)")
        }
        let folder = file.contains("/") ? String(file[...file.lastIndex(of: "/")!]) : ""
        output.pointee = try makeScene(json: json, folder: folder)
    }
}

@_cdecl("blurtool_scene_from_json")
public func blurtool_scene_from_json(
    _ json: UnsafePointer<CChar>?, _ length: Int, _ baseFolder: UnsafePointer<CChar>?,
    _ output: UnsafeMutablePointer<OpaquePointer?>?
) -> blurtool_status_t {
    entry("blurtool_scene_from_json") { () throws(CallFailure) in
        guard let json else { throw .argument("json", "is NULL") }
        guard let output else { throw .argument("scene", "is NULL") }
        guard length >= 0, length <= SceneFile.maximumBytes else {
            throw .argument("length", "must be 0 to \(SceneFile.maximumBytes) bytes, not \(length)")
        }
        var folder = baseFolder == nil ? "" : try string(baseFolder, "base_folder")
        if !folder.isEmpty && !folder.hasSuffix("/") { folder += "/" }
        let bytes = Array(UnsafeRawBufferPointer(start: json, count: length))
        output.pointee = try makeScene(json: bytes, folder: folder)
    }
}

@_cdecl("blurtool_scene_free")
public func blurtool_scene_free(_ handle: OpaquePointer?) {
    guard let handle else { return }
    Unmanaged<SceneHandle>.fromOpaque(UnsafeRawPointer(handle)).release()
}

private func scene(_ handle: OpaquePointer?) throws(CallFailure) -> SceneHandle {
    guard let handle else { throw .argument("scene", "is NULL") }
    return Unmanaged<SceneHandle>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
}

@_cdecl("blurtool_scene_size")
public func blurtool_scene_size(
    _ handle: OpaquePointer?, _ width: UnsafeMutablePointer<Int32>?, _ height: UnsafeMutablePointer<Int32>?
) -> blurtool_status_t {
    entry("blurtool_scene_size") { () throws(CallFailure) in
        let canvas = try scene(handle).frames.scene
        guard let width else { throw .argument("width", "is NULL") }
        guard let height else { throw .argument("height", "is NULL") }
        // At most 100 megapixels (the reader's limit), so each side fits.
        width.pointee = Int32(canvas.pixelWidth)
        height.pointee = Int32(canvas.pixelHeight)
    }
}

@_cdecl("blurtool_scene_duration")
public func blurtool_scene_duration(
    _ handle: OpaquePointer?, _ seconds: UnsafeMutablePointer<Double>?
)
    -> blurtool_status_t
{
    entry("blurtool_scene_duration") { () throws(CallFailure) in
        let canvas = try scene(handle).frames.scene
        guard let seconds else { throw .argument("seconds", "is NULL") }
        seconds.pointee = canvas.animationDuration
    }
}

@_cdecl("blurtool_scene_render")
public func blurtool_scene_render(
    _ handle: OpaquePointer?, _ time: Double, _ destinationPointer: UnsafePointer<blurtool_buffer_t>?,
    _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_scene_render") { () throws(CallFailure) in
        let source = try scene(handle)
        let seconds = try finite(time, "time")
        let destination = try CallerBuffer(destinationPointer, "destination")
        let canvas = source.frames.scene
        guard destination.width == canvas.pixelWidth, destination.height == canvas.pixelHeight else {
            throw .argument(
                "destination",
                "is \(destination.width)x\(destination.height); the scene is \(canvas.pixelWidth)x\(canvas.pixelHeight)"
            )
        }
        source.frames.threads = try threadCount(threads)
        let frame: Image
        do {
            frame = try source.frames.frame(at: seconds)
        } catch {
            throw .limit("\(error)")
        }
        destination.store(frame)
    }
}
