import CKernels
import TestSupport
import XCTest

@_spi(Benchmarks) @testable import Compositor

/// Source-over's fast path at every C level this CPU has gives the Swift fast path's bits (its twin; CompositeTests
/// hold that one to the reference) on valid premultiplied pixels and on any bytes (colour above alpha included,
/// which both clamp), at every row length (whole blocks of 16 and the tail the general loop finishes).
final class SourceOverLevelTests: XCTestCase {
    private func composite(
        _ source: [UInt8], onto backdrop: [UInt8], opacity: Float, loops: bt_kernel_table?
    ) -> [UInt8] {
        var destination = backdrop
        source.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer {
                CompositeKernel(.sourceOver).compositeRow(
                    source: source.baseAddress, solid: UnitPixel(red: 0, green: 0, blue: 0, alpha: 0), mask: nil,
                    destination: $0.baseAddress!, count: backdrop.count / 4, opacity: opacity, space: .srgb,
                    loops: loops)
            }
        }
        return destination
    }

    private func premultiplied(_ count: Int, using random: inout SeededGenerator) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: count * 4)
        for i in 0..<count {
            let alpha = random.next() % 3 == 0 ? 255 : UInt8(truncatingIfNeeded: random.next())
            for c in 0..<3 { pixels[i * 4 + c] = UInt8(random.next() % (UInt64(alpha) + 1)) }
            pixels[i * 4 + 3] = alpha
        }
        return pixels
    }

    func testEveryLevelMatchesTheSwiftFastPath() {
        var random = SeededGenerator(seed: 53)
        for choice in KernelChoice.availableC {
            for trial in 0..<120 {
                let count = 1 + Int(random.next() % 70)
                let opacity: Float = [1, 0, 0.5, Float(random.next() % 1001) / 1000][trial % 4]
                let source = premultiplied(count, using: &random)
                let backdrop = premultiplied(count, using: &random)
                let fast = composite(source, onto: backdrop, opacity: opacity, loops: choice.table)
                XCTAssertEqual(
                    fast, composite(source, onto: backdrop, opacity: opacity, loops: nil),
                    "\(choice.rawValue) trial \(trial), \(count) pixels")
                let anySource = (0..<(count * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let anyBackdrop = (0..<(count * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                XCTAssertEqual(
                    composite(anySource, onto: anyBackdrop, opacity: opacity, loops: choice.table),
                    composite(anySource, onto: anyBackdrop, opacity: opacity, loops: nil),
                    "\(choice.rawValue) trial \(trial), any bytes")
            }
        }
    }
}
