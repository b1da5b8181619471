import CKernels
import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// The quantiser's loops at every C level this CPU has, and its Swift loops, against the scalar twin
/// `quantizeReference`, to the bit: straight rows and mixed rows (linear, cubic, whole), dither on and off,
/// values outside 0...255 and exact halves, widths that end inside a vector and inside a noise run.
final class QuantizerLevelTests: XCTestCase {
    /// nil is the Swift loops.
    private var everyLoops: [(name: String, loops: bt_kernel_table?)] {
        [("swift", nil)] + KernelChoice.availableC.map { ($0.rawValue, $0.table) }
    }

    /// Values the rounding must settle like the twin: out of range both ways, halves (ties go to even), zeros.
    private func values(_ count: Int, using random: inout SeededGenerator) -> [Float] {
        (0..<count).map { _ in
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return Float(Int.random(in: -2...257, using: &random)) + 0.5
            case 1: return [-0.0, 0, 255, -300, 1e9][Int.random(in: 0..<5, using: &random)]
            default: return Float.random(in: -20...280, using: &random)
            }
        }
    }

    func testStraightRowsMatchTheTwinAtEveryLevel() {
        var random = SeededGenerator(seed: 41)
        for (name, loops) in everyLoops {
            for dither in [false, true] {
                let quantizer = Quantizer(dither: dither, loops: loops)
                for (count, firstX) in [(1, 0), (15, 3), (16, 0), (77, 120), (301, 5)] {
                    let source = values(count * 4, using: &random)
                    var fast = [UInt8](repeating: 0, count: count * 4)
                    var twin = fast
                    quantizer.quantize(source, count: count, into: &fast, y: 3, firstX: firstX)
                    quantizer.quantizeReference(source, count: count, into: &twin, y: 3, firstX: firstX)
                    XCTAssertEqual(fast, twin, "\(name) dither \(dither) count \(count)")
                }
            }
        }
    }

    func testMixedRowsMatchTheTwinAtEveryLevel() {
        var random = SeededGenerator(seed: 43)
        let count = 133
        let rows = (0..<4).map { _ in values(count * 4, using: &random) }
        let mixes: [SIMD4<Float>] = [
            SIMD4(0, 1, 0, 0), SIMD4(0, 0.63, 0.37, 0), PyramidGaussianBlur.Interpolation.cubic.weights(at: 0.37),
            PyramidGaussianBlur.Interpolation.cubic.weights(at: 0.9),
        ]
        var rowScratch = [Float](repeating: 0, count: count * 4)
        var grainScratch = rowScratch
        for (name, loops) in everyLoops {
            for dither in [false, true] {
                let quantizer = Quantizer(dither: dither, loops: loops)
                for (w, firstX) in zip(mixes, [0, 5, 127, 77]) {
                    let mixed = MixedRow.mixed(rows, weights: w)
                    var fast = [UInt8](repeating: 0, count: count * 4)
                    var twin = fast
                    MixedRow.over(rows, weights: w) { row in
                        quantizer.quantize(
                            row, count: count, into: &fast, y: 2, firstX: firstX, rowScratch: &rowScratch,
                            grainScratch: &grainScratch)
                    }
                    quantizer.quantizeReference(mixed, count: count, into: &twin, y: 2, firstX: firstX)
                    XCTAssertEqual(fast, twin, "\(name) dither \(dither) weights \(w)")
                }
            }
        }
    }

    func testColoursAreLimitedToAlphaAtEveryLevel() {
        var random = SeededGenerator(seed: 47)
        for (name, loops) in everyLoops {
            for count in [0, 1, 15, 16, 17, 50] {
                let pixels = (0..<(count * 4)).map { _ in UInt8.random(in: 0...255, using: &random) }
                var limited = pixels
                Quantizer.limitColoursToAlpha(&limited, count: count, loops: loops)
                let expected = (0..<(count * 4)).map { i in i % 4 == 3 ? pixels[i] : min(pixels[i], pixels[i | 3]) }
                XCTAssertEqual(limited, expected, "\(name) count \(count)")
            }
        }
    }
}
