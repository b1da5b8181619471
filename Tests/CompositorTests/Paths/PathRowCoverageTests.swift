import CKernels
import TestSupport
import XCTest

/// `bt_path_row_coverage`, the rasteriser's cells-to-bytes loop (sixteen cells at a time), against its scalar twin
/// `referenceRow` (the cell by cell running sum, each level rounded half up), to the byte: both fill rules, windings
/// past ±1 and ±2, exact halves of a level, sums that wrap, runs of zeros long and short, rows shorter than a block.
/// And `bt_path_deposit` against `referenceDeposit`, cell for cell.
final class PathRowCoverageTests: XCTestCase {
    private let one = Int32(BT_PATH_CELL_ONE)

    /// The twin: every cell summed in order (wrapping), the level of the sum at each; returns the last level.
    private func referenceRow(_ cells: [Int32], first: Int, end: Int, evenOdd: Bool, into output: inout [UInt8])
        -> UInt8
    {
        func level(_ sum: Int32) -> UInt8 {
            var coverage = Int64(sum).magnitude
            if evenOdd {
                coverage %= 2 * UInt64(one)
                if coverage > UInt64(one) { coverage = 2 * UInt64(one) - coverage }
            } else {
                coverage = min(coverage, UInt64(one))
            }
            // Rounded half up: (c · 255 + ½) / one, in whole numbers.
            return UInt8((coverage * 255 + UInt64(one) / 2) / UInt64(one))
        }
        var sum: Int32 = 0
        var current = level(0)
        for x in first...end {
            sum &+= cells[x]
            current = level(sum)
            output[x] = current
        }
        return current
    }

    private func randomCells(_ count: Int, using random: inout SeededGenerator) -> [Int32] {
        var cells = [Int32](repeating: 0, count: count)
        var x = 0
        while x < count {
            switch Int.random(in: 0..<9, using: &random) {
            case 0, 1: x += Int.random(in: 1...40, using: &random)  // a run of zeros
            case 2: cells[x] = one * Int32.random(in: -3...3, using: &random)  // whole windings
            case 3: cells[x] = one / 2 * Int32.random(in: -5...5, using: &random)  // halves: level 127.5, rounded up
            case 4: cells[x] = Int32.random(in: Int32.min...Int32.max, using: &random)  // sums that wrap
            default: cells[x] = Int32.random(in: -(one + one / 2)...(one + one / 2), using: &random)
            }
            x += 1
        }
        return cells
    }

    /// The deposit's twin: the same arithmetic in Swift, rounding to even as `rint` does.
    private func referenceDeposit(_ cells: inout [Int32], from a: Double, to b: Double, height: Double) -> (Int, Int) {
        func ramp(_ s: Double) -> Double { s <= 0 ? 0 : s >= 1 ? s - 0.5 : 0.5 * s * s }
        func fixed(_ value: Double) -> Int32 { Int32(value.rounded(.toNearestOrEven)) }
        let (lo, hi) = a < b ? (a, b) : (b, a)
        let first = Int(lo)
        let last = max(first, Int(hi.rounded(.up)) - 1)
        let scaled = height * Double(one)
        let whole = fixed(scaled)
        if first == last {
            let part = fixed(scaled * (Double(first + 1) - (lo + hi) * 0.5))
            cells[first] &+= part
            cells[first + 1] &+= whole &- part
            return (first, last)
        }
        let inverseWidth = 1 / (hi - lo)
        var given: Int32 = 0
        for column in first...last {
            let right = Double(column + 1)
            let upTo = fixed(scaled * ((ramp(right - lo) - ramp(right - hi)) * inverseWidth))
            cells[column] &+= upTo &- given
            given = upTo
        }
        cells[last + 1] &+= whole &- given
        return (first, last)
    }

    /// Pieces within one cell, across many, vertical, ending on cell sides, a hair wide, in either direction and
    /// winding, onto cells already holding sums: the same cells and the same first and last.
    func testDepositEqualsItsTwin() {
        var random = SeededGenerator(seed: 31)
        for trial in 0..<20_000 {
            let width = 40
            func x() -> Double {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: Double(Int.random(in: 0...width, using: &random))  // on a cell side
                case 1: Double(Int.random(in: 0...(4 * width), using: &random)) / 4
                default: Double.random(in: 0...Double(width), using: &random)
                }
            }
            let a = x()
            let b = trial % 5 == 0 ? a : trial % 5 == 1 ? min(a + 1e-9, Double(width)) : x()
            let height = Double.random(in: -1...1, using: &random)
            var expected = (0..<(width + 2)).map { _ in Int32.random(in: -one...one, using: &random) }
            var actual = expected
            let (first, last) = referenceDeposit(&expected, from: a, to: b, height: height)
            var actualLast = 0
            let actualFirst = bt_path_deposit(&actual, a, b, height, &actualLast)
            XCTAssertEqual([actualFirst, actualLast], [first, last], "trial \(trial): \(a) → \(b)")
            XCTAssertEqual(actual, expected, "trial \(trial): \(a) → \(b), height \(height)")
            if actual != expected { return }
        }
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
                    bt_path_row_coverage(cells.baseAddress!, first, end, output.baseAddress!, evenOdd ? 1 : 0)
                }
            }
            XCTAssertEqual(actualLast, expectedLast, "trial \(trial)")
            // Bytes outside first...end are untouched.
            XCTAssertEqual(actual, expected, "trial \(trial)")
            if actual != expected { return }
        }
    }
}
