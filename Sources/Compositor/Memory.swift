#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Allocation for pixel-sized buffers (images, blur scratch). Memory from here is released with `release`.
///
/// A fresh 12 MP image is 48 MB: on 4 KiB pages its first writes take ~12,000 page faults (together about as
/// long as a blur itself); on 2 MiB pages, 24. Linux gives transparent huge pages to 2 MiB-aligned memory
/// advised with MADV_HUGEPAGE (its default THP mode is "madvise"); elsewhere the advice is ignored.
///
/// Even on huge pages, the kernel zeroes every fresh page before a program may see it: 48 MB of extra writes
/// per 12 MP image, memory traffic that a second thread touching the pages hardly speeds up (so a blur into
/// fresh pages gains less from a second thread than one into reused pages). So blocks from 128 KiB up (glibc's own
/// threshold for giving memory back to the kernel) are kept when released, up to `reuseLimit` bytes in all,
/// and handed to the next request of about their size: a renderer that makes a new image every frame, or a
/// script that blurs photo after photo, then writes into warm memory.
///
/// Thread safety: every function may be called from any thread.
public enum PixelMemory {
    /// Why pixel memory could not be had (`Image(checkedWidth:height:)`, `Plane(checkedWidth:height:)`).
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A dimension is negative, or width × height × bytes per pixel does not fit an Int.
        case invalidSize(width: Int, height: Int)
        /// The system refused this many bytes.
        case outOfMemory(byteCount: Int)

        public var description: String {
            switch self {
            case .invalidSize(let width, let height): return "no image can be \(width)x\(height) pixels"
            case .outOfMemory(let bytes): return "out of memory allocating \(bytes) bytes of pixels"
            }
        }
    }

    /// Bytes for `width` × `height` pixels of `bytesPerPixel`, or `invalidSize`.
    static func byteCount(width: Int, height: Int, bytesPerPixel: Int) throws(Failure) -> Int {
        guard width >= 0, height >= 0 else { throw .invalidSize(width: width, height: height) }
        let (row, rowOverflow) = width.multipliedReportingOverflow(by: bytesPerPixel)
        let (total, overflow) = row.multipliedReportingOverflow(by: height)
        guard !rowOverflow, !overflow else { throw .invalidSize(width: width, height: height) }
        return total
    }

    /// From this size on, blocks are kept for reuse when released (in whole pages).
    static let reuseThreshold = 128 << 10
    static let pageSize = 4 << 10
    /// From this size on, memory is 2 MiB-aligned and advised onto huge pages.
    static let largeThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// At most this many bytes of released blocks are kept for reuse (default 256 MiB: five 12 MP images);
    /// setting it releases whatever is over. 0 keeps nothing, so every image gets fresh pages.
    public static var reuseLimit: Int {
        get { blocks.withLock { $0.limit } }
        set {
            let unwanted = blocks.withLock { blocks in
                blocks.limit = max(newValue, 0)
                return blocks.trim()
            }
            for block in unwanted { free(block) }
        }
    }

    /// Bytes of released blocks held for reuse now.
    public static var reusableBytes: Int {
        blocks.withLock { $0.keptBytes }
    }

    /// Blocks handed out that will be considered for keeping when released (for tests).
    static var trackedBlockCount: Int {
        blocks.withLock { $0.live.count }
    }

    /// Gives every block kept for reuse back to the system (a renderer going idle, say).
    public static func releaseReusableMemory() {
        let unwanted = blocks.withLock { $0.trim(to: 0) }
        for block in unwanted { free(block) }
    }

    /// At least `byteCount` bytes, 64-byte aligned (2 MiB for large requests). Traps if memory is exhausted,
    /// as Swift's own allocation does: for sizes that come from input, use `allocateIfPossible`.
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        guard let memory = allocateIfPossible(byteCount: byteCount) else {
            fatalError("out of memory allocating \(byteCount) bytes")
        }
        return memory
    }

    /// What `allocate` gives, or nil when the system refuses the memory (or `byteCount` is negative or too
    /// large to round up to whole pages). Release it with `release`.
    static func allocateIfPossible(byteCount: Int) -> UnsafeMutableRawPointer? {
        guard byteCount >= reuseThreshold else {
            return byteCount < 0 ? nil : aligned(max(byteCount, 1), alignment: 64)
        }
        let large = byteCount >= largeThreshold
        let unit = large ? hugePageSize : pageSize
        guard byteCount <= Int.max - unit else { return nil }
        let size = (byteCount + unit - 1) / unit * unit
        if let reused = blocks.withLock({ $0.takeKept(atLeast: size) }) {
            return reused
        }
        guard let memory = aligned(size, alignment: large ? hugePageSize : 64) else { return nil }
        #if os(Linux)
            if large { _ = madvise(memory, size, MADV_HUGEPAGE) }
        #endif
        blocks.withLock { $0.live[memory] = size }
        return memory
    }

    /// Releases memory from `allocate` or `allocateIfPossible`, or from `malloc` (a C decoder's, which is simply
    /// freed).
    static func release(_ pointer: UnsafeMutableRawPointer) {
        let unwanted = blocks.withLock { blocks in blocks.keep(pointer) ? blocks.trim() : nil }
        guard let unwanted else {
            free(pointer)
            return
        }
        for block in unwanted { free(block) }
    }

    private static func aligned(_ size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, alignment, size) == 0 else { return nil }
        return memory
    }

    private static let blocks = Locked(ReusableBlocks())
}

/// The blocks handed out (with their sizes) that may be kept, and those kept for reuse, most recently released
/// last.
private struct ReusableBlocks {
    var live: [UnsafeMutableRawPointer: Int] = [:]
    private var kept: [(pointer: UnsafeMutableRawPointer, size: Int)] = []
    private(set) var keptBytes = 0
    var limit = 256 << 20
    /// Kept blocks are searched one by one; a workload cycling through more sizes than this gains little anyway.
    static let maximumKeptCount = 64

    /// A kept block of `size` bytes, or up to a quarter larger (a photo of nearly the same size), the most
    /// recently released first; it is live again.
    mutating func takeKept(atLeast size: Int) -> UnsafeMutableRawPointer? {
        guard let index = kept.lastIndex(where: { $0.size >= size && $0.size <= size + size / 4 }) else {
            return nil
        }
        let block = kept.remove(at: index)
        keptBytes -= block.size
        live[block.pointer] = block.size
        return block.pointer
    }

    /// Keeps a released block for reuse, or returns false when it is not a block of ours that may be kept.
    mutating func keep(_ pointer: UnsafeMutableRawPointer) -> Bool {
        guard let size = live.removeValue(forKey: pointer) else { return false }
        kept.append((pointer, size))
        keptBytes += size
        return true
    }

    /// Drops the least recently released blocks until the kept bytes are within `bytes` (the limit) and their
    /// count within `maximumKeptCount`, and returns them to be freed outside the lock.
    mutating func trim(to bytes: Int? = nil) -> [UnsafeMutableRawPointer] {
        var unwanted: [UnsafeMutableRawPointer] = []
        while keptBytes > bytes ?? limit || kept.count > ReusableBlocks.maximumKeptCount, !kept.isEmpty {
            let block = kept.removeFirst()
            keptBytes -= block.size
            unwanted.append(block.pointer)
        }
        return unwanted
    }
}

/// A value behind a pthread mutex (Synchronization's Mutex needs macOS 15; this builds everywhere).
///
/// The value lives in an allocation of its own, not in a stored property: an empty value (`Locked(())`) would
/// share its address with the `mutex` property, and the thread sanitizer took each unlocked read of `mutex` for
/// a race with the locked access to the value (32 reports from the pyramid's shared rows).
///
/// Package-wide: the Typesetting module guards its faces and caches with it too.
package final class Locked<Value>: @unchecked Sendable {
    private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init(_ value: Value) {
        self.value.initialize(to: value)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

/// A pthread mutex with a condition variable, for threads that wait for each other's results (the frame
/// pipeline); allocated apart from the object for the same reason as `Locked`'s.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for `broadcast`; call inside `withLock`, and check the awaited condition again after.
    package func wait() { pthread_cond_wait(condition, mutex) }

    package func broadcast() { pthread_cond_broadcast(condition) }
}
