import Compositor
import ImageCodecs
import SceneFormat
import Scenes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `blurtool animate SCENE`: read the scene, draw its frames in parallel, encode them as they come (the
/// animated PNG's frames on the drawing threads too), write the output once complete.
struct Animator {
    let request: AnimationRequest
    let console: BlurTool.Console
    /// The perspective layers' warps counted by route, for `--verbose`.
    private let warpRoutes = WarpRoutes()

    private var subject: String { request.render.input == "-" ? "<stdin>" : request.render.input }

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let scenePath = request.render.input
        if let time = request.time {
            let path = try OutputPath.resolve(request.render.output, input: scenePath) { stem in
                stem + "." + (request.render.format ?? .png).fileExtension
            }
            try OutputPath.refuseOverwriting(scenePath, with: path, what: "scene")
            let scene = try loadScene()
            return try writeStill(scene, at: time, renderer: renderer(), to: path)
        }
        let (output, outputPath) = try request.target()
        if let outputPath { try OutputPath.refuseOverwriting(scenePath, with: outputPath, what: "scene") }
        let scene = try loadScene()
        let renderer = renderer()
        guard request.duration != nil || scene.isAnimated else {
            throw ToolFailure(
                .dataError, subject, "nothing in the scene is animated; give --duration to render it still")
        }
        guard request.duration != nil || scene.animationDuration > 0 else {
            throw ToolFailure(
                .dataError, subject, "only emitters move in the scene, and they run for ever; give --duration")
        }
        let duration = request.duration ?? scene.animationDuration
        // A loop played again and again shows t < its period only (the frame at the period is the first again).
        let loops = (output == .apng || output == .webp) && request.loopCount != 1
        let count =
            loops && scene.loopPeriod != nil
            ? renderer.loopFrameCount(period: duration) : renderer.frameCount(duration: duration)
        // Before the output is opened: a count past the limit (or past what an APNG's header can hold) is refused
        // with nothing written.
        guard count <= renderer.limits.maximumFrames else {
            throw ToolFailure(
                .dataError, subject,
                SceneRenderError.tooManyFrames(count: count, limit: renderer.limits.maximumFrames).description)
        }
        let loaded = clock.now
        let progress = ProgressBar(total: count, clock: clock)
        defer { progress.finish() }
        let sink = try FrameSink.make(
            output, path: outputPath, width: scene.pixelWidth, height: scene.pixelHeight, opaque: scene.staysOpaque,
            request: request, frames: count, encoderThreads: 1)
        defer { sink.discard() }
        do {
            try renderer.renderFrames(
                of: scene, count: count,
                processingPerPixel: EncodingWork.operationsPerPixel(request, output: outputPath == nil ? nil : output),
                processFrame: sink.process,
                deliver: { index, encoded in
                    try sink.deliver(index, encoded)
                    progress.advance()
                })
        } catch let error as SceneRenderError {
            throw ToolFailure(.dataError, subject, error.description)
        } catch let error as CodecError {
            throw ToolFailure(
                ImageWriting.isOutOfMemory(error) ? .cannotCreate : .internalError, outputPath ?? "<stdout>",
                error.description)
        }
        progress.finish()
        let rendered = clock.now
        try sink.finish()
        request.reportFrames(
            count, in: (rendered - loaded).seconds, width: scene.pixelWidth, height: scene.pixelHeight, what: nil,
            outputPath: outputPath, console: console)
        if request.render.isVerbose {
            console.err(
                "blurtool: animate \(scene.pixelWidth)x\(scene.pixelHeight), \(count) frames at "
                    + "\(request.framesPerSecond.plainDescription) fps, \(request.render.threads) threads: read+load "
                    + "\(String(format2: (loaded - start).seconds * 1000)) ms, render+encode "
                    + "\(String(format2: (rendered - loaded).seconds * 1000)) ms, write "
                    + "\(String(format2: (clock.now - rendered).seconds * 1000)) ms")
            if !warpRoutes.summary.isEmpty {
                console.err("blurtool: perspective layers warped \(warpRoutes.summary)")
            }
        }
    }

    /// The scene file read, its images loaded, `--scale` applied and checked.
    private func loadScene() throws -> Scene {
        let bytes = try Composer.readSceneFile(request.render.input)
        var scene = try Composer.scene(
            fromFile: bytes, path: request.render.input, request: request.render, console: console)
        if let scale = request.scale {
            scene.scale = scale
            guard scene.pixelWidth > 0, scene.pixelHeight > 0,
                Double(scene.pixelWidth) * Double(scene.pixelHeight) <= Double(request.render.maxPixels)
            else {
                throw ToolFailure(
                    .dataError, subject,
                    "--scale \(scale.plainDescription) makes the canvas \(scene.pixelWidth)x\(scene.pixelHeight) "
                        + "pixels, outside 1 to \(request.render.maxPixels) (see --max-pixels)")
            }
            try MemoryBudget.check(
                width: scene.pixelWidth, height: scene.pixelHeight, what: "the canvas",
                subject: ToolFailure.display(subject))
        }
        return scene
    }

    /// The renderer, its pixel memory bounded by half of what this process may use (the rest: decoded images,
    /// encoders, the runtime): it draws as many frames at once as fit in that, so a scene is drawn or refused the
    /// same whatever `--threads` says.
    private func renderer() -> AnimationRenderer {
        var limits = SceneRenderer.Limits()
        limits.peakBytes = min(limits.peakBytes, MemoryBudget.limit / 2)
        var renderer = SceneRenderer(
            threads: request.render.threads, precision: request.render.precision, limits: limits)
        renderer.warpRoutes = request.render.isVerbose ? warpRoutes : nil
        return AnimationRenderer(framesPerSecond: request.framesPerSecond, renderer: renderer)
    }

    /// `--at`: one frame, the snapshot at `time`, to a PNG or JPEG.
    private func writeStill(_ scene: Scene, at time: Double, renderer: AnimationRenderer, to path: String) throws {
        let format = try OutputPath.format(of: path, requested: request.render.format) ?? .png
        let output = try OutputFile(path)
        defer { output.discard() }
        let image: Image
        do {
            image = try renderer.frame(of: scene, at: time)
        } catch {
            throw ToolFailure(.dataError, subject, error.description)
        }
        try output.commit(try ImageWriting.encode(image, as: format, request: request.render, outputPath: path))
        if path != "-", path != request.render.output { console.out(path) }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
