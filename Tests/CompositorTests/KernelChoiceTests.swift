import CKernels
import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// The kernel sets chosen at run time: what `BLURTOOL_KERNELS` asks for, which sets this CPU has, and every one
/// of them blurring to the same bits as the scalar twins. (Each moved kernel is also held to its twin on its
/// own, in its family's tests: FixedPointBlurTests.)
final class KernelChoiceTests: XCTestCase {
    func testAnUnsetOrEmptyVariableMeansTheBestLevelTheCPUHas() {
        XCTAssertEqual(try KernelChoice.parse(environmentValue: nil).get(), KernelChoice.best)
        XCTAssertEqual(try KernelChoice.parse(environmentValue: "").get(), KernelChoice.best)
        #if arch(x86_64)
            let expected: KernelChoice =
                bt_cpu_has_level(BT_LEVEL_X86_64_V4) != 0
                ? .avx512 : bt_cpu_has_level(BT_LEVEL_X86_64_V3) != 0 ? .avx2 : .baseline
            XCTAssertEqual(KernelChoice.best, expected)
        #else
            XCTAssertEqual(KernelChoice.best, .baseline)
        #endif
    }

    func testEachAvailableSetCanBeForcedByName() {
        XCTAssertTrue(KernelChoice.available.starts(with: [.reference, .swift, .baseline]), "\(KernelChoice.available)")
        for choice in KernelChoice.available {
            XCTAssertEqual(try KernelChoice.parse(environmentValue: choice.rawValue).get(), choice)
        }
    }

    func testAnUnknownNameIsAOneLineErrorListingTheNames() {
        let result = KernelChoice.parse(environmentValue: "AVX2")
        XCTAssertEqual(
            result,
            .failure(
                KernelChoiceError(
                    message: "BLURTOOL_KERNELS=AVX2 names no kernel set (reference, swift, baseline, avx2, avx512)")))
    }

    func testASetTheCPULacksIsAnErrorNamingTheOnesItHas() {
        let missing = KernelChoice.allCases.filter { !$0.isAvailable }
        let has = KernelChoice.available.map(\.rawValue).joined(separator: ", ")
        for choice in missing {
            XCTAssertEqual(
                KernelChoice.parse(environmentValue: choice.rawValue),
                .failure(
                    KernelChoiceError(
                        message: "BLURTOOL_KERNELS=\(choice.rawValue): this CPU or build lacks them (it has \(has))")))
        }
        #if !arch(x86_64)
            XCTAssertEqual(missing, [.avx2, .avx512])
        #endif
    }

    func testTheSetsAreNamedForVerbose() {
        XCTAssertEqual(KernelChoice.avx2.name, "x86-64-v3 (AVX2+FMA), C")
        XCTAssertEqual(KernelChoice.reference.name, "scalar reference")
        XCTAssertEqual(Kernels.name, Kernels.choice.name)
    }

    /// Every set carries every family the engines look up (a missing conformance would quietly fall back to
    /// the Swift kernels), and a blur through each matches the scalar twins to the bit on both integer routes and
    /// the pyramid.
    func testEveryAvailableSetBlursLikeTheScalarTwins() {
        let image = TestImages.randomPremultiplied(width: 83, height: 37, seed: 11)
        for choice in KernelChoice.available {
            let kernels = choice.kernels
            XCTAssertNotNil(kernels as? any FixedPointKernelSet.Type, choice.rawValue)
            XCTAssertNotNil(kernels as? any PyramidKernelSet.Type, choice.rawValue)
            XCTAssertNotNil(kernels as? any BilinearKernelSet.Type, choice.rawValue)
            // The integer route (σ ≤ 8), the Float route above it, the pyramid.
            for (sigma, precision) in [(0.4, BlurPrecision.exact), (2, .exact), (6, .exact), (11, .exact), (20, .fast)] {
                for threads in [1, 3] {
                    var blur = GaussianBlur(sigma: sigma, edgeMode: .mirror, precision: precision, threads: threads)
                    blur.kernels = ScalarKernels.self
                    let expected = blur.apply(to: image)
                    blur.kernels = kernels
                    XCTAssertTrue(
                        blur.apply(to: image).hasSamePixels(as: expected),
                        "\(choice.rawValue) σ \(sigma) \(precision) \(threads) threads")
                }
            }
        }
    }
}
