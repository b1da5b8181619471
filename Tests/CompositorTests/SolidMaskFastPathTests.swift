import TestSupport
import XCTest

@testable import Compositor

/// The solid-colour, masked source-over fast path (text and shapes) gives the general loop's bits, blocks the
/// mask leaves uncovered or covers fully (with an opaque colour) included, at every row length (whole blocks and
/// the padded tail).
final class SolidMaskFastPathTests: XCTestCase {
    func testSameBitsAsTheGeneralLoop() {
        var random = SeededGenerator(seed: 17)
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
            let (fast, general) = Self.fastAndGeneral(solid, mask: mask, backdrop: backdrop, opacity: opacity)
            XCTAssertEqual(fast, general, "trial \(trial), \(count) pixels")
        }
    }

    /// A fully covered block of an opaque colour stored without reading the backdrop gives the general loop's
    /// bits for every backdrop, colours at a half level (where the loop's b + (s − b) can round either way, and
    /// the shortcut must decline) included.
    func testFullCoverageWordsAreTheGeneralLoopsBits() {
        var random = SeededGenerator(seed: 29)
        var declined = 0
        for trial in 0..<300 {
            func channel() -> Float {
                let level = Float(random.next() % 256)
                // Every third channel sits on a half level, the rest anywhere.
                return trial % 3 == 0 ? min(level + 0.5, 255) / 255 : Float(random.next() % 100_001) / 100_000
            }
            let solid = UnitPixel(red: channel(), green: channel(), blue: channel(), alpha: 1)
            let words = CompositeKernel.fullCoverageWords(Planar16(repeating: solid))
            if words == nil { declined += 1 }
            // Every byte in every channel as a backdrop, fully covered.
            var backdrop = [UInt8](repeating: 0, count: 256 * 4)
            for i in 0..<256 {
                for c in 0..<4 { backdrop[i * 4 + c] = UInt8((i * (c + 1) * 37) % 256) }
            }
            let mask = [UInt8](repeating: 255, count: 256)
            let (fast, general) = Self.fastAndGeneral(
                solid, mask: mask, backdrop: backdrop, opacity: 1, fullCoverageWords: words)
            XCTAssertEqual(fast, general, "trial \(trial): \(solid)")
        }
        // Half levels make some colours depend on the backdrop: the check must have declined some.
        XCTAssertGreaterThan(declined, 0)
    }

    /// A row of `backdrop` with `solid` drawn through `mask` by the fast paths and by the general loop.
    private static func fastAndGeneral(
        _ solid: UnitPixel, mask: [UInt8], backdrop: [UInt8], opacity: Float, fullCoverageWords: SIMD16<UInt32>? = nil
    ) -> (fast: [UInt8], general: [UInt8]) {
        let kernel = CompositeKernel(.sourceOver)
        var (fast, general) = (backdrop, backdrop)
        mask.withUnsafeBufferPointer { maskPointer in
            fast.withUnsafeMutableBufferPointer {
                kernel.compositeRow(
                    source: nil, solid: solid, mask: maskPointer.baseAddress, destination: $0.baseAddress!,
                    count: mask.count, opacity: opacity, space: .srgb, fullCoverageWords: fullCoverageWords)
            }
            general.withUnsafeMutableBufferPointer {
                kernel.compositeRow(
                    source: nil, solid: solid, mask: maskPointer.baseAddress, destination: $0.baseAddress!,
                    count: mask.count, opacity: opacity, space: .srgb, fastPaths: false)
            }
        }
        return (fast, general)
    }
}
