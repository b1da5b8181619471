import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// The pyramid's loops against their scalar twins, to the bit, and the whole route with either set.
final class PyramidKernelTests: XCTestCase {
    /// The rows in memory of their own, freed after the test: a pointer taken inside `withUnsafeBufferPointer`
    /// must not be used after it returns (the array may move or be freed; ASan reports it).
    private func byteRows(_ rows: [[UInt8]]) -> [UnsafePointer<UInt8>] {
        rows.map { row in
            let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: max(row.count, 1))
            memory.initialize(from: row, count: row.count)
            addTeardownBlock { memory.deallocate() }
            return UnsafePointer(memory)
        }
    }

    /// The Swift SIMD kernels and every C level this CPU has.
    private var fastSets: [(name: String, kernels: any PyramidKernelSet.Type)] {
        KernelChoice.available.filter { $0 != .reference }.map {
            ($0.rawValue, $0.kernels as! any PyramidKernelSet.Type)
        }
    }

    func testCellSumsMatchTheScalarTwin() {
        var random = SeededGenerator(seed: 31)
        let width = 203
        let rows = (0..<7).map { _ in (0..<(width * 4)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let pointers = byteRows(rows)
        for rowCount in 0...7 {
            for count in [0, 15, 16, 64, 100, width * 4] {
                var fast = [UInt32](repeating: 1, count: count)
                var scalar = [UInt32](repeating: 2, count: count)
                ScalarKernels.sumRows(pointers, rowCount: rowCount, count: count, into: &scalar)
                for (name, kernels) in fastSets {
                    kernels.sumRows(pointers, rowCount: rowCount, count: count, into: &fast)
                    XCTAssertEqual(fast, scalar, "\(name) \(rowCount) rows, \(count) values")
                }
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

    /// The 16-bit sums, up to their limit of 257 rows of 255 (65,535 exactly), against the scalar twins and the
    /// 32-bit sums.
    func testNarrowCellSumsMatchTheScalarTwinAndTheWideSums() {
        var random = SeededGenerator(seed: 36)
        let width = 203
        let rows = (0..<7).map { _ in (0..<(width * 4)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let full = [UInt8](repeating: 255, count: width * 4)
        let pointers =
            byteRows(rows) + [UnsafePointer<UInt8>](repeating: byteRows([full])[0], count: maximumNarrowRows - 7)
        for rowCount in Array(0...7) + [maximumNarrowRows] {
            for count in [0, 15, 16, 127, 128, 300, width * 4] {
                var fast = [UInt16](repeating: 1, count: count)
                var scalar = [UInt16](repeating: 2, count: count)
                var wide = [UInt32](repeating: 3, count: count)
                ScalarKernels.sumNarrowRows(pointers, rowCount: rowCount, count: count, into: &scalar)
                ScalarKernels.sumRows(pointers, rowCount: rowCount, count: count, into: &wide)
                XCTAssertEqual(scalar.map(UInt32.init), wide, "\(rowCount) rows, \(count) values")
                for (name, kernels) in fastSets {
                    kernels.sumNarrowRows(pointers, rowCount: rowCount, count: count, into: &fast)
                    XCTAssertEqual(fast, scalar, "\(name) \(rowCount) rows, \(count) values")
                }
            }
        }
        let sums = (0..<(width * 4)).map { _ in UInt16.random(in: 0...65_535, using: &random) }
        for factor in [1, 2, 3, 7, 50] {
            for cells in [0, 3, 4, 9, width / factor] where cells <= width / factor {
                var fast = [Float](repeating: 1, count: cells * 4)
                var scalar = [Float](repeating: 2, count: cells * 4)
                var wide = [Float](repeating: 3, count: cells * 4)
                let scale = 1 / Float(factor * factor)
                SIMDKernels.sumNarrowCells(sums, factor: factor, count: cells, scale: scale, into: &fast)
                ScalarKernels.sumNarrowCells(sums, factor: factor, count: cells, scale: scale, into: &scalar)
                ScalarKernels.sumCells(sums.map(UInt32.init), factor: factor, count: cells, scale: scale, into: &wide)
                XCTAssertEqual(fast, scalar, "factor \(factor), \(cells) cells")
                XCTAssertEqual(fast, wide, "factor \(factor), \(cells) cells")
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
            for (name, kernels) in fastSets {
                weights.withUnsafeBufferPointer { weights in
                    kernels.convolveAcross(line, weights: weights, count: count, into: &fast)
                    ScalarKernels.convolveAcross(line, weights: weights, count: count, into: &scalar)
                    (kernels as! any ConvolutionKernelSet.Type).convolve(
                        line, step: 4, weights: weights, count: count, into: &convolved)
                }
                XCTAssertEqual(fast, scalar, "\(name) \(count) values")
                XCTAssertEqual(fast, convolved, "\(name) \(count) values, against convolve")
            }
        }
    }

    func testUpsamplingMatchesTheScalarTwin() {
        var random = SeededGenerator(seed: 32)
        let cells = (0..<(64 * 4)).map { _ in Float.random(in: 0...255, using: &random) }
        // f = 2 has groups of four pixels that span three cells (the per-pixel path); odd widths leave a tail.
        for interpolation in [PyramidGaussianBlur.Interpolation.linear, .cubic] {
            for factor in [2, 3, 4, 9, 16] {
                for (first, count) in [(0, 101), (5, 64), (13, 7), (-3, 40)] {
                    let taps = UnsafeMutablePointer<InterpolationTap>.allocate(capacity: count)
                    let fractions = UnsafeMutablePointer<Float>.allocate(capacity: count * 4)
                    let groups = UnsafeMutablePointer<Int32>.allocate(capacity: count / 4 + 1)
                    defer {
                        taps.deallocate()
                        fractions.deallocate()
                        groups.deallocate()
                    }
                    let firstCell = PyramidGaussianBlur.floorDivide(first, factor) - 3
                    InterpolationTap.write(
                        first: first, count: count, factor: factor, firstCell: firstCell, interpolation: interpolation,
                        into: taps)
                    for x in 0..<(count * 4) { fractions[x] = taps[x / 4].t }
                    UpsampleColumns.writeGroups(taps, count: count, into: groups)
                    let columns = UpsampleColumns(
                        count: count, taps: taps, fractions: fractions, groups: groups, interpolation: interpolation)
                    var scalar = [Float](repeating: 2, count: count * 4)
                    ScalarKernels.upsample(cells, columns: columns, into: &scalar)
                    for (name, kernels) in fastSets {
                        var fast = [Float](repeating: 1, count: count * 4)
                        kernels.upsample(cells, columns: columns, into: &fast)
                        XCTAssertEqual(
                            fast, scalar, "\(name) \(interpolation) factor \(factor) first \(first) count \(count)")
                    }
                }
            }
        }
    }

    /// Catmull-Rom's weights: (0, 1, 0, 0) at a sample, summing to 1, reproducing quadratics, symmetric, and the
    /// same to the bit when the SIMD kernel computes them 16 lanes at a time.
    func testCubicWeightsInterpolateQuadraticsAndMatchTheirLaneByLaneTwin() {
        let cubic = PyramidGaussianBlur.Interpolation.cubic
        XCTAssertEqual(cubic.weights(at: 0), SIMD4(0, 1, 0, 0))
        let fractions = (0..<64).map { Float($0) / 64 }
        for t in fractions {
            let w = cubic.weights(at: t)
            XCTAssertEqual(w.sum(), 1, accuracy: 1e-6, "t \(t)")
            let quadratic = { (x: Float) in 3 * x * x - 2 * x + 1 }
            let interpolated = w[0] * quadratic(-1) + w[1] * quadratic(0) + w[2] * quadratic(1) + w[3] * quadratic(2)
            XCTAssertEqual(interpolated, quadratic(t), accuracy: 1e-5, "t \(t)")
            let mirrored = cubic.weights(at: 1 - t)
            XCTAssertEqual(w[0], mirrored[3], accuracy: 1e-7)
            XCTAssertEqual(w[1], mirrored[2], accuracy: 1e-7)
        }
        for interpolation in [PyramidGaussianBlur.Interpolation.linear, .cubic] {
            for start in stride(from: 0, to: 64, by: 16) {
                let lanes = SIMD16(fractions[start..<(start + 16)])
                let (w0, w1, w2, w3) = interpolation.weights(atLanes: lanes)
                for lane in 0..<16 {
                    let w = interpolation.weights(at: lanes[lane])
                    XCTAssertEqual(
                        [w0[lane], w1[lane], w2[lane], w3[lane]].map(\.bitPattern),
                        [w[0], w[1], w[2], w[3]].map(\.bitPattern))
                }
            }
        }
    }

    func testQuantizingAMixedRowMatchesMixingThenTheScalarTwin() {
        var random = SeededGenerator(seed: 34)
        let count = 301
        let rows = (0..<4).map { _ in (0..<(count * 4)).map { _ in Float.random(in: -20...280, using: &random) } }
        var rowScratch = [Float](repeating: 0, count: count * 4)
        var grainScratch = rowScratch
        let mixes: [SIMD4<Float>] = [
            SIMD4(0, 1, 0, 0), SIMD4(0, 0.63, 0.37, 0), SIMD4(0, 0.001, 0.999, 0),
            PyramidGaussianBlur.Interpolation.cubic.weights(at: 0.37),
            PyramidGaussianBlur.Interpolation.cubic.weights(at: 0.9),
        ]
        for quantizer in [Quantizer(), Quantizer(dither: true), Quantizer(dither: true, grain: 0.15)] {
            for (w, (firstX, y)) in zip(mixes, [(0, 0), (5, 7), (130, 200), (3, 9), (77, 1)]) {
                let mixed = MixedRow.mixed(rows, weights: w)
                var fast = [UInt8](repeating: 0, count: count * 4)
                var scalar = fast
                var written = [Float](repeating: .nan, count: count * 4)
                MixedRow.over(rows, weights: w) { row in
                    quantizer.quantize(
                        row, count: count, into: &fast, y: y, firstX: firstX, rowScratch: &rowScratch,
                        grainScratch: &grainScratch)
                    row.write(count: count * 4, into: &written)
                }
                XCTAssertEqual(written, mixed, "weights \(w)")
                quantizer.quantizeReference(mixed, count: count, into: &scalar, y: y, firstX: firstX)
                XCTAssertEqual(fast, scalar, "dither \(quantizer.dither) grain \(quantizer.grain) weights \(w)")
            }
        }
    }

    /// A group of rows quantised together, column run by column run, gives each row's bytes as quantising it
    /// alone does: cubic and linear mixes, with and without dither, widths that end inside a noise run.
    func testQuantizingAGroupEqualsQuantizingEachRow() {
        var random = SeededGenerator(seed: 37)
        let count = 301
        let rows = (0..<4).map { _ in (0..<(count * 4)).map { _ in Float.random(in: -20...280, using: &random) } }
        let cubic = (0..<5).map { PyramidGaussianBlur.Interpolation.cubic.weights(at: Float($0) / 5) }
        let linear = (0..<5).map { PyramidGaussianBlur.Interpolation.linear.weights(at: Float($0) / 5) }
        for quantizer in [Quantizer(), Quantizer(dither: true)] {
            for (weights, firstX) in [(cubic, 0), (cubic, 77), (linear, 5)] {
                let bytesPerRow = count * 4 + 12
                var grouped = [UInt8](repeating: 0, count: bytesPerRow * weights.count)
                var single = grouped
                var scratch = [Float](repeating: 0, count: count * 4)
                var grainScratch = scratch
                rows[0].withUnsafeBufferPointer { r0 in
                    rows[1].withUnsafeBufferPointer { r1 in
                        rows[2].withUnsafeBufferPointer { r2 in
                            rows[3].withUnsafeBufferPointer { r3 in
                                weights.withUnsafeBufferPointer { weights in
                                    let sources = (r0.baseAddress!, r1.baseAddress!, r2.baseAddress!, r3.baseAddress!)
                                    let group = MixedRowGroup(sources, weights: weights)
                                    quantizer.quantize(
                                        group, count: count, into: &grouped, bytesPerRow: bytesPerRow, y: 9,
                                        firstX: firstX)
                                    single.withUnsafeMutableBufferPointer { single in
                                        for r in 0..<group.count {
                                            quantizer.quantize(
                                                group[r], count: count, into: single.baseAddress! + r * bytesPerRow,
                                                y: 9 + r, firstX: firstX, rowScratch: &scratch,
                                                grainScratch: &grainScratch)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                XCTAssertEqual(grouped, single, "dither \(quantizer.dither) first x \(firstX) weights \(weights[1])")
            }
        }
    }

    func testPyramidWithEitherKernelSetGivesTheSamePixels() {
        let image = TestImages.photoLike(width: 83, height: 61, seed: 33)
        for sigma in [7.0, 10, 16, 25, 40, 900] {  // σ 900: f = 272, past 16-bit row sums
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

extension MixedRow {
    /// `body` given the mixed row of four arrays of values (the arrays stay alive for it).
    static func over(_ rows: [[Float]], weights: SIMD4<Float>, _ body: (MixedRow) -> Void) {
        rows[0].withUnsafeBufferPointer { r0 in
            rows[1].withUnsafeBufferPointer { r1 in
                rows[2].withUnsafeBufferPointer { r2 in
                    rows[3].withUnsafeBufferPointer { r3 in
                        body(MixedRow(r0.baseAddress!, r1.baseAddress!, r2.baseAddress!, r3.baseAddress!, weights: weights))
                    }
                }
            }
        }
    }

    /// The mix as written in MixedRow's documentation, one value at a time.
    static func mixed(_ rows: [[Float]], weights w: SIMD4<Float>) -> [Float] {
        (0..<rows[0].count).map { i in w[0] * rows[0][i] + w[1] * rows[1][i] + w[2] * rows[2][i] + w[3] * rows[3][i] }
    }
}
