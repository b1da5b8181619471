#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hot loops of separable convolution, over Float lanes. Two implementations with the same meaning:
/// `SIMDKernels` (8 lanes at a time, the fast path) and `ScalarKernels` (its reference twin, one lane at a
/// time). Both add the taps in the same order, so they agree to the bit; tests hold them together.
///
/// Loops follow shared/SWIFT-PERFORMANCE.md: pointers taken once, `SIMD8<Float>` built from unaligned
/// loads, plain `a + w * x` (no `addingProduct`, which calls `fmaf` per lane at the default target).
public protocol ConvolutionKernelSet: Sendable {
    /// `output[i] = Σₖ weights[k] · input[i + k·step]` for i in 0..<count (a 1-D convolution along memory,
    /// `step` floats between taps: 4 for interleaved RGBA, 1 for a plane).
    static func convolve(_ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>, count: Int,
                         into output: UnsafeMutablePointer<Float>)

    /// `output[i] = Σₖ weights[k] · rows[k][i]` for i in 0..<count (the vertical pass: rows are contiguous).
    static func combine(_ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>, count: Int,
                        into output: UnsafeMutablePointer<Float>)

    /// `output[i] = first[i] + t · (second[i] − first[i])` for i in 0..<count.
    static func interpolate(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, t: Float, count: Int,
                            into output: UnsafeMutablePointer<Float>)
}

public enum ScalarKernels: ConvolutionKernelSet {
    public static func convolve(_ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>,
                                count: Int, into output: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            var sum: Float = 0
            for k in 0..<weights.count {
                sum = sum + weights[k] * input[i + k * step]
            }
            output[i] = sum
        }
    }

    public static func combine(_ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>,
                               count: Int, into output: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            var sum: Float = 0
            for k in 0..<weights.count {
                sum = sum + weights[k] * rows[k][i]
            }
            output[i] = sum
        }
    }

    public static func interpolate(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, t: Float,
                                   count: Int, into output: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            output[i] = first[i] + t * (second[i] - first[i])
        }
    }
}

public enum SIMDKernels: ConvolutionKernelSet {
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
    }

    public static func convolve(_ input: UnsafePointer<Float>, step: Int, weights: UnsafeBufferPointer<Float>,
                                count: Int, into output: UnsafeMutablePointer<Float>) {
        let taps = weights.count
        let w = weights.baseAddress!
        var i = 0
        // Two vectors per iteration: twice the independent adds in flight.
        while i + 16 <= count {
            var a = SIMD8<Float>(repeating: 0), b = SIMD8<Float>(repeating: 0)
            var p = input + i
            for k in 0..<taps {
                let weight = SIMD8<Float>(repeating: w[k])
                a = a + weight * load(p)
                b = b + weight * load(p + 8)
                p += step
            }
            store(a, output + i)
            store(b, output + i + 8)
            i += 16
        }
        while i + 8 <= count {
            var a = SIMD8<Float>(repeating: 0)
            var p = input + i
            for k in 0..<taps {
                a = a + SIMD8<Float>(repeating: w[k]) * load(p)
                p += step
            }
            store(a, output + i)
            i += 8
        }
        if i < count {
            ScalarKernels.convolve(input + i, step: step, weights: weights, count: count - i, into: output + i)
        }
    }

    public static func combine(_ rows: UnsafePointer<UnsafePointer<Float>>, weights: UnsafeBufferPointer<Float>,
                               count: Int, into output: UnsafeMutablePointer<Float>) {
        let taps = weights.count
        let w = weights.baseAddress!
        var i = 0
        while i + 16 <= count {
            var a = SIMD8<Float>(repeating: 0), b = SIMD8<Float>(repeating: 0)
            for k in 0..<taps {
                let weight = SIMD8<Float>(repeating: w[k])
                let row = rows[k] + i
                a = a + weight * load(row)
                b = b + weight * load(row + 8)
            }
            store(a, output + i)
            store(b, output + i + 8)
            i += 16
        }
        while i + 8 <= count {
            var a = SIMD8<Float>(repeating: 0)
            for k in 0..<taps {
                a = a + SIMD8<Float>(repeating: w[k]) * load(rows[k] + i)
            }
            store(a, output + i)
            i += 8
        }
        if i < count {
            for j in i..<count {
                var sum: Float = 0
                for k in 0..<taps {
                    sum = sum + w[k] * rows[k][j]
                }
                output[j] = sum
            }
        }
    }

    public static func interpolate(_ first: UnsafePointer<Float>, _ second: UnsafePointer<Float>, t: Float,
                                   count: Int, into output: UnsafeMutablePointer<Float>) {
        let weight = SIMD8<Float>(repeating: t)
        var i = 0
        while i + 8 <= count {
            let a = load(first + i)
            store(a + weight * (load(second + i) - a), output + i)
            i += 8
        }
        if i < count {
            ScalarKernels.interpolate(first + i, second + i, t: t, count: count - i, into: output + i)
        }
    }
}

/// The kernel set chosen once for the process: SIMD, unless `BLURTOOL_KERNELS=reference` asks for the
/// scalar twins (to check a result or compare speed).
public enum Kernels {
    public static let active: any ConvolutionKernelSet.Type = {
        if let value = getenv("BLURTOOL_KERNELS"), String(cString: value) == "reference" {
            return ScalarKernels.self
        }
        return SIMDKernels.self
    }()

    public static var name: String { active == ScalarKernels.self ? "scalar reference" : "SIMD" }
}
