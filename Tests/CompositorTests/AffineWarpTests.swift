import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

final class AffineWarpTests: XCTestCase {
    private let image = TestImages.randomPremultiplied(width: 13, height: 9, seed: 71)

    func testIdentityAndIntegerTranslationAreExactCopies() {
        for filter in ResampleFilter.allCases {
            let same = AffineWarp(transform: .identity, filter: filter).apply(to: image, width: 13, height: 9)!
            XCTAssertTrue(same.hasSamePixels(as: image), "\(filter)")
        }
        let moved = AffineWarp(transform: AffineTransform2D(translationX: 3, y: -2), filter: .lanczos3)
            .apply(to: image, width: 13, height: 9)!
        for y in 0..<9 {
            for x in 0..<13 {
                let inside = x >= 3 && y + 2 < 9
                XCTAssertEqual(moved[x, y], inside ? image[x - 3, y + 2] : .transparent, "\((x, y))")
            }
        }
    }

    func testQuarterTurnsAndFlipsAreExact() {
        // Turning 90° clockwise about the origin sends the picture to negative x: translate it back into view.
        let cases: [(AffineTransform2D, Orientation, Int, Int)] = [
            (
                AffineTransform2D(rotationAngle: .pi / 2).concatenating(AffineTransform2D(translationX: 9, y: 0)),
                .right, 9, 13
            ),
            (
                AffineTransform2D(rotationAngle: .pi).concatenating(AffineTransform2D(translationX: 13, y: 9)), .down,
                13, 9
            ),
            (
                AffineTransform2D(rotationAngle: -.pi / 2).concatenating(AffineTransform2D(translationX: 0, y: 13)),
                .left, 9, 13
            ),
            (
                AffineTransform2D(scaleX: -1, y: 1).concatenating(AffineTransform2D(translationX: 13, y: 0)),
                .upMirrored, 13, 9
            ),
            (
                AffineTransform2D(scaleX: 1, y: -1).concatenating(AffineTransform2D(translationX: 0, y: 9)),
                .downMirrored, 13, 9
            ),
        ]
        for (transform, orientation, width, height) in cases {
            let warp = AffineWarp(transform: transform, filter: .bilinear)
            XCTAssertNotNil(warp.pixelExact(transform.inverted()!), "\(orientation) takes the exact path")
            let result = warp.apply(to: image, width: width, height: height)!
            XCTAssertTrue(result.hasSamePixels(as: image.oriented(orientation)), "\(orientation)")
        }
    }

    func testConstantImageStaysConstantUnderEveryFilterWithFillingEdges() {
        let pixel = Pixel(red: 10, green: 200, blue: 90, alpha: 255)
        let constant = Image(width: 20, height: 15, fill: pixel)
        let transform = try! AffineTransform2D(parsing: "translate(10, 4) rotate(30deg) scale(0.7)")
        for filter in ResampleFilter.allCases {
            for edge in [EdgeMode.clamp, .mirror, .wrap] {
                let result = AffineWarp(transform: transform, filter: filter, edgeMode: edge)
                    .apply(to: constant, width: 25, height: 18)!
                XCTAssertTrue(result.hasSamePixels(as: Image(width: 25, height: 18, fill: pixel)), "\(filter) \(edge)")
            }
        }
    }

    func testTransparentEdgesFadeAndOutsideIsClear() {
        let constant = Image(width: 20, height: 20, fill: Pixel(red: 255, green: 255, blue: 255))
        let result = AffineWarp(transform: AffineTransform2D(translationX: 5.5, y: 5.5), filter: .bilinear)
            .apply(to: constant, width: 40, height: 40)!
        XCTAssertEqual(result[0, 0], .transparent)
        XCTAssertEqual(result[15, 15].alpha, 255)
        XCTAssertEqual(Int(result[5, 15].alpha), 128, accuracy: 1, "half a pixel covered at the edge")
    }

    /// Bilinear at a 30° turn against the same interpolation in Double: rounding gives up to 0.5, and weights
    /// in 1/256 (samples moved by up to 1/512 pixel) up to 0.5 more where the image is steepest (noise).
    func testBilinearRotationMatchesAFloat64Evaluation() {
        let transform = AffineTransform2D(translationX: 15, y: 3).rotatedBy(.pi / 6)
        let inverse = transform.inverted()!
        var maxError = 0.0
        for photo in [
            TestImages.photoLike(width: 30, height: 20, seed: 72),
            TestImages.randomPremultiplied(width: 30, height: 20),
        ] {
            let result = AffineWarp(transform: transform, filter: .bilinear, edgeMode: .clamp).apply(
                to: photo, width: 30, height: 30)!
            for y in 0..<30 {
                for x in 0..<30 {
                    let (u, v) = inverse.apply(to: (Double(x) + 0.5, Double(y) + 0.5))
                    let px = u - 0.5
                    let py = v - 0.5
                    let x0 = Int(px.rounded(.down))
                    let y0 = Int(py.rounded(.down))
                    let fx = px - Double(x0)
                    let fy = py - Double(y0)
                    func pixel(_ i: Int, _ j: Int) -> [Double] {
                        let p = photo[min(max(i, 0), 29), min(max(j, 0), 19)]
                        return [Double(p.red), Double(p.green), Double(p.blue)]
                    }
                    let corners = [
                        (pixel(x0, y0), (1 - fx) * (1 - fy)), (pixel(x0 + 1, y0), fx * (1 - fy)),
                        (pixel(x0, y0 + 1), (1 - fx) * fy), (pixel(x0 + 1, y0 + 1), fx * fy),
                    ]
                    let p = result[x, y]
                    for (c, value) in [p.red, p.green, p.blue].enumerated() {
                        let expected = corners.reduce(0) { $0 + $1.0[c] * $1.1 }
                        maxError = max(maxError, abs(Double(value) - expected))
                    }
                }
            }
        }
        print("fixed-point bilinear against Double: max error \(maxError)")
        XCTAssertLessThanOrEqual(maxError, 1)
    }

    func testMinificationAveragesInsteadOfAliasing() {
        // A one-pixel checkerboard shrunk 4×: every output pixel covers equal black and white, so grey.
        let board = Image(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                board[x, y] =
                    (x + y) % 2 == 0 ? Pixel(red: 255, green: 255, blue: 255) : Pixel(red: 0, green: 0, blue: 0)
            }
        }
        let result = AffineWarp(
            transform: AffineTransform2D(scaleX: 0.25, y: 0.25), filter: .bilinear, edgeMode: .clamp
        )
        .apply(to: board, width: 16, height: 16)!
        for y in 2..<14 {
            for x in 2..<14 { XCTAssertEqual(Int(result[x, y].red), 128, accuracy: 12, "\((x, y))") }
        }
    }

    func testSingularTransformDrawsNothingAndThreadsDoNotMatter() {
        XCTAssertNil(AffineWarp(transform: AffineTransform2D(scaleX: 0, y: 1)).apply(to: image, width: 4, height: 4))
        let photo = TestImages.photoLike(width: 60, height: 40, seed: 73)
        let transform = try! AffineTransform2D(parsing: "translate(30,0) rotate(20deg) scale(0.8)")
        let one = AffineWarp(transform: transform, filter: .lanczos3, threads: 1).apply(
            to: photo, width: 70, height: 50)!
        let three = AffineWarp(transform: transform, filter: .lanczos3, threads: 3).apply(
            to: photo, width: 70, height: 50)!
        XCTAssertTrue(one.hasSamePixels(as: three))
    }

    // MARK: the fixed-point bilinear path

    private let turns = [
        "translate(6, -3) rotate(30deg)", "translate(20, 2) rotate(100deg)", "rotate(-7deg) translate(0.37, 0.81)",
        "translate(-4, 9) rotate(-45deg) scale(1.6)", "translate(0.5, 0.25)",
    ].map { try! AffineTransform2D(parsing: $0) }

    /// Every kernel set the CPU has (the Swift SIMD one and each C level) against the scalar twin, on positions
    /// anywhere their 2×2 neighbourhood stays inside (neighbours rows apart, before and after each other), with
    /// every fraction bit used, and counts that leave every tail length.
    func testBilinearKernelsMatchTheirScalarTwin() {
        let photo = TestImages.randomPremultiplied(width: 23, height: 17, seed: 74)
        var random = SeededGenerator(seed: 75)
        for choice in KernelChoice.available {
            let kernels = choice.kernels as! any BilinearKernelSet.Type
            for count in [61, 7, 8, 40, 33] {
                let u = (0..<count).map { _ in Int32(random.next() % UInt64(22 << 16)) - 1000 }
                let v = (0..<count).map { _ in Int32(random.next() % UInt64(16 << 16)) - 2000 }
                var fast = [UInt32](repeating: 0, count: count)
                var scalar = fast
                kernels.bilinear(
                    photo.row(0), bytesPerRow: photo.bytesPerRow, u: u, v: v, origin: (1000, 2000), count: count,
                    into: &fast)
                ScalarKernels.bilinear(
                    photo.row(0), bytesPerRow: photo.bytesPerRow, u: u, v: v, origin: (1000, 2000), count: count,
                    into: &scalar)
                XCTAssertEqual(fast, scalar, "\(choice.rawValue), \(count) pixels")
            }
        }
    }

    func testRunsAreExactlyThePixelsInRange() {
        var random = SeededGenerator(seed: 76)
        for step in [-70_000.0, -65_536, -12_345.6, 0, 0.5, 30_000, 65_536, 91_000] {
            let table = (0..<50).map { Int32((Double($0) * step).rounded()) }
            for _ in 0..<40 {
                let origin = Int32(random.next() % (60 << 16)) - (30 << 16)
                let range = Int32(-3)...Int32(random.next() % 8)
                let columns = Int(random.next() % 10)..<(40 + Int(random.next() % 11))
                let expected = columns.filter { range.contains((table[$0] &+ origin) >> 16) }
                let run = table.withUnsafeBufferPointer {
                    AffineWarp.run(where: range, table: $0.baseAddress!, origin: origin, in: columns)
                }
                XCTAssertEqual(Array(run), expected, "step \(step) origin \(origin) \(range) \(columns)")
            }
        }
    }

    /// The fixed-point path against the Float one it replaced: weights in 1/256 move a sample by at most 1/512
    /// pixel, which noise (the steepest image there is) turns into at most one level.
    func testFixedPointBilinearStaysWithinOneLevelOfTheFloatPath() {
        let images = [
            TestImages.photoLike(width: 41, height: 29, seed: 77),
            TestImages.randomPremultiplied(width: 41, height: 29, seed: 78),
        ]
        var worst = 0
        for photo in images {
            for transform in turns {
                for edge in EdgeMode.allCases {
                    let warp = AffineWarp(transform: transform, filter: .bilinear, edgeMode: edge)
                    let inverse = transform.inverted()!
                    XCTAssertTrue(AffineWarp.stretch(inverse) == (1, 1) && warp.pixelExact(inverse) == nil)
                    let fixed = warp.apply(to: photo, width: 45, height: 37)!
                    let float = Image(width: 45, height: 37)
                    warp.filterPixels(from: photo, into: float, inverse: inverse)
                    for y in 0..<37 {
                        for x in 0..<45 {
                            let (p, q) = (fixed[x, y], float[x, y])
                            for (a, b) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue), (p.alpha, q.alpha)] {
                                worst = max(worst, abs(Int(a) - Int(b)))
                            }
                        }
                    }
                }
            }
        }
        print("fixed-point bilinear against Float: max difference \(worst)")
        XCTAssertLessThanOrEqual(worst, 1)
    }

    func testBilinearIsTheSameForEveryScheduleAndKernelSet() {
        let photo = TestImages.photoLike(width: 50, height: 34, seed: 79)
        for transform in turns {
            for edge in EdgeMode.allCases {
                var warp = AffineWarp(transform: transform, filter: .bilinear, edgeMode: edge, threads: 1)
                warp.kernels = SIMDKernels.self
                let baseline = warp.apply(to: photo, width: 47, height: 41)!
                for (threads, tile, kernels) in [
                    (3, (64, 128), SIMDKernels.self as any BilinearKernelSet.Type), (1, (16, 5), SIMDKernels.self),
                    (2, (7, 300), SIMDKernels.self), (1, (64, 128), ScalarKernels.self),
                    (3, (5, 3), ScalarKernels.self), (2, (64, 128), Kernels.bilinear),
                ] {
                    warp.threads = threads
                    warp.kernels = kernels
                    let result = Image(width: 47, height: 41)
                    warp.bilinearPixels(from: photo, into: result, inverse: transform.inverted()!, tile: tile)
                    XCTAssertTrue(
                        result.hasSamePixels(as: baseline), "\(transform) \(edge) \(threads) \(tile) \(kernels)")
                }
            }
        }
    }

    func testBilinearTurnKeepsAConstantImageConstant() {
        let pixel = Pixel(red: 10, green: 200, blue: 90, alpha: 255)
        // A one-pixel-wide source has no 2×2 neighbourhood inside it: all edge path.
        for constant in [Image(width: 20, height: 15, fill: pixel), Image(width: 1, height: 4, fill: pixel)] {
            for transform in turns {
                for edge in [EdgeMode.clamp, .mirror, .wrap] {
                    let result = AffineWarp(transform: transform, filter: .bilinear, edgeMode: edge)
                        .apply(to: constant, width: 25, height: 18)!
                    XCTAssertTrue(
                        result.hasSamePixels(as: Image(width: 25, height: 18, fill: pixel)), "\(transform) \(edge)")
                }
            }
        }
    }
}

final class AffineWarpShrinkTests: XCTestCase {
    /// Placements a hostile scene can ask for (coordinates of 1e300, angles whose sine is noise) draw something
    /// or nothing, but never trap converting a coordinate to an index.
    func testAbsurdPlacementsDoNotTrap() {
        let grey = Image(width: 6, height: 4, fill: Pixel(red: 90, green: 90, blue: 90))
        for text in ["translate(1e300, 0)", "rotate(1e300deg) translate(1e200, -1e200)", "scale(1e-200, 1e200)"] {
            for edge in EdgeMode.allCases {
                let transform = try! AffineTransform2D(parsing: text)
                _ = AffineWarp(transform: transform, filter: .lanczos3, edgeMode: edge).apply(
                    to: grey, width: 5, height: 5)
            }
        }
        let far = AffineWarp(transform: try! AffineTransform2D(parsing: "translate(1e300, 0)"), edgeMode: .clamp)
            .apply(to: grey, width: 3, height: 3)!
        XCTAssertEqual(far[1, 1], Pixel(red: 90, green: 90, blue: 90), "clamp repeats the edge however far away")
        let cropped = Resampler(filter: .lanczos3).resize(grey, crop: (1e300, -1e300, 1e-300, 4), width: 3, height: 2)
        XCTAssertEqual(cropped[0, 0], Pixel(red: 90, green: 90, blue: 90))
    }

    /// A picture shrunk a million times along one axis is resampled first, so the warp finishes at once and
    /// the few pixels it covers keep the picture's mean colour.
    func testExtremeShrinkingFinishesAndKeepsTheMeanColour() {
        let grey = Image(width: 60, height: 40, fill: Pixel(red: 90, green: 90, blue: 90))
        for text in ["rotate(10deg) scale(1e-7, 1)", "scale(0.01)", "translate(30, 20) scale(0.3, 1e-9)"] {
            let transform = try! AffineTransform2D(parsing: text)
            let result = AffineWarp(transform: transform, filter: .lanczos3, edgeMode: .transparent)
                .apply(to: grey, width: 60, height: 40)!
            for y in 0..<40 {
                for x in 0..<60 {
                    let p = result[x, y]
                    XCTAssertTrue(p.alpha == 0 || (p.red == p.green && Int(p.red) <= Int(p.alpha)), "\(text) \(p)")
                }
            }
        }
    }

    /// A nearly singular skew: after the shrink to one column, x still stretches by 10⁵; the filter stops at
    /// two source pixels there, not at the picture's height (3024: 18,000 taps per canvas pixel).
    func testNearlySingularSkewKeepsTheFilterWithinTwoPixelsPerAxis() {
        let transform = try! AffineTransform2D(parsing: "skewX(89.9999999deg)")
        let inverse = AffineTransform2D(scaleX: 4032, y: 1).concatenating(transform).inverted()!
        let stretch = AffineWarp.filterStretch(inverse, sourceWidth: 1, sourceHeight: 3024)
        XCTAssertEqual(stretch.x, 2)
        XCTAssertEqual(stretch.y, 1)
        // End to end, on a smaller picture: it finishes (in a debug build, well under a second) and stays grey.
        let grey = Image(width: 300, height: 200, fill: Pixel(red: 90, green: 90, blue: 90))
        let result = AffineWarp(transform: transform, filter: .lanczos3, edgeMode: .clamp)
            .apply(to: grey, width: 120, height: 80)!
        XCTAssertEqual(result[60, 40], Pixel(red: 90, green: 90, blue: 90))
    }
}
