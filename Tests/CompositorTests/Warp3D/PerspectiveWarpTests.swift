import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

final class PerspectiveWarpTests: XCTestCase {
    /// A 30° turn about the vertical axis through the picture's centre, seen from `eye` pixels away, centred on
    /// a canvas of the picture's size (the benchmark's geometry).
    /// A random view of a width × height plane: turned by an angle in `turns` about one of four axes (by `trial`),
    /// seen from an eye distance in `eyes`, its centre moved anywhere over the plane's own extent.
    private func randomView(
        width: Int, height: Int, trial: Int, turns: ClosedRange<Double>, eyes: ClosedRange<Double>,
        using random: inout SeededGenerator
    ) -> Homography {
        let axis = [(0.0, 1.0, 0.0), (1.0, 0.0, 0.0), (0.6, 0.8, 0.0), (0.3, 0.4, 0.866)][trial % 4]
        return Transform3D.translation(x: -Double(width) / 2, y: -Double(height) / 2, z: 0)
            .concatenating(.rotation(angle: Double.random(in: turns, using: &random), x: axis.0, y: axis.1, z: axis.2))
            .concatenating(.perspective(eyeDistance: Double.random(in: eyes, using: &random)))
            .concatenating(
                .translation(
                    x: Double.random(in: 0...Double(width), using: &random),
                    y: Double.random(in: 0...Double(height), using: &random), z: 0)
            ).homography
    }

    private func turned(width: Int, height: Int, degrees: Double = 30, eye: Double = 1000) -> Homography {
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        return Transform3D.translation(x: -cx, y: -cy, z: 0)
            .concatenating(.rotation(angle: degrees * .pi / 180, x: 0, y: 1, z: 0))
            .concatenating(.perspective(eyeDistance: eye))
            .concatenating(.translation(x: cx, y: cy, z: 0)).homography
    }

    /// The mip route, which these tests hold to its definition (`PerspectiveSampling`), even for the turns about the
    /// vertical axis that `AxisTurnWarp` otherwise draws (AxisTurnWarpTests).
    private func mipRoute(_ h: Homography, threads: Int = Parallel.processorCount) -> PerspectiveWarp {
        var warp = PerspectiveWarp(homography: h, threads: threads)
        warp.takesAxisTurns = false
        return warp
    }

    func testAffineHomographiesAreTheAffineWarpToTheBit() {
        let image = TestImages.photoLike(width: 61, height: 47, seed: 3)
        let transforms = [
            AffineTransform2D.identity, AffineTransform2D(translationX: 3.25, y: -1.5),
            try! AffineTransform2D(parsing: "translate(30, 5) rotate(17deg) scale(0.8, 1.3)"),
            try! AffineTransform2D(parsing: "scale(0.2)"),
        ]
        for transform in transforms {
            // Written with m33 = 2 as well: the affine map is divided out.
            var doubled = Homography(transform)
            for keyPath in [\Homography.m11, \.m12, \.m21, \.m22, \.m31, \.m32, \.m33] {
                doubled[keyPath: keyPath] *= 2
            }
            let expected = AffineWarp(transform: transform, filter: .bilinear, edgeMode: .transparent)
                .apply(to: image, width: 70, height: 50)!
            for h in [Homography(transform), doubled] {
                let warped = PerspectiveWarp(homography: h).apply(to: image, width: 70, height: 50)!
                XCTAssertTrue(warped.hasSamePixels(as: expected), "\(transform)")
            }
        }
    }

    func testSameForEveryThreadCountAndKernelSet() {
        let image = TestImages.photoLike(width: 300, height: 200, seed: 5)
        let h = turned(width: 300, height: 200, degrees: 50, eye: 300)
        let one = mipRoute(h, threads: 1).apply(to: image, width: 300, height: 200)!
        for threads in [2, 3, 8] {
            let many = mipRoute(h, threads: threads).apply(to: image, width: 300, height: 200)!
            XCTAssertTrue(many.hasSamePixels(as: one), "\(threads) threads")
        }
        // Every kernel set the CPU has, and the scalar twin.
        for choice in KernelChoice.available {
            var warp = mipRoute(h, threads: 2)
            warp.kernels = choice.kernels as! any BilinearKernelSet.Type
            XCTAssertTrue(warp.apply(to: image, width: 300, height: 200)!.hasSamePixels(as: one), choice.rawValue)
        }
    }

    /// Runs through the kernel set, a level at a time, give what sampling each pixel alone gives.
    func testKernelRunsEqualPixelByPixelSampling() {
        let image = TestImages.photoLike(width: 240, height: 160, seed: 12)
        let h = turned(width: 240, height: 160, degrees: 55, eye: 250)
        let warped = mipRoute(h).apply(to: image, width: 240, height: 160)!
        let inverse = h.inverted()!
        let levels = MipLevels(
            image, count: PerspectiveWarp.levelsNeeded(inverse, width: 240, height: 160, source: image), threads: 1)
        XCTAssertGreaterThan(levels.count, 2)
        let sampling = PerspectiveSampling(inverse: inverse, levels: levels)
        for y in 0..<160 {
            for x in 0..<240 {
                let expected = sampling.pixel(x, sampling.row(y))
                let pixel = warped[x, y]
                let word =
                    UInt32(pixel.red) | UInt32(pixel.green) << 8 | UInt32(pixel.blue) << 16
                    | UInt32(pixel.alpha) << 24
                XCTAssertEqual(word, expected, "\((x, y))")
            }
        }
    }

    /// Levels stored in part (regions of a few pixels, one past the level's edge, one empty, so that most reads
    /// fall outside them) hold the pixels whole levels hold, and draw the same canvas through every kernel set:
    /// pixels outside a region are worked out from the level below, and the planner keeps chunks that reach past
    /// a region off the kernels.
    func testLevelsStoredInPartSampleAsWholeOnes() {
        let image = TestImages.photoLike(width: 240, height: 160, seed: 5)
        let h = turned(width: 240, height: 160, degrees: 55, eye: 250)
        let inverse = h.inverted()!
        let count = PerspectiveWarp.levelsNeeded(inverse, width: 240, height: 160, source: image)
        XCTAssertGreaterThan(count, 3)
        let whole = MipLevels(image, count: count, threads: 1)
        let regions: [MipLevels.Region?] = (1..<count).map { k in
            switch k {
            case 1: MipLevels.Region(x: 70, y: 10, width: 30, height: 50)
            case 2: MipLevels.Region(x: 50, y: 30, width: 40, height: 20)
            case 3: MipLevels.Region(x: 12, y: 3, width: 0, height: 0)
            default: nil
            }
        }
        let partial = MipLevels(image, regions: regions, threads: 2)
        // Level 1 holds its region and the blocks of level 2's; level 3 (an empty region) stores nothing.
        XCTAssertEqual(partial.levels[1].region, MipLevels.Region(x: 70, y: 10, width: 50, height: 70))
        XCTAssertEqual(partial.levels[3].region.width, 0)
        var (width, height) = (image.width, image.height)
        for k in 0..<count {
            for y in -1...height {
                for x in -1...width {
                    XCTAssertEqual(
                        partial.pixel(level: k, x: x, y: y), whole.pixel(level: k, x: x, y: y), "level \(k) \((x, y))")
                }
            }
            (width, height) = ((width + 1) / 2, (height + 1) / 2)
        }
        let expected = PerspectiveSampling(inverse: inverse, levels: whole)
        let sampling = PerspectiveSampling(inverse: inverse, levels: partial)
        for choice in KernelChoice.available {
            let drawn = PerspectiveWarp.draw(
                sampling, width: 240, height: 160, kernels: choice.kernels as! any BilinearKernelSet.Type, threads: 2)
            var mismatches = 0
            for y in 0..<160 {
                for x in 0..<240 where drawn[x, y].packed != expected.pixel(x, expected.row(y)) { mismatches += 1 }
            }
            XCTAssertEqual(mismatches, 0, choice.rawValue)
        }
    }

    /// The warp's own regions on a view that minifies on one side only: part of the first level is stored, and the
    /// canvas is the one whole levels define.
    func testRegionsOfAViewTurnedAway() {
        let image = TestImages.photoLike(width: 800, height: 600, seed: 8)
        let h = turned(width: 800, height: 600, degrees: 30, eye: 200)
        let inverse = h.inverted()!
        let plan = PerspectiveWarp.levelPlan(inverse, width: 800, height: 600, source: image)
        XCTAssertNotNil(plan.regions.first ?? nil, "the first level is stored in part")
        let whole = PerspectiveSampling(inverse: inverse, levels: MipLevels(image, count: plan.count, threads: 1))
        let warped = mipRoute(h, threads: 2).apply(to: image, width: 800, height: 600)!
        var mismatches = 0
        for y in 0..<600 {
            for x in 0..<800 where warped[x, y].packed != whole.pixel(x, whole.row(y)) { mismatches += 1 }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// Random turns, eyes, shifts and canvas sizes (odd ones, edges on and off the canvas, the horizon in view):
    /// the vector planning and every kernel set the CPU has (the scalar twin included) give the per-pixel definition.
    func testRandomPerspectivesEqualThePixelByPixelDefinition() {
        var random = SeededGenerator(seed: 77)
        var drawn = 0
        for trial in 0..<12 {
            let (width, height) = (Int.random(in: 20...90, using: &random), Int.random(in: 20...70, using: &random))
            let image = TestImages.photoLike(width: width, height: height, seed: UInt64(trial))
            let h = randomView(
                width: width, height: height, trial: trial, turns: -1.4...1.4, eyes: 40...400, using: &random)
            let (canvasWidth, canvasHeight) = (width + trial * 3, height + 7)
            guard let warped = mipRoute(h).apply(to: image, width: canvasWidth, height: canvasHeight)
            else { continue }
            for choice in KernelChoice.available {
                var warp = mipRoute(h)
                warp.kernels = choice.kernels as! any BilinearKernelSet.Type
                let drawn = warp.apply(to: image, width: canvasWidth, height: canvasHeight)!
                XCTAssertTrue(drawn.hasSamePixels(as: warped), "trial \(trial), \(choice.rawValue)")
            }
            let inverse = h.inverted()!
            let levels = MipLevels(
                image,
                count: PerspectiveWarp.levelsNeeded(inverse, width: canvasWidth, height: canvasHeight, source: image),
                threads: 1)
            let sampling = PerspectiveSampling(inverse: inverse, levels: levels)
            var mismatches = 0
            for y in 0..<canvasHeight {
                let row = sampling.row(y)
                for x in 0..<canvasWidth {
                    if warped[x, y].packed != sampling.pixel(x, row) { mismatches += 1 }
                    if warped[x, y].alpha > 0 { drawn += 1 }
                }
            }
            XCTAssertEqual(mismatches, 0, "trial \(trial)")
        }
        XCTAssertGreaterThan(drawn, 10_000, "the planes are in view")
    }

    /// Every C level's planner against the Swift one, row by row: the same kind for every chunk and the same plan
    /// entries (offsets and weights, the upper level's where a chunk mixes), on random views with the horizon, the
    /// eye and the source's edges in view (the warps' tests cannot tell an inside chunk from a mixed one: both give
    /// the defined pixels).
    func testCPlannersEqualTheSwiftOne() {
        var random = SeededGenerator(seed: 91)
        var kinds = Set<UInt8>()
        var grids = Set<Int32>()
        var mixing = 0
        for trial in 0..<16 {
            let (width, height) = (Int.random(in: 20...150, using: &random), Int.random(in: 20...90, using: &random))
            let image = TestImages.photoLike(width: width, height: height, seed: UInt64(trial))
            let h = randomView(
                width: width, height: height, trial: trial, turns: -1.5...1.5, eyes: 30...400, using: &random)
            guard let inverse = h.inverted() else { continue }
            let (canvasWidth, canvasHeight) = (width + 3 * trial, height + 9)
            let count = PerspectiveWarp.levelsNeeded(inverse, width: canvasWidth, height: canvasHeight, source: image)
            let shared = PerspectiveWarp.levelsNeeded(
                inverse, width: canvasWidth, height: canvasHeight, source: image, threads: 3)
            XCTAssertEqual(shared, count, "levels found on three threads, trial \(trial)")
            let sampling = PerspectiveSampling(inverse: inverse, levels: MipLevels(image, count: count, threads: 1))
            let chunks = (canvasWidth + 7) / 8
            let pixels = (chunks + 7) / 8 * 64  // `details` writes whole vectors of eight chunks
            let (right, bottom) = (Float(width) + 1.5, Float(height) + 1.5)
            for y in stride(from: -5, to: canvasHeight + 5, by: 2) {
                let row = sampling.row(y)
                // levelsNeeded's grid test in vectors against its twin, point by point.
                let grid = (0..<(pixels / 8)).map { c -> Int32 in
                    guard c < chunks, let p = sampling.point(8 * c + 4, row), p.uc > -1.5, p.vc > -1.5,
                        p.uc < right, p.vc < bottom
                    else { return -1 }
                    return sampling.detail(chunk: 8 * c, row)
                }
                var found = [Int32](repeating: 7, count: pixels / 8)
                sampling.gridDetails(row, width: canvasWidth, into: &found)
                XCTAssertEqual(found, grid, "grid levels of detail, trial \(trial), row \(y)")
                grids.formUnion(grid)
                func planned(by kernels: any BilinearKernelSet.Type) -> ([Int32], [UInt8]) {
                    var words = [Int32](repeating: 0, count: PerspectiveSampling.Plan.words(pixels: pixels))
                    var chunkKinds = [UInt8](repeating: 9, count: chunks)
                    words.withUnsafeMutableBufferPointer { words in
                        let plan = PerspectiveSampling.Plan(words.baseAddress!, pixels: pixels)
                        sampling.details(from: 0, count: chunks, row, into: plan.detail)
                        kernels.planChunks(sampling, from: 0, count: chunks, row, into: plan, kinds: &chunkKinds)
                    }
                    return (words, chunkKinds)
                }
                let swift = planned(by: SIMDKernels.self)
                kinds.formUnion(swift.1)
                mixing += swift.1.indices.filter { swift.1[$0] == 1 && swift.0[3 * pixels + $0] & 255 != 0 }.count
                for choice in KernelChoice.availableC {
                    let c = planned(by: choice.kernels as! any BilinearKernelSet.Type)
                    XCTAssertEqual(c.1, swift.1, "kinds, trial \(trial), row \(y), \(choice.rawValue)")
                    XCTAssertEqual(c.0, swift.0, "plan, trial \(trial), row \(y), \(choice.rawValue)")
                }
            }
        }
        XCTAssertEqual(kinds, [0, 1, 2], "clear, inside and mixed chunks all planned")
        XCTAssertGreaterThan(grids.count, 100, "grid points near the source, far from it, and levels across the range")
        XCTAssertTrue(grids.contains(-1))
        XCTAssertGreaterThan(mixing, 100, "inside chunks that mix two levels")
    }

    /// The levels of detail planned eight chunks at a time are the scalar ones, the horizon and behind the eye
    /// included.
    func testVectorLevelsOfDetailEqualTheScalarOnes() {
        let image = TestImages.photoLike(width: 64, height: 48, seed: 4)
        let h = turned(width: 64, height: 48, degrees: 70, eye: 60)
        let sampling = PerspectiveSampling(
            inverse: h.inverted()!, levels: MipLevels(image, count: 6, threads: 1))
        let details = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { details.deallocate() }
        var seen = Set<Int32>()
        for y in stride(from: -40, to: 90, by: 3) {
            let row = sampling.row(y)
            sampling.details(from: 0, count: 64, row, into: details)
            for c in 0..<64 {
                XCTAssertEqual(details[c], sampling.detail(chunk: 8 * c, row), "\((c, y))")
                seen.insert(details[c])
            }
        }
        XCTAssertGreaterThan(seen.count, 12, "levels of detail across the range")
        XCTAssertTrue(seen.contains(0))
        XCTAssertTrue(seen.contains(sampling.topDetail))
    }

    func testHalvingIsTheRoundedMeanOfEachBlock() {
        for (width, height) in [(9, 7), (10, 6), (1, 5), (6, 1), (33, 18)] {
            let image = TestImages.photoLike(width: width, height: height, seed: UInt64(width))
            let half = MipLevels.halved(image, threads: 2)
            for y in 0..<half.height {
                for x in 0..<half.width {
                    var sums = [0, 0, 0, 0]
                    for (i, j) in [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)]
                    where i < width && j < height {
                        let p = image[i, j]
                        for (c, value) in [p.red, p.green, p.blue, p.alpha].enumerated() { sums[c] += Int(value) }
                    }
                    let p = half[x, y]
                    XCTAssertEqual([p.red, p.green, p.blue, p.alpha].map(Int.init), sums.map { ($0 + 2) >> 2 })
                }
            }
        }
    }

    /// The same sampling (levels, level of detail per chunk, trilinear mix) in Double with unrounded levels: what
    /// Float positions, the approximate log₂ and the fixed point cost. Measured: max error 1, PSNR 59.5 dB on this
    /// photo-like picture (bound: 1 level, 55 dB).
    func testWithinOneLevelOfAFloat64Evaluation() {
        let (width, height) = (320, 240)
        let image = TestImages.photoLike(width: width, height: height, seed: 9)
        let h = turned(width: width, height: height, degrees: 40, eye: 400)
        let warped = mipRoute(h).apply(to: image, width: width, height: height)!
        let reference = Float64Warp(image, levels: MipLevels(image, count: 20, threads: 1).count)
            .apply(h.inverted()!, width: width, height: height)
        let difference = ImageDifference(warped, reference)
        XCTAssertLessThanOrEqual(difference.maxError, 1, "\(difference)")
        XCTAssertGreaterThan(difference.psnr, 55, "\(difference)")
    }

    /// Where the plane recedes a one-pixel checkerboard must come out grey, not as moiré: every pixel whose
    /// footprint spans 2√2 source pixels or more (level 1 alone, after `detailBias`) within 16 levels of the mean
    /// (point sampling gives 0 or 255). Between 2 and 2√2 pixels, half a level of sharpness lets some of the
    /// board through: level 0 weighs at most ½ there, so at most 64 levels from the mean (measured 54.5), the
    /// price of the bias's 1.3–3.9 dB on photos.
    func testRecedingCheckerboardDoesNotAlias() {
        let (width, height) = (256, 256)
        let board = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where (x + y) % 2 == 0 { board[x, y] = Pixel(red: 255, green: 255, blue: 255) }
            for x in 0..<width where (x + y) % 2 == 1 { board[x, y] = Pixel(red: 0, green: 0, blue: 0) }
        }
        let h = turned(width: width, height: height, degrees: 60, eye: 300)
        let warped = mipRoute(h).apply(to: board, width: width, height: height)!
        let inverse = h.inverted()!
        var (checked, worstGrey, worstBetween) = (0, 0.0, 0.0)
        for y in 0..<height {
            for x in 0..<width {
                guard let s = Float64Warp.sample(inverse, x: Double(x) + 0.5, y: Double(y) + 0.5), s.lod >= 1,
                    s.u > 2, s.v > 2, s.u < Double(width - 3), s.v < Double(height - 3)
                else { continue }
                let deviation = abs(Double(warped[x, y].red) - 127.5)
                if s.lod >= 1.5 {
                    checked += 1
                    worstGrey = max(worstGrey, deviation)
                } else {
                    worstBetween = max(worstBetween, deviation)
                }
                XCTAssertEqual(warped[x, y].alpha, 255)
            }
        }
        print(
            "receding checkerboard: \(checked) pixels past 2√2 within \(worstGrey), between 2 and 2√2 \(worstBetween)")
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertLessThanOrEqual(worstGrey, 16)
        XCTAssertLessThanOrEqual(worstBetween, 64)
    }

    func testBehindTheEyeStaysTransparentAndEdgesAreAntialiased() {
        // Turned 30° (the left side towards the viewer) with the eye 100 px away, the left edge of a 400-pixel-wide
        // plane reaches w = 0: the near half fills the canvas to its edge without blowing up.
        let image = Image(width: 400, height: 300, fill: Pixel(red: 200, green: 100, blue: 50))
        let h = turned(width: 400, height: 300, degrees: 30, eye: 100)
        for axisTurns in [true, false] {
            var warp = PerspectiveWarp(homography: h)
            warp.takesAxisTurns = axisTurns
            checkBehindTheEyeAndEdges(warp.apply(to: image, width: 400, height: 300)!, route: "\(axisTurns)")
        }
    }

    private func checkBehindTheEyeAndEdges(_ warped: Image, route: String) {
        var partial = 0
        for y in 0..<300 {
            for x in 0..<400 {
                let alpha = warped[x, y].alpha
                if alpha > 0 && alpha < 255 { partial += 1 }
                XCTAssertLessThanOrEqual(warped[x, y].red, alpha, route)
            }
        }
        XCTAssertEqual(warped[0, 150].alpha, 255, "the near side reaches the canvas edge, axis turns \(route)")
        XCTAssertGreaterThan(partial, 100, "anti-aliased edges, axis turns \(route)")
        // The canvas beyond the far edge is clear.
        XCTAssertEqual(warped[399, 0].alpha, 0, route)
    }
}

/// The warp's sampling in Double: box-filtered levels unrounded, bilinear and trilinear without fixed point.
private struct Float64Warp {
    var levels: [(width: Int, height: Int, pixels: [SIMD4<Double>])] = []

    init(_ image: Image, levels count: Int) {
        var pixels = [SIMD4<Double>]()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                pixels.append(SIMD4(Double(p.red), Double(p.green), Double(p.blue), Double(p.alpha)))
            }
        }
        levels.append((image.width, image.height, pixels))
        while levels.count < count {
            let last = levels.last!
            let (w, h) = ((last.width + 1) / 2, (last.height + 1) / 2)
            var next = [SIMD4<Double>](repeating: .zero, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var sum = SIMD4<Double>.zero
                    for (i, j) in [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)]
                    where i < last.width && j < last.height {
                        sum += last.pixels[j * last.width + i]
                    }
                    next[y * w + x] = sum / 4
                }
            }
            levels.append((w, h, next))
        }
    }

    /// Where canvas point (x, y) samples: source pixel-centre coordinates and log₂ of the local stretch (the
    /// larger of the two source axes' squared gradients, halved), nil behind the eye.
    static func sample(_ inverse: Homography, x: Double, y: Double) -> (u: Double, v: Double, lod: Double)? {
        let p = inverse.homogeneous((x, y))
        guard p.w > 0 else { return nil }
        let (u, v) = (p.x / p.w, p.y / p.w)
        let ux = (inverse.m11 - u * inverse.m13) / p.w
        let uy = (inverse.m21 - u * inverse.m23) / p.w
        let vx = (inverse.m12 - v * inverse.m13) / p.w
        let vy = (inverse.m22 - v * inverse.m23) / p.w
        return (u - 0.5, v - 0.5, 0.5 * log2(max(ux * ux + uy * uy, vx * vx + vy * vy)))
    }

    func bilinear(_ level: Int, _ u: Double, _ v: Double) -> SIMD4<Double> {
        let l = levels[level]
        let scale = 1 / Double(1 << level)
        let (lu, lv) = ((u + 0.5) * scale - 0.5, (v + 0.5) * scale - 0.5)
        let (i, j) = (Int(lu.rounded(.down)), Int(lv.rounded(.down)))
        let (fx, fy) = (lu - Double(i), lv - Double(j))
        func at(_ i: Int, _ j: Int) -> SIMD4<Double> {
            i >= 0 && j >= 0 && i < l.width && j < l.height ? l.pixels[j * l.width + i] : .zero
        }
        return (at(i, j) * (1 - fx) + at(i + 1, j) * fx) * (1 - fy) + (at(i, j + 1) * (1 - fx) + at(i + 1, j + 1) * fx)
            * fy
    }

    func apply(_ inverse: Homography, width: Int, height: Int) -> Image {
        let result = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                // The warp's level of detail is its chunk's: the stretch at the chunk's centre, half a level finer.
                let chunk = PerspectiveSampling.chunk
                let centre = Double(x - x % chunk) + Double(chunk / 2)
                guard let s = Float64Warp.sample(inverse, x: Double(x) + 0.5, y: Double(y) + 0.5),
                    let c = Float64Warp.sample(inverse, x: centre, y: Double(y) + 0.5),
                    s.u > -3, s.v > -3, s.u < 1e6, s.v < 1e6
                else { continue }
                let lod = min(max(c.lod - Double(PerspectiveSampling.detailBias) / 256, 0), Double(levels.count - 1))
                let k = min(Int(lod), levels.count - 1)
                var value = bilinear(k, s.u, s.v)
                if lod > Double(k) {
                    value = value * (Double(k + 1) - lod) + bilinear(k + 1, s.u, s.v) * (lod - Double(k))
                }
                result[x, y] = Pixel(
                    red: TestImages.clampByte(value.x), green: TestImages.clampByte(value.y),
                    blue: TestImages.clampByte(value.z), alpha: TestImages.clampByte(value.w))
            }
        }
        return result
    }
}
