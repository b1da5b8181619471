import CKernels
import TestSupport
import XCTest

@testable import Compositor

/// `bt_path_exact_cells` against its Swift twin (`ReferenceExactCells`), byte for byte, on seeded rows of pieces:
/// few (trapezoids), over `BT_MAXIMUM_EXACT_PIECES` in a cell (strips), over `BT_MAXIMUM_SAMPLED_PIECES` (the
/// byte left as it was), on a quarter-pixel grid where ends, crossings and cell sides coincide. That the twin is
/// the exact area is `PathFillTests`' and `PathSharedCellTests`' part, through the rasteriser.
final class PathExactCellsTests: XCTestCase {
    func testMatchesTheSwiftTwin() {
        var random = SeededGenerator(seed: 61)
        let rowTop = 7.0
        for trial in 0..<600 {
            let pieceCount = [1, 2, 3, 5, 8, 13, 20, 31, 40, 70, 300][trial % 11]
            let quarterGrid = trial % 2 == 0
            // Narrow rows crowd every piece into a few cells, past the exact and sampled limits.
            let width = pieceCount > 32 ? 3 : 12
            func coordinate(_ scale: Double) -> Double {
                let unit = Double(random.next() % 1_000_001) / 1_000_000
                return quarterGrid ? (unit * scale * 4).rounded(.down) / 4 : unit * scale
            }
            var pieces: [bt_row_piece] = []
            while pieces.count < pieceCount {
                var (top, bottom) = (rowTop + coordinate(1), rowTop + coordinate(1))
                if random.next() % 3 == 0 { top = rowTop }
                if random.next() % 3 == 0 { bottom = rowTop + 1 }
                if top > bottom { (top, bottom) = (bottom, top) }
                guard bottom > top else { continue }
                let (xTop, xBottom) = (coordinate(Double(width)), coordinate(Double(width)))
                pieces.append(
                    bt_row_piece(
                        top: top, bottom: bottom, x_top: xTop, x_bottom: xBottom,
                        slope: (xBottom - xTop) / (bottom - top), min_x: min(xTop, xBottom),
                        max_x: max(xTop, xBottom), winding: random.next() % 2 == 0 ? 1 : -1))
            }
            let columns = (0..<width).filter { _ in random.next() % 3 != 0 }
            guard !columns.isEmpty else { continue }
            for rule in FillRule.allCases {
                var expected = [UInt8](repeating: 77, count: width + 1)
                ReferenceExactCells.resolve(pieces, columns: columns, rowTop: rowTop, rule: rule, into: &expected)
                var actual = [UInt8](repeating: 77, count: width + 1)
                var work = [UInt64](repeating: 0, count: (bt_path_exact_cells_scratch_bytes(pieces.count) + 7) / 8)
                var reordered = pieces
                reordered.withUnsafeMutableBufferPointer { pieces in
                    work.withUnsafeMutableBytes { work in
                        actual.withUnsafeMutableBufferPointer { output in
                            bt_path_exact_cells(
                                pieces.baseAddress!, pieces.count, columns, columns.count, rowTop,
                                rule == .evenOdd ? 1 : 0, work.baseAddress!, output.baseAddress!)
                        }
                    }
                }
                XCTAssertEqual(actual, expected, "trial \(trial), \(pieceCount) pieces, \(rule)")
            }
        }
    }
}
