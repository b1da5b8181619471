import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// The two-pass route for turns about the vertical axis and tilts about the horizontal one (`AxisTurnWarp`): when
/// the planner takes it, that every kernel set and thread count draws the scalar twins' pixels, and how near an
/// area-filtered Float64 warp it lies.
final class AxisTurnWarpTests: XCTestCase {
    /// The plane `width` × `height` turned `degrees` about the vertical axis through its centre, seen from `eye`
    /// pixels, then `after` (a 2D transform of the canvas), placed so that its centre stays put.
    private func turned(
        width: Int, height: Int, degrees: Double, eye: Double, axis: (Double, Double, Double) = (0, 1, 0),
        after: AffineTransform2D = .identity
    ) -> Homography {
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        return Transform3D.translation(x: -cx, y: -cy, z: 0)
            .concatenating(.rotation(angle: degrees * .pi / 180, x: axis.0, y: axis.1, z: axis.2))
            .concatenating(.perspective(eyeDistance: eye))
            .concatenating(.translation(x: cx, y: cy, z: 0)).homography
            .concatenating(Homography(after))
    }

    private func plan(_ h: Homography, source: Image, width: Int, height: Int) -> AxisTurnWarp? {
        AxisTurnWarp(
            inverse: h.inverted()!, sourceWidth: source.width, sourceHeight: source.height, width: width,
            height: height)
    }

    private static let axes = [(0.0, 1.0, 0.0), (1.0, 0.0, 0.0)]

    func testTakenForTurnsAndTiltsAndNothingElse() {
        let image = TestImages.photoLike(width: 120, height: 90, seed: 2)
        let sizes = (width: 120, height: 90)
        for (axis, expected) in zip(AxisTurnWarpTests.axes, [AxisTurnWarp.Axis.vertical, .horizontal]) {
            for degrees in [1.0, 20, 45, 70, -35] {
                for eye in [150.0, 400, 3000] {
                    for after in [AffineTransform2D.identity, AffineTransform2D(scaleX: 0.8, y: 1.3)] {
                        let h = turned(width: 120, height: 90, degrees: degrees, eye: eye, axis: axis, after: after)
                        let taken = plan(h, source: image, width: sizes.width, height: sizes.height)
                        XCTAssertEqual(taken?.axis, expected, "\(axis) \(degrees)° eye \(eye)")
                    }
                }
            }
        }
        // About any other axis, or with a rotation in the plane of the canvas: the mip route.
        for axis in [(0.6, 0.8, 0.0), (0.3, 0.4, 0.866)] {
            let h = turned(width: 120, height: 90, degrees: 30, eye: 400, axis: axis)
            XCTAssertNil(plan(h, source: image, width: sizes.width, height: sizes.height), "\(axis)")
        }
        let rotated = turned(
            width: 120, height: 90, degrees: 30, eye: 400, after: AffineTransform2D(rotationAngle: 0.2))
        XCTAssertNil(plan(rotated, source: image, width: 120, height: 90))
        // Upside down (rows mapped in reverse): the mip route. Nearly edge on (a column over the whole source) is
        // still a turn.
        let flipped = turned(width: 120, height: 90, degrees: 30, eye: 400, after: AffineTransform2D(scaleX: 1, y: -1))
        XCTAssertNil(plan(flipped, source: image, width: 120, height: 90))
        for degrees in [89.0, 89.9] {
            let edgeOn = plan(
                turned(width: 120, height: 90, degrees: degrees, eye: 400), source: image, width: 120, height: 90)
            XCTAssertEqual(edgeOn?.axis, .vertical, "\(degrees)°")
        }
    }

    /// `route` names what `apply` does: the affine warp, the two passes, the mip levels, or nothing edge on.
    func testRouteNamesWhatApplyDraws() {
        let image = TestImages.photoLike(width: 64, height: 48, seed: 3)
        func route(_ h: Homography) -> PerspectiveWarp.Route {
            PerspectiveWarp(homography: h).route(sourceWidth: 64, sourceHeight: 48, width: 70, height: 50)
        }
        XCTAssertEqual(route(Homography(AffineTransform2D(scaleX: 1.5, y: 0.5))), .affine)
        XCTAssertEqual(route(turned(width: 64, height: 48, degrees: 40, eye: 200)), .axisTurn)
        XCTAssertEqual(route(turned(width: 64, height: 48, degrees: 40, eye: 200, axis: (1, 0, 0))), .axisTurn)
        let slanted = turned(width: 64, height: 48, degrees: 40, eye: 200, axis: (1, 1, 0))
        XCTAssertEqual(route(slanted), .mipLevels)
        // Projective, its second row twice its first: the plane squashed onto a line.
        let edgeOn = Homography(m11: 1, m12: 0, m13: 0.001, m21: 2, m22: 0, m23: 0.002, m31: 5, m32: 3, m33: 1)
        XCTAssertEqual(route(edgeOn), .edgeOn)
        XCTAssertNil(PerspectiveWarp(homography: edgeOn).apply(to: image, width: 70, height: 50))
        // What the two passes draw is not what the mip route draws: the route named is the one taken.
        let turn = turned(width: 64, height: 48, degrees: 40, eye: 200)
        var mip = PerspectiveWarp(homography: turn)
        mip.takesAxisTurns = false
        XCTAssertEqual(mip.route(sourceWidth: 64, sourceHeight: 48, width: 70, height: 50), .mipLevels)
        XCTAssertFalse(
            PerspectiveWarp(homography: turn).apply(to: image, width: 70, height: 50)!
                .hasSamePixels(as: mip.apply(to: image, width: 70, height: 50)!))
    }

    /// Turns moved far off the canvas or with entries near overflow draw without a trap on every kernel set (the
    /// scalar twin's Float conversions included): clear, or the same as the C kernels.
    func testFarAndHugeTurnsDrawSafely() {
        let image = TestImages.photoLike(width: 40, height: 30, seed: 5)
        let turn = turned(width: 40, height: 30, degrees: 30, eye: 200)
        let views = [
            turn.concatenating(Homography(AffineTransform2D(translationX: 0, y: 1e12))),
            turn.concatenating(Homography(AffineTransform2D(translationX: 0, y: -3e9))),
            turn.concatenating(Homography(AffineTransform2D(scaleX: 1, y: 1e150))),
            turn.concatenating(Homography(AffineTransform2D(scaleX: 1e-150, y: 1))),
        ]
        for (index, h) in views.enumerated() {
            var twin = PerspectiveWarp(homography: h, threads: 1)
            twin.kernels = ScalarKernels.self
            let expected = twin.apply(to: image, width: 48, height: 40)
            for choice in KernelChoice.available {
                var warp = PerspectiveWarp(homography: h, threads: 2)
                warp.kernels = choice.kernels as! any BilinearKernelSet.Type
                let drawn = warp.apply(to: image, width: 48, height: 40)
                XCTAssertEqual(drawn == nil, expected == nil, "view \(index)")
                if let drawn, let expected {
                    XCTAssertTrue(drawn.hasSamePixels(as: expected), "view \(index), \(choice.rawValue)")
                }
            }
        }
    }

    /// Odd sizes (neither side a multiple of 8), a view into a wider image, a canvas larger than the source:
    /// every kernel set the CPU has and every thread count give the scalar twins' pixels.
    func testEveryKernelSetAndThreadCountDrawsTheTwinsPixels() {
        let wide = TestImages.photoLike(width: 230, height: 170, seed: 6)
        let source = wide.region(x: 13, y: 7, width: 203, height: 157)
        for (axis, (degrees, eye)) in zip(
            [0, 0, 0, 0, 1, 1, 1],
            [(25.0, 400.0), (-60, 250), (70, 900), (89.7, 600), (35, 300), (-65, 800), (89, 500)])
        {
            let h = turned(
                width: 203, height: 157, degrees: degrees, eye: eye, axis: AxisTurnWarpTests.axes[axis],
                after: AffineTransform2D(scaleX: 1.1, y: 0.9))
            XCTAssertNotNil(plan(h, source: source, width: 211, height: 149))
            var twin = PerspectiveWarp(homography: h, threads: 1)
            twin.kernels = ScalarKernels.self
            let expected = twin.apply(to: source, width: 211, height: 149)!
            for choice in KernelChoice.available {
                for threads in [1, 3] {
                    var warp = PerspectiveWarp(homography: h, threads: threads)
                    warp.kernels = choice.kernels as! any BilinearKernelSet.Type
                    let drawn = warp.apply(to: source, width: 211, height: 149)!
                    XCTAssertTrue(
                        drawn.hasSamePixels(as: expected), "\(degrees)° \(choice.rawValue) \(threads) threads")
                }
            }
        }
    }

    /// Against the same filters in Double (`AxisTurnDefinition`: exact footprints, unrounded weights, no 8-bit
    /// intermediate), turns at 1° to 80° and tilts, seen from the front and from behind (mirrored, as a
    /// double-sided layer past 90° shows), eyes near and far, with and without a 2D transform. The route
    /// rounds twice (the intermediate and the result, half a level each) and its weights to 1/256 in both passes:
    /// measured at most 2 levels apart, PSNR 57.5 dB and up (bound: 2 levels, 56 dB).
    func testWithinTwoLevelsOfItsDefinitionInDouble() {
        let image = TestImages.photoLike(width: 150, height: 110, seed: 9)
        var worst = 0
        for (degrees, axis) in [
            (1.0, 0), (30, 0), (60, 0), (80, 0), (-45, 0), (120, 0), (88, 0), (89.9, 0), (20, 1), (-70, 1), (-150, 1),
            (89.5, 1),
        ] {
            for eye in [200.0, 1500] {
                for after in [AffineTransform2D.identity, AffineTransform2D(scaleX: 0.7, y: 1.2)] {
                    let h = turned(
                        width: 150, height: 110, degrees: degrees, eye: eye, axis: AxisTurnWarpTests.axes[axis],
                        after: after)
                    guard plan(h, source: image, width: 160, height: 120) != nil else {
                        XCTFail("\(degrees)° eye \(eye): not taken")
                        continue
                    }
                    let warped = PerspectiveWarp(homography: h).apply(to: image, width: 160, height: 120)!
                    let expected = AxisTurnDefinition.turnOrTilt(image, h.inverted()!, width: 160, height: 120)
                    let difference = ImageDifference(warped, expected)
                    worst = max(worst, difference.maxError)
                    XCTAssertLessThanOrEqual(difference.maxError, 2, "\(degrees)° eye \(eye) \(after): \(difference)")
                    XCTAssertGreaterThan(difference.psnr, 56, "\(degrees)° eye \(eye) \(after): \(difference)")
                }
            }
        }
        print("axis turns and tilts against their definition in Double: max error \(worst)")
    }

    /// A one-pixel checkerboard turned away comes out grey where the plane recedes, not as moiré (point sampling
    /// gives 0 or 255): measured within 17.5 levels of the mean where a canvas pixel spans 3 source columns or more
    /// (bound 24) and within 24.5 where it spans 2 to 3 (bound 32; the mip route's bound there is 64).
    func testRecedingCheckerboardDoesNotAlias() {
        let (width, height) = (256, 256)
        let board = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let on = (x + y) % 2 == 0
                board[x, y] = on ? Pixel(red: 255, green: 255, blue: 255) : Pixel(red: 0, green: 0, blue: 0)
            }
        }
        let h = turned(width: width, height: height, degrees: 60, eye: 300)
        let inverse = h.inverted()!
        XCTAssertNotNil(plan(h, source: board, width: width, height: height))
        let warped = PerspectiveWarp(homography: h).apply(to: board, width: width, height: height)!
        var (checked, worstWide, worstBetween) = (0, 0.0, 0.0)
        for x in 0..<width {
            let (left, right) = (inverse.apply(to: (Double(x), 0)), inverse.apply(to: (Double(x + 1), 0)))
            guard let left, let right, abs(right.x - left.x) >= 2, left.x > 4, right.x < Double(width - 4) else {
                continue
            }
            for y in 0..<height {
                guard let point = inverse.apply(to: (Double(x) + 0.5, Double(y) + 0.5)), point.y > 4,
                    point.y < Double(height - 4)
                else { continue }
                let deviation = abs(Double(warped[x, y].red) - 127.5)
                if abs(right.x - left.x) >= 3 {
                    checked += 1
                    worstWide = max(worstWide, deviation)
                } else {
                    worstBetween = max(worstBetween, deviation)
                }
            }
        }
        print(
            "axis turn, receding checkerboard: \(checked) pixels 3 columns wide or more within \(worstWide), 2 to 3 "
                + "within \(worstBetween)")
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertLessThanOrEqual(worstWide, 24)
        XCTAssertLessThanOrEqual(worstBetween, 32)
    }

    /// Against the exact projective map with an area filter (each canvas pixel the mean of 8×8 bilinear samples
    /// of its square, outside the source transparent): no further than the mip route is.
    func testAsNearAnAreaFilteredWarpAsTheMipRoute() {
        let image = TestImages.photoLike(width: 160, height: 120, seed: 4)
        for (degrees, axis) in [(20.0, 0), (50, 0), (75, 0), (55, 1)] {
            let h = turned(width: 160, height: 120, degrees: degrees, eye: 250, axis: AxisTurnWarpTests.axes[axis])
            let reference = AreaFilteredWarp.apply(image, h.inverted()!, width: 160, height: 120, samples: 8)
            var mip = PerspectiveWarp(homography: h)
            mip.takesAxisTurns = false
            let ours = ImageDifference(
                PerspectiveWarp(homography: h).apply(to: image, width: 160, height: 120)!, reference)
            let theirs = ImageDifference(mip.apply(to: image, width: 160, height: 120)!, reference)
            print(
                "\(degrees)° about axis \(axis) against an area-filtered warp: two passes \(ours), mip route \(theirs)")
            XCTAssertGreaterThanOrEqual(ours.psnr, theirs.psnr, "\(degrees)° about axis \(axis)")
        }
    }
}

/// `AxisTurnWarp`'s filters in Double: per canvas column the box over source columns its footprint covers (at
/// least a pixel wide), per canvas pixel the rows' bilinear blend or, where the plane recedes, the box over the
/// rows its footprint covers (at most 2 rows wide).
private enum AxisTurnDefinition {
    /// A turn's definition, or a tilt's: a turn's with the image, the map and the canvas transposed.
    static func turnOrTilt(_ image: Image, _ m: Homography, width: Int, height: Int) -> Image {
        if m.m21 == 0 && m.m23 == 0 { return apply(image, m, width: width, height: height) }
        let swapped = Homography(
            m11: m.m22, m12: m.m21, m13: m.m23, m21: m.m12, m22: m.m11, m23: m.m13, m31: m.m32, m32: m.m31, m33: m.m33)
        return transposed(apply(transposed(image), swapped, width: height, height: width))
    }

    private static func transposed(_ image: Image) -> Image {
        let result = Image(width: image.height, height: image.width)
        for y in 0..<image.height {
            for x in 0..<image.width { result[y, x] = image[x, y] }
        }
        return result
    }

    private static func apply(_ image: Image, _ m: Homography, width: Int, height: Int) -> Image {
        let result = Image(width: width, height: height)
        func at(_ i: Int, _ j: Int) -> SIMD4<Double> {
            guard i >= 0, j >= 0, i < image.width, j < image.height else { return .zero }
            let p = image[i, j]
            return SIMD4(Double(p.red), Double(p.green), Double(p.blue), Double(p.alpha))
        }
        /// Overlaps of [low, high) with cells [k, k + 1) for k in `cells`, over `width`.
        func weights(_ low: Double, _ high: Double, over span: Double) -> [(Int, Double)] {
            stride(from: Int(low.rounded(.down)), to: Int(high.rounded(.up)), by: 1).map { k in
                (k, max(min(high, Double(k + 1)) - max(low, Double(k)), 0) / span)
            }
        }
        for x in 0..<width {
            let (left, right) = (Double(x), Double(x + 1))
            let (wLeft, wRight, w) = (left * m.m13 + m.m33, right * m.m13 + m.m33, (left + 0.5) * m.m13 + m.m33)
            guard wLeft > 0, wRight > 0 else { continue }
            let (uLeft, uRight) = ((left * m.m11 + m.m31) / wLeft, (right * m.m11 + m.m31) / wRight)
            var (low, high) = (min(uLeft, uRight), max(uLeft, uRight))
            if high - low < 1 { (low, high) = ((low + high) / 2 - 0.5, (low + high) / 2 + 0.5) }
            let across = weights(max(low, 0), min(high, Double(image.width)), over: high - low)
            let scale = m.m22 / w
            for y in 0..<height {
                let v = ((left + 0.5) * m.m12 + (Double(y) + 0.5) * m.m22 + m.m32) / w - 0.5
                var down: [(Int, Double)]
                if scale <= 1 {
                    let clamped = min(max(v, -1), Double(image.height))
                    let row = Int(clamped.rounded(.down))
                    down = [(row, 1 - (clamped - Double(row))), (row + 1, clamped - Double(row))]
                } else {
                    let f = min(scale, 2)
                    // Cells [j − ½, j + ½): shifted by ½ to the integer cells `weights` takes.
                    down = weights(v - f / 2 + 0.5, v + f / 2 + 0.5, over: f)
                }
                var sum = SIMD4<Double>.zero
                for (j, wj) in down where wj > 0 {
                    for (k, wk) in across where wk > 0 { sum += at(k, j) * (wj * wk) }
                }
                result[x, y] = Pixel(
                    red: TestImages.clampByte(sum.x), green: TestImages.clampByte(sum.y),
                    blue: TestImages.clampByte(sum.z), alpha: TestImages.clampByte(sum.w))
            }
        }
        return result
    }
}

/// The exact map in Double: each canvas pixel the mean of samples² bilinear samples of the source over its square
/// (transparent outside the source and behind the eye).
private enum AreaFilteredWarp {
    static func apply(_ image: Image, _ inverse: Homography, width: Int, height: Int, samples: Int) -> Image {
        let result = Image(width: width, height: height)
        func at(_ i: Int, _ j: Int) -> SIMD4<Double> {
            guard i >= 0, j >= 0, i < image.width, j < image.height else { return .zero }
            let p = image[i, j]
            return SIMD4(Double(p.red), Double(p.green), Double(p.blue), Double(p.alpha))
        }
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD4<Double>.zero
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let point = (
                            x: Double(x) + (Double(sx) + 0.5) / Double(samples),
                            y: Double(y) + (Double(sy) + 0.5) / Double(samples)
                        )
                        let p = inverse.homogeneous(point)
                        guard p.w > 0 else { continue }
                        let (u, v) = (p.x / p.w - 0.5, p.y / p.w - 0.5)
                        guard abs(u) < 1e7, abs(v) < 1e7 else { continue }
                        let (i, j) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
                        let (fx, fy) = (u - Double(i), v - Double(j))
                        let top: SIMD4<Double> = at(i, j) * (1 - fx) + at(i + 1, j) * fx
                        let bottom: SIMD4<Double> = at(i, j + 1) * (1 - fx) + at(i + 1, j + 1) * fx
                        sum += top * (1 - fy) + bottom * fy
                    }
                }
                let mean = sum / Double(samples * samples)
                result[x, y] = Pixel(
                    red: TestImages.clampByte(mean.x), green: TestImages.clampByte(mean.y),
                    blue: TestImages.clampByte(mean.z), alpha: TestImages.clampByte(mean.w))
            }
        }
        return result
    }
}
