extension Image {
    /// Makes an image from straight (unassociated) RGBA8 rows, premultiplying each pixel.
    /// - Parameters:
    ///   - straightRGBA: the first byte of the first row of straight-alpha RGBA8 pixels.
    ///   - bytesPerRow: the source stride.
    public convenience init(straightRGBA: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        self.init(width: width, height: height)
        for y in 0..<height {
            let source = straightRGBA + y * bytesPerRow
            let destination = row(y)
            for x in 0..<width {
                let i = x * 4
                let alpha = source[i + 3]
                destination[i] = premultiply(source[i], by: alpha)
                destination[i + 1] = premultiply(source[i + 1], by: alpha)
                destination[i + 2] = premultiply(source[i + 2], by: alpha)
                destination[i + 3] = alpha
            }
        }
    }

    /// Writes this image as straight-alpha RGBA8 rows; a fully transparent pixel becomes (0, 0, 0, 0).
    public func writeStraightRGBA(to destination: UnsafeMutablePointer<UInt8>, bytesPerRow: Int) {
        for y in 0..<height {
            let source = row(y)
            let target = destination + y * bytesPerRow
            for x in 0..<width {
                let i = x * 4
                let alpha = source[i + 3]
                target[i] = unpremultiply(source[i], by: alpha)
                target[i + 1] = unpremultiply(source[i + 1], by: alpha)
                target[i + 2] = unpremultiply(source[i + 2], by: alpha)
                target[i + 3] = alpha
            }
        }
    }

    /// Premultiplies pixels that were written as straight alpha (by a decoder, say), in place.
    public func premultiplyInPlace() {
        for y in 0..<height {
            let row = row(y)
            for x in 0..<width {
                let p = row + x * 4
                let alpha = p[3]
                guard alpha != 255 else { continue }
                p[0] = premultiply(p[0], by: alpha)
                p[1] = premultiply(p[1], by: alpha)
                p[2] = premultiply(p[2], by: alpha)
            }
        }
    }

    /// Straight-alpha RGBA8, tightly packed.
    public func straightRGBABytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            if let base = buffer.baseAddress {
                writeStraightRGBA(to: base, bytesPerRow: width * 4)
            }
            count = width * height * 4
        }
    }
}

/// round(value * alpha / 255), exactly, in integers.
@inline(__always)
func premultiply(_ value: UInt8, by alpha: UInt8) -> UInt8 {
    let product = UInt32(value) * UInt32(alpha) + 128
    return UInt8((product + (product >> 8)) >> 8)
}

/// round(value * 255 / alpha), clamped to 255; alpha 0 gives 0.
@inline(__always)
func unpremultiply(_ value: UInt8, by alpha: UInt8) -> UInt8 {
    guard alpha != 0 else { return 0 }
    if alpha == 255 { return value }
    let scaled = (UInt32(value) * 255 + UInt32(alpha) / 2) / UInt32(alpha)
    return UInt8(min(scaled, 255))
}
