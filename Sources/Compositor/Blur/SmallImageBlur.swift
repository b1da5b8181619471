/// The exact separable blur of the pyramid's small grid, with clamped edges (the pyramid's margins keep them
/// away from anything that is used), made row by row where it is used and never whole.
///
/// A thread rendering a band of output rows streams the blurred rows the band needs (`Stream`): it brings each
/// grid row in once from `cells` into a ring of the taps + 3 rows that four neighbouring blurred rows read, sums
/// the ring vertically four rows at a time (`combine4`: four independent sums, each loaded row used four times)
/// into lines padded for the horizontal pass, which writes the blurred rows. Everything lives in the thread's
/// scratch, in cache: fresh grid-sized buffers would cost about as much as the blur itself, because the kernel
/// zeroes every new page (the grid of a 12 MP image at σ 10 is 21 MB).
///
/// A blurred row depends only on its index, never on the band or the group of four it falls in (combine4's
/// extra terms add exact zeros), so results are the same for every thread count.
///
/// Neighbouring bands read some grid rows in common (2r + 2 of them around each band boundary). On a small
/// grid those are a large share of the work (at σ 100 on 12 MP the grid has ~100 rows and two bands would
/// each bring in ~30 of them twice, each an average of 30 source rows), so `shareCellRows` has each made once,
/// by the first band to need it (`SharedCellRows`).
struct SmallImageBlur: @unchecked Sendable {
    /// Cells per grid row, and grid rows.
    let width: Int
    let height: Int
    private let radius: Int
    private let taps: Int
    /// The kernel with three zeros on each side (`PaddedWeights`), in the workspace.
    private let paddedWeights: UnsafePointer<Float>
    private let cells: GridCells
    private let kernels: any ConvolutionKernelSet.Type
    private let pyramidKernels: any PyramidKernelSet.Type
    /// Applied to each blurred row as it is made (a material's shading), if set.
    var shader: MaterialShader?
    /// The grid rows that several streams read (`shareCellRows`), or nil: streams make every row themselves.
    private var sharedRows: SharedCellRows?

    init(
        _ cells: GridCells, width: Int, height: Int, kernel: GaussianKernel, kernels: any ConvolutionKernelSet.Type,
        workspace: Workspace
    ) {
        self.cells = cells
        self.width = width
        self.height = height
        self.kernels = kernels
        pyramidKernels = Kernels.pyramid(matching: kernels)
        radius = kernel.radius
        taps = kernel.weights.count
        let padded = workspace.buffer(.smallWeights, count: taps + 6, of: Float.self)
        PaddedWeights.write(kernel.weights, into: padded)
        paddedWeights = UnsafePointer(padded)
    }

    /// Grid rows in the ring.
    private var span: Int { min(taps + 3, height) }
    private var lineCount: Int { (width + 2 * radius) * 4 }

    /// Bytes of scratch a `Stream` needs from its thread.
    var scratchBytes: Int {
        ScratchCarver.bytes(span * width * 4, of: Float.self) + ScratchCarver.bytes(4 * lineCount, of: Float.self)
            + ScratchCarver.bytes(4 * width * 4, of: Float.self)
            + ScratchCarver.bytes(span + taps + 3 + 4, of: UnsafePointer<Float>.self) + cells.scratchBytes
    }

    /// Blurred rows `rows`, in `scratch` (`scratchBytes`).
    func stream(_ rows: ClosedRange<Int>, scratch: UnsafeMutableRawPointer) -> Stream {
        Stream(self, blurredRows: rows, scratch: scratch)
    }

    /// The grid rows a stream of the blurred rows `rows` reads.
    func cellRows(readBy rows: ClosedRange<Int>) -> ClosedRange<Int> {
        max(rows.lowerBound - radius, 0)...min(rows.upperBound + radius, height - 1)
    }

    /// Lets streams share the grid rows that more than one of `parts` streams read: each is then made once, by
    /// the first stream to come to it. `blurredRows(p)` is the rows stream p will make, in increasing order of p
    /// and of its rows.
    mutating func shareCellRows(
        among parts: Int, blurredRows: (Int) -> ClosedRange<Int>, workspace: Workspace
    ) {
        guard parts > 1, cells.bytesReadPerRow > 0 else { return }
        // Each stream reads a contiguous run of rows, and the runs start and end in increasing order, so a row
        // read by two streams is read by two neighbouring ones: the union of neighbours' overlaps.
        let list = workspace.buffer(.sharedRowList, count: height, of: Int.self)
        var count = 0
        var next = 0
        for p in 0..<(parts - 1) {
            let last = cellRows(readBy: blurredRows(p)).upperBound
            for j in stride(from: max(cellRows(readBy: blurredRows(p + 1)).lowerBound, next), through: last, by: 1) {
                list[count] = j
                count += 1
            }
            next = max(next, last + 1)
        }
        guard count > 0 else { return }
        sharedRows = SharedCellRows(list, count: count, height: height, rowCount: width * 4, workspace: workspace)
    }

    /// One thread's way through the blurred rows, in increasing order: each group of four is made once.
    struct Stream {
        private let blur: SmallImageBlur
        private let ring: UnsafeMutablePointer<Float>
        private let lines: UnsafeMutablePointer<Float>
        /// The current group of blurred rows.
        private let blurred: UnsafeMutablePointer<Float>
        /// Where each ring slot's grid row is (the slot, or a row `cells` already had).
        private let slots: UnsafeMutablePointer<UnsafePointer<Float>>
        /// The grid rows a group reads, then its four lines.
        private let rows: UnsafeMutablePointer<UnsafePointer<Float>>
        private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
        private let cellScratch: UnsafeMutableRawPointer
        /// The ring holds grid rows nextCell − span ..< nextCell; row a sits in slot a mod span.
        private var nextCell: Int
        private var group: Range<Int>
        /// One past the last blurred row asked for: groups stop there, so neither they nor the grid rows they
        /// read go past the stream's rows (which `cellRows(readBy:)` and `shareCellRows` count on).
        private let end: Int

        fileprivate init(_ blur: SmallImageBlur, blurredRows: ClosedRange<Int>, scratch: UnsafeMutableRawPointer) {
            self.blur = blur
            let taps = blur.taps
            var carver = ScratchCarver(scratch)
            ring = carver.take(blur.span * blur.width * 4, of: Float.self)
            lines = carver.take(4 * blur.lineCount, of: Float.self)
            blurred = carver.take(4 * blur.width * 4, of: Float.self)
            slots = carver.take(blur.span + taps + 3 + 4, of: UnsafePointer<Float>.self)
            rows = slots + blur.span
            outputs = UnsafeMutableRawPointer(rows + taps + 3).bindMemory(
                to: UnsafeMutablePointer<Float>.self, capacity: 4)
            cellScratch = carver.rest
            nextCell = blur.cellRows(readBy: blurredRows).lowerBound
            group = blurredRows.lowerBound..<blurredRows.lowerBound
            end = min(blurredRows.upperBound + 1, blur.height)
        }

        /// Blurred row k, one of the stream's rows: k must not be below the rows asked for before it. Valid until
        /// the next call.
        mutating func row(_ k: Int) -> UnsafePointer<Float> {
            precondition(k >= group.lowerBound && k < end, "blurred rows are streamed in order, within the stream")
            while k >= group.upperBound {
                make(group.upperBound..<min(group.upperBound + 4, end))
            }
            return UnsafePointer(blurred + (k - group.lowerBound) * blur.width * 4)
        }

        private mutating func make(_ next: Range<Int>) {
            let (width, height, radius, taps, span) = (blur.width, blur.height, blur.radius, blur.taps, blur.span)
            let rowCount = width * 4
            while nextCell <= min(next.upperBound - 1 + radius, height - 1) {
                let (cells, cell, scratch) = (blur.cells, nextCell, cellScratch)
                let slot = nextCell % span
                slots[slot] =
                    blur.sharedRows?.row(cell) { cells.row(cell, into: $0, scratch: scratch) }
                    ?? cells.row(cell, into: ring + slot * rowCount, scratch: scratch)
                nextCell += 1
            }
            for k in 0..<(taps + next.count - 1) {
                rows[k] = slots[min(max(next.lowerBound + k - radius, 0), height - 1) % span]
            }
            for r in 0..<4 { outputs[r] = lines + r * blur.lineCount + radius * 4 }
            let weights = UnsafeBufferPointer(start: blur.paddedWeights + 3, count: taps)
            if next.count == 4 {
                let padded = UnsafeBufferPointer(start: blur.paddedWeights, count: taps + 6)
                blur.kernels.combine4(rows, paddedWeights: padded, count: rowCount, into: outputs)
            } else {
                for r in 0..<next.count {
                    blur.kernels.combine(rows + r, weights: weights, count: rowCount, into: outputs[r])
                }
            }
            for r in 0..<next.count {
                let line = outputs[r] - radius * 4
                for i in 0..<radius {
                    (line + i * 4).update(from: line + radius * 4, count: 4)
                    (line + (radius + width + i) * 4).update(from: line + (radius + width - 1) * 4, count: 4)
                }
                let output = blurred + r * rowCount
                blur.pyramidKernels.convolveAcross(line, weights: weights, count: rowCount, into: output)
                blur.shader?.shade(output, count: width)
            }
            group = next
        }
    }
}
