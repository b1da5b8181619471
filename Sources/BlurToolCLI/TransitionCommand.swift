import Compositor
import ImageCodecs
import Scenes

/// Runs `blurtool transition FROM TO`: both photos decoded upright and aspect-filled to the output size once,
/// then frame k (at k / fps, the end included) drawn by `PhotoTransition` into one of two reused images and
/// handed to `animate`'s `FrameSink`, in order.
///
/// The frames are drawn one after another, each on every thread (the transition's own rows split), rather than
/// one per thread as `animate` draws them: a frame here is a cheap pass over two pictures, and one at a time
/// needs two canvases instead of a pipeline of them.
struct TransitionCommand {
    let request: TransitionRequest
    let console: BlurTool.Console

    private var animation: AnimationRequest { request.animation }
    private var threads: Int { animation.render.threads }

    func run() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let (output, outputPath) = try animation.target { stem in stem + "-" + request.style.rawValue }
        if let outputPath {
            for input in [request.from, request.to] {
                try OutputPath.refuseOverwriting(input, with: outputPath, what: "input")
            }
        }
        let fromBytes = try FileIO.readImage(request.from)
        let toBytes = try FileIO.readImage(request.to)
        let fromHeader = try loading.inspect(fromBytes, path: request.from)
        let toHeader = try loading.inspect(toBytes, path: request.to)
        let (width, height) = animation.render.size.map { ($0.width, $0.height) } ?? loading.upright(fromHeader)
        let fps = animation.framesPerSecond
        let count = AnimationRenderer(framesPerSecond: fps).frameCount(duration: request.duration)
        try TransitionWork.check(
            frames: count, width: width, height: height, style: request.style,
            encodingPerPixel: EncodingWork.operationsPerPixel(animation, output: outputPath == nil ? nil : output))
        // Held at once: both photos filled, the frame being drawn and the one before it (an APNG frame's diff).
        try MemoryBudget.check(width: width, height: height * 4, what: "the frames", subject: nil)
        // Shown from the start: filling two large photos takes a while before the first frame.
        let progress = ProgressBar(total: count, clock: clock)
        defer { progress.finish() }
        let from = try filled(fromBytes, fromHeader, request.from, width: width, height: height)
        let to = try filled(toBytes, toHeader, request.to, width: width, height: height)
        let loaded = clock.now

        let sink = try FrameSink.make(
            output, path: outputPath, width: width, height: height, opaque: from.isOpaque && to.isOpaque,
            request: animation, frames: count, encoderThreads: threads)
        defer { sink.discard() }
        let transition = PhotoTransition(style: request.style, curve: request.curve, threads: threads)
        let workspace = Workspace()  // material's blur scratch, reused by every frame
        var frame = Image(width: width, height: height)
        var previous: Image?
        do {
            for index in 0..<count {
                // The last frame's time may pass the end (the first at or after it): it shows TO.
                let time = Double(index) / fps
                transition.draw(from: from, to: to, progress: min(time / request.duration, 1), into: frame,
                    workspace: workspace)
                try sink.deliver(index, try sink.process(index, frame, previous))
                progress.advance()
                let next = previous ?? Image(width: width, height: height)
                previous = frame
                frame = next
            }
        } catch let error as CodecError {
            throw ToolFailure(
                ImageWriting.isOutOfMemory(error) ? .cannotCreate : .internalError, outputPath ?? "<stdout>",
                error.description)
        }
        progress.finish()
        let rendered = clock.now
        try sink.finish()
        animation.reportFrames(
            count, in: (rendered - loaded).seconds, width: width, height: height, what: request.style.rawValue,
            outputPath: outputPath, console: console)
        if animation.render.isVerbose {
            console.err(
                "blurtool: transition \(request.style.rawValue) \(width)x\(height), \(count) frames at "
                    + "\(fps.plainDescription) fps, \(threads) threads: read+decode+fill "
                    + "\(String(format2: (loaded - start).seconds * 1000)) ms, draw+encode "
                    + "\(String(format2: (rendered - loaded).seconds * 1000)) ms, write "
                    + "\(String(format2: (clock.now - rendered).seconds * 1000)) ms")
        }
    }

    private var loading: ImageLoading { ImageLoading(request: animation.render, console: console) }

    /// The photo decoded upright and aspect-filled (cover and crop, Lanczos-3) to `width` × `height`, as
    /// `blurtool PHOTO --size WxH` places it.
    private func filled(_ bytes: [UInt8], _ header: ImageInfo, _ path: String, width: Int, height: Int) throws -> Image {
        let decoded = try loading.decode(bytes, header: header, path: path)
        return Resampler(filter: .lanczos3, threads: threads)
            .fit(decoded.image, width: width, height: height, mode: .fill)
    }
}
