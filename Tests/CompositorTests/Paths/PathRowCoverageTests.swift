import CKernels
import TestSupport
import XCTest

/// `bt_path_row_coverage`, the rasteriser's cells-to-bytes loop, against its scalar twin `referenceRow` (the cell by
/// cell running sum, each level rounded as Swift rounds), to the byte: both fill rules, windings past ±1 and ±2,
/// exact halves of a level, runs of zeros long and short, cells of −0, rows shorter than a 16-byte store.
final class PathRowCoverageTests: XCTestCase {
    /// The twin: every cell summed in order, the level of the sum at each; returns the last level.
    private func referenceRow(_ cells: [Float], first: Int, end: Int, evenOdd: Bool, into output: inout [UInt8])
        -> UInt8
    {
        func level(_ sum: Float) -> UInt8 {
            var coverage = abs(sum)
            if evenOdd {
                coverage -= 2 * (coverage * 0.5).rounded(.down)
                if coverage > 1 { coverage = 2 - coverage }
            } else {
                coverage = min(coverage, 1)
            }
            return UInt8(coverage * 255 + 0.5)
        }
        var sum: Float = 0
        var current = level(0)
        for x in first...end {
            sum += cells[x]
            current = level(sum)
            output[x] = current
        }
        return current
    }

    private func randomCells(_ count: Int, using random: inout SeededGenerator) -> [Float] {
        var cells = [Float](repeating: 0, count: count)
        var x = 0
        while x < count {
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: x += Int.random(in: 1...40, using: &random)  // a run of zeros
            case 2: cells[x] = -0.0
            case 3: cells[x] = Float(Int.random(in: -3...3, using: &random))  // whole windings
            case 4: cells[x] = Float(Int.random(in: -510...510, using: &random)) / 255 + 0.5 / 255  // halves
            default: cells[x] = Float.random(in: -1.5...1.5, using: &random)
            }
            x += 1
        }
        return cells
    }

    func testEqualsTheCellByCellSumToTheByte() {
        var random = SeededGenerator(seed: 30)
        for trial in 0..<3000 {
            let width = Int.random(in: 1...(trial % 3 == 0 ? 12 : 300), using: &random)
            let cells = randomCells(width, using: &random)
            let first = Int.random(in: 0..<width, using: &random)
            let end = Int.random(in: first..<width, using: &random)
            let evenOdd = Bool.random(using: &random)
            var expected = [UInt8](repeating: 7, count: width)
            var actual = expected
            let expectedLast = referenceRow(cells, first: first, end: end, evenOdd: evenOdd, into: &expected)
            let actualLast = cells.withUnsafeBufferPointer { cells in
                actual.withUnsafeMutableBufferPointer { output in
                    bt_path_row_coverage(
                        cells.baseAddress!, first, end, output.baseAddress!, width, evenOdd ? 1 : 0)
                }
            }
            XCTAssertEqual(actualLast, expectedLast, "trial \(trial)")
            // Bytes before `first` are untouched; bytes past `end` may hold a short run's store and are not part
            // of the result.
            XCTAssertEqual(Array(actual[..<first]), Array(expected[..<first]), "trial \(trial)")
            XCTAssertEqual(Array(actual[first...end]), Array(expected[first...end]), "trial \(trial)")
            if actual[first...end] != expected[first...end] { return }
        }
    }
}
