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
    /// right edge), size growing from 1 to 1 + W/2 at the middle and back, mixed by P; rounded to nearest.
    func horizontalBlur() {
        let progress = Float(xfade)
        let growth = progress <= 0.5 ? progress * 2 : (1 - progress) * 2
        let size = min(1 + Int(Float(width / 2) * growth), max(width, 1))
        let weightA = xfade
        let weightB = 1 - xfade
        let width = self.width
        forEachRow { y in
            let a = from.row(y)
            let b = to.row(y)
            let out = target.row(y)
            var sumA = SIMD4<Int>()
            var sumB = SIMD4<Int>()
            func pixel(_ row: UnsafeMutablePointer<UInt8>, _ x: Int) -> SIMD4<Int> {
                SIMD4(Int(row[x * 4]), Int(row[x * 4 + 1]), Int(row[x * 4 + 2]), Int(row[x * 4 + 3]))
            }
            for x in 0..<size {
                sumA &+= pixel(a, x)
                sumB &+= pixel(b, x)
            }
            var count = size
            for x in 0..<width {
                let scale = 1 / Double(count)
                for c in 0..<4 {
                    let value = (Double(sumA[c]) * weightA + Double(sumB[c]) * weightB) * scale
                    out[x * 4 + c] = UInt8(min(Int(value + 0.5), 255))
                }
                if x + size < width {
                    sumA &+= pixel(a, x + size) &- pixel(a, x)
                    sumB &+= pixel(b, x + size) &- pixel(b, x)
                } else {
                    sumA &-= pixel(a, x)
                    sumB &-= pixel(b, x)
                    count -= 1
                }
            }
        }
    }

    /// xfade `zoomin`: the old photo magnified about the centre by 1/smoothstep(0.5, 1, P) (nearest pixel, xfade's
    /// ceil), mixed with the new one by smoothstep(0, 0.5, P).
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
            let a = from.row(source(y, h, height))
            let b = to.row(y)
            let out = target.row(y)
            for x in 0..<width {
                let sx = source(x, w, width) * 4
                for c in 0..<4 {
                    out[x * 4 + c] = UInt8(
                        truncatingIfNeeded: (Int(a[sx + c]) * weightA + Int(b[x * 4 + c]) * weightB + 128) >> 8)
                }
            }
        }
    }
}
