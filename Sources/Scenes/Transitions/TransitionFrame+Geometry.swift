import Compositor

/// The styles that copy pixels without mixing them: wipes, slides and dissolve.
extension TransitionFrame {
    /// xfade's wipes: a hard edge at z = ⌊W·P⌋ (or H·P, or from the other side with 1 − P); a pixel takes the
    /// old photo on its side of the edge (x ≤ z for wipeleft), the new one beyond.
    func wipe(_ style: PhotoTransition.Style) {
        let rowBytes = width * 4
        let width = self.width
        switch style {
        case .wipeleft, .wiperight:
            let left = style == .wipeleft
            let edge = Int(Float(width) * Float(left ? xfade : 1 - xfade))
            let split = min(edge + 1, width)  // columns 0..<split are x ≤ z
            forEachRow { y in
                let (first, second) = left ? (from.row(y), to.row(y)) : (to.row(y), from.row(y))
                let out = target.row(y)
                out.update(from: first, count: split * 4)
                (out + split * 4).update(from: second + split * 4, count: rowBytes - split * 4)
            }
        default:
            let up = style == .wipeup
            let edge = Int(Float(height) * Float(up ? xfade : 1 - xfade))
            forEachRow { y in
                let above = y <= edge
                let source = up == above ? from : to
                target.row(y).update(from: source.row(y), count: rowBytes)
            }
        }
    }

    /// xfade's slides: both photos move by n = ⌊P·W⌋ (or H) pixels, the new one entering where the old one leaves
    /// (slideleft: the new photo comes in from the right, moving left).
    func slide(_ style: PhotoTransition.Style) {
        let width = self.width
        let height = self.height
        switch style {
        case .slideleft, .slideright:
            let n = Int(Float(xfade) * Float(width))
            forEachRow { y in
                let a = from.row(y)
                let b = to.row(y)
                let out = target.row(y)
                if style == .slideleft {  // x < n: A[x − n + W]; x ≥ n: B[x − n]
                    out.update(from: a + (width - n) * 4, count: n * 4)
                    (out + n * 4).update(from: b, count: (width - n) * 4)
                } else {  // x < W − n: B[x + n]; beyond: A[x + n − W]
                    out.update(from: b + n * 4, count: (width - n) * 4)
                    (out + (width - n) * 4).update(from: a, count: n * 4)
                }
            }
        default:
            let n = Int(Float(xfade) * Float(height))
            forEachRow { y in
                let source: UnsafeMutablePointer<UInt8>
                if style == .slideup {
                    source = y >= n ? to.row(y - n) : from.row(y - n + height)
                } else {
                    source = y + n < height ? to.row(y + n) : from.row(y + n - height)
                }
                target.row(y).update(from: source, count: width * 4)
            }
        }
    }

    /// xfade `dissolve`: each pixel switches from the old photo to the new one when the progress passes its own
    /// threshold r in [0, 1) (xfade: r + P < 1), so the share of new pixels is the progress. xfade's r is a
    /// sine hash whose float rounding varies by platform; ours is an integer hash of the position alone, the
    /// same for every thread count, region and machine.
    func dissolve() {
        let threshold = UInt32((p * Double(1 << 24)).rounded(.up))  // new where r·2²⁴ < threshold
        let width = self.width
        forEachRow { y in
            let a = UnsafeRawPointer(from.row(y))
            let b = UnsafeRawPointer(to.row(y))
            let out = UnsafeMutableRawPointer(target.row(y))
            var x = 0
            while x + 16 <= width {
                // rank < threshold, both below 2²⁴, is the sign of their difference: a mask without a compare
                // (SIMD comparisons and selections compiled lane by lane).
                let ranks = TransitionFrame.dissolveRanks(x: x, y: y)
                let difference = unsafeBitCast(ranks &- threshold, to: SIMD16<Int32>.self)
                let mask = unsafeBitCast(difference &>> 31, to: SIMD16<UInt32>.self)
                let old = a.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt32>.self)
                let new = b.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt32>.self)
                out.storeBytes(of: old & ~mask | new & mask, toByteOffset: x * 4, as: SIMD16<UInt32>.self)
                x += 16
            }
            for x in x..<width {
                let source = TransitionFrame.dissolveRank(x: x, y: y) < threshold ? b : a
                let pixel = source.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                out.storeBytes(of: pixel, toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }

    private static let lanes = SIMD16<UInt32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

    /// `dissolveRank` of pixels x..<x + 16 of row y, in SIMD.
    @inline(__always)
    static func dissolveRanks(x: Int, y: Int) -> SIMD16<UInt32> {
        let columns = lanes &+ UInt32(truncatingIfNeeded: x)
        var h = columns &* 0x9E37_79B1 ^ SIMD16(repeating: UInt32(truncatingIfNeeded: y) &* 0x85EB_CA77)
        h ^= h &>> 16
        h &*= 0x85EB_CA6B
        h ^= h &>> 13
        h &*= 0xC2B2_AE35
        h ^= h &>> 16
        return h &>> 8
    }

    /// A pixel's dissolve threshold in 1/2²⁴: the top 24 bits of a 32-bit avalanche hash (the murmur3 finaliser)
    /// of its coordinates.
    @inline(__always)
    static func dissolveRank(x: Int, y: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: x) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: y) &* 0x85EB_CA77
        h ^= h >> 16
        h &*= 0x85EB_CA6B
        h ^= h >> 13
        h &*= 0xC2B2_AE35
        h ^= h >> 16
        return h >> 8
    }
}
