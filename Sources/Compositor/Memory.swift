#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Allocation for pixel-sized buffers (images, blur scratch). Memory from here is released with `release`.
///
/// A fresh 12 MP image is 48 MB: on 4 KiB pages its first writes take ~12,000 page faults (about 20 ms, as
/// long as a blur itself); on 2 MiB pages, 24. Linux gives transparent huge pages to 2 MiB-aligned memory
/// advised with MADV_HUGEPAGE (its default THP mode is "madvise"); elsewhere the advice is ignored.
enum PixelMemory {
    /// From this size on, memory is 2 MiB-aligned and advised onto huge pages.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// At least `byteCount` bytes, 64-byte aligned (2 MiB for large requests). Traps if memory is exhausted,
    /// as Swift's own allocation does.
    static func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let large = byteCount >= hugePageThreshold
        let alignment = large ? hugePageSize : 64
        let size = large ? (byteCount + hugePageSize - 1) / hugePageSize * hugePageSize : max(byteCount, 1)
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, alignment, size) == 0, let memory else {
            fatalError("out of memory allocating \(byteCount) bytes")
        }
        #if os(Linux)
            if large { _ = madvise(memory, size, MADV_HUGEPAGE) }
        #endif
        return memory
    }

    static func release(_ pointer: UnsafeMutableRawPointer) {
        free(pointer)
    }
}
