import Compositor
import ImageCodecs
import SceneFormat
import Scenes
import Typesetting

/// Runs `blurtool compose SCENE`: read the scene file, load its images, render (an animated scene as it shows
/// at 0 s), encode, write.
struct Composer {
    let request: RenderRequest
    let console: BlurTool.Console

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let scenePath = request.input
        let outputPath = try resolvedOutputPath()
        try OutputPath.refuseOverwriting(scenePath, with: outputPath, what: "scene")
        let format = try OutputPath.format(of: outputPath, requested: request.format) ?? .png  // stdout: PNG
        let subject = scenePath == "-" ? "<stdin>" : scenePath
        let bytes = try Composer.readSceneFile(scenePath)
        // Opened once the scene is known to be there, so an output that cannot be created fails before the work.
        let output = try OutputFile(outputPath)
        defer { output.discard() }
        let scene = try Composer.scene(fromFile: bytes, path: scenePath, request: request, console: console)
        let loaded = clock.now
        let image: Image
        let warpRoutes = request.isVerbose ? WarpRoutes() : nil
        do {
            // An animated scene as it shows at 0 s (an animation's `from` during its delay), as `animate --at 0`.
            var renderer = SceneRenderer(threads: request.threads, precision: request.precision)
            renderer.warpRoutes = warpRoutes
            image = try renderer.render(scene.snapshot(at: 0))
        } catch {
            throw ToolFailure(.dataError, subject, error.description)
        }
        let rendered = clock.now
        let encoded = try ImageWriting.encode(image, as: format, request: request, outputPath: outputPath)
        let encodedAt = clock.now
        try output.commit(encoded)
        if outputPath != "-", request.output == nil || outputPath != request.output { console.out(outputPath) }
        if request.isVerbose {
            func ms(_ duration: Duration) -> String {
                String(
                    format2: Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
            }
            console.err(
                "blurtool: compose \(image.width)x\(image.height), \(scene.layers.count) layers, "
                    + "\(request.threads) threads: read+load \(ms(loaded - start)) ms, render \(ms(rendered - loaded)) ms, "
                    + "encode \(ms(encodedAt - rendered)) ms, write \(ms(clock.now - encodedAt)) ms")
            if let routes = warpRoutes?.summary, !routes.isEmpty {
                console.err("blurtool: perspective layers warped \(routes)")
            }
        }
    }

    static func readSceneFile(_ path: String) throws -> [UInt8] {
        try FileIO.read(path, upTo: SceneFile.maximumBytes, whatItIs: "a scene file")
    }

    /// The scene in a scene file's bytes, its images loaded relative to its folder; every failure a one-line
    /// `ToolFailure` naming the scene (and the JSON path of the layer at fault).
    static func scene(
        fromFile bytes: [UInt8], path scenePath: String, request: RenderRequest, console: BlurTool.Console
    ) throws -> Scene {
        let subject = scenePath == "-" ? "<stdin>" : scenePath
        let slash = scenePath.lastIndex(of: "/")
        var file = SceneFile(
            directory: scenePath == "-"
                ? "" : slash.map { $0 == scenePath.startIndex ? "/" : String(scenePath[..<$0]) } ?? "",
            maxPixels: request.maxPixels, typesetter: FontTypesetter(),
            loadImage: SceneImages(loading: ImageLoading(request: request, console: console)).load)
        let scene: Scene
        do {
            scene = try file.scene(fromJSON: bytes)
        } catch .image(let path, let file, let underlying) {
            // The loader's failure, under the scene's name and the layer's JSON path.
            let failure = underlying as? ToolFailure ?? ToolFailure(.dataError, file, "\(underlying)")
            throw ToolFailure(
                failure.code, shownAs: "\(ToolFailure.display(subject)): \(path)",
                (failure.subject.map { "\($0): " } ?? "") + failure.reason)
        } catch .font(let path, let underlying) {
            // A font file that is not there is missing input, as a missing image is; any other font problem is data.
            let missing = (underlying as? TypesettingError).map {
                if case .unreadableFile = $0 { return true } else { return false }
            }
            throw ToolFailure(missing == true ? .noInput : .dataError, subject, "\(path): \(underlying)")
        } catch {
            throw ToolFailure(.dataError, subject, error.description)
        }
        try MemoryBudget.check(
            width: scene.pixelWidth, height: scene.pixelHeight, what: "the canvas",
            subject: ToolFailure.display(subject))
        return scene
    }

    /// `-o` as given; a directory or nothing gives `<scene stem>.png` there (or beside the scene).
    private func resolvedOutputPath() throws(UsageError) -> String {
        try OutputPath.resolve(request.output, input: request.input) {
            $0 + "." + (request.format ?? .png).fileExtension
        }
    }
}
