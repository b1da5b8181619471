import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

final class ResamplerTests: XCTestCase {
    func testConstantImageStaysConstantUnderEveryFilterAndFit() {
        let pixel = Pixel(red: 200, green: 90, blue: 17, alpha: 255)
        let image = Image(width: 57, height: 31, fill: pixel)
        for filter in ResampleFilter.allCases {
            for (width, height) in [(20, 40), (113, 9), (57, 31), (200, 120)] {
                for mode in FitMode.allCases {
                    let result = Resampler(filter: filter).fit(
                        image, width: width, height: height, mode: mode,
                        background: pixel)
                    XCTAssertTrue(
                        result.hasSamePixels(as: Image(width: width, height: height, fill: pixel)),
                        "\(filter) \(mode) \(width)x\(height): no dark or transparent fringe")
                }
            }
        }
    }

    func testOneToOneIsExactForInterpolatingFilters() {
        let image = TestImages.randomPremultiplied(width: 23, height: 17, seed: 51)
        for filter in [ResampleFilter.nearest, .bilinear, .catmullRom, .lanczos3] {
            let result = Resampler(filter: filter).resize(image, width: 23, height: 17)
            XCTAssertTrue(result.hasSamePixels(as: image), "\(filter)")
        }
    }

    func testTwiceUpThenHalfDownComesBack() {
        let image = TestImages.photoLike(width: 64, height: 48, seed: 52)
        for filter in [ResampleFilter.bilinear, .catmullRom, .mitchell, .lanczos3] {
            let up = Resampler(filter: filter).resize(image, width: 128, height: 96)
            let back = Resampler(filter: filter).resize(up, width: 64, height: 48)
            let difference = ImageDifference(back, image)
            // Measured on this image of hard-edged discs: Lanczos-3 38.9 dB, Catmull-Rom 36.2, Mitchell 32.7,
            // bilinear 31.5 (the softer filters blur on the way up and on the way down).
            let bounds: [ResampleFilter: Double] = [.lanczos3: 37, .catmullRom: 35, .mitchell: 31, .bilinear: 30]
            XCTAssertGreaterThanOrEqual(difference.psnr, bounds[filter]!, "\(filter): \(difference)")
        }
    }

    /// Lanczos-3 against the same filter evaluated in Double, pixel by pixel (minifying by 2.5 and magnifying).
    func testLanczosIsWithinOneLSBOfAFloat64Evaluation() {
        let image = TestImages.photoLike(width: 50, height: 40, seed: 53)
        for (width, height) in [(20, 16), (77, 61)] {
            let result = Resampler(filter: .lanczos3).resize(image, width: width, height: height)
            let sx = 50.0 / Double(width)
            let sy = 40.0 / Double(height)
            var maxError = 0.0
            for y in 0..<height {
                for x in 0..<width {
                    var sums = [Double](repeating: 0, count: 4)
                    var total = 0.0
                    let cx = (Double(x) + 0.5) * sx - 0.5
                    let cy = (Double(y) + 0.5) * sy - 0.5
                    let stretchX = max(sx, 1)
                    let stretchY = max(sy, 1)
                    for j in 0..<40 {
                        let wy = ResampleFilter.lanczos3.weight((Double(j) - cy) / stretchY)
                        guard wy != 0 else { continue }
                        for i in 0..<50 {
                            let w = wy * ResampleFilter.lanczos3.weight((Double(i) - cx) / stretchX)
                            guard w != 0 else { continue }
                            let p = image[i, j]
                            for (c, v) in [p.red, p.green, p.blue, p.alpha].enumerated() { sums[c] += w * Double(v) }
                            total += w
                        }
                    }
                    let p = result[x, y]
                    for (c, v) in [p.red, p.green, p.blue].enumerated() {
                        let expected = min(max(sums[c] / total, 0), sums[3] / total)
                        maxError = max(maxError, abs(Double(v) - expected))
                    }
                }
            }
            XCTAssertLessThanOrEqual(maxError, 1, "\(width)x\(height)")
        }
    }

    /// The Swift SIMD kernels and every C level this CPU has.
    func testRowKernelsMatchTheirScalarTwins() {
        for choice in KernelChoice.available where choice != .reference {
            rowKernelsMatchTheirScalarTwins(choice.kernels, name: choice.rawValue)
        }
    }

    private func rowKernelsMatchTheirScalarTwins(_ kernels: any ConvolutionKernelSet.Type, name: String) {
        let image = TestImages.randomPremultiplied(width: 97, height: 3, seed: 54)
        var span = [Float](repeating: 0, count: 97 * 4)
        for i in 0..<(97 * 4) { span[i] = Float(image.row(1)[i]) }
        for filter in ResampleFilter.allCases {
            for count in [31, 97, 250] {
                let weights = ResampleWeights(filter: filter, sourceCount: 97, start: 0, length: 97, count: count)
                let taps = (weights.taps + 1) / 2 * 2
                var first = [Int](repeating: 0, count: count)
                var expanded = [Float](repeating: 0, count: count * taps * 4)
                weights.writeRowLayout(firstColumn: 0, taps: taps, first: &first, weights: &expanded)
                // Zeros past the last column, as the resampler's span has them.
                let padded = span + [Float](repeating: 0, count: taps * 4)
                var fast = [Float](repeating: 0, count: count * 4)
                var scalar = fast
                kernels.resampleRow(padded, first: first, weights: expanded, taps: taps, count: count, into: &fast)
                ScalarKernels.resampleRow(
                    padded, first: first, weights: expanded, taps: taps, count: count, into: &scalar)
                XCTAssertEqual(fast, scalar, "\(name) \(filter) \(count)")
                // Two rows at once (the second span the first reversed), each as its own row.
                let second = Array(padded.reversed())
                var pair = [Float](repeating: 0, count: count * 8)
                var secondScalar = scalar
                pair.withUnsafeMutableBufferPointer { pair in
                    kernels.resampleRowPair(
                        padded, second, first: first, weights: expanded, taps: taps, count: count,
                        into: pair.baseAddress!, pair.baseAddress! + count * 4)
                }
                ScalarKernels.resampleRow(
                    second, first: first, weights: expanded, taps: taps, count: count, into: &secondScalar)
                XCTAssertEqual(pair, scalar + secondScalar, "\(name) \(filter) \(count), two rows")
            }
        }
        // The vertical pass over bytes: SIMD against the scalar twin, to the bit.
        let rows = (0..<3).map { UnsafePointer(image.row($0)) }
        let weights: [Float] = [0.2, 0.5, 0.3]
        // Four-vector steps, single-vector steps and scalar tails.
        for count in [97 * 4, 87, 5] {
            var fast = [Float](repeating: 0, count: count)
            var scalar = fast
            rows.withUnsafeBufferPointer { rows in
                weights.withUnsafeBufferPointer { weights in
                    kernels.combineBytes(rows.baseAddress!, weights: weights, count: count, into: &fast)
                    ScalarKernels.combineBytes(rows.baseAddress!, weights: weights, count: count, into: &scalar)
                }
            }
            XCTAssertEqual(fast, scalar, "\(name) combineBytes \(count)")
        }
    }

    func testBitIdenticalForEveryThreadCount() {
        let image = TestImages.photoLike(width: 150, height: 110, seed: 55)
        let baseline = Resampler(filter: .lanczos3, threads: 1).fit(image, width: 47, height: 83, mode: .fill)
        for threads in [2, 3, 7] {
            let result = Resampler(filter: .lanczos3, threads: threads).fit(image, width: 47, height: 83, mode: .fill)
            XCTAssertTrue(result.hasSamePixels(as: baseline), "threads \(threads)")
        }
    }

    func testFitLayouts() {
        let fill = FitLayout(sourceWidth: 4032, sourceHeight: 3024, frameWidth: 1170, frameHeight: 2532, mode: .fill)
        XCTAssertEqual(fill.sourceRect.height, 3024, accuracy: 1e-9)
        XCTAssertEqual(fill.sourceRect.width, 3024.0 * 1170 / 2532, accuracy: 1e-9)
        XCTAssertEqual(fill.sourceRect.x, (4032 - 3024.0 * 1170 / 2532) / 2, accuracy: 1e-9)
        XCTAssertTrue(fill.frameRect == (0, 0, 1170, 2532))
        let fit = FitLayout(sourceWidth: 4032, sourceHeight: 3024, frameWidth: 1170, frameHeight: 2532, mode: .fit)
        XCTAssertTrue(fit.frameRect == (0, (2532 - 878) / 2, 1170, 878), "\(fit.frameRect)")
        let stretch = FitLayout(sourceWidth: 10, sourceHeight: 20, frameWidth: 5, frameHeight: 5, mode: .stretch)
        XCTAssertTrue(stretch.sourceRect == (0, 0, 10, 20))
        XCTAssertEqual(fill.shrinkFactor, 3024.0 / 2532, accuracy: 1e-9)
    }

    func testFitLetterboxesOntoTheBackground() {
        let image = Image(width: 40, height: 20, fill: Pixel(red: 255, green: 0, blue: 0))
        let result = Resampler().fit(image, width: 40, height: 40, mode: .fit, background: .transparent)
        XCTAssertEqual(result[20, 2], .transparent)
        XCTAssertEqual(result[20, 20], Pixel(red: 255, green: 0, blue: 0))
        XCTAssertEqual(result[20, 38], .transparent)
    }

    func testNearestPicksSourcePixels() {
        let image = TestImages.randomPremultiplied(width: 8, height: 4, seed: 56)
        let half = Resampler(filter: .nearest).resize(image, width: 4, height: 2)
        for y in 0..<2 {
            for x in 0..<4 { XCTAssertEqual(half[x, y], image[2 * x + 1, 2 * y + 1]) }
        }
    }

    /// `place` with the layout made for the full-size image and a source reduced twice (a JPEG decoded at 1/2):
    /// the crop is scaled down to match, so the result matches placing the full image. On gradients, which
    /// halving keeps (to rounding), within one level (measured); a crop left unscaled errs by dozens.
    func testPlaceReadsAReducedSourceThroughTheFullSizeLayout() {
        let full = Image(width: 240, height: 160)
        for y in 0..<160 {
            for x in 0..<240 { full[x, y] = Pixel(red: UInt8(x), green: UInt8(y + y / 2), blue: UInt8(200 - y)) }
        }
        let reduced = Resampler(filter: .bilinear).resize(full, width: 120, height: 80)
        for mode in FitMode.allCases {
            let layout = FitLayout(sourceWidth: 240, sourceHeight: 160, frameWidth: 50, frameHeight: 70, mode: mode)
            let resampler = Resampler(filter: .lanczos3)
            let expected = resampler.place(full, layout: layout, width: 50, height: 70, mode: mode)
            let placed = resampler.place(
                reduced, layout: layout, width: 50, height: 70, mode: mode, sourceScale: (2, 2))
            let difference = ImageDifference(placed, expected)
            XCTAssertLessThanOrEqual(difference.maxError, 1, "\(mode): \(difference)")
            // Reading the full image at scale 1 is `fit`.
            let fitted = resampler.fit(full, width: 50, height: 70, mode: mode)
            XCTAssertTrue(expected.hasSamePixels(as: fitted), "\(mode)")
        }
    }

    /// For `fit` the frame rectangle holds the whole source resized to it and the rest is the background; each
    /// axis of `sourceScale` scales its own side of the crop.
    func testPlaceFillsOnlyTheFrameRectangle() {
        let source = TestImages.photoLike(width: 90, height: 30, seed: 9)
        let layout = FitLayout(sourceWidth: 180, sourceHeight: 120, frameWidth: 40, frameHeight: 40, mode: .fit)
        XCTAssertEqual(layout.frameRect.height, 27)
        let background = Pixel(red: 1, green: 2, blue: 3)
        let resampler = Resampler(filter: .catmullRom)
        let placed = resampler.place(
            source, layout: layout, width: 40, height: 40, mode: .fit, background: background, sourceScale: (2, 4))
        let frame = layout.frameRect
        let inside = resampler.resize(source, width: frame.width, height: frame.height)
        for y in 0..<40 {
            for x in 0..<40 {
                let inFrame = x >= frame.x && x < frame.x + frame.width && y >= frame.y && y < frame.y + frame.height
                let expected = inFrame ? inside[x - frame.x, y - frame.y] : background
                XCTAssertEqual(placed[x, y], expected, "(\(x), \(y))")
            }
        }
    }
}
