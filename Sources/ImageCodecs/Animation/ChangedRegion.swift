import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where two frames of one size differ: what an APNG frame after the first has to carry.
enum ChangedRegion {
    /// The smallest rectangle holding every pixel that differs inside `area` (the frames are the same outside
    /// it; it is clipped to the frame), or nil when none does.
    static func boundingBox(of frame: Image, since previous: Image, within area: PixelBox)
        -> (x: Int, y: Int, width: Int, height: Int)?
    {
        let clipped = area.intersection(PixelBox(x: 0, y: 0, width: frame.width, height: frame.height))
        guard !clipped.isEmpty else { return nil }
        let (areaLeft, areaRight) = (clipped.x, clipped.x + clipped.width)  // right and bottom exclusive
        let (areaTop, areaBottom) = (clipped.y, clipped.y + clipped.height)
        let rowBytes = (areaRight - areaLeft) * Image.bytesPerPixel
        let offset = areaLeft * Image.bytesPerPixel
        var top = -1
        var bottom = -1
        for y in areaTop..<areaBottom where memcmp(frame.row(y) + offset, previous.row(y) + offset, rowBytes) != 0 {
            if top < 0 { top = y }
            bottom = y
        }
        guard top >= 0 else { return nil }
        var left = areaRight
        var right = areaLeft - 1
        for y in top...bottom {
            let a = UnsafeRawPointer(frame.row(y))
            let b = UnsafeRawPointer(previous.row(y))
            // Only columns outside the box found so far can widen it.
            var x = areaLeft
            while x < left,
                a.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
            {
                x += 1
            }
            left = min(left, x)
            var end = areaRight - 1
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
