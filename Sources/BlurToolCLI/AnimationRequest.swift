import Compositor
import ImageCodecs

/// `blurtool animate SCENE …`: the scene's frames to an animated PNG or WebP, numbered PNGs or YUV4MPEG2, or
/// one frame (`--at`) to a still image.
public struct AnimationRequest: Equatable, Sendable {
    /// What the frames become.
    public enum Output: String, Equatable, Sendable, CaseIterable {
        /// An animated PNG (`.png`, `.apng`).
        case apng
        /// An animated WebP (`.webp`), lossless unless `--lossy`.
        case webp
        /// Numbered PNGs in a folder (`-o frames/`).
        case frames
        /// YUV4MPEG2, for `| ffmpeg -i - out.mp4`.
        case y4m
    }

    /// The scene file, output, threads, precision, limits and PNG compression, as `compose` takes them.
    public var render: RenderRequest
    public var framesPerSecond = 60.0
    /// How long to render; nil: the scene's own animation duration.
    public var duration: Double?
    /// One frame at this time, to a still image (`render.format` or the output's extension).
    public var time: Double?
    /// nil: from the output's extension (`.webp`, a folder), else an animated PNG.
    public var output: Output?
    /// Times an animated PNG or WebP plays; 0 for ever.
    public var loopCount = 0
    public var isLossy = false
    /// WebP's quality with `--lossy` (0...100).
    public var webPQuality = 90.0
    /// Draw the frames, encode nothing, and print how fast (`--benchmark`).
    public var isBenchmark = false
    /// Pixels per point instead of the scene's own `scale` (a small preview: `--scale 1`).
    public var scale: Double?
    /// The animated PNG's level (`--png-compression`). 5 by default, where a still PNG's is 1. Measured on the
    /// review entrance (61 frames, 1170×2532, two cores of a Zen 3 EPYC, 2026-12-06, medians of five), whole job
    /// and bytes, its frames after the first deflated by the project's encoder at 2...6: level 1 (igzip) 0.39 s,
    /// 5.66 MB; 2 0.41 s, 4.73 MB; 3 0.38 s, 4.57 MB; 4 0.41 s, 4.49 MB; 5 0.42 s, 4.42 MB; 6 0.50 s, 4.29 MB; 7
    /// (libdeflate) 1.02 s, 4.06 MB. An animation is written once and played many times, so the default keeps a
    /// small file; with libdeflate at 5 for every frame the job took 0.60 s for 4.29 MB, with zlib 5 1.05 s.
    public var animatedPNGLevel = 5
    /// `-q` and `--loop` were given: they apply to some outputs only, and elsewhere are a mistake to report.
    var isQualityGiven = false
    var isLoopGiven = false

    public init(render: RenderRequest) {
        self.render = render
    }
}

extension ArgumentParser {
    /// `command`: "animate", or "transition", which also takes `--size` (and whose inputs are images, not a scene).
    static func animationRequest(
        scene: String, options: [(name: String, value: String?)], command: String = "animate"
    ) throws(UsageError) -> AnimationRequest {
        var composeOptions: Set = [
            "--output", "--quality", "--png-compression", "--no-auto-orient", "--lenient", "--max-pixels",
            "--verbose", "--threads", "--precision", "--chroma", "--progressive", "--optimize",
        ]
        if command == "transition" { composeOptions.insert("--size") }
        var shared: [(name: String, value: String?)] = []
        var request = AnimationRequest(render: RenderRequest(input: scene))
        var format: String?
        var quality: Double?
        for (name, value) in options {
            let value = value ?? ""
            switch name {
            case "--fps": request.framesPerSecond = try number(value, name, in: 1...1000)
            case "--duration": request.duration = try number(value, name, in: 0...3600)
            case "--at": request.time = try number(value, name, in: 0...3600)
            case "--loop":
                request.loopCount = Int(try number(value, name, in: 0...65_535, integer: true))
                request.isLoopGiven = true
            case "--lossy": request.isLossy = true
            case "--scale": request.scale = try number(value, name, in: 0.01...16)
            case "--benchmark": request.isBenchmark = true
            case "--format": format = value.lowercased()
            case "--png-compression":
                request.animatedPNGLevel = Int(try number(value, name, in: 0...9, integer: true))
                shared.append((name, value))
            case "--quality":
                quality = try number(value, name, in: 0...100)
                request.isQualityGiven = true
                // JPEG's quality (for --at) is 1...100; WebP's 0 is JPEG's 1.
                shared.append((name, String(max(Int(quality!.rounded()), 1))))
            default:
                guard composeOptions.contains(name) else {
                    throw UsageError(
                        "option '\(name)' does not apply to '\(command)'"
                            + (command == "animate" ? " (the scene file says it)" : ""))
                }
                shared.append((name, value))
            }
        }
        request.render = try renderRequest(input: scene, options: shared, needsEffect: false)
        if let format {
            if request.time != nil {
                switch format {
                case "png": request.render.format = .png
                case "jpeg", "jpg": request.render.format = .jpeg
                default: throw UsageError("--format with --at must be png or jpeg, not \(format.quotedForMessage())")
                }
            } else {
                guard let output = AnimationRequest.Output(rawValue: format == "png" ? "apng" : format) else {
                    throw UsageError(
                        "--format must be apng, webp, frames or y4m, not \(format.quotedForMessage())")
                }
                request.output = output
            }
        }
        if let quality { request.webPQuality = quality }
        if request.time != nil {
            let given = Set(options.map(\.name))
            if let name = ["--duration", "--benchmark", "--fps", "--loop", "--lossy"].first(where: given.contains) {
                throw UsageError("--at renders one frame to a PNG or JPEG; \(name) does not apply to it")
            }
        }
        return request
    }
}

/// Where the frames go, shared by `animate` and `transition`.
extension AnimationRequest {
    /// The output's kind and path (nil for `--benchmark`); the default name is `name(stem of the input)` beside
    /// the input, with the kind's extension.
    func target(naming name: (String) -> String = { $0 }) throws(UsageError) -> (Output, String?) {
        let output = try outputKind()
        if isLossy, output != .webp { throw UsageError("--lossy applies to an animated WebP") }
        if isLoopGiven, output == .frames || output == .y4m {
            let kind = output == .y4m ? "y4m" : "numbered frames"
            throw UsageError("--loop applies to an animated PNG or WebP, not to \(kind)")
        }
        if isQualityGiven, output != .webp {
            throw UsageError("-q applies to an animated WebP (and to a JPEG with --at), not to \(output.rawValue)")
        }
        return (output, try outputPath(output, naming: name))
    }

    /// The output's kind: `--format`, else the path's (a folder: frames; `.webp`), else an animated PNG.
    private func outputKind() throws(UsageError) -> Output {
        if let output { return output }
        guard let path = render.output else { return .apng }
        if path != "-", path.hasSuffix("/") || FileIO.isDirectory(path) { return .frames }
        let lowered = path.lowercased()
        if lowered.hasSuffix(".webp") { return .webp }
        if lowered.hasSuffix(".y4m") { return .y4m }
        if lowered.hasSuffix(".png") || lowered.hasSuffix(".apng") || path == "-" || FileIO.isStream(path) {
            return .apng
        }
        throw UsageError(
            "cannot tell the animation's format from \(ToolFailure.display(path)); name it .png, .apng, .webp, "
                + ".y4m or a folder/, or give --format")
    }

    /// Where it goes: `-o`, or `<name(stem)>.png` (`.webp`, …) beside the input; nil for `--benchmark`.
    private func outputPath(_ output: Output, naming name: (String) -> String) throws(UsageError) -> String? {
        if isBenchmark {
            guard render.output == nil else { throw UsageError("--benchmark writes no output; drop -o") }
            return nil
        }
        if output == .frames {
            guard let folder = render.output, folder != "-" else {
                throw UsageError("numbered frames go to a folder: give -o FOLDER/")
            }
            return folder
        }
        return try OutputPath.resolve(render.output, input: render.input) { stem in
            switch output {
            case .apng, .frames: return name(stem) + ".png"
            case .webp: return name(stem) + ".webp"
            case .y4m: return name(stem) + ".y4m"
            }
        }
    }

    /// After the frames: with `--benchmark`, how fast they were drawn (peer scripts read this line); otherwise
    /// the output's path when the user did not name it, as compose prints it.
    func reportFrames(
        _ count: Int, in seconds: Double, width: Int, height: Int, what: String?, outputPath: String?,
        console: BlurTool.Console
    ) {
        if isBenchmark {
            console.out(
                "render-only: \(count) frames in \(String(format2: seconds)) s "
                    + "(\(String(format2: Double(count) / seconds)) frames/s, "
                    + "\(String(format2: seconds * 1000 / Double(max(count, 1)))) ms per frame), \(width)x\(height), "
                    + (what.map { $0 + ", " } ?? "") + "\(render.threads) threads")
        } else if let outputPath, outputPath != "-", outputPath != render.output {
            console.out(outputPath)
        }
    }
}
