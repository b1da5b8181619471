import TestSupport
import XCTest

@testable import Compositor

/// The solid-colour, masked source-over fast path (text and shapes) gives the general loop's bits, blocks the
/// mask leaves uncovered or covers fully (with an opaque colour) included, at every row length (whole blocks and
/// the padded tail).
final class SolidMaskFastPathTests: XCTestCase {
    func testSameBitsAsTheGeneralLoop() {
        var random = SeededGenerator(seed: 17)
        let kernel = CompositeKernel(.sourceOver)
        for trial in 0..<200 {
            let count = 1 + Int(random.next() % 90)
            // Valid premultiplied backdrops (colour at most alpha), opaque ones often, as a canvas holds.
            var backdrop = [UInt8](repeating: 0, count: count * 4)
            for i in 0..<count {
                let alpha = random.next() % 3 == 0 ? 255 : UInt8(truncatingIfNeeded: random.next())
                for c in 0..<3 { backdrop[i * 4 + c] = UInt8(random.next() % (UInt64(alpha) + 1)) }
                backdrop[i * 4 + 3] = alpha
            }
            // Masks as glyphs make them: runs of zeros, runs of full coverage, edges in between.
            var mask = [UInt8](repeating: 0, count: count)
            var i = 0
            while i < count {
                let run = 1 + Int(random.next() % 24)
                let kind = random.next() % 3
                for j in i..<min(i + run, count) {
                    mask[j] = kind == 0 ? 0 : kind == 1 ? 255 : UInt8(truncatingIfNeeded: random.next())
                }
                i += run
            }
            func unit() -> Float { Float(random.next() % 1001) / 1000 }
            // An opaque colour at full opacity in a sixth of the trials: its fully covered blocks take their own path.
            let alpha = trial % 3 == 0 ? 1 : unit()
            let solid = UnitPixel(red: unit() * alpha, green: unit() * alpha, blue: unit() * alpha, alpha: alpha)
            let opacity = trial % 4 == 0 ? 1 : unit()
            var fast = backdrop
            var general = backdrop
            mask.withUnsafeBufferPointer { maskPointer in
                fast.withUnsafeMutableBufferPointer {
                    kernel.compositeRow(
                        source: nil, solid: solid, mask: maskPointer.baseAddress, destination: $0.baseAddress!,
                        count: count, opacity: opacity, space: .srgb)
                }
                general.withUnsafeMutableBufferPointer {
                    kernel.compositeRow(
                        source: nil, solid: solid, mask: maskPointer.baseAddress, destination: $0.baseAddress!,
                        count: count, opacity: opacity, space: .srgb, fastPaths: false)
                }
            }
            XCTAssertEqual(fast, general, "trial \(trial), \(count) pixels")
        }
    }
}
