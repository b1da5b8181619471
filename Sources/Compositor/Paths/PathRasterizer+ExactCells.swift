extension PathRasterizer {
    /// The most edges crossing one cell that `exactCoverage` resolves exactly; its breakpoints grow as the
    /// square of the count (every pair may cross), so past it the cell is sampled instead.
    static let maximumExactEdgesPerCell = 32

    /// Horizontal strips per cell when a cell holds more than `maximumExactEdgesPerCell` edges: each strip is
    /// measured exactly along its middle line, so its error is at most its own area (1/64 of the cell) and
    /// only where an edge ends or two edges cross inside it; elsewhere the middle line is exact.
    static let sampledStripsPerCell = 64

    /// The most edges crossing one cell that are sampled; past it (only a hostile outline gets there: a stroke
    /// thousands of pixels wide squashed by an extreme scale puts thousands of edges through every cell) the cell
    /// keeps the summed coverage the accumulation gave it, exact wherever windings take two consecutive values,
    /// so the work stays bounded by strips × edges per cell.
    static let maximumSampledEdgesPerCell = 256

    /// A worker's lists for `exactCoverage`, kept with their capacity between rows and calls: a band moves
    /// them out (`lists`) and back, so that using them pays no exclusivity checks of a class's properties.
    final class ExactCellScratch {
        var lists = ExactCellLists()
        /// The edges of a row that has exact cells (`Band.edgesReaching`).
        private var rowEdgeBuffer = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        private var rowEdgeCapacity = 0
        /// A band's row chains (`RowChain`), kept with their capacity between bands and calls.
        private(set) var chains = UnsafeMutablePointer<RowChain>.allocate(capacity: 64)
        private(set) var chainCapacity = 64
        /// Per row of a band, the index of its latest row chain (−1: none yet).
        let latestChain = UnsafeMutablePointer<Int32>.allocate(capacity: PathRasterizer.largestBand)
        /// Per row of a band, whether pieces past the row chain limit lie in it.
        let unrecordedRows = UnsafeMutablePointer<Bool>.allocate(capacity: PathRasterizer.largestBand)

        deinit {
            rowEdgeBuffer.deallocate()
            chains.deallocate()
            latestChain.deallocate()
            unrecordedRows.deallocate()
        }

        /// Room for `count` edge indices, kept for the next row.
        func rowEdges(count: Int) -> UnsafeMutablePointer<Int32> {
            if count > rowEdgeCapacity {
                rowEdgeBuffer.deallocate()
                rowEdgeCapacity = max(count, 2 * rowEdgeCapacity)
                rowEdgeBuffer = .allocate(capacity: rowEdgeCapacity)
            }
            return rowEdgeBuffer
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
        /// The shared cells of the row being resolved, ascending.
        var columns: [Int] = []
        fileprivate var pieces: [RowPiece] = []
        fileprivate var reaching: [RowPiece] = []
        fileprivate var steps = WindingSteps()
    }

    /// One edge's part within a pixel row, in the box's pixels: from (`xTop`, `top`) to (`xBottom`, `bottom`).
    fileprivate struct RowPiece {
        let top, bottom, xTop, xBottom: Double
        let winding: Int
        /// dx/dy, once: a cell asks for x at every height it is cut at.
        let slope: Double
        /// The piece's extent in x, kept: the row's pieces are sorted and taken in by it.
        let minX, maxX: Double

        init(top: Double, bottom: Double, xTop: Double, xBottom: Double, winding: Int) {
            (self.top, self.bottom, self.xTop, self.xBottom, self.winding) = (top, bottom, xTop, xBottom, winding)
            slope = bottom == top ? 0 : (xBottom - xTop) / (bottom - top)
            (minX, maxX) = (min(xTop, xBottom), max(xTop, xBottom))
        }

        /// x at height y (within top...bottom), on the straight line between the piece's ends.
        @inline(__always)
        func x(at y: Double) -> Double { xTop + (y - top) * slope }

        /// The height where the piece crosses the vertical line at `x`, if it does strictly between its ends.
        func y(atX x: Double) -> Double? {
            guard (xTop - x) * (xBottom - x) < 0 else { return nil }
            return top + (x - xTop) / (xBottom - xTop) * (bottom - top)
        }
    }

    /// The exact coverage by `rule` of the cells `columns` (ascending) of pixel row `row`, written over
    /// `output`'s bytes there: for the cells where edges of different chains meet, whose summed area mixes
    /// windings.
    ///
    /// The winding at a point of a cell is the sum over the edge pieces of its row that pass left of it. Pieces
    /// wholly left of the cell act on it as vertical steps at its left side, so they are folded, column by
    /// column, into a step function of y (`steps`: where a piece starts, its winding; where it ends, minus it;
    /// a vertex's two pieces cancel). The pieces reaching into the cell are cut at every height where one
    /// starts or ends, crosses another or crosses the cell's sides: between two consecutive heights the
    /// pieces are straight, do not cross, and each lies wholly left of, in or right of the cell, so the cell
    /// is a stack of trapezoids between consecutive pieces with one winding each, whose areas are their
    /// heights times their widths at mid-height. The rule decides which count.
    static func exactCoverage(
        row: Int, edges: UnsafeBufferPointer<Edge>, members: Slice<UnsafeBufferPointer<Int32>>, rule: FillRule,
        scratch: inout ExactCellLists, into output: UnsafeMutablePointer<UInt8>
    ) {
        let (rowTop, rowBottom) = (Double(row), Double(row + 1))
        // Pieces right of the last cell never reach one; those left of the first are folded into the steps at
        // once (most of a row's, when its cells are at a stroke's inner side).
        let reach = Double(scratch.columns[scratch.columns.count - 1] + 1)
        let firstLeft = Double(scratch.columns[0])
        scratch.steps.reset()
        scratch.pieces.removeAll(keepingCapacity: true)
        for member in members {
            let edge = edges[Int(member)]
            let top = max(edge.y0, rowTop)
            let bottom = min(edge.y1, rowBottom)
            guard bottom > top else { continue }
            let piece = RowPiece(
                top: top, bottom: bottom, xTop: edge.x(at: top), xBottom: edge.x(at: bottom),
                winding: Int(edge.winding))
            if piece.maxX <= firstLeft {
                scratch.steps.add(piece, rowTop: rowTop, rowBottom: rowBottom)
            } else if piece.minX < reach {
                scratch.pieces.append(piece)
            }
        }
        // The rest in order of their left ends, taken in as the columns reach them and folded into the steps once
        // the columns pass them: each cell looks at the pieces over its own column only.
        scratch.pieces.withUnsafeMutableBufferPointer { sortInPlace($0) { $0.minX < $1.minX } }
        var taken = 0
        scratch.reaching.removeAll(keepingCapacity: true)
        for column in scratch.columns {
            let (left, right) = (Double(column), Double(column + 1))
            while taken < scratch.pieces.count, scratch.pieces[taken].minX < right {
                scratch.reaching.append(scratch.pieces[taken])
                taken += 1
            }
            scratch.reaching.removeAll { piece in
                guard piece.maxX <= left else { return false }
                scratch.steps.add(piece, rowTop: rowTop, rowBottom: rowBottom)
                return true
            }
            guard scratch.reaching.count <= maximumSampledEdgesPerCell else { continue }
            let area = cellArea(
                left: left, rowTop: rowTop, rule: rule, exact: scratch.reaching.count <= maximumExactEdgesPerCell,
                scratch: &scratch)
            output[column] = UInt8(min(max(area, 0), 1) * 255 + 0.5)
        }
    }

    /// The winding that pieces wholly left of a cell give its points, as a function of y within the row.
    fileprivate struct WindingSteps {
        /// The winding just below the row's top.
        var base = 0
        /// Changes within the row, by height, none zero.
        var changes: [(y: Double, delta: Int)] = []

        mutating func reset() {
            base = 0
            changes.removeAll(keepingCapacity: true)
        }

        mutating func add(_ piece: RowPiece, rowTop: Double, rowBottom: Double) {
            if piece.top <= rowTop { base += piece.winding } else { change(at: piece.top, by: piece.winding) }
            if piece.bottom < rowBottom { change(at: piece.bottom, by: -piece.winding) }
        }

        private mutating func change(at y: Double, by delta: Int) {
            var low = 0
            var high = changes.count
            while low < high {
                let middle = (low + high) / 2
                if changes[middle].y < y { low = middle + 1 } else { high = middle }
            }
            if low < changes.count, changes[low].y == y {
                changes[low].delta += delta
                if changes[low].delta == 0 { changes.remove(at: low) }
            } else {
                changes.insert((y, delta), at: low)
            }
        }
    }

    /// The area of the cell left...left + 1 × rowTop...rowTop + 1 inside by `rule`: exactly (to rounding) by
    /// trapezoids, or, when `exact` is false, by `sampledStripsPerCell` strips each measured along its middle.
    private static func cellArea(
        left: Double, rowTop: Double, rule: FillRule, exact: Bool, scratch: inout ExactCellLists
    ) -> Double {
        let right = left + 1
        let reaching = scratch.reaching
        let steps = scratch.steps
        let k = reaching.count
        // Every height a strip may end at: the row's, the steps', each piece's ends and side crossings, and
        // each pair's crossing; in a buffer on the stack, as are each strip's crossings (a cell has few).
        let capacity = exact ? 2 + steps.changes.count + 4 * k + k * (k - 1) / 2 : sampledStripsPerCell + 1
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: capacity) { heights in
            var count = 0
            @inline(__always) func add(_ y: Double) {
                heights[count] = y
                count += 1
            }
            if exact {
                add(rowTop)
                add(rowTop + 1)
                for change in steps.changes { add(change.y) }
                for index in reaching.indices {
                    let piece = reaching[index]
                    // The row's own top and bottom are in already.
                    if piece.top > rowTop { add(piece.top) }
                    if piece.bottom < rowTop + 1 { add(piece.bottom) }
                    if let y = piece.y(atX: left) { add(y) }
                    if let y = piece.y(atX: right) { add(y) }
                    for other in reaching[(index + 1)...]
                    where piece.maxX > other.minX && other.maxX > piece.minX {
                        // (Pieces apart in x cannot cross.)
                        if let y = crossing(piece, other) { add(y) }
                    }
                }
            } else {
                let strips = sampledStripsPerCell
                for strip in 0...strips { add(rowTop + Double(strip) / Double(strips)) }
            }
            let sorted = UnsafeMutableBufferPointer(rebasing: heights[0..<count])
            sortInPlace(sorted, by: <)
            return withUnsafeTemporaryAllocation(of: (x: Double, winding: Int).self, capacity: max(k, 1)) { crossings in
                var area = 0.0
                var nextChange = 0
                var leftWinding = steps.base
                for index in 1..<count where sorted[index] > sorted[index - 1] {
                    let (upper, lower) = (sorted[index - 1], sorted[index])
                    let middle = (upper + lower) * 0.5
                    while nextChange < steps.changes.count, steps.changes[nextChange].y <= middle {
                        leftWinding += steps.changes[nextChange].delta
                        nextChange += 1
                    }
                    var winding = leftWinding
                    // The pieces crossing the cell at mid-strip, in order of x (an insertion: there are few).
                    var crossingCount = 0
                    for piece in reaching where piece.top < middle && middle < piece.bottom {
                        let x = piece.x(at: middle)
                        if x <= left {
                            winding += piece.winding
                        } else if x < right {
                            var slot = crossingCount
                            while slot > 0, crossings[slot - 1].x > x {
                                crossings[slot] = crossings[slot - 1]
                                slot -= 1
                            }
                            crossings[slot] = (x, piece.winding)
                            crossingCount += 1
                        }
                    }
                    var inside = 0.0
                    var previous = left
                    for crossing in crossings[0..<crossingCount] {
                        if rule.counts(winding) { inside += crossing.x - previous }
                        winding += crossing.winding
                        previous = crossing.x
                    }
                    if rule.counts(winding) { inside += right - previous }
                    area += inside * (lower - upper)
                }
                return area
            }
        }
    }

    /// Sorts in place: by insertion when there are few (a row's pieces and a cell's heights number a dozen or
    /// two, where the library's sort, a call through a closure and a stable sort's merging, cost more than the
    /// comparisons), by the library's sort past 48 (insertion's square would let a hostile row take seconds).
    @inline(__always)
    fileprivate static func sortInPlace<Element>(
        _ items: UnsafeMutableBufferPointer<Element>, by before: (Element, Element) -> Bool
    ) {
        if items.count > 48 {
            var items = items
            items.sort(by: before)
            return
        }
        guard items.count > 1 else { return }
        for index in 1..<items.count {
            let item = items[index]
            var slot = index
            while slot > 0, before(item, items[slot - 1]) {
                items[slot] = items[slot - 1]
                slot -= 1
            }
            items[slot] = item
        }
    }

    /// The height strictly inside both pieces' spans where they cross, if they do.
    fileprivate static func crossing(_ a: RowPiece, _ b: RowPiece) -> Double? {
        let top = max(a.top, b.top)
        let bottom = min(a.bottom, b.bottom)
        guard bottom > top else { return nil }
        let gapTop = a.x(at: top) - b.x(at: top)
        let gapBottom = a.x(at: bottom) - b.x(at: bottom)
        guard gapTop * gapBottom < 0 else { return nil }
        return top + gapTop / (gapTop - gapBottom) * (bottom - top)
    }
}

extension FillRule {
    /// Whether a point of this winding number is inside.
    @inline(__always)
    func counts(_ winding: Int) -> Bool {
        self == .nonZero ? winding != 0 : winding & 1 != 0
    }
}
