/// The horizontal pass of a resize: every output pixel has its own window and weights, so lanes cannot run
/// along the row as in the vertical pass. An 8-lane vector holds two neighbouring taps of one pixel (RGBA
/// twice) and their weights, each repeated for the four channels; the two halves are added at the end.
/// Loads, not arithmetic, limit this loop, so two rows share each weight loaded.
extension ScalarKernels {
    public static func resampleRowPair(
        _ span: UnsafePointer<Float>, _ secondSpan: UnsafePointer<Float>, first: UnsafePointer<Int>,
        weights: UnsafePointer<Float>, taps: Int, count: Int, into output: UnsafeMutablePointer<Float>,
        _ secondOutput: UnsafeMutablePointer<Float>
    ) {
        resampleRow(span, first: first, weights: weights, taps: taps, count: count, into: output)
        resampleRow(secondSpan, first: first, weights: weights, taps: taps, count: count, into: secondOutput)
    }

    public static func resampleRow(
        _ span: UnsafePointer<Float>, first: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps: Int,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<count {
            let pixels = span + first[i] * 4
            let w = weights + i * taps * 4
            for c in 0..<4 {
                var even: Float = 0
                var odd: Float = 0
                var k = 0
                while k < taps {
                    even = even + w[k * 4 + c] * pixels[k * 4 + c]
                    odd = odd + w[k * 4 + 4 + c] * pixels[k * 4 + 4 + c]
                    k += 2
                }
                output[i * 4 + c] = even + odd
            }
        }
    }
}

extension SIMDKernels {
    @inline(__always)
    private static func load8(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    public static func resampleRow(
        _ span: UnsafePointer<Float>, first: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps: Int,
        count: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let stride = taps * 4
        var i = 0
        // Four pixels per step: four independent chains of adds in flight, and one 16-lane store.
        while i + 4 <= count {
            var a0 = SIMD8<Float>(repeating: 0)
            var a1 = a0
            var a2 = a0
            var a3 = a0
            let p0 = span + first[i] * 4
            let p1 = span + first[i + 1] * 4
            let p2 = span + first[i + 2] * 4
            let p3 = span + first[i + 3] * 4
            let w0 = weights + i * stride
            var k = 0
            while k < stride {
                a0 = a0 + load8(w0 + k) * load8(p0 + k)
                a1 = a1 + load8(w0 + stride + k) * load8(p1 + k)
                a2 = a2 + load8(w0 + 2 * stride + k) * load8(p2 + k)
                a3 = a3 + load8(w0 + 3 * stride + k) * load8(p3 + k)
                k += 8
            }
            let low = SIMD8(lowHalf: a0.lowHalf + a0.highHalf, highHalf: a1.lowHalf + a1.highHalf)
            let high = SIMD8(lowHalf: a2.lowHalf + a2.highHalf, highHalf: a3.lowHalf + a3.highHalf)
            UnsafeMutableRawPointer(output + i * 4).storeBytes(
                of: SIMD16(lowHalf: low, highHalf: high), as: SIMD16<Float>.self)
            i += 4
        }
        while i < count {
            var a = SIMD8<Float>(repeating: 0)
            let p = span + first[i] * 4
            let w = weights + i * stride
            var k = 0
            while k < stride {
                a = a + load8(w + k) * load8(p + k)
                k += 8
            }
            UnsafeMutableRawPointer(output + i * 4).storeBytes(of: a.lowHalf + a.highHalf, as: SIMD4<Float>.self)
            i += 1
        }
    }

    public static func resampleRowPair(
        _ span: UnsafePointer<Float>, _ secondSpan: UnsafePointer<Float>, first: UnsafePointer<Int>,
        weights: UnsafePointer<Float>, taps: Int, count: Int, into output: UnsafeMutablePointer<Float>,
        _ secondOutput: UnsafeMutablePointer<Float>
    ) {
        let stride = taps * 4
        let offset = secondSpan - span
        var i = 0
        // Two pixels of each row per step: four independent chains of adds in flight.
        while i + 2 <= count {
            var a0 = SIMD8<Float>(repeating: 0)
            var a1 = a0
            var b0 = a0
            var b1 = a0
            let p0 = span + first[i] * 4
            let p1 = span + first[i + 1] * 4
            let w0 = weights + i * stride
            var k = 0
            while k < stride {
                let weight0 = load8(w0 + k)
                let weight1 = load8(w0 + stride + k)
                a0 = a0 + weight0 * load8(p0 + k)
                b0 = b0 + weight0 * load8(p0 + offset + k)
                a1 = a1 + weight1 * load8(p1 + k)
                b1 = b1 + weight1 * load8(p1 + offset + k)
                k += 8
            }
            UnsafeMutableRawPointer(output + i * 4).storeBytes(
                of: SIMD8(lowHalf: a0.lowHalf + a0.highHalf, highHalf: a1.lowHalf + a1.highHalf), as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(secondOutput + i * 4).storeBytes(
                of: SIMD8(lowHalf: b0.lowHalf + b0.highHalf, highHalf: b1.lowHalf + b1.highHalf), as: SIMD8<Float>.self)
            i += 2
        }
        if i < count {
            resampleRow(
                span, first: first + i, weights: weights + i * stride, taps: taps, count: count - i,
                into: output + i * 4)
            resampleRow(
                secondSpan, first: first + i, weights: weights + i * stride, taps: taps, count: count - i,
                into: secondOutput + i * 4)
        }
    }
}
