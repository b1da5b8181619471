import CKernels

extension PathRasterizer {
    /// A worker's lists for `exactCoverage`, kept with their capacity between rows and calls: a band moves
    /// them out (`lists`) and back, so that using them pays no exclusivity checks of a class's properties.
    final class ExactCellScratch {
        var lists = ExactCellLists()
        /// A band's row chains (`RowChain`), kept with their capacity between bands and calls.
        private(set) var chains = UnsafeMutablePointer<RowChain>.allocate(capacity: 64)
        private(set) var chainCapacity = 64
        /// Per row of a band, the index of its latest row chain (−1: none yet).
        let latestChain = UnsafeMutablePointer<Int32>.allocate(capacity: PathRasterizer.largestBand)
        /// Per row of a band, whether pieces past the row chain limit lie in it.
        let unrecordedRows = UnsafeMutablePointer<Bool>.allocate(capacity: PathRasterizer.largestBand)

        deinit {
            chains.deallocate()
            latestChain.deallocate()
            unrecordedRows.deallocate()
        }

        /// Twice the room for row chains, the first `count` kept.
        func growChains(keeping count: Int) -> UnsafeMutablePointer<RowChain> {
            let larger = UnsafeMutablePointer<RowChain>.allocate(capacity: 2 * chainCapacity)
            larger.moveInitialize(from: chains, count: count)
            chains.deallocate()
            (chains, chainCapacity) = (larger, 2 * chainCapacity)
            return larger
        }
    }

    struct ExactCellLists {
        /// The cells of the row being resolved that need their exact coverage, ascending.
        var columns: [Int] = []
        /// The row's edge pieces that `exactCoverage` looks at.
        var pieces: [bt_row_piece] = []
        /// `bt_path_exact_cells`' working memory, in 8-byte words.
        fileprivate var work: [UInt64] = []

        /// Adds `edge`'s piece in the row `rowTop…rowTop + 1`, if it has one there.
        @inline(__always)
        mutating func addPiece(of edge: Edge, rowTop: Double) {
            let top = max(edge.y0, rowTop)
            let bottom = min(edge.y1, rowTop + 1)
            guard bottom > top else { return }
            let (xTop, xBottom) = (edge.x(at: top), edge.x(at: bottom))
            pieces.append(
                bt_row_piece(
                    top: top, bottom: bottom, x_top: xTop, x_bottom: xBottom, slope: (xBottom - xTop) / (bottom - top),
                    min_x: min(xTop, xBottom), max_x: max(xTop, xBottom), winding: Int32(edge.winding)))
        }
    }

    /// The exact coverage by `rule` of the cells `scratch.columns` (ascending) of pixel row `row`, written over
    /// `output`'s bytes there: for the cells where edges of different chains meet, whose summed area mixes
    /// windings. `scratch.pieces` are the row's edge pieces (`Band.gatherPieces`).
    ///
    /// The winding at a point of a cell is the sum over the edge pieces of its row that pass left of it. Pieces
    /// wholly left of the cell act on it as vertical steps at its left side, so they are folded, column by
    /// column, into a step function of y (where a piece starts, its winding; where it ends, minus it; a vertex's
    /// two pieces cancel). The pieces reaching into the cell are cut at every height where one starts or ends,
    /// crosses another or crosses the cell's sides: between two consecutive heights the pieces are straight, do
    /// not cross, and each lies wholly left of, in or right of the cell, so the cell is a stack of trapezoids
    /// between consecutive pieces with one winding each, whose areas are their heights times their widths at
    /// mid-height. The rule decides which count. Over `BT_MAXIMUM_EXACT_PIECES` pieces in a cell (the
    /// breakpoints grow as their square) it is measured along the middles of `BT_SAMPLED_STRIPS` strips instead,
    /// its error at most a strip's area where a piece ends or two cross inside it; over
    /// `BT_MAXIMUM_SAMPLED_PIECES` (only a hostile outline: a stroke thousands of pixels wide squashed by an
    /// extreme scale) it keeps its summed coverage, so the work stays bounded. In C (`bt_path_exact_cells`); its
    /// Swift twin is the tests' `ReferenceExactCells`.
    static func exactCoverage(
        row: Int, rule: FillRule, scratch: inout ExactCellLists, into output: UnsafeMutablePointer<UInt8>
    ) {
        guard !scratch.pieces.isEmpty, !scratch.columns.isEmpty else { return }
        let rowTop = Double(row)
        let words = (bt_path_exact_cells_scratch_bytes(scratch.pieces.count) + 7) / 8
        if scratch.work.count < words { scratch.work = Array(repeating: 0, count: max(words, 2 * scratch.work.count)) }
        scratch.pieces.withUnsafeMutableBufferPointer { pieces in
            scratch.columns.withUnsafeBufferPointer { columns in
                scratch.work.withUnsafeMutableBytes { work in
                    bt_path_exact_cells(
                        pieces.baseAddress!, pieces.count, columns.baseAddress!, columns.count, rowTop,
                        rule == .evenOdd ? 1 : 0, work.baseAddress!, output)
                }
            }
        }
    }
}

extension FillRule {
    /// Whether a point of this winding number is inside.
    @inline(__always)
    func counts(_ winding: Int) -> Bool {
        self == .nonZero ? winding != 0 : winding & 1 != 0
    }
}
