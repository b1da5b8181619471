import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where two frames of one size differ: what an APNG frame after the first has to carry.
enum ChangedRegion {
    /// The smallest rectangle holding every pixel that differs, or nil when none does.
    static func boundingBox(of frame: Image, since previous: Image) -> (x: Int, y: Int, width: Int, height: Int)? {
        let rowBytes = frame.width * Image.bytesPerPixel
        var top = -1
        var bottom = -1
        for y in 0..<frame.height where memcmp(frame.row(y), previous.row(y), rowBytes) != 0 {
            if top < 0 { top = y }
            bottom = y
        }
        guard top >= 0 else { return nil }
        var left = frame.width
        var right = -1
        for y in top...bottom {
            let a = UnsafeRawPointer(frame.row(y))
            let b = UnsafeRawPointer(previous.row(y))
            // Only columns outside the box found so far can widen it.
            var x = 0
            while x < left,
                a.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
            {
                x += 1
            }
            left = min(left, x)
            var end = frame.width - 1
            while end > right,
                a.loadUnaligned(fromByteOffset: end * 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: end * 4, as: UInt32.self)
            {
                end -= 1
            }
            right = max(right, end)
        }
        return (x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
