#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body(worker)` on `count` threads of its own and waits for them all: a batch's photos in flight may
/// outnumber the cores (a slow disk), which `DispatchQueue.concurrentPerform` would not allow.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Work: @unchecked Sendable {
        let body: @Sendable (Int) -> Void
        let worker: Int
        init(_ body: @escaping @Sendable (Int) -> Void, _ worker: Int) {
            self.body = body
            self.worker = worker
        }
    }
    var threads: [pthread_t] = []
    for worker in 0..<count {
        let context = Unmanaged.passRetained(Work(body, worker)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                work.body(work.worker)
                return nil
            }, context)
        if started == 0 {
            threads.append(thread)
        } else {
            // No thread to be had: this one does the work itself.
            Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body(worker)
        }
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// Admits photos while the memory they are expected to need fits `capacity` bytes together; a photo that needs
/// more than the whole capacity is admitted alone. So the bytes a batch holds stay within the capacity (or the
/// one largest photo's need) however many photos are in flight and whatever their sizes.
final class MemoryGate: @unchecked Sendable {
    let capacity: Int
    private var inUse = 0
    private var admitted = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Waits until `bytes` fit beside what is admitted (or nothing is), then counts them in.
    func acquire(_ bytes: Int) {
        pthread_mutex_lock(mutex)
        while admitted > 0, inUse + bytes > capacity { pthread_cond_wait(condition, mutex) }
        inUse += bytes
        admitted += 1
        pthread_mutex_unlock(mutex)
    }

    func release(_ bytes: Int) {
        pthread_mutex_lock(mutex)
        inUse -= bytes
        admitted -= 1
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
