extension PathRasterizer {
    /// One y-monotone chain's part within one pixel row of a band: what `Band` needs to tell whether a cell that
    /// this chain and one other touch is already exact in its summed area.
    ///
    /// Where exactly two chains touch a cell, the winding at a point of it is a constant (the chains that do not
    /// reach the cell are wholly left or right of it at every height, and where one of them ends inside the row
    /// it meets another such chain going the other way, so together they add nothing) plus each chain's winding
    /// if it passes left of the point. Two chains going opposite ways that do not cross within the row, and whose
    /// ends inside the row are one shared vertex, therefore leave the cell two consecutive windings, which the
    /// summed area maps exactly: a thin stroke's two sides, or a vertex where the outline turns in y. Such a
    /// cell needs no trapezoids (`safelySummed`); every other shared cell is resolved exactly.
    struct RowChain {
        let chain: Int32
        /// Its edges (indices into the rasteriser's edges): consecutive in path order, so these and the ones
        /// between are every piece of it, for `Band.gatherPieces`.
        let firstEdge: Int32
        var lastEdge: Int32
        /// The row's row chain before it (−1: none): a row's are listed from its latest back.
        let previousInRow: Int32
        /// +1 or −1: the chain's pieces all go the same way.
        let winding: Double
        /// The part's extent in y (within the row) and its x at those two heights.
        var top, bottom, xTop, xBottom: Double
        var minX, maxX: Double
        /// Edges making up the part: with one, it is a straight line between its ends.
        var pieces: Int32 = 1
        /// A horizontal edge of the chain runs through the row here: its ends no longer tell where it is.
        var horizontal = false

        /// Whether the part changes the winding of points left of it only at its top and bottom: its pieces go one
        /// way and meet end to end. (They meet unless the chain leaves the box's right side between them, and then
        /// it reaches x = width, right of every cell, so it is never wholly left of one.)
        var stepsOnce: Bool { winding != 0 && !horizontal }

        init(
            chain: Int32, edge: Int32, previousInRow: Int32, winding: Double, top: Double, bottom: Double,
            xTop: Double, xBottom: Double
        ) {
            (self.chain, self.winding, self.top, self.bottom) = (chain, winding, top, bottom)
            (firstEdge, lastEdge, self.previousInRow) = (edge, edge, previousInRow)
            (self.xTop, self.xBottom) = (xTop, xBottom)
            (minX, maxX) = (min(xTop, xBottom), max(xTop, xBottom))
        }

        /// Takes in another edge's piece of the same chain in the same row (consecutive along the chain).
        @inline(__always)
        mutating func extend(
            edge: Int32, top newTop: Double, bottom newBottom: Double, xTop newXTop: Double, xBottom newXBottom: Double
        ) {
            lastEdge = edge
            if newTop < top { (top, xTop) = (newTop, newXTop) }
            if newBottom > bottom { (bottom, xBottom) = (newBottom, newXBottom) }
            minX = min(minX, min(newXTop, newXBottom))
            maxX = max(maxX, max(newXTop, newXBottom))
            pieces += 1
        }

        /// Takes in a horizontal edge of the chain at height `y`, from x `from` to `to` in the outline's order,
        /// already counted by `extend` or `init`. Joined to the part's end there, it moves that end to `to`; a
        /// part that is only horizontal edges, or one the edge does not join, is marked `horizontal`.
        @inline(__always)
        mutating func takeHorizontal(at y: Double, from: Double, to: Double) {
            if winding != 0, bottom == y, xBottom == from {
                xBottom = to
            } else if winding != 0, top == y, xTop == from {
                xTop = to
            } else {
                horizontal = true
            }
        }
    }

    /// Whether a cell of the row `rowTop…rowTop + 1` touched by chains `a` and `b` only has its exact coverage in
    /// its summed area (see `RowChain`): they go opposite ways, each either spans the row or ends where the other
    /// does, and they do not cross (straight parts compared at both ends, others by keeping apart in x).
    static func safelySummed(_ a: RowChain, _ b: RowChain, rowTop: Double) -> Bool {
        guard !a.horizontal, !b.horizontal, a.winding == -b.winding else { return false }
        let rowBottom = rowTop + 1
        let tops = (a.top <= rowTop && b.top <= rowTop) || (a.top == b.top && a.xTop == b.xTop)
        let bottoms =
            (a.bottom >= rowBottom && b.bottom >= rowBottom) || (a.bottom == b.bottom && a.xBottom == b.xBottom)
        guard tops, bottoms else { return false }
        if a.pieces == 1, b.pieces == 1 {
            // Both straight over the same heights: they cross only if their order differs at the two ends.
            return (a.xTop - b.xTop) * (a.xBottom - b.xBottom) >= 0
        }
        return a.maxX <= b.minX || b.maxX <= a.minX
    }
}
