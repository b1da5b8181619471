import TestSupport
import XCTest

@testable import Compositor

/// The pyramid's loops against their scalar twins, to the bit, and the whole route with either set.
final class PyramidKernelTests: XCTestCase {
    func testCellSumsMatchTheScalarTwin() {
        var random = SeededGenerator(seed: 31)
        let width = 203
        let rows = (0..<7).map { _ in (0..<(width * 4)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let pointers = rows.map { row in row.withUnsafeBufferPointer { UnsafePointer($0.baseAddress!) } }
        for rowCount in 0...7 {
            for count in [0, 15, 16, 64, 100, width * 4] {
                var fast = [UInt32](repeating: 1, count: count)
                var scalar = [UInt32](repeating: 2, count: count)
                SIMDKernels.sumRows(pointers, rowCount: rowCount, count: count, into: &fast)
                ScalarKernels.sumRows(pointers, rowCount: rowCount, count: count, into: &scalar)
                XCTAssertEqual(fast, scalar, "\(rowCount) rows, \(count) values")
            }
        }
        let sums = (0..<(width * 4)).map { _ in UInt32.random(in: 0...2000, using: &random) }
        for factor in [1, 2, 3, 7] {
            for cells in [0, 3, 4, 9, width / factor] {
                var fast = [Float](repeating: 1, count: cells * 4)
                var scalar = [Float](repeating: 2, count: cells * 4)
                let scale = 1 / Float(factor * factor)
                SIMDKernels.sumCells(sums, factor: factor, count: cells, scale: scale, into: &fast)
                ScalarKernels.sumCells(sums, factor: factor, count: cells, scale: scale, into: &scalar)
                XCTAssertEqual(fast, scalar, "factor \(factor), \(cells) cells")
            }
        }
    }

    func testConvolvingAcrossMatchesTheScalarTwin() {
        var random = SeededGenerator(seed: 35)
        let line = (0..<(300 * 4)).map { _ in Float.random(in: 0...255, using: &random) }
        let weights = GaussianKernel(sigma: 3.4).weights
        for count in [0, 17, 64, 200, 260 * 4 - 3] {
            var fast = [Float](repeating: 1, count: count)
            var scalar = [Float](repeating: 2, count: count)
            var convolved = [Float](repeating: 3, count: count)
            weights.withUnsafeBufferPointer { weights in
                SIMDKernels.convolveAcross(line, weights: weights, count: count, into: &fast)
                ScalarKernels.convolveAcross(line, weights: weights, count: count, into: &scalar)
                SIMDKernels.convolve(line, step: 4, weights: weights, count: count, into: &convolved)
            }
            XCTAssertEqual(fast, scalar, "\(count) values")
            XCTAssertEqual(fast, convolved, "\(count) values, against convolve")
        }
    }

    func testUpsamplingMatchesTheScalarTwin() {
        var random = SeededGenerator(seed: 32)
        let cells = (0..<(60 * 4)).map { _ in Float.random(in: 0...255, using: &random) }
        // f = 2 has groups of four pixels that span three cells (the per-pixel path); odd widths leave a tail.
        for factor in [2, 3, 4, 9] {
            for (first, count) in [(0, 101), (5, 64), (13, 7), (-3, 40)] {
                let taps = UnsafeMutablePointer<InterpolationTap>.allocate(capacity: count)
                let weights = UnsafeMutablePointer<Float>.allocate(capacity: count * 4)
                let groups = UnsafeMutablePointer<Int32>.allocate(capacity: count / 4 + 1)
                defer {
                    taps.deallocate()
                    weights.deallocate()
                    groups.deallocate()
                }
                let firstCell = PyramidGaussianBlur.floorDivide(first, factor) - 2
                InterpolationTap.write(first: first, count: count, factor: factor, firstCell: firstCell, into: taps)
                for x in 0..<(count * 4) { weights[x] = taps[x / 4].weight }
                UpsampleColumns.writeGroups(taps, count: count, into: groups)
                let columns = UpsampleColumns(count: count, taps: taps, weights: weights, groups: groups)
                var fast = [Float](repeating: 1, count: count * 4)
                var scalar = [Float](repeating: 2, count: count * 4)
                SIMDKernels.upsample(cells, columns: columns, into: &fast)
                ScalarKernels.upsample(cells, columns: columns, into: &scalar)
                XCTAssertEqual(fast, scalar, "factor \(factor) first \(first) count \(count)")
            }
        }
    }

    func testQuantizingAMixedRowMatchesMixingThenTheScalarTwin() {
        var random = SeededGenerator(seed: 34)
        let count = 301
        let upper = (0..<(count * 4)).map { _ in Float.random(in: -20...280, using: &random) }
        let lower = (0..<(count * 4)).map { _ in Float.random(in: -20...280, using: &random) }
        var rowScratch = [Float](repeating: 0, count: count * 4)
        var grainScratch = rowScratch
        for quantizer in [Quantizer(), Quantizer(dither: true), Quantizer(dither: true, grain: 0.15)] {
            for (t, firstX, y) in [(Float(0), 0, 0), (0.37, 5, 7), (0.999, 130, 200)] {
                var mixed = [Float](repeating: 0, count: count * 4)
                ScalarKernels.interpolate(upper, lower, t: t, count: count * 4, into: &mixed)
                var fast = [UInt8](repeating: 0, count: count * 4)
                var scalar = fast
                upper.withUnsafeBufferPointer { upper in
                    lower.withUnsafeBufferPointer { lower in
                        let row = MixedRow(upper: upper.baseAddress!, lower: lower.baseAddress!, t: t)
                        quantizer.quantize(
                            row, count: count, into: &fast, y: y, firstX: firstX, rowScratch: &rowScratch,
                            grainScratch: &grainScratch)
                    }
                }
                quantizer.quantizeReference(mixed, count: count, into: &scalar, y: y, firstX: firstX)
                XCTAssertEqual(fast, scalar, "dither \(quantizer.dither) grain \(quantizer.grain) t \(t)")
            }
        }
    }

    func testPyramidWithEitherKernelSetGivesTheSamePixels() {
        let image = TestImages.photoLike(width: 83, height: 61, seed: 33)
        for sigma in [7.0, 10, 16, 40] {
            for edge in [EdgeMode.mirror, .transparent] {
                var blur = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .fast, threads: 1)
                blur.kernels = SIMDKernels.self
                let fast = blur.apply(to: image)
                blur.kernels = ScalarKernels.self
                let scalar = blur.apply(to: image)
                XCTAssertTrue(fast.hasSamePixels(as: scalar), "σ \(sigma) \(edge)")
            }
        }
    }
}
