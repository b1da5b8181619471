import CKernels

@testable import Compositor

/// The Swift twin of `bt_path_exact_cells`, the exact coverage of the cells where an outline meets itself
/// (`PathRasterizer.exactCoverage` says why it is exact): the same steps in the same order, written for reading.
enum ReferenceExactCells {
    /// Writes into `output[c]`, for each cell c of `columns` (ascending) of the row `rowTop…rowTop + 1`, the area
    /// inside `pieces` by `rule`, as the C function does.
    static func resolve(
        _ pieces: [bt_row_piece], columns: [Int], rowTop: Double, rule: FillRule, into output: inout [UInt8]
    ) {
        let rowBottom = rowTop + 1
        let reach = Double(columns[columns.count - 1] + 1)
        let firstLeft = Double(columns[0])
        var steps = WindingSteps()
        var kept: [bt_row_piece] = []
        for piece in pieces {
            if piece.max_x <= firstLeft {
                steps.add(piece, rowTop: rowTop, rowBottom: rowBottom)
            } else if piece.min_x < reach {
                kept.append(piece)
            }
        }
        // Ties in x keep their order here; the C side's order among them may differ, which moves no height.
        kept.sort { $0.min_x < $1.min_x }
        var taken = 0
        var reaching: [bt_row_piece] = []
        for column in columns {
            let (left, right) = (Double(column), Double(column + 1))
            while taken < kept.count, kept[taken].min_x < right {
                reaching.append(kept[taken])
                taken += 1
            }
            reaching.removeAll { piece in
                guard piece.max_x <= left else { return false }
                steps.add(piece, rowTop: rowTop, rowBottom: rowBottom)
                return true
            }
            guard reaching.count <= Int(BT_MAXIMUM_SAMPLED_PIECES) else { continue }
            let area = cellArea(
                left: left, rowTop: rowTop, rule: rule, exact: reaching.count <= Int(BT_MAXIMUM_EXACT_PIECES),
                reaching: reaching, steps: steps)
            output[column] = UInt8(min(max(area, 0), 1) * 255 + 0.5)
        }
    }

    /// The winding that pieces wholly left of a cell give its points, as a function of y within the row.
    private struct WindingSteps {
        /// The winding just below the row's top.
        var base = 0
        /// Changes within the row, by height, none zero.
        var changes: [(y: Double, delta: Int)] = []

        mutating func add(_ piece: bt_row_piece, rowTop: Double, rowBottom: Double) {
            let winding = Int(piece.winding)
            if piece.top <= rowTop { base += winding } else { change(at: piece.top, by: winding) }
            if piece.bottom < rowBottom { change(at: piece.bottom, by: -winding) }
        }

        private mutating func change(at y: Double, by delta: Int) {
            if let index = changes.firstIndex(where: { $0.y == y }) {
                changes[index].delta += delta
                if changes[index].delta == 0 { changes.remove(at: index) }
            } else {
                changes.append((y, delta))
                changes.sort { $0.y < $1.y }
            }
        }
    }

    private static func x(_ piece: bt_row_piece, at y: Double) -> Double { piece.x_top + (y - piece.top) * piece.slope }

    /// The height where the piece crosses the vertical line at `x` strictly between its ends, if it does.
    private static func y(_ piece: bt_row_piece, atX x: Double) -> Double? {
        guard (piece.x_top - x) * (piece.x_bottom - x) < 0 else { return nil }
        return piece.top + (x - piece.x_top) / (piece.x_bottom - piece.x_top) * (piece.bottom - piece.top)
    }

    /// The height strictly inside both pieces' spans where they cross, if they do.
    private static func crossing(_ a: bt_row_piece, _ b: bt_row_piece) -> Double? {
        let top = max(a.top, b.top)
        let bottom = min(a.bottom, b.bottom)
        guard bottom > top else { return nil }
        let gapTop = x(a, at: top) - x(b, at: top)
        let gapBottom = x(a, at: bottom) - x(b, at: bottom)
        guard gapTop * gapBottom < 0 else { return nil }
        return top + gapTop / (gapTop - gapBottom) * (bottom - top)
    }

    /// The area of the cell left…left + 1 × rowTop…rowTop + 1 inside by `rule`: by trapezoids between every
    /// height where the order can change, or along the middles of `BT_SAMPLED_STRIPS` strips.
    private static func cellArea(
        left: Double, rowTop: Double, rule: FillRule, exact: Bool, reaching: [bt_row_piece], steps: WindingSteps
    ) -> Double {
        let right = left + 1
        var heights: [Double] = []
        if exact {
            heights += [rowTop, rowTop + 1] + steps.changes.map(\.y)
            for (index, piece) in reaching.enumerated() {
                if piece.top > rowTop { heights.append(piece.top) }
                if piece.bottom < rowTop + 1 { heights.append(piece.bottom) }
                if let y = y(piece, atX: left) { heights.append(y) }
                if let y = y(piece, atX: right) { heights.append(y) }
                for other in reaching[(index + 1)...] where piece.max_x > other.min_x && other.max_x > piece.min_x {
                    if let y = crossing(piece, other) { heights.append(y) }
                }
            }
        } else {
            let strips = Int(BT_SAMPLED_STRIPS)
            heights = (0...strips).map { rowTop + Double($0) / Double(strips) }
        }
        heights.sort()
        var area = 0.0
        var nextChange = 0
        var leftWinding = steps.base
        for index in 1..<heights.count where heights[index] > heights[index - 1] {
            let (upper, lower) = (heights[index - 1], heights[index])
            let middle = (upper + lower) * 0.5
            while nextChange < steps.changes.count, steps.changes[nextChange].y <= middle {
                leftWinding += steps.changes[nextChange].delta
                nextChange += 1
            }
            var winding = leftWinding
            var crossings: [(x: Double, winding: Int)] = []
            for piece in reaching where piece.top < middle && middle < piece.bottom {
                let x = x(piece, at: middle)
                if x <= left {
                    winding += Int(piece.winding)
                } else if x < right {
                    crossings.append((x, Int(piece.winding)))
                }
            }
            crossings.sort { $0.x < $1.x }
            var inside = 0.0
            var previous = left
            for crossing in crossings {
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
