@testable import Compositor
@testable import Scenes
import TestSupport
import XCTest

/// The fixed-point mixing loops against their scalar twins (to the bit) and against the exact mix (within 1 LSB).
final class TransitionKernelTests: XCTestCase {
    func testConstantWeightMixEqualsItsScalarTwinToTheBit() {
        let a = TestImages.randomPremultiplied(width: 203, height: 1, seed: 1)
        let b = TestImages.randomPremultiplied(width: 203, height: 1, seed: 2)
        var random = SeededGenerator(seed: 3)
        for count in [0, 1, 7, 8, 9, 31, 64, 203] {
            for _ in 0..<20 {
                let weightA = Int.random(in: 0...256, using: &random)
                let weightB = Int.random(in: 0...(256 - weightA), using: &random)
                let rest = UInt16(256 - weightA - weightB)
                let level = UInt16.random(in: 0...255, using: &random)
                let bias = SIMD4(level * rest, level * rest, level * rest, 255 * rest) &+ 128
                let fast = Image(width: 203, height: 1)
                let slow = Image(width: 203, height: 1)
                TransitionKernels.mix(
                    a.row(0), b.row(0), into: fast.row(0), count: count, weightA: weightA, weightB: weightB, bias: bias)
                ScalarTransitionKernels.mix(
                    a.row(0), b.row(0), into: slow.row(0), count: count, weightA: weightA, weightB: weightB, bias: bias)
                XCTAssertTrue(fast.hasSamePixels(as: slow), "\(count) \(weightA) \(weightB)")
            }
        }
    }

    func testPerPixelWeightMixEqualsItsScalarTwinToTheBit() {
        let a = TestImages.randomPremultiplied(width: 203, height: 1, seed: 4)
        let b = TestImages.randomPremultiplied(width: 203, height: 1, seed: 5)
        var random = SeededGenerator(seed: 6)
        let weights = (0..<203).map { _ in UInt32.random(in: 0...256, using: &random) }
        for count in [0, 1, 7, 8, 9, 31, 64, 203] {
            let fast = Image(width: 203, height: 1)
            let slow = Image(width: 203, height: 1)
            TransitionKernels.mix(a.row(0), b.row(0), weights: weights, into: fast.row(0), count: count)
            ScalarTransitionKernels.mix(a.row(0), b.row(0), weights: weights, into: slow.row(0), count: count)
            XCTAssertTrue(fast.hasSamePixels(as: slow), "\(count)")
        }
    }

    func testFadeIsTheExactMixWithinOneLevelAndItsMiddleTheHalfMix() {
        let a = TestImages.randomPremultiplied(width: 64, height: 16, seed: 7)
        let b = TestImages.randomPremultiplied(width: 64, height: 16, seed: 8)
        for progress in [0.5, 0.001, 0.1, 1.0 / 3, 0.77, 0.999] {
            let frame = PhotoTransition(style: .fade).frame(from: a, to: b, progress: progress)
            var worst = 0.0
            for y in 0..<16 {
                for x in 0..<64 {
                    let (p, q, r) = (a[x, y], b[x, y], frame[x, y])
                    for (u, v, w) in [(p.red, q.red, r.red), (p.green, q.green, r.green), (p.alpha, q.alpha, r.alpha)] {
                        let exact = Double(u) * (1 - progress) + Double(v) * progress
                        worst = max(worst, abs(Double(w) - exact))
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "fade at \(progress)")
            if progress == 0.5 { XCTAssertLessThanOrEqual(worst, 0.5, "the middle rounds the half mix") }
        }
    }

    func testSoftEdgeFieldsVectorLanesEqualTheirScalarTwinToTheBit() {
        let (width, height) = (1170, 2532)  // the benchmark's size: large distances, many rounding cases
        for style in [PhotoTransition.Style.smoothleft, .smoothright, .circleopen, .circleclose, .radial] {
            for progress: Float in [0.013, 0.25, 0.5, 0.71, 0.999] {
                let field = SoftEdgeField(style: style, width: width, height: height, progress: progress)
                var seen = Set<UInt32>()
                for y in stride(from: 0, to: height, by: 97) {
                    for x in stride(from: 0, to: width - 16, by: 16) {
                        let lanes = field.vectorShares(x: x, y: y)
                        for lane in 0..<16 {
                            XCTAssertEqual(
                                lanes[lane], field.share(x: x + lane, y: y), "\(style) \(progress) \(x + lane), \(y)")
                            seen.insert(lanes[lane])
                        }
                    }
                }
                XCTAssertTrue(seen.isSubset(of: Set(0...256)), "\(style)")
            }
        }
    }

    func testArctangentIsWithinATenThousandthOfARadianOfLibmAndItsLanesEqualItsScalarTwin() {
        var worst = 0.0
        for y in stride(from: -1266, through: 1266, by: 37) {
            for x in stride(from: -585, through: 585 - 16, by: 16) {
                let columns = SIMD16<Float>((0..<16).map { Float(x + $0) })
                let lanes = Arctangent.atan2(columns, SIMD16(repeating: Float(y)))
                for lane in 0..<16 {
                    let scalar = Arctangent.atan2(Float(x + lane), Float(y))
                    XCTAssertEqual(lanes[lane].bitPattern, scalar.bitPattern, "\(x + lane), \(y)")
                    worst = max(worst, abs(Double(scalar) - atan2(Double(x + lane), Double(y))))
                }
            }
        }
        XCTAssertEqual(Arctangent.atan2(0, 0), 0)
        XCTAssertEqual(Arctangent.atan2(0, -3), .pi, accuracy: 1e-6)
        XCTAssertLessThan(worst, 1e-4)
    }

    func testDissolveRanksInSIMDEqualTheScalarHash() {
        for y in [0, 1, 17, 2531, 1 << 20] {
            for x in stride(from: 0, to: 1170, by: 16) {
                let lanes = TransitionFrame.dissolveRanks(x: x, y: y)
                for lane in 0..<16 {
                    XCTAssertEqual(lanes[lane], TransitionFrame.dissolveRank(x: x + lane, y: y), "\(x + lane), \(y)")
                }
            }
        }
    }
}
