import Dispatch

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
    public static func workers(_ count: Int, threads: Int) -> Int {
        max(1, min(max(threads, 1), count))
    }

    /// Calls `body(i, worker)` for every i in 0..<count, on up to `threads` threads (1: on the calling
    /// thread). `worker` (0..<workers(count, threads:)) names the thread, for per-thread scratch.
    public static func forEach(_ count: Int, threads: Int, _ body: (Int, Int) -> Void) {
        let workers = workers(count, threads: threads)
        if workers <= 1 {
            for i in 0..<count { body(i, 0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                // Contiguous chunks: neighbouring rows stay on one core's cache.
                let start = count * worker / workers
                let end = count * (worker + 1) / workers
                for i in start..<end { box.value(i, worker) }
            }
        }
    }
}

/// Carries a value the compiler cannot prove thread-safe into concurrent code whose accesses are disjoint.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
