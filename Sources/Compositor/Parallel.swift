import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs independent pieces of work on several threads. Pieces never depend on which thread runs them, so
/// results are the same for every thread count.
public enum Parallel {
    /// The number of online processors.
    public static let processorCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// The number of workers `forEach` uses for `count` pieces on `threads` threads.
    static func workers(_ count: Int, threads: Int) -> Int {
        max(1, min(max(threads, 1), count))
    }

    /// Part `index` of `count` items cut into `parts` contiguous parts as even as whole items allow: the pieces
    /// `forEach` gives one worker, and the bands `render` gives one thread, so work can be planned per part.
    static func part(_ index: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * index / parts)..<(count * (index + 1) / parts)
    }

    /// Calls `body(i, worker)` for every i in 0..<count, on up to `threads` threads (1: on the calling
    /// thread). `worker` (0..<workers(count, threads:)) names the thread, for per-thread scratch.
    package static func forEach(_ count: Int, threads: Int, _ body: (Int, Int) -> Void) {
        let workers = workers(count, threads: threads)
        if workers <= 1 {
            for i in 0..<count { body(i, 0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Contiguous chunks: neighbouring rows stay on one core's cache.
                for i in part(worker, of: workers, count: count) { box.value(i, worker) }
            }
        }
    }
}

extension Parallel {
    /// `forEach` with the pieces handed out in order to whichever worker is free, for pieces of uneven cost or
    /// threads of uneven speed: with contiguous parts, a worker whose core is busy with something else holds up
    /// the whole call while the other has finished. A worker's pieces are then no longer contiguous, so this is for
    /// pieces that share nothing through the cache (the perspective warp's bands of canvas rows).
    static func forEachBalanced(_ count: Int, threads: Int, _ body: (Int, Int) -> Void) {
        let workers = workers(count, threads: threads)
        if workers <= 1 {
            for i in 0..<count { body(i, 0) }
            return
        }
        let next = PieceCounter()
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                while case let i = next.take(), i < count { box.value(i, worker) }
            }
        }
    }

    /// The next piece to hand out.
    private final class PieceCounter: Sendable {
        private let next = Atomic<Int>(0)

        func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
    }
}

/// Carries a value the compiler cannot prove thread-safe into concurrent code whose accesses are disjoint.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
