import Compositor
import Dispatch

/// Draws the frames of an animated scene: frame k is the scene's snapshot at k / fps, drawn as
/// `SceneRenderer` draws a still, so any one frame alone (`frame(of:at:)`) equals the same frame of the whole.
///
/// What does not move is drawn once (see `FrameCache`): the bottom layers no animation touches, the backdrop
/// materials over them, static isolated groups. Frames are drawn in parallel, one per thread, and handed on in
/// order; the pixels do not depend on the thread count.
public struct AnimationRenderer: Sendable {
    public var renderer: SceneRenderer
    public let framesPerSecond: Double
    /// What a whole animation may cost, beside each frame's `renderer.limits`.
    public var limits: Limits

    /// Bounds on a whole animation, checked before any frame is drawn (`check`).
    public struct Limits: Equatable, Sendable {
        /// Frames one animation may have (default 36,000: a little under 10 minutes at 60 fps).
        public var maximumFrames: Int
        /// The whole animation's work may be this many times one scene's limit (`SceneRenderer.Limits.work`),
        /// counted as if nothing were cached (default 20: about four minutes on one core).
        public var workFactor: Double

        public init(maximumFrames: Int = 36_000, workFactor: Double = 20) {
            self.maximumFrames = maximumFrames
            self.workFactor = workFactor
        }

        /// No bounds beyond each frame's: for callers that bound their animations themselves.
        public static let unlimited = Limits(maximumFrames: .max, workFactor: .infinity)
    }

    /// - Precondition: `framesPerSecond` is finite and positive.
    public init(framesPerSecond: Double = 60, renderer: SceneRenderer = SceneRenderer(), limits: Limits = Limits()) {
        precondition(framesPerSecond.isFinite && framesPerSecond > 0, "frames per second must be positive")
        self.framesPerSecond = framesPerSecond
        self.renderer = renderer
        self.limits = limits
    }

    /// Frame times 0, 1/fps, 2/fps, … up to the first at or after `duration`, so the last frame shows where the
    /// animation ends (61 frames for 1 s at 60 fps).
    /// - Throws: `SceneRenderError.tooManyFrames` past `limits.maximumFrames`.
    public func frameTimes(duration: Double) throws(SceneRenderError) -> [Double] {
        let count = frameCount(duration: duration)
        guard count <= limits.maximumFrames else { throw .tooManyFrames(count: count, limit: limits.maximumFrames) }
        return (0..<count).map { time(ofFrame: $0) }
    }

    /// The number of frames `frameTimes(duration:)` gives; 1 for a duration that is not a positive number. It
    /// may be above `limits.maximumFrames` (saturating far beyond), which `renderFrames` refuses.
    public func frameCount(duration: Double) -> Int {
        guard duration.isFinite, duration > 0 else { return 1 }
        let intervals = (duration * framesPerSecond * (1 - 1e-12)).rounded(.up)
        return intervals < 1e15 ? Int(intervals) + 1 : Int(1e15)
    }

    /// The frames of one period of a loop, t = k / fps for t < `period`: played again and again, the frame at
    /// the period would be the first one twice in a row, a hitch in a spinner.
    public func loopFrameCount(period: Double) -> Int {
        guard period.isFinite, period > 0 else { return 1 }
        let frames = (period * framesPerSecond * (1 - 1e-12)).rounded(.up)
        return frames < 1e15 ? max(Int(frames), 1) : Int(1e15)
    }

    /// When frame `index` shows, in seconds: the time `--at` takes for that frame.
    public func time(ofFrame index: Int) -> Double { Double(index) / framesPerSecond }

    /// One frame: the scene as it shows at `time` seconds.
    public func frame(of scene: Scene, at time: Double, workspace: Workspace = Workspace()) throws(SceneRenderError)
        -> Image
    {
        try renderer.render(scene.snapshot(at: time), workspace: workspace)
    }

    /// What an animation needs, worked out by `check` before any pixel is drawn.
    public struct Requirements: Equatable, Sendable {
        /// Frames drawn at once: one a thread, fewer where the memory limit holds fewer (never fewer than one; a
        /// scene whose one frame in flight does not fit is refused, whatever the thread count).
        public var framesInFlight: Int
        /// The pixels held at once with that many frames in flight: each frame being drawn at its peak, the drawn
        /// frames waiting for their successor or their turn, and the cache of what does not move.
        public var peakBytes: Int
        /// Every frame's work together (`SceneRenderer.Cost.work`, plus `operationsPerAnimation` for each
        /// animation evaluated and the caller's processing of the frame), as if nothing were cached.
        public var work: Double
    }

    /// What evaluating one animation for one frame costs, in fills' pixels (see `SceneRenderer.Cost.work`):
    /// 2,000 animations of one layer on a 98×211 canvas took 1.55 ms a frame on one core, checked and drawn
    /// (0.78 µs an animation, about 640 fill pixels).
    public static let operationsPerAnimation = 700.0

    /// Checks, before any pixel is drawn, that there are at most `limits.maximumFrames`, that every frame is
    /// within the renderer's limits, that one frame in flight fits its memory limit with what the run keeps
    /// beside it, and that all the frames together are within `limits.workFactor` times its work limit. An
    /// animation whose layers and animations alone (what every frame evaluates) would pass that is refused at
    /// once, before any frame is costed. What is allowed does not depend on the renderer's thread count.
    ///
    /// `processingPerPixel` is what the caller's own work on each frame costs a canvas pixel, in fills' pixels
    /// (an encoder: an animated PNG at zlib level 9 costs far more than drawing most frames), counted in the bound
    /// with the drawing.
    @discardableResult
    public func check(_ scene: Scene, frames: Int, processingPerPixel: Double = 0) throws(SceneRenderError)
        -> Requirements
    {
        guard frames <= limits.maximumFrames else { throw .tooManyFrames(count: frames, limit: limits.maximumFrames) }
        let limit = renderer.limits.work * limits.workFactor
        let processing = Double(scene.pixelWidth) * Double(scene.pixelHeight) * max(processingPerPixel, 0)
        let evaluated = scene.layers.reduce((layers: 0, animations: 0)) {
            let counts = $1.layerAndAnimationCounts
            return ($0.layers + counts.layers, $0.animations + counts.animations)
        }
        let animationWork = Double(evaluated.animations) * AnimationRenderer.operationsPerAnimation
        let floor = Double(evaluated.layers) * SceneRenderer.operationsPerLayer + animationWork + processing
        guard floor * Double(frames) <= limit else { throw .tooMuchAnimationWork(frames: frames, limit: limit) }
        // Emitters' particles, frame by frame, from their numbers alone (a few operations an emitter and frame),
        // so a run that the particles put over the limit is refused without evaluating any of them.
        let emitters = scene.layers.flatMap(\.emitters)
        if !emitters.isEmpty {
            var total = floor * Double(frames)
            for index in 0..<frames {
                for var emitter in emitters {
                    emitter.time = time(ofFrame: index)
                    total += Double(emitter.particlesEvaluated) * SceneRenderer.operationsPerParticle
                }
                guard total <= limit else { throw .tooMuchAnimationWork(frames: frames, limit: limit) }
            }
        }
        var total = 0.0
        var framePeak = 0
        for index in 0..<frames {
            let cost = renderer.cost(of: scene.snapshot(at: time(ofFrame: index)))
            try renderer.limits.check(cost)
            framePeak = max(framePeak, cost.peakBytes)
            total += cost.work + animationWork + processing
            guard total <= limit else { throw .tooMuchAnimationWork(frames: frames, limit: limit) }
        }
        let bytes = { (inFlight: Int) -> Int in self.peakBytes(framesInFlight: inFlight, framePeak: framePeak, scene) }
        guard bytes(1) <= renderer.limits.peakBytes else {
            throw .tooMuchAnimationMemory(needed: bytes(1), limit: renderer.limits.peakBytes)
        }
        var inFlight = 1
        while inFlight < min(renderer.threads, frames), bytes(inFlight + 1) <= renderer.limits.peakBytes { inFlight += 1 }
        return Requirements(framesInFlight: inFlight, peakBytes: bytes(inFlight), work: total)
    }

    /// The pixels a run holds at once with `inFlight` frames drawn at a time: each at the largest frame's peak,
    /// the pipeline's window of drawn frames, the cache (saturating, never trapping).
    private func peakBytes(framesInFlight inFlight: Int, framePeak: Int, _ scene: Scene) -> Int {
        let canvas = Double(scene.pixelWidth) * Double(scene.pixelHeight) * Double(Image.bytesPerPixel)
        let total =
            Double(inFlight) * Double(framePeak) + Double(FramePipeline<Int>.window(framesInFlight: inFlight)) * canvas
            + Double(cacheBytes(for: scene))
        return Int(saturating: total, within: 0...Int.max)
    }

    /// Draws frames 0..<`count` and hands each on: `process(index, frame, previous)` runs on the drawing
    /// threads, several at once (an encoder's parallel part; `previous` is frame index − 1, nil for the first),
    /// then `deliver(index, result)` in frame order, one at a time (writing, progress).
    /// `processingPerPixel`: what `process` costs a canvas pixel, counted in the work bound (see `check`).
    /// - Throws: the first error of drawing (`SceneRenderError`), `process` or `deliver`; no frame is delivered
    ///   after it.
    public func renderFrames<Result: Sendable>(
        of scene: Scene, count: Int, processingPerPixel: Double = 0,
        process: @Sendable (Int, Image, Image?) throws -> Result,
        deliver: (Int, Result) throws -> Void
    ) throws {
        try renderFrames(
            of: scene, count: count, processingPerPixel: processingPerPixel,
            processFrame: { frame in try process(frame.index, frame.image, frame.previous) }, deliver: deliver)
    }

    /// `renderFrames(of:count:processingPerPixel:process:deliver:)`, handing each frame on with the box where
    /// it can differ from the one before (an animated PNG encoder compares the two there alone).
    package func renderFrames<Result: Sendable>(
        of scene: Scene, count: Int, processingPerPixel: Double = 0,
        processFrame: @Sendable (DrawnFrame) throws -> Result,
        deliver: (Int, Result) throws -> Void
    ) throws {
        guard count > 0 else { return }
        let workers = try check(scene, frames: count, processingPerPixel: processingPerPixel).framesInFlight
        let cache = try makeCache(for: scene)
        let pipeline = FramePipeline<Result>(
            count: count, window: FramePipeline<Result>.window(framesInFlight: workers), spareLimit: workers)
        // Frame 0 drawn on every thread first: it fills the cache (backdrops over the base) for the frames after
        // it. Its processing (the largest: an encoder's whole first frame) then runs beside the next frames.
        var first = renderer
        first.limits = .unlimited
        let frame0 = Locked<DrawnCanvas?>(
            DrawnCanvas(try first.renderFrame(scene.snapshot(at: 0), workspace: Workspace(), cache: cache)))
        var oneThread = first
        oneThread.threads = 1
        let single = oneThread
        withoutActuallyEscaping(deliver) { deliver in
            let deliverBox = UncheckedSendable(deliver)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                let workspace = Workspace()
                while let index = pipeline.nextIndex() {
                    do {
                        let frame =
                            index == 0
                            ? frame0.withLock { frame in defer { frame = nil }; return frame! }
                            : DrawnCanvas(
                                try single.renderFrame(
                                    scene.snapshot(at: time(ofFrame: index)), workspace: workspace, cache: cache,
                                    reusing: pipeline.takeSpare().map { ($0.image, $0.touched) }))
                        try pipeline.finish(index, frame: frame, process: processFrame, deliver: deliverBox.value)
                    } catch {
                        pipeline.fail(error)
                    }
                }
            }
        }
        try pipeline.rethrow()
    }

    /// The bytes of frame caches an animation may keep: a few canvases' worth, never more than a quarter of the
    /// renderer's memory limit.
    func cacheBytes(for scene: Scene) -> Int {
        let canvases = 8.0 * Double(scene.pixelWidth) * Double(scene.pixelHeight) * Double(Image.bytesPerPixel)
        return min(renderer.limits.peakBytes / 4, Int(saturating: canvases, within: 0...Int.max))
    }

    /// The cache for `scene`: its unanimated bottom layers drawn once, on every thread.
    func makeCache(for scene: Scene) throws(SceneRenderError) -> FrameCache {
        let prefix = scene.layers.prefix { !$0.isAnimated }.count
        var still = scene
        still.layers = Array(scene.layers.prefix(prefix))
        let base = try renderer.render(still, workspace: Workspace())
        var groups = Set<[Int]>()
        for (index, layer) in scene.layers.enumerated() { collectStaticGroups(layer, path: [index], into: &groups) }
        return FrameCache(
            staticPrefix: prefix, base: base, staticGroups: groups, byteLimit: cacheBytes(for: scene))
    }

    private func collectStaticGroups(_ layer: Layer, path: [Int], into groups: inout Set<[Int]>) {
        guard let layers = layer.content.sublayers else { return }
        if !layers.contains(where: \.isAnimated) { groups.insert(path) }
        for (index, child) in layers.enumerated() { collectStaticGroups(child, path: path + [index], into: &groups) }
    }
}

/// The frames in flight: which is drawn next (no more than `window` ahead of delivery), the drawn ones kept
/// until their successor has used them, and the processed results waiting for their turn to be delivered.
private final class FramePipeline<Result: Sendable>: @unchecked Sendable {
    private let count: Int
    private let window: Int
    private let lock = ConditionLock()
    // Guarded by `lock`:
    private var next = 0
    private var frames: [Int: DrawnCanvas] = [:]
    /// How many processings (its own, its successor's) still need each kept frame.
    private var users: [Int: Int] = [:]
    private var results: [Int: Result] = [:]
    private var delivered = 0
    /// A thread is delivering: the others leave their results to it rather than wait.
    private var delivering = false
    private var error: (any Error)?
    /// Canvases of released frames that nothing else held, for the next frames to draw on (at most
    /// `spareLimit`, one per frame in flight: each takes the place of a canvas that frame would allocate).
    private var spares: [DrawnCanvas] = []
    private let spareLimit: Int

    init(count: Int, window: Int, spareLimit: Int) {
        self.count = count
        self.window = window
        self.spareLimit = spareLimit
    }

    func takeSpare() -> DrawnCanvas? {
        lock.withLock { spares.popLast() }
    }

    /// How many frames may be drawn ahead of the last one delivered: enough for the others to go on while one
    /// (the first, an encoder's largest) is processed, few enough to bound the frames and results held.
    static func window(framesInFlight: Int) -> Int { 4 * framesInFlight + 4 }

    /// The next frame to draw, once it is within the window of the last delivered; nil when all are taken or
    /// the run has failed.
    func nextIndex() -> Int? {
        lock.withLock {
            while error == nil, next < count, next - delivered >= window { lock.wait() }
            guard error == nil, next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func fail(_ error: any Error) {
        lock.withLock { if self.error == nil { self.error = error } }
        lock.broadcast()
    }

    func rethrow() throws {
        if let error = lock.withLock({ error }) { throw error }
    }

    /// Keeps frame `index`, processes it against its predecessor (waiting for that one to be drawn), releases
    /// what is no longer needed and, unless another thread is at it, delivers every result whose turn has come.
    func finish(
        _ index: Int, frame: DrawnCanvas, process: (DrawnFrame) throws -> Result,
        deliver: (Int, Result) throws -> Void
    ) throws {
        lock.withLock {
            frames[index] = frame
            users[index] = index + 1 < count ? 2 : 1
        }
        lock.broadcast()
        let result: Result
        do {  // `previous` ends with this scope, before its frame is released (and may become a spare)
            let previous = index > 0 ? try waitForFrame(index - 1) : nil
            result = try process(DrawnFrame(index: index, canvas: frame, previous: previous))
        }
        let delivers = lock.withLock { () -> Bool in
            results[index] = result
            release(index)
            if index > 0 { release(index - 1) }
            guard !delivering else { return false }
            delivering = true
            return true
        }
        guard delivers else { return }
        defer { lock.broadcast() }
        while let (turn, result) = lock.withLock({ () -> (Int, Result)? in
            guard error == nil, let result = results.removeValue(forKey: delivered) else {
                delivering = false
                return nil
            }
            return (delivered, result)
        }) {
            do {
                try deliver(turn, result)
            } catch {
                lock.withLock { delivering = false }
                throw error
            }
            lock.withLock { delivered += 1 }
            lock.broadcast()
        }
    }

    /// Called with `lock` held.
    private func release(_ index: Int) {
        let remaining = users[index, default: 1] - 1
        if remaining <= 0 {
            users[index] = nil
            if var canvas = frames.removeValue(forKey: index), spares.count < spareLimit,
                isKnownUniquelyReferenced(&canvas.image)
            {
                spares.append(canvas)
            }
        } else {
            users[index] = remaining
        }
    }

    private func waitForFrame(_ index: Int) throws -> DrawnCanvas {
        try lock.withLock { () throws -> DrawnCanvas in
            while true {
                if let frame = frames[index] { return frame }
                if let error { throw error }
                lock.wait()
            }
        }
    }
}

/// A frame's canvas and the box outside which it is the frame cache's base (nil: the base everywhere).
struct DrawnCanvas: @unchecked Sendable {
    var image: Image
    let touched: PixelBox?

    init(_ drawn: (image: Image, touched: PixelBox?)) {
        (image, touched) = drawn
    }
}

/// A frame as `renderFrames(of:count:processingPerPixel:processFrame:deliver:)` hands it on.
package struct DrawnFrame: @unchecked Sendable {
    package let index: Int
    package let image: Image
    /// Frame `index` − 1; nil for the first.
    package let previous: Image?
    /// Outside this box `image` and `previous` hold the same pixels; nil when they are the same everywhere. The
    /// whole canvas for the first frame.
    package let changeBound: PixelBox?

    init(index: Int, canvas: DrawnCanvas, previous: DrawnCanvas?) {
        self.index = index
        image = canvas.image
        self.previous = previous?.image
        guard let previous else {
            changeBound = PixelBox(x: 0, y: 0, width: canvas.image.width, height: canvas.image.height)
            return
        }
        // Both frames are the base outside what each touched.
        switch (canvas.touched, previous.touched) {
        case (let a?, let b?): changeBound = a.union(b)
        case (let a?, nil): changeBound = a
        case (nil, let b?): changeBound = b
        case (nil, nil): changeBound = nil
        }
    }
}
