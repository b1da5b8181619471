import Compositor
import Dispatch

extension AnimationRenderer {
    /// One drawn frame of an animation: its number and its pixels.
    public struct Frame: Sendable {
        public let index: Int
        public let image: Image
    }

    /// Frames 0..<`count` of `scene` as they are drawn, in order, for a caller in Swift concurrency:
    ///
    ///     for try await frame in renderer.frames(of: scene, count: 61) { show(frame.image) }
    ///
    /// The frames are drawn as `renderFrames` draws them (on the renderer's threads, the same pixels as
    /// `frame(of:at:)` alone), from when the iteration starts; the caller's task only receives them. At most
    /// `buffered` finished frames wait for the caller, so a slow consumer holds the drawing back rather than
    /// memory growing. Cancelling the consuming task, or leaving the loop, stops the drawing after the frames in
    /// flight; the first error of drawing (a `SceneRenderError` such as a refused limit) is thrown by the loop.
    public func frames(of scene: Scene, count: Int, buffered: Int = 2) -> AnimationFrames {
        AnimationFrames(renderer: self, scene: scene, count: count, buffered: max(buffered, 1))
    }
}

/// An animation's frames as an asynchronous sequence (`AnimationRenderer.frames(of:count:buffered:)`).
public struct AnimationFrames: AsyncSequence, Sendable {
    public typealias Element = AnimationRenderer.Frame

    let renderer: AnimationRenderer
    let scene: Scene
    let count: Int
    let buffered: Int

    /// Starts the drawing; it stops when the iterator is cancelled or released.
    public func makeAsyncIterator() -> Iterator {
        let channel = FrameChannel(capacity: buffered)
        let (renderer, scene, count) = (renderer, scene, count)
        // The drawing blocks a thread for the whole run (it waits on the frames' threads and on the consumer),
        // so it runs on a queue of its own, never on a task's cooperative thread.
        DispatchQueue(label: "AnimationFrames").async {
            do {
                try renderer.renderFrames(
                    of: scene, count: count, process: { _, frame, _ in frame },
                    deliver: { index, image in try channel.put(AnimationRenderer.Frame(index: index, image: image)) })
                channel.finish(throwing: nil)
            } catch {
                channel.finish(throwing: error)
            }
        }
        return Iterator(channel: channel)
    }

    public final class Iterator: AsyncIteratorProtocol {
        private let channel: FrameChannel

        init(channel: FrameChannel) { self.channel = channel }

        deinit { channel.cancel() }

        public func next() async throws -> AnimationRenderer.Frame? {
            try await withTaskCancellationHandler {
                try await channel.take()
            } onCancel: { [channel] in
                channel.cancel()
            }
        }
    }
}

/// Frames handed from the drawing threads to one consuming task: `put` blocks its thread while `capacity`
/// frames wait (or until the consumer leaves), `take` suspends its task until a frame, the end or an error.
final class FrameChannel: @unchecked Sendable {
    private let capacity: Int
    private let lock = ConditionLock()
    // Guarded by `lock`:
    private var waiting: [AnimationRenderer.Frame] = []
    private var taker: CheckedContinuation<AnimationRenderer.Frame?, any Error>?
    private var ending: Result<Void, any Error>?
    private var isCancelled = false

    init(capacity: Int) { self.capacity = capacity }

    /// Called in frame order by the drawing; throws `CancellationError` once the consumer has left, which stops
    /// the drawing.
    func put(_ frame: AnimationRenderer.Frame) throws {
        try lock.withLock {
            while !isCancelled, taker == nil, waiting.count >= capacity { lock.wait() }
            guard !isCancelled else { throw CancellationError() }
            if let taker {
                self.taker = nil
                taker.resume(returning: frame)
            } else {
                waiting.append(frame)
            }
        }
    }

    func finish(throwing error: (any Error)?) {
        lock.withLock {
            ending = error.map { .failure($0) } ?? .success(())
            if let taker {
                self.taker = nil
                resume(taker)
            }
        }
    }

    /// The next frame; nil after the last (or once cancelled).
    func take() async throws -> AnimationRenderer.Frame? {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock {
                if !waiting.isEmpty {
                    continuation.resume(returning: waiting.removeFirst())
                    lock.broadcast()
                } else if isCancelled || ending != nil {
                    resume(continuation)
                } else {
                    taker = continuation
                    lock.broadcast()  // a producer waiting for room may hand its frame straight over
                }
            }
        }
    }

    func cancel() {
        lock.withLock {
            isCancelled = true
            if let taker {
                self.taker = nil
                taker.resume(returning: nil)
            }
        }
        lock.broadcast()
    }

    /// Ends a waiting `take`: the error that ended the drawing, or nil. Called with the lock held.
    private func resume(_ continuation: CheckedContinuation<AnimationRenderer.Frame?, any Error>) {
        if !isCancelled, case .failure(let error) = ending {
            continuation.resume(throwing: error)
        } else {
            continuation.resume(returning: nil)
        }
    }
}
