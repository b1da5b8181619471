import CKernels

extension PathRasterizer {
    /// One band of rows and the worker's buffers for it: `rows` rows of `width + 2` cells (the two past the
    /// right side take what edges on it leave, so no deposit needs a bounds check) and, per row, the first and
    /// last cell written. Both are clear on entry and left clear on exit, for the worker's next band.
    ///
    /// The summed area is the exact coverage wherever the winding inside a pixel takes two consecutive values
    /// only (the rules are linear between consecutive integers), which holds where one y-monotone chain of edges
    /// touches the cell: such a chain cannot cross itself, and the winding changes only across it. So each
    /// deposit also stamps its cells with its chain's part in the row (a `RowChain`), and a cell stamped by two
    /// (a self-crossing, a vertex where the outline turns in y, two outlines or a sliver's two sides in one
    /// pixel) is listed in `sharedCells`: the common cell pays one compare. Afterwards a cell of two chains that
    /// still leave it two consecutive windings (`safelySummed`: a stroke's two sides, a turn in y) keeps its sum,
    /// and the rest are resolved exactly (`exactCoverage`).
    struct Band {
        /// The band's number in owner stamps: unique over the scratch's life (`Scratch`).
        let stamp: Int64
        let top: Int
        let rows: Int
        let width: Int
        /// Fixed point: `BT_PATH_CELL_ONE` is a pixel's area.
        let cells: UnsafeMutablePointer<Int32>
        /// Per row: the lowest and highest cell index written (`Int.max` and −1 when none).
        let extents: UnsafeMutablePointer<Int>
        /// Per cell: the band's stamp (high half) and, in the low half, the row chain that touched it, or that
        /// chain with `pairFlag` and the second in `partners`, or `threeChains`; a stamp from another band means
        /// untouched.
        let owners: UnsafeMutablePointer<Int64>
        /// Per cell that two row chains touched, the second.
        let partners: UnsafeMutablePointer<Int32>
        /// Cells touched by two chains or more, as row × stride + column, `sharedCount` of them.
        let sharedCells: UnsafeMutablePointer<Int32>
        var sharedCount = 0
        /// The worker's lists for resolving shared cells.
        let exactCells: ExactCellScratch
        /// The band's row chains, `chainCount` of them (in the worker's `exactCells`), and each row's latest, the
        /// head of the row's list (`RowChain.previousInRow`).
        private var chains: UnsafeMutablePointer<RowChain>
        private var chainCount = 0
        private let latestChain: UnsafeMutablePointer<Int32>
        /// Per row, whether pieces past `rowChainLimit` lie in it: its exact cells then look at all the band's
        /// edges.
        private let unrecordedRows: UnsafeMutablePointer<Bool>
        /// The most row chains recorded (`maximumRowChains`); pieces past it are `unrecorded`.
        private let rowChainLimit: Int
        /// The worker's row of coverage bytes (`width` of them) when rows are painted as they are made.
        let rowBuffer: UnsafeMutablePointer<UInt8>

        init(
            stamp: Int64, top: Int, rows: Int, width: Int, cells: UnsafeMutablePointer<Int32>,
            extents: UnsafeMutablePointer<Int>, owners: UnsafeMutablePointer<Int64>,
            partners: UnsafeMutablePointer<Int32>, sharedCells: UnsafeMutablePointer<Int32>,
            exactCells: ExactCellScratch, rowBuffer: UnsafeMutablePointer<UInt8>, rowChainLimit: Int
        ) {
            (self.stamp, self.top, self.rows, self.width) = (stamp, top, rows, width)
            (self.cells, self.extents, self.owners, self.sharedCells) = (cells, extents, owners, sharedCells)
            (self.partners, self.exactCells, self.rowBuffer) = (partners, exactCells, rowBuffer)
            (chains, latestChain) = (exactCells.chains, exactCells.latestChain)
            unrecordedRows = exactCells.unrecordedRows
            latestChain.update(repeating: -1, count: rows)
            unrecordedRows.update(repeating: false, count: rows)
            self.rowChainLimit = rowChainLimit
        }

        var stride: Int { width + 2 }

        /// In an owner stamp's low half: a second row chain has touched the cell (it is in `partners`).
        private static let pairFlag: Int64 = 1 << 30
        /// The low half of an owner stamp once three row chains have touched the cell.
        private static let threeChains: Int64 = 0xFFFF_FFFF
        /// The row chain of pieces past `rowChainLimit`: every cell one touches is resolved exactly.
        private static let unrecorded = Int32(pairFlag - 1)

        /// Stamps cells first...last of `row` with row chain `chain`, listing those another touched before.
        @inline(__always)
        private mutating func mark(row: Int, from first: Int, through last: Int, chain: Int32) {
            let bandStamp = self.stamp << 32
            let stamp = bandStamp | Int64(chain)
            let rowOwners = owners + row * stride
            if chain == Self.unrecorded {
                // Listed once (unless already, as two chains' cell), then resolved exactly.
                for column in first...last {
                    let owner = rowOwners[column]
                    if owner == bandStamp | Self.threeChains { continue }
                    if owner >> 32 != self.stamp || owner & Self.pairFlag == 0 {
                        sharedCells[sharedCount] = Int32(row * stride + column)
                        sharedCount += 1
                    }
                    rowOwners[column] = bandStamp | Self.threeChains
                }
                return
            }
            for column in first...last {
                let owner = rowOwners[column]
                if owner == stamp { continue }
                if owner >> 32 != self.stamp {
                    rowOwners[column] = stamp
                    continue
                }
                let low = owner & 0xFFFF_FFFF
                if low == Self.threeChains || low == Self.pairFlag | Int64(chain) { continue }
                let cell = row * stride + column
                if low & Self.pairFlag == 0 {
                    rowOwners[column] = owner | Self.pairFlag
                    partners[cell] = chain
                    sharedCells[sharedCount] = Int32(cell)
                    sharedCount += 1
                } else if partners[cell] != chain {
                    rowOwners[column] = bandStamp | Self.threeChains
                }
            }
        }

        /// Whether listed cell `cell` of row `row` keeps its summed area: two row chains only, which leave it two
        /// consecutive windings (`safelySummed`).
        @inline(__always)
        private func keepsSum(_ cell: Int, row: Int) -> Bool {
            let low = owners[cell] & 0xFFFF_FFFF
            guard low != Self.threeChains else { return false }
            return PathRasterizer.safelySummed(
                chains[Int(low & (Self.pairFlag - 1))], chains[Int(partners[cell])], rowTop: Double(top + row))
        }

        /// The row chain that a piece of `chain` (edge `edge`) in `row` belongs to: the row's latest when it is the
        /// same chain (its edges in a row come one after another), else a new one.
        @inline(__always)
        private mutating func rowChain(
            row: Int, chain: Int32, edge: Int32, winding: Double, top: Double, bottom: Double, xTop: Double,
            xBottom: Double
        ) -> Int32 {
            let latest = latestChain[row]
            if latest >= 0, chains[Int(latest)].chain == chain {
                chains[Int(latest)].extend(edge: edge, top: top, bottom: bottom, xTop: xTop, xBottom: xBottom)
                return latest
            }
            guard chainCount < rowChainLimit else {
                unrecordedRows[row] = true
                return Self.unrecorded
            }
            if chainCount == exactCells.chainCapacity { chains = exactCells.growChains(keeping: chainCount) }
            (chains + chainCount).initialize(
                to: RowChain(
                    chain: chain, edge: edge, previousInRow: latest, winding: winding, top: top, bottom: bottom,
                    xTop: xTop, xBottom: xBottom))
            latestChain[row] = Int32(chainCount)
            chainCount += 1
            return Int32(chainCount - 1)
        }

        /// The row chain of horizontal edge `edge` (index `index`) in `row`: it carries on the row's latest when it
        /// starts where that one's part ends (a turn's flat bottom or top, a step of a staircase), which then ends at
        /// its other end; otherwise its row chain is marked as not telling where the chain lies
        /// (`RowChain.horizontal`).
        @inline(__always)
        private mutating func horizontalRowChain(row: Int, _ edge: Edge, index: Int32) -> Int32 {
            let chain = rowChain(
                row: row, chain: edge.chain, edge: index, winding: 0, top: edge.y0, bottom: edge.y0, xTop: edge.x0,
                xBottom: edge.x1)
            if chain != Self.unrecorded { chains[Int(chain)].takeHorizontal(at: edge.y0, from: edge.x0, to: edge.x1) }
            return chain
        }

        /// Deposits the signed area of every edge listed in `members` (indices into `edges`, in path order) on
        /// this band's rows.
        mutating func accumulate(_ edges: UnsafeBufferPointer<Edge>, _ members: Slice<UnsafeBufferPointer<Int32>>) {
            let (bandTop, bandBottom) = (Double(top), Double(top + rows))
            for member in members {
                let edge = edges[Int(member)]
                if edge.winding == 0 {
                    let row = Int(edge.y0) - top
                    let chain = horizontalRowChain(row: row, edge, index: member)
                    let first = Int(min(edge.x0, edge.x1))
                    mark(
                        row: row, from: first, through: max(first, Int(max(edge.x0, edge.x1).rounded(.up)) - 1),
                        chain: chain)
                    continue
                }
                // The edge within the band, row by row, x from one slope (the same expression in every band, so
                // the rows agree wherever the bands' boundaries fall).
                let bottom = min(edge.y1, bandBottom)
                var upper = max(edge.y0, bandTop)
                guard bottom > upper else { continue }
                let slope = (edge.x1 - edge.x0) / (edge.y1 - edge.y0)
                var xUpper = upper == edge.y0 ? edge.x0 : edge.x0 + (upper - edge.y0) * slope
                var row = Int(upper)
                while upper < bottom {
                    let lower = min(bottom, Double(row + 1))
                    let xLower = lower == edge.y1 ? edge.x1 : edge.x0 + (lower - edge.y0) * slope
                    let chain = rowChain(
                        row: row - top, chain: edge.chain, edge: member, winding: edge.winding, top: upper,
                        bottom: lower, xTop: xUpper, xBottom: xLower)
                    deposit(
                        row: row - top, from: xUpper, to: xLower, height: (lower - upper) * edge.winding, chain: chain)
                    (upper, xUpper, row) = (lower, xLower, row + 1)
                }
            }
        }

        /// One edge's piece within a row, from x `a` to x `b` (0…width), `height` its signed share of the row:
        /// deposited by `bt_path_deposit`, its cells stamped with `chain`, the row's extent widened.
        @inline(__always)
        private mutating func deposit(row: Int, from a: Double, to b: Double, height: Double, chain: Int32) {
            var last = 0
            let first = bt_path_deposit(cells + row * stride, a, b, height, &last)
            mark(row: row, from: first, through: last, chain: chain)
            extents[2 * row] = min(extents[2 * row], first)
            extents[2 * row + 1] = max(extents[2 * row + 1], last + 1)
        }

        /// Sums each row's cells into coverage by `rule`, writes it to `plane`, and clears the cells. Pixels left
        /// of a row's first written cell keep the plane's zeros, and those right of its last take the final sum.
        /// Cells two chains touched are then replaced by their exact coverage, from the edges in their row.
        mutating func resolve(
            into sink: CoverageSink, at box: PixelBox, rule: FillRule, edges: UnsafeBufferPointer<Edge>,
            members: Slice<UnsafeBufferPointer<Int32>>
        ) {
            let evenOdd = rule == .evenOdd
            // The shared cells that need resolving (inside the box, and not kept by `keepsSum`), in row order, then
            // column order: each row's are a run.
            var exact = 0
            for index in 0..<sharedCount {
                let cell = Int(sharedCells[index])
                if cell % stride < width, !keepsSum(cell, row: cell / stride) {
                    sharedCells[exact] = Int32(cell)
                    exact += 1
                }
            }
            var shared = UnsafeMutableBufferPointer(start: sharedCells, count: exact)
            shared.sort()
            var nextShared = 0
            var lists = exactCells.lists
            exactCells.lists = ExactCellLists()
            defer { exactCells.lists = lists }
            if case .painted(let image, _) = sink {
                bt_prefetch_for_writing(image.row(box.y + top) + box.x * 4, width * 4)
            }
            for row in 0..<rows {
                if case .painted(let image, _) = sink, row + 1 < rows {
                    // The destination's next row, on its way while this one is made (a canvas's rows are far apart).
                    bt_prefetch_for_writing(image.row(box.y + top + row + 1) + box.x * 4, width * 4)
                }
                let first = extents[2 * row]
                let last = extents[2 * row + 1]
                guard first <= last else { continue }
                let rowCells = cells + row * stride
                let output: UnsafeMutablePointer<UInt8>
                switch sink {
                case .plane(let plane): output = plane.row(top + row)
                case .painted: output = rowBuffer
                }
                // Coverage is made from `first` on, up to `covered` (the rest of the row is zero).
                var covered = first
                if first < width {
                    let end = min(last, width - 1)
                    let level = bt_path_row_coverage(rowCells, first, end, output, evenOdd ? 1 : 0)
                    covered = level == 0 ? end + 1 : width
                    // Past the last cell the coverage holds (a shape running off the box's right side, whose edges
                    // there were dropped): the plane is zero beyond, the row buffer holds an earlier row's bytes.
                    if level != 0 || !sink.paints, end + 1 < width {
                        (output + end + 1).update(repeating: level, count: width - end - 1)
                    }
                }
                (rowCells + first).update(repeating: 0, count: last - first + 1)
                extents[2 * row] = .max
                extents[2 * row + 1] = -1
                lists.columns.removeAll(keepingCapacity: true)
                while nextShared < shared.count, Int(shared[nextShared]) / stride == row {
                    lists.columns.append(Int(shared[nextShared]) % stride)
                    nextShared += 1
                }
                if !lists.columns.isEmpty {
                    gatherPieces(row: row, edges: edges, members: members, into: &lists)
                    PathRasterizer.exactCoverage(row: top + row, rule: rule, scratch: &lists, into: output)
                }
                if case .painted(let image, let painter) = sink, covered > first {
                    painter.paint(
                        source: nil, mask: output + first, onto: image.row(box.y + top + row) + (box.x + first) * 4,
                        count: covered - first)
                }
            }
            sharedCount = 0
            chainCount = 0
        }

        /// The pieces of `row` that its exact cells (`lists.columns`) depend on, into `lists.pieces`: each row chain
        /// wholly left of the first cell as one vertical piece (its part of the winding left of a cell changes only
        /// where it starts and ends: its pieces' steps cancel where they meet), none of a row chain right of the
        /// last, and every piece of the rest; or, where pieces past the row chain limit are in the row, every
        /// piece of the band's edges.
        private func gatherPieces(
            row: Int, edges: UnsafeBufferPointer<Edge>, members: Slice<UnsafeBufferPointer<Int32>>,
            into lists: inout ExactCellLists
        ) {
            lists.pieces.removeAll(keepingCapacity: true)
            let rowTop = Double(top + row)
            guard !unrecordedRows[row] else {
                for member in members { lists.addPiece(of: edges[Int(member)], rowTop: rowTop) }
                return
            }
            let firstLeft = Double(lists.columns[0])
            let reach = Double(lists.columns[lists.columns.count - 1] + 1)
            var index = latestChain[row]
            while index >= 0 {
                let chain = chains[Int(index)]
                index = chain.previousInRow
                if chain.minX >= reach { continue }
                if chain.maxX <= firstLeft, chain.stepsOnce {
                    lists.pieces.append(
                        bt_row_piece(
                            top: chain.top, bottom: chain.bottom, x_top: chain.maxX, x_bottom: chain.maxX, slope: 0,
                            min_x: chain.maxX, max_x: chain.maxX, winding: Int32(chain.winding)))
                    continue
                }
                for edge in chain.firstEdge...chain.lastEdge { lists.addPiece(of: edges[Int(edge)], rowTop: rowTop) }
            }
        }
    }
}
