#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses a frame the process cannot hold before anything is allocated for it.
///
/// `--max-pixels` may be raised past what the machine holds, and a pixel allocation that fails ends the process
/// (`PixelMemory` traps, as Swift's own allocation does): 45000x45000 under a 4 GiB cap was exit 132. Every route
/// keeps at least two frame-sized buffers (the result and the one it is made from or encoded through), so a frame
/// whose two copies pass the address-space limit (or, without one, the physical memory) cannot finish.
enum MemoryBudget {
    /// - Throws: `ToolFailure` 73 naming the size and the limit.
    static func check(width: Int, height: Int, what: String, subject: String?) throws(ToolFailure) {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        let needed = overflow ? Int.max : product.multipliedReportingOverflow(by: 8).partialValue
        guard overflow || product > Int.max / 8 || needed > limit else { return }
        throw ToolFailure(
            .cannotCreate, shownAs: subject,
            "\(what) \(width)x\(height) needs at least \(mebibytes(overflow ? Int.max : needed)) MiB, more than the "
                + "\(mebibytes(limit)) MiB this process may use")
    }

    /// The address-space limit (`ulimit -v`) if one is set, else the physical memory.
    static var limit: Int {
        var rlimit = rlimit()
        // RLIM_INFINITY is all ones, so it fails the comparison.
        if getrlimit(RLIMIT_AS_VALUE, &rlimit) == 0, rlimit.rlim_cur < UInt64(Int.max) { return Int(rlimit.rlim_cur) }
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 && pages < Int.max / size ? pages * size : Int.max
    }

    private static func mebibytes(_ bytes: Int) -> Int { bytes >> 20 }

    #if canImport(Glibc)
        private static let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
        private static let RLIMIT_AS_VALUE = RLIMIT_AS
    #endif
}
