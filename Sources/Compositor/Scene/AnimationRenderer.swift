import Dispatch

/// Draws the frames of an animated scene: frame k is the scene's snapshot at k / fps, drawn as
/// `SceneRenderer` draws a still, so any one frame alone (`frame(of:at:)`) equals the same frame of the whole.
///
/// What does not move is drawn once (see `FrameCache`): the bottom layers no animation touches, the backdrop
/// materials over them, static isolated groups. Frames are drawn in parallel, one per thread, and handed on in
/// order; the pixels do not depend on the thread count.
public struct AnimationRenderer: Sendable {
    public var renderer: SceneRenderer
    public var framesPerSecond: Double
    /// Frames one animation may have (10 minutes at 60 fps).
    public static let maximumFrames = 36_000
    /// The whole animation's work may be this many times one scene's limit (`SceneRenderer.Limits.work`),
    /// counted as if nothing were cached.
    public static let workFactor = 20.0

    public init(framesPerSecond: Double = 60, renderer: SceneRenderer = SceneRenderer()) {
        self.framesPerSecond = framesPerSecond
        self.renderer = renderer
    }

    /// Frame times 0, 1/fps, 2/fps, … up to the first at or after `duration`, so the last frame shows where the
    /// animation ends (61 frames for 1 s at 60 fps).
    public func frameTimes(duration: Double) -> [Double] {
        let count = frameCount(duration: duration)
        return (0..<count).map { time(ofFrame: $0) }
    }

    /// The number of frames `frameTimes(duration:)` gives (no more than `maximumFrames` + 1 is worked out).
    public func frameCount(duration: Double) -> Int {
        let intervals = (max(duration, 0) * framesPerSecond * (1 - 1e-12)).rounded(.up)
        return Int(min(intervals, Double(AnimationRenderer.maximumFrames))) + 1
    }

    /// When frame `index` shows, in seconds: the time `--at` takes for that frame.
    public func time(ofFrame index: Int) -> Double { Double(index) / framesPerSecond }

    /// One frame: the scene as it shows at `time` seconds.
    public func frame(of scene: Scene, at time: Double, workspace: Workspace = Workspace()) throws(SceneRenderError)
        -> Image
    {
        try renderer.render(scene.snapshot(at: time), workspace: workspace)
    }

    /// Checks that every frame is within the renderer's limits and all of them together within `workFactor`
    /// times its work limit, before any pixel is drawn.
    public func check(_ scene: Scene, frames: Int) throws(SceneRenderError) {
        var total = 0.0
        for index in 0..<frames {
            let snapshot = scene.snapshot(at: time(ofFrame: index))
            let cost = renderer.cost(of: snapshot)
            try renderer.limits.check(cost)
            total += cost.work
        }
        let limit = renderer.limits.work * AnimationRenderer.workFactor
        guard total <= limit else { throw .tooMuchWork(needed: total, limit: limit) }
    }

    /// Draws frames 0..<`count` and hands each on: `process(index, frame, previous)` runs on the drawing
    /// threads, several at once (an encoder's parallel part; `previous` is frame index − 1, nil for the first),
    /// then `deliver(index, result)` in frame order, one at a time (writing, progress).
    /// - Throws: the first error of drawing (`SceneRenderError`), `process` or `deliver`; no frame is delivered
    ///   after it.
    public func renderFrames<Result: Sendable>(
        of scene: Scene, count: Int,
        process: @Sendable (Int, Image, Image?) throws -> Result,
        deliver: (Int, Result) throws -> Void
    ) throws {
        guard count > 0 else { return }
        try check(scene, frames: count)
        let cache = try makeCache(for: scene)
        let pipeline = FramePipeline<Result>(count: count)
        // Frame 0 drawn on every thread first: it fills the cache (backdrops over the base) for the frames after
        // it. Its processing (the largest: an encoder's whole first frame) then runs beside the next frames.
        let first = SceneRenderer(threads: renderer.threads, precision: renderer.precision, limits: .unlimited)
        let frame0 = try first.render(scene.snapshot(at: 0), workspace: Workspace(), cache: cache)
        let single = SceneRenderer(threads: 1, precision: renderer.precision, limits: .unlimited)
        let workers = max(1, min(renderer.threads, count))
        withoutActuallyEscaping(deliver) { deliver in
            let deliverBox = UncheckedSendable(deliver)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                let workspace = Workspace()
                while let index = pipeline.nextIndex() {
                    do {
                        let frame =
                            index == 0
                            ? frame0
                            : try single.render(
                                scene.snapshot(at: time(ofFrame: index)), workspace: workspace, cache: cache)
                        try pipeline.finish(index, frame: frame, process: process, deliver: deliverBox.value)
                    } catch {
                        pipeline.fail(error)
                    }
                }
            }
        }
        try pipeline.rethrow()
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
            staticPrefix: prefix, base: base, staticGroups: groups, byteLimit: renderer.limits.peakBytes / 4)
    }

    private func collectStaticGroups(_ layer: Layer, path: [Int], into groups: inout Set<[Int]>) {
        guard case .group(let layers) = layer.content else { return }
        if !layers.contains(where: \.isAnimated) { groups.insert(path) }
        for (index, child) in layers.enumerated() { collectStaticGroups(child, path: path + [index], into: &groups) }
    }
}

/// The frames in flight: which is drawn next, the drawn ones kept until their successor has used them, and the
/// processed results waiting for their turn to be delivered.
private final class FramePipeline<Result: Sendable>: @unchecked Sendable {
    private let count: Int
    private let lock = ConditionLock()
    // Guarded by `lock`:
    private var next = 0
    private var frames: [Int: Image] = [:]
    /// How many processings (its own, its successor's) still need each kept frame.
    private var users: [Int: Int] = [:]
    private var results: [Int: Result] = [:]
    private var delivered = 0
    private var error: (any Error)?
    /// Held while delivering, so results go out one at a time and in order.
    private let delivery = ConditionLock()

    init(count: Int) {
        self.count = count
    }

    func nextIndex() -> Int? {
        lock.withLock {
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
    /// what is no longer needed and delivers every result whose turn has come.
    func finish(
        _ index: Int, frame: Image, process: (Int, Image, Image?) throws -> Result, deliver: (Int, Result) throws -> Void
    ) throws {
        lock.withLock {
            frames[index] = frame
            users[index] = index + 1 < count ? 2 : 1
        }
        lock.broadcast()
        let previous = index > 0 ? try waitForFrame(index - 1) : nil
        let result = try process(index, frame, previous)
        lock.withLock {
            results[index] = result
            release(index)
            if index > 0 { release(index - 1) }
        }
        try delivery.withLock {
            while let (turn, result) = lock.withLock({ () -> (Int, Result)? in
                guard error == nil, let result = results.removeValue(forKey: delivered) else { return nil }
                defer { delivered += 1 }
                return (delivered, result)
            }) {
                try deliver(turn, result)
            }
        }
    }

    /// Called with `lock` held.
    private func release(_ index: Int) {
        let remaining = users[index, default: 1] - 1
        if remaining <= 0 {
            frames[index] = nil
            users[index] = nil
        } else {
            users[index] = remaining
        }
    }

    private func waitForFrame(_ index: Int) throws -> Image {
        try lock.withLock { () throws -> Image in
            while true {
                if let frame = frames[index] { return frame }
                if let error { throw error }
                lock.wait()
            }
        }
    }
}
