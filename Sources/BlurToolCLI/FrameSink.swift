import Compositor
import ImageCodecs
import Scenes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `animate`'s and `transition`'s frames go, in two steps per frame: `process` on the drawing threads,
/// several at once (an animated PNG's frame diffed and deflated, a PNG or a YUV frame encoded), then `deliver` in
/// frame order, one at a time (kept for the file, fed to the WebP encoder, written).
final class FrameSink: @unchecked Sendable {
    enum Encoded: Sendable {
        case apngFrame(AnimatedPNGFrame)
        case image(Image)
        case bytes([UInt8])
        case nothing
    }

    private enum Kind {
        case apng(AnimatedPNGEncoder)
        case webp(AnimatedWebPEncoder)
        case frames(folder: String, digits: Int, request: RenderRequest)
        case y4m(Y4MWriter)
        case benchmark
    }

    private let kind: Kind
    private let output: OutputFile?
    private let framesPerSecond: Double
    private var deliveredFrames = 0
    /// The animated PNG being written (its chunks numbered as they go).
    private var apngStream: AnimatedPNGStream?
    /// The numbered frames' folder when this run made it (removed again if the run fails before a frame).
    private var madeFolder: String?

    private init(kind: Kind, output: OutputFile?, framesPerSecond: Double) {
        self.kind = kind
        self.output = output
        self.framesPerSecond = framesPerSecond
    }

    /// Opens the output (before any frame is drawn, so one that cannot be created fails first); `opaque`: every
    /// frame is opaque (the animated PNG then stores no alpha). `encoderThreads`: threads one frame's encoding
    /// may use: 1 where frames are encoded several at once on the drawing threads (each frame's encoder starting
    /// threads of its own put some 240 threads up at once with 16 workers), all of them where frames come one
    /// by one.
    static func make(
        _ kind: AnimationRequest.Output, path: String?, width: Int, height: Int, opaque: Bool,
        request: AnimationRequest, frames: Int, encoderThreads: Int
    ) throws -> FrameSink {
        guard let path else { return FrameSink(kind: .benchmark, output: nil, framesPerSecond: 0) }
        let fps = request.framesPerSecond
        switch kind {
        case .apng:
            let encoder = AnimatedPNGEncoder(
                width: width, height: height, frameDelay: FrameSink.delay(framesPerSecond: fps),
                loopCount: request.loopCount, opaque: opaque, compressionLevel: request.animatedPNGLevel,
                threads: encoderThreads)
            let output = try OutputFile(path)
            // Written frame by frame, so a long animation is never held whole; the header goes out with the first
            // frame, as the y4m stream's does (see there).
            let stream = try encoder.stream(frameCount: frames)
            let sink = FrameSink(kind: .apng(encoder), output: output, framesPerSecond: fps)
            sink.apngStream = stream
            return sink
        case .webp:
            let output = try OutputFile(path)
            let encoder: AnimatedWebPEncoder
            do {
                encoder = try AnimatedWebPEncoder(
                    width: width, height: height, lossless: !request.isLossy, quality: request.webPQuality,
                    loopCount: request.loopCount)
            } catch {
                throw ToolFailure(.dataError, path, error.description)
            }
            return FrameSink(kind: .webp(encoder), output: output, framesPerSecond: fps)
        case .frames:
            let digits = max(4, String(frames - 1).count)
            return FrameSink(
                kind: .frames(folder: path, digits: digits, request: request.render), output: nil, framesPerSecond: fps)
        case .y4m:
            let output = try OutputFile(path)
            let writer = Y4MWriter(
                width: width, height: height, framesPerSecond: FrameSink.rational(framesPerSecond: fps))
            // The stream header goes out with the first frame: to standard output nothing can be taken back, so
            // a run refused before its first frame (a limit the renderer checks) writes nothing there.
            return FrameSink(kind: .y4m(writer), output: output, framesPerSecond: fps)
        }
    }

    /// A frame from the animation renderer, which knows where it can differ from the one before.
    func process(_ drawn: DrawnFrame) throws -> Encoded {
        if case .apng(let encoder) = kind {
            return .apngFrame(
                try encoder.encodeFrame(drawn.image, previous: drawn.previous, changesWithin: drawn.changeBound))
        }
        return try process(drawn.index, drawn.image, drawn.previous)
    }

    func process(_ index: Int, _ frame: Image, _ previous: Image?) throws -> Encoded {
        switch kind {
        case .apng(let encoder): return .apngFrame(try encoder.encodeFrame(frame, previous: previous))
        case .webp: return .image(frame)
        case .frames(let folder, _, let request):
            return .bytes(try ImageWriting.encode(frame, as: .png, request: request, outputPath: framePath(index, folder)))
        case .y4m(let writer): return .bytes(writer.frame(frame))
        case .benchmark: return .nothing
        }
    }

    func deliver(_ index: Int, _ encoded: Encoded) throws {
        deliveredFrames += 1
        switch (kind, encoded) {
        case (.apng, .apngFrame(let frame)):
            guard var stream = apngStream else { break }
            if index == 0 { try output?.append(stream.header) }
            try output?.append(try stream.chunks(of: frame))
            apngStream = stream
        case (.webp(let encoder), .image(let frame)):
            try encoder.add(frame, timestampMilliseconds: milliseconds(ofFrame: index))
        case (.frames(let folder, _, _), .bytes(let bytes)):
            if index == 0 { try makeFolder(folder) }
            // Each frame file whole or not at all (written beside it and renamed, as any output).
            try OutputFile(framePath(index, folder)).commit(bytes)
        case (.y4m(let writer), .bytes(let bytes)):
            if index == 0 { try output?.append(writer.header) }
            try output?.append(bytes)
        default: break
        }
    }

    /// Writes what is held (the animated PNG's or WebP's file) and completes the output.
    func finish() throws {
        switch kind {
        case .apng: if let stream = apngStream { try output?.commit(stream.trailer()) }
        case .webp(let encoder):
            let bytes: [UInt8]
            do {
                bytes = try encoder.finish(endTimestampMilliseconds: milliseconds(ofFrame: deliveredFrames))
            } catch {
                throw ToolFailure(.internalError, output?.path, error.description)
            }
            try output?.commit(bytes)
        case .y4m: try output?.commit([])
        case .frames, .benchmark: break
        }
    }

    /// Removes what a failed run made: the output's temporary file, a folder it made that is still empty.
    func discard() {
        output?.discard()
        if let madeFolder { rmdir(madeFolder) }
    }


    private func milliseconds(ofFrame index: Int) -> Int { Int((Double(index) * 1000 / framesPerSecond).rounded()) }

    private func framePath(_ index: Int, _ folder: String) -> String {
        guard case .frames(_, let digits, _) = kind else { return folder }
        let number = String(index)
        return (folder.hasSuffix("/") ? folder : folder + "/") + "frame-"
            + String(repeating: "0", count: max(digits - number.count, 0)) + number + ".png"
    }

    /// The numbered frames' folder, made at the first frame (a run refused before it leaves none).
    private func makeFolder(_ path: String) throws {
        if FileIO.isDirectory(path) { return }
        guard mkdir(path, 0o755) == 0 else { throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno)) }
        madeFolder = path
    }

    /// A frame's display time as APNG's 16-bit fraction: 1/fps for a whole fps, else the closest fraction.
    static func delay(framesPerSecond fps: Double) -> FrameDelay {
        let rate = rational(framesPerSecond: fps)
        return FrameDelay(UInt16(rate.denominator), UInt16(rate.numerator))
    }

    /// fps as numerator/denominator within 16 bits each (60 → 60/1, 29.97 → 29970/1000).
    static func rational(framesPerSecond fps: Double) -> FrameRate {
        if fps == fps.rounded(), fps <= 65_535 { return FrameRate(Int(fps), 1) }
        let denominator = max(1, min(1000, Int(65_535 / fps)))
        return FrameRate(Int((fps * Double(denominator)).rounded()), denominator)
    }
}

/// Frames done, frames per second and time left on standard error, when it is a terminal; nothing otherwise.
final class ProgressBar {
    private let total: Int
    private let clock: ContinuousClock
    private let start: ContinuousClock.Instant
    private var done = 0
    private var shown: ContinuousClock.Instant?
    private let enabled = isatty(STDERR_FILENO) == 1

    private var isFinished = false

    /// Shows "frame 0/total" at once, so a long first frame (or the loading before it) is not silence.
    init(total: Int, clock: ContinuousClock) {
        self.total = total
        self.clock = clock
        start = clock.now
        if enabled { writeToStandardError("\rblurtool: frame 0/\(total)\u{1B}[K") }
    }

    func advance() {
        done += 1
        guard enabled else { return }
        let now = clock.now
        if let shown, now - shown < .milliseconds(100), done < total { return }
        shown = now
        let elapsed = (now - start).seconds
        let rate = Double(done) / max(elapsed, 1e-9)
        let left = Double(total - done) / max(rate, 1e-9)
        writeToStandardError(
            "\rblurtool: frame \(done)/\(total), \(String(format2: rate)) frames/s, \(String(format2: left)) s left\u{1B}[K")
    }

    /// Clears the line (once: a run's error path and its end may both call it), so what follows starts clean.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        if enabled { writeToStandardError("\r\u{1B}[K") }
    }
}
