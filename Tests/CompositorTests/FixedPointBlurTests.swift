import TestSupport
import XCTest

import CKernels
@_spi(Benchmarks) @testable import Compositor

/// The exact engine's integer route: its stated error bound against a Double evaluation of the same kernel,
/// its kernels against their scalar twins at the extremes of their ranges, and the Float route it leaves
/// above σ 8.
final class FixedPointBlurTests: XCTestCase {
    private let sigmas = [0.3, 0.8, 2, 3, 5.5, 8]

    /// `image` blurred with `kernel`'s weights in Double arithmetic, through the same edge mode, unrounded.
    private func exactBlur(_ image: Image, kernel: GaussianKernel, edge: EdgeMode) -> [Double] {
        let (width, height, radius) = (image.width, image.height, kernel.radius)
        let weights = kernel.weights.map(Double.init)
        var horizontal = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                for (index, weight) in weights.enumerated() {
                    let sourceX = edge.sourceIndex(x + index - radius, count: width)
                    guard sourceX >= 0 else { continue }
                    let pixel = image[sourceX, y]
                    for (c, value) in [pixel.red, pixel.green, pixel.blue, pixel.alpha].enumerated() {
                        horizontal[(y * width + x) * 4 + c] += weight * Double(value)
                    }
                }
            }
        }
        var result = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for (index, weight) in weights.enumerated() {
                let sourceY = edge.sourceIndex(y + index - radius, count: height)
                guard sourceY >= 0 else { continue }
                for i in 0..<(width * 4) { result[y * width * 4 + i] += weight * horizontal[sourceY * width * 4 + i] }
            }
        }
        return result
    }

    /// The largest distance between `image`'s values and `exact`.
    private func maxDistance(_ image: Image, _ exact: [Double]) -> Double {
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                for (c, value) in [pixel.red, pixel.green, pixel.blue, pixel.alpha].enumerated() {
                    worst = max(worst, abs(Double(value) - exact[(y * image.width + x) * 4 + c]))
                }
            }
        }
        return worst
    }

    /// An image whose middle column's horizontal sum meets the weight rounding at its worst: 255 where the
    /// integer weight exceeds the exact one, 0 where it falls short (a dropped tap's is zero), the same in every row.
    private func worstCaseForWeights(_ kernel: GaussianKernel, width: Int, height: Int) -> Image {
        let integer = FixedPoint.weights(kernel, scale: FixedPoint.horizontalScale)
        let image = Image(width: width, height: height)
        let middle = width / 2
        for offset in -kernel.radius...kernel.radius {
            let exact = Double(kernel.weights[kernel.radius + offset]) * Double(FixedPoint.horizontalScale)
            let kept = abs(offset) < integer.count ? Double(integer[abs(offset)]) : 0
            let value: UInt8 = kept > exact ? 255 : 0
            for y in 0..<height {
                image[middle + offset, y] = Pixel(red: value, green: 255 - value, blue: value, alpha: 255)
            }
        }
        return image
    }

    func testEveryValueIsWithinTheStatedBoundOfTheExactBlurAndSoWithinOneLevel() {
        for sigma in sigmas {
            let kernel = GaussianKernel(sigma: sigma)
            let bound = FixedPoint.errorBound(kernel)
            XCTAssertLessThanOrEqual(bound, FixedPoint.largestErrorBound, "σ \(sigma): the bound itself")
            let images = [
                TestImages.randomPremultiplied(width: 37, height: 19, seed: 7),
                worstCaseForWeights(kernel, width: 2 * kernel.radius + 3, height: 5),
            ]
            for image in images {
                for edge in EdgeMode.allCases {
                    let blurred = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .exact).apply(to: image)
                    let distance = maxDistance(blurred, exactBlur(image, kernel: kernel, edge: edge))
                    XCTAssertLessThanOrEqual(distance, bound, "σ \(sigma) \(edge) \(image.width)x\(image.height)")
                }
            }
        }
    }

    /// The integer route drops a 4σ kernel's outermost taps only while its bound holds: at σ 2 the eighth (one
    /// multiply-add in five), at σ 3 the twelfth, at σ 8 none; each σ keeps the fewest taps within the bound.
    func testOutermostTapsAreDroppedOnlyWithinTheBound() {
        XCTAssertEqual(FixedPoint.radius(of: GaussianKernel(sigma: 2)), 7)
        XCTAssertEqual(FixedPoint.radius(of: GaussianKernel(sigma: 3)), 11)
        XCTAssertEqual(FixedPoint.radius(of: GaussianKernel(sigma: 8)), 32)
        XCTAssertEqual(FixedPoint.errorBound(GaussianKernel(sigma: 2)), 0.617, accuracy: 0.001)
        for sigma in stride(from: 0.25, through: 8, by: 0.05) {
            let kernel = GaussianKernel(sigma: sigma)
            let radius = FixedPoint.radius(of: kernel)
            XCTAssertLessThanOrEqual(FixedPoint.errorBound(kernel), FixedPoint.largestErrorBound, "σ \(sigma)")
            if radius > 1 {
                XCTAssertGreaterThan(
                    FixedPoint.errorBound(kernel, radius: radius - 1), FixedPoint.largestErrorBound, "σ \(sigma)")
            }
            let weights = FixedPoint.weights(kernel, scale: FixedPoint.verticalScale)
            XCTAssertEqual(weights.count, radius + 1)
            XCTAssertEqual(weights[0] + 2 * weights.dropFirst().reduce(0, +), UInt32(FixedPoint.verticalScale))
        }
    }

    func testUniformImagesStayUniformAtTheExtremes() {
        for sigma in sigmas {
            for fill in [
                Pixel(red: 255, green: 255, blue: 255, alpha: 255), Pixel(red: 1, green: 0, blue: 254, alpha: 254),
            ] {
                let image = Image(width: 41, height: 9, fill: fill)
                let blurred = GaussianBlur(sigma: sigma, edgeMode: .mirror, precision: .exact).apply(to: image)
                XCTAssertTrue(blurred.hasSamePixels(as: image), "σ \(sigma) \(fill)")
            }
        }
    }

    /// The Swift SIMD kernels and every C level this CPU has (`KernelChoice.available`).
    private var fastKernelSets: [(name: String, kernels: any FixedPointKernelSet.Type)] {
        KernelChoice.available.filter { $0 != .reference }.map {
            ($0.rawValue, $0.kernels as! any FixedPointKernelSet.Type)
        }
    }

    func testKernelsAgreeWithTheirScalarTwinsAtTheEdgesOfTheirRanges() {
        for (name, kernels) in fastKernelSets {
            kernelsAgreeWithTheirScalarTwins(kernels, name: name)
        }
    }

    private func kernelsAgreeWithTheirScalarTwins(_ kernels: any FixedPointKernelSet.Type, name: String) {
        var random = SeededGenerator(seed: 17)
        // 2…12 are the radii the multiply-add route unrolls (fixed_point_madd.inc); 13 is the first it loops over.
        for radius in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 32] {
            let kernel = GaussianKernel(sigma: Double(radius) / 4)
            XCTAssertEqual(kernel.radius, radius)
            // The SIMD loops have a copy for weights that fit 16 bits and one for weights that do not: the
            // vertical centre weight passes 2¹⁶ up to radius 3 (σ 0.75), so both copies run here.
            let vertical = FixedPoint.weights(kernel, scale: FixedPoint.verticalScale, radius: radius)
            let wide = vertical.contains { $0 > 0xFFFF }
            XCTAssertEqual(wide, radius <= 3, "radius \(radius)")
            // The multiply-add route (AVX2 and AVX-512) takes weights that fit a signed word: horizontally from
            // radius 4 (σ 1), vertically from radius 7 (σ 1.75), so 5 and 6 take it in one pass only; 7 is odd, its
            // last pair of taps one tap.
            func fitSignedWords(_ scale: Int) -> Bool {
                FixedPoint.weights(kernel, scale: scale, radius: radius).allSatisfy { $0 <= 0x7FFF }
            }
            XCTAssertEqual(fitSignedWords(FixedPoint.horizontalScale), radius >= 4, "radius \(radius)")
            XCTAssertEqual(fitSignedWords(FixedPoint.verticalScale), radius >= 7, "radius \(radius)")
            // 53: 16 past a multiple of 32, where AVX-512's multiply-add route does a step its own words would not.
            for count in [5, 32, 53, 77, 160, 203] {
                for step in [1, 4] {
                    // Bytes, extremes included: 255 everywhere is the largest sum.
                    let line = (0..<(count + 2 * radius * step)).map { _ in
                        [0, 255, UInt16.random(in: 0...255, using: &random)][Int.random(in: 0..<3, using: &random)]
                    }
                    let weights = FixedPoint.weights(kernel, scale: FixedPoint.horizontalScale, radius: radius)
                    var fast = [UInt16](repeating: 0, count: count)
                    var scalar = fast
                    weights.withUnsafeBufferPointer { w in
                        kernels.blurRow(line, step: step, weights: w, count: count, into: &fast)
                        ScalarKernels.blurRow(line, step: step, weights: w, count: count, into: &scalar)
                    }
                    XCTAssertEqual(fast, scalar, "\(name) blurRow radius \(radius) count \(count) step \(step)")
                    XCTAssertLessThanOrEqual(fast.max() ?? 0, FixedPoint.largestIntermediate)
                }
                for outputs in 1...4 {
                    let largest = FixedPoint.largestIntermediate
                    let rows = (0..<(2 * radius + outputs)).map { _ in
                        (0..<count).map { _ in
                            [0, largest, UInt16.random(in: 0...largest, using: &random)][
                                Int.random(in: 0..<3, using: &random)]
                        }
                    }
                    let fast = combined(rows, kernel: kernel, count: count, outputs: outputs, kernels: kernels)
                    let scalar = combined(
                        rows, kernel: kernel, count: count, outputs: outputs, kernels: ScalarKernels.self)
                    XCTAssertEqual(fast, scalar, "\(name) combine radius \(radius) count \(count) outputs \(outputs)")
                    let prefetching = combined(
                        rows, kernel: kernel, count: count, outputs: outputs, kernels: kernels, prefetching: true)
                    XCTAssertEqual(prefetching, fast, "\(name) combine prefetching radius \(radius) count \(count)")
                }
            }
        }
    }

    private func combined(
        _ rows: [[UInt16]], kernel: GaussianKernel, count: Int, outputs: Int, kernels: any FixedPointKernelSet.Type,
        prefetching: Bool = false
    ) -> [[UInt8]] {
        let rowPointers = rows.map { row in
            let pointer = UnsafeMutablePointer<UInt16>.allocate(capacity: count)
            pointer.update(from: row, count: count)
            return UnsafePointer(pointer)
        }
        let outputPointers = (0..<outputs).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: count) }
        defer {
            rowPointers.forEach { $0.deallocate() }
            outputPointers.forEach { $0.deallocate() }
        }
        let weights = FixedPoint.weights(kernel, scale: FixedPoint.verticalScale, radius: kernel.radius)
        weights.withUnsafeBufferPointer { w in
            outputPointers.withUnsafeBufferPointer { outputBuffer in
                guard prefetching else {
                    return kernels.combine(rowPointers, weights: w, count: count, into: outputBuffer)
                }
                // As many upcoming rows as outputs (so fewer than four too), each the bytes of one of the rows.
                var upcoming = bt_upcoming_rows()
                upcoming.count = outputs
                upcoming.bytes = 2 * count
                withUnsafeMutablePointer(to: &upcoming.rows) { tuple in
                    tuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 4) { named in
                        for r in 0..<outputs {
                            named[r] = UnsafeRawPointer(rowPointers[r]).assumingMemoryBound(to: UInt8.self)
                        }
                    }
                }
                kernels.combine(rowPointers, weights: w, count: count, into: outputBuffer, prefetching: &upcoming)
            }
        }
        return outputPointers.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// Above σ 8 the exact route stays in Float: its SIMD kernels against their twins and the reference.
    func testTheFloatRouteAboveTheIntegerRange() {
        let image = TestImages.randomPremultiplied(width: 45, height: 21, seed: 3)
        for sigma in [8.3, 11.0] {
            XCTAssertGreaterThan(GaussianKernel(sigma: sigma).radius, FixedPoint.maximumRadius)
            for edge in [EdgeMode.mirror, .transparent] {
                var blur = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .exact, threads: 1)
                blur.kernels = SIMDKernels.self
                let fast = blur.apply(to: image)
                blur.kernels = ScalarKernels.self
                XCTAssertTrue(fast.hasSamePixels(as: blur.apply(to: image)), "σ \(sigma) \(edge)")
                let reference = Image(width: image.width, height: image.height)
                ReferenceGaussianBlur(source: image, sigma: sigma, edgeMode: edge).render(into: reference, threads: 1)
                XCTAssertLessThanOrEqual(ImageDifference(fast, reference).maxError, 1, "σ \(sigma) \(edge)")
            }
        }
    }

    func testInvalidPremultipliedInputStillGivesPremultipliedOutput() {
        let image = TestImages.randomPremultiplied(width: 40, height: 12, seed: 5)
        for x in 0..<40 { image[x, 6] = Pixel(red: 200, green: 90, blue: 255, alpha: 10) }
        let blurred = GaussianBlur(sigma: 1.5, precision: .exact).apply(to: image)
        for y in 0..<12 {
            for x in 0..<40 {
                let pixel = blurred[x, y]
                XCTAssertLessThanOrEqual(max(pixel.red, pixel.green, pixel.blue), pixel.alpha, "\((x, y))")
            }
        }
    }
}
