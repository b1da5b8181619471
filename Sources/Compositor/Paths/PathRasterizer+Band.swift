extension PathRasterizer {
    /// One band of rows and the worker's buffers for it: `rows` rows of `width + 2` cells (the two past the
    /// right side take what edges on it leave, so no deposit needs a bounds check) and, per row, the first and
    /// last cell written. Both are clear on entry and left clear on exit, for the worker's next band.
    ///
    /// The summed area is the exact coverage wherever the winding inside a pixel takes two consecutive values
    /// only (the rules are linear between consecutive integers), which holds where one y-monotone chain of edges
    /// touches the cell: such a chain cannot cross itself, and the winding changes only across it. So each
    /// deposit also stamps its cells with its chain, and a cell stamped by two chains (a self-crossing, a
    /// vertex where the outline turns in y, two outlines or a sliver's two sides in one pixel) is listed in
    /// `sharedCells` and resolved exactly afterwards (`exactCoverage`): the common cell pays one compare.
    struct Band {
        let index: Int
        let top: Int
        let rows: Int
        let width: Int
        let cells: UnsafeMutablePointer<Float>
        /// Per row: the lowest and highest cell index written (`Int.max` and −1 when none).
        let extents: UnsafeMutablePointer<Int>
        /// Per cell: the band index (high half) and the chain (low half) that last touched it, or the band and
        /// `sharedChain` once a second chain has; a stamp from another band means untouched.
        let owners: UnsafeMutablePointer<Int64>
        /// Cells touched by two chains, as row × stride + column, `sharedCount` of them.
        let sharedCells: UnsafeMutablePointer<Int32>
        var sharedCount = 0

        init(
            index: Int, top: Int, rows: Int, width: Int, cells: UnsafeMutablePointer<Float>,
            extents: UnsafeMutablePointer<Int>, owners: UnsafeMutablePointer<Int64>,
            sharedCells: UnsafeMutablePointer<Int32>
        ) {
            (self.index, self.top, self.rows, self.width) = (index, top, rows, width)
            (self.cells, self.extents, self.owners, self.sharedCells) = (cells, extents, owners, sharedCells)
        }

        var stride: Int { width + 2 }

        /// The low half of an owner stamp once two chains have touched the cell.
        private static let sharedChain: Int64 = 0xFFFF_FFFF

        /// Stamps cells first...last of `row` with `chain`, listing those another chain touched before.
        @inline(__always)
        private mutating func mark(row: Int, from first: Int, through last: Int, chain: Int32) {
            let bandStamp = Int64(index) << 32
            let stamp = bandStamp | Int64(UInt32(bitPattern: chain))
            let rowOwners = owners + row * stride
            for column in first...last {
                let owner = rowOwners[column]
                if owner == stamp || owner == bandStamp | Self.sharedChain { continue }
                if owner >> 32 == Int64(index) {
                    rowOwners[column] = bandStamp | Self.sharedChain
                    sharedCells[sharedCount] = Int32(row * stride + column)
                    sharedCount += 1
                } else {
                    rowOwners[column] = stamp
                }
            }
        }

        /// Deposits the signed area of every edge listed in `members` (indices into `edges`, in path order) on
        /// this band's rows.
        mutating func accumulate(_ edges: UnsafeBufferPointer<Edge>, _ members: Slice<UnsafeBufferPointer<Int32>>) {
            for member in members {
                let edge = edges[Int(member)]
                if edge.winding == 0 {
                    let first = Int(edge.x0)
                    mark(
                        row: Int(edge.y0) - top, from: first, through: max(first, Int(edge.x1.rounded(.up)) - 1),
                        chain: edge.chain)
                    continue
                }
                let firstRow = max(Int(edge.y0), top)
                let lastRow = min(Int(edge.y1.rounded(.up)) - 1, top + rows - 1)
                guard firstRow <= lastRow else { continue }
                for row in firstRow...lastRow {
                    let upper = max(edge.y0, Double(row))
                    let lower = min(edge.y1, Double(row + 1))
                    guard lower > upper else { continue }
                    deposit(
                        row: row - top, from: edge.x(at: upper), to: edge.x(at: lower),
                        height: (lower - upper) * edge.winding, chain: edge.chain)
                }
            }
        }

        /// One edge's piece within a row, from x `a` to x `b` (0…width), `height` its signed share of the row.
        ///
        /// The sum of the cells up to pixel i must become height × (the mean part of pixel i's width right of the
        /// piece). The piece's x is uniform along its height, so that mean is (R(i+1 − lo) − R(i+1 − hi)) /
        /// (hi − lo), R being the integral of clamp(s, 0, 1): each cell gets the difference from its left
        /// neighbour's mean, and the cell after the last pixel crossed the rest, up to the whole height.
        @inline(__always)
        private mutating func deposit(row: Int, from a: Double, to b: Double, height: Double, chain: Int32) {
            let rowCells = cells + row * stride
            let (lo, hi) = a < b ? (a, b) : (b, a)
            let first = Int(lo)
            let last = max(first, Int(hi.rounded(.up)) - 1)
            mark(row: row, from: first, through: last, chain: chain)
            if first == last {
                // Within one pixel the mean is that of its midpoint.
                let share = Double(first + 1) - (lo + hi) * 0.5
                rowCells[first] += Float(height * share)
                rowCells[first + 1] += Float(height * (1 - share))
            } else {
                let inverseWidth = 1 / (hi - lo)
                var previous = 0.0
                for column in first...last {
                    let right = Double(column + 1)
                    let share = (Self.ramp(right - lo) - Self.ramp(right - hi)) * inverseWidth
                    rowCells[column] += Float(height * (share - previous))
                    previous = share
                }
                rowCells[last + 1] += Float(height * (1 - previous))
            }
            extents[2 * row] = min(extents[2 * row], first)
            extents[2 * row + 1] = max(extents[2 * row + 1], last + 1)
        }

        /// ∫₀ˢ clamp(u, 0, 1) du.
        @inline(__always)
        private static func ramp(_ s: Double) -> Double {
            s <= 0 ? 0 : s >= 1 ? s - 0.5 : 0.5 * s * s
        }

        /// Sums each row's cells into coverage by `rule`, writes it to `plane`, and clears the cells. Pixels left
        /// of a row's first written cell keep the plane's zeros, and those right of its last take the final sum.
        /// Cells two chains touched are then replaced by their exact coverage, from the band's edges.
        mutating func resolve(
            into plane: Plane, rule: FillRule, edges: UnsafeBufferPointer<Edge>,
            members: Slice<UnsafeBufferPointer<Int32>>
        ) {
            let evenOdd = rule == .evenOdd
            // The shared cells in row order, then column order: each row's are a run.
            var shared = UnsafeMutableBufferPointer(start: sharedCells, count: sharedCount)
            shared.sort()
            var nextShared = 0
            var columns: [Int] = []
            for row in 0..<rows {
                let first = extents[2 * row]
                let last = extents[2 * row + 1]
                guard first <= last else { continue }
                let rowCells = cells + row * stride
                let output = plane.row(top + row)
                if first < width {
                    var sum: Float = 0
                    let end = min(last, width - 1)
                    for x in first...end {
                        sum += rowCells[x]
                        output[x] = Self.level(sum, evenOdd: evenOdd)
                    }
                    if end + 1 < width {
                        (output + end + 1).update(repeating: Self.level(sum, evenOdd: evenOdd), count: width - end - 1)
                    }
                }
                (rowCells + first).update(repeating: 0, count: last - first + 1)
                extents[2 * row] = .max
                extents[2 * row + 1] = -1
                columns.removeAll(keepingCapacity: true)
                while nextShared < shared.count, Int(shared[nextShared]) / stride == row {
                    let column = Int(shared[nextShared]) % stride
                    if column < width { columns.append(column) }
                    nextShared += 1
                }
                if !columns.isEmpty {
                    PathRasterizer.exactCoverage(
                        row: top + row, columns: columns, edges: edges, members: members, rule: rule,
                        into: output)
                }
            }
            sharedCount = 0
        }

        /// The coverage byte for a winding integral: min(|a|, 1) for non-zero, the triangle wave of |a| (period
        /// 2, peaks at odd integers) for even-odd; rounded to nearest.
        @inline(__always)
        private static func level(_ sum: Float, evenOdd: Bool) -> UInt8 {
            var coverage = abs(sum)
            if evenOdd {
                coverage -= 2 * (coverage * 0.5).rounded(.down)
                if coverage > 1 { coverage = 2 - coverage }
            } else {
                coverage = min(coverage, 1)
            }
            return UInt8(coverage * 255 + 0.5)
        }
    }
}
