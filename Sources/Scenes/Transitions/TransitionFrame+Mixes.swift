import Compositor

/// The styles that mix the two photos everywhere: fade, fade through a colour, pixelize, hblur, zoomin.
extension TransitionFrame {
    enum Backdrop { case black, white }

    /// xfade `fade`: A·P + B·(1 − P), one weight for the whole frame.
    func fade() {
        let weightB = TransitionKernels.weight(p)
        mixEverywhere(weightA: TransitionKernels.one - weightB, weightB: weightB, bias: SIMD4(repeating: 128))
    }

    /// xfade `fadeblack`/`fadewhite`: mix(mix(A, C, smoothstep(0.8, 1, P)), mix(C, B, smoothstep(0.2, 1, P)), P)
    /// with C opaque black or white, expanded to A·wa + B·wb + C·(1 − wa − wb).
    func fadeThrough(_ backdrop: Backdrop) {
        let phase = 0.2
        let intoBackdrop = smoothstep(1 - phase, 1, xfade)
        let outOfBackdrop = smoothstep(phase, 1, xfade)
        let weightA = TransitionKernels.weight(xfade * intoBackdrop)
        let weightB = min(
            TransitionKernels.weight((1 - xfade) * (1 - outOfBackdrop)), TransitionKernels.one - weightA)
        let weightC = UInt16(TransitionKernels.one - weightA - weightB)
        let level: UInt16 = backdrop == .black ? 0 : 255
        let bias = SIMD4(level * weightC, level * weightC, level * weightC, 255 * weightC) &+ 128
        mixEverywhere(weightA: weightA, weightB: weightB, bias: bias)
    }

    private func mixEverywhere(weightA: Int, weightB: Int, bias: SIMD4<UInt16>) {
        let width = self.width
        forEachRow { y in
            TransitionKernels.mix(
                from.row(y), to.row(y), into: target.row(y), count: width, weightA: weightA, weightB: weightB,
                bias: bias)
        }
    }

    /// xfade `pixelize`: squares growing to min(W, H)/10 at the middle and shrinking again, in 50 steps of size,
    /// each showing the pixel at its centre; the two photos mixed by P.
    func pixelize() {
        let progress = Float(xfade)
        let distance = (min(progress, 1 - progress) * 50).rounded(.up) / 50
        let side = 2 * distance * Float(min(width, height)) / 20
        let weightB = TransitionKernels.weight(p)
        let weightA = TransitionKernels.one - weightB
        let width = self.width
        let height = self.height
        func centre(_ i: Int, _ limit: Int) -> Int {
            guard distance > 0 else { return i }
            return Int(min(((Float(i) / side).rounded(.down) + 0.5) * side, Float(limit - 1)))
        }
        forEachRow { y in
            let sy = centre(y, height)
            let a = from.row(sy)
            let b = to.row(sy)
            let out = target.row(y)
            // A square's pixels are one mixed pixel: mix it once per square, not once per pixel.
            var last = -1
            for x in 0..<width {
                let sx = centre(x, width)
                if sx != last {
                    ScalarTransitionKernels.mix(
                        a + sx * 4, b + sx * 4, into: out + x * 4, count: 1, weightA: weightA, weightB: weightB,
                        bias: SIMD4(repeating: 128))
                    last = sx
                } else {
                    (out + x * 4).update(from: out + x * 4 - 4, count: 4)
                }
            }
        }
    }

    /// xfade `hblur`: each photo box-blurred along its rows over the pixels from x to x + size − 1 (fewer at the
    /// right edge), size growing from 1 to 1 + W/2 at the middle and back, mixed by P; rounded to nearest (ties
    /// to even).
    func horizontalBlur() {
        let progress = Float(xfade)
        let growth = progress <= 0.5 ? progress * 2 : (1 - progress) * 2
        let size = min(1 + Int(Float(width / 2) * growth), max(width, 1))
        let width = self.width
        let xfade = self.xfade
        forEachRow { y in
            let a = from.row(y)
            let b = to.row(y)
            let out = target.row(y)
            // Running sums per channel in plain integers (SIMD4<Int> built lane by lane cost 15 ns a pixel).
            var (a0, a1, a2, a3) = (0, 0, 0, 0)
            var (b0, b1, b2, b3) = (0, 0, 0, 0)
            for x in 0..<size {
                let i = x * 4
                (a0, a1, a2, a3) = (a0 + Int(a[i]), a1 + Int(a[i + 1]), a2 + Int(a[i + 2]), a3 + Int(a[i + 3]))
                (b0, b1, b2, b3) = (b0 + Int(b[i]), b1 + Int(b[i + 1]), b2 + Int(b[i + 2]), b3 + Int(b[i + 3]))
            }
            var count = size
            var weightA = xfade / Double(count)
            var weightB = (1 - xfade) / Double(count)
            // Rounded by adding 1.5·2⁵²: the checked Double-to-Int conversion took most of the time. The value
            // is at most 255 plus rounding noise, so its low nine bits are the level (or 256, clamped).
            @inline(__always) func level(_ sumA: Int, _ sumB: Int) -> UInt8 {
                let rounded = (Double(sumA) * weightA + Double(sumB) * weightB + 6_755_399_441_055_744).bitPattern
                return UInt8(truncatingIfNeeded: min(rounded & 0x1FF, 255))
            }
            for x in 0..<width {
                let i = x * 4
                out[i] = level(a0, b0)
                out[i + 1] = level(a1, b1)
                out[i + 2] = level(a2, b2)
                out[i + 3] = level(a3, b3)
                (a0, a1, a2, a3) = (a0 - Int(a[i]), a1 - Int(a[i + 1]), a2 - Int(a[i + 2]), a3 - Int(a[i + 3]))
                (b0, b1, b2, b3) = (b0 - Int(b[i]), b1 - Int(b[i + 1]), b2 - Int(b[i + 2]), b3 - Int(b[i + 3]))
                if x + size < width {
                    let j = (x + size) * 4
                    (a0, a1, a2, a3) = (a0 + Int(a[j]), a1 + Int(a[j + 1]), a2 + Int(a[j + 2]), a3 + Int(a[j + 3]))
                    (b0, b1, b2, b3) = (b0 + Int(b[j]), b1 + Int(b[j + 1]), b2 + Int(b[j + 2]), b3 + Int(b[j + 3]))
                } else if count > 1 {
                    count -= 1
                    weightA = xfade / Double(count)
                    weightB = (1 - xfade) / Double(count)
                }
            }
        }
    }

    /// xfade `zoomin`: the old photo magnified about the centre by 1/smoothstep(0.5, 1, P) (nearest pixel, xfade's
    /// ceil), mixed with the new one by smoothstep(0, 0.5, P).
    /// Pixels gathered per run: a run stays in L1 until it is mixed.
    static let zoomRun = 128

    func zoomIn() {
        let progress = Float(xfade)
        let zoom = smoothstep(0.5, 1, progress)
        let weightA = TransitionKernels.weight(Double(smoothstep(0, 0.5, progress)))
        let weightB = TransitionKernels.one - weightA
        let width = self.width
        let height = self.height
        let w = Float(width)
        let h = Float(height)
        func source(_ i: Int, _ size: Float, _ limit: Int) -> Int {
            let u = 0.5 + (Float(i) / size - 0.5) * zoom
            return min(max(Int((u * (size - 1)).rounded(.up)), 0), limit - 1)
        }
        forEachRow { y in
            let a = UnsafeRawPointer(from.row(source(y, h, height)))
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TransitionFrame.zoomRun * 4) { run in
                let zoomed = run.baseAddress!
                var x = 0
                while x < width {
                    // The magnified run gathered whole, then mixed 16 pixels at a time.
                    let count = min(TransitionFrame.zoomRun, width - x)
                    for i in 0..<count {
                        let pixel = a.loadUnaligned(fromByteOffset: source(x + i, w, width) * 4, as: UInt32.self)
                        UnsafeMutableRawPointer(zoomed).storeBytes(of: pixel, toByteOffset: i * 4, as: UInt32.self)
                    }
                    TransitionKernels.mix(
                        zoomed, to.row(y) + x * 4,
                        into: target.row(y) + x * 4, count: count, weightA: weightA, weightB: weightB,
                        bias: SIMD4(repeating: 128))
                    x += count
                }
            }
        }
    }
}
