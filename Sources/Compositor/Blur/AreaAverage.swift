/// Where the pyramid's small blur gets the rows of its grid, one cell row at a time as its ring asks for them.
protocol CellRows: Sendable {
    /// Bytes of scratch `row` needs, from each thread that calls it.
    var scratchBytes: Int { get }
    /// About how many bytes making a row reads from memory (0 when rows are found in memory): what making it once
    /// instead of twice saves.
    var bytesReadPerRow: Int { get }
    /// Cell row j of the grid (0 is the grid's first), as premultiplied RGBA Floats on the 0...255 scale:
    /// written to `output` (room for one row) or found elsewhere.
    func row(
        _ j: Int, into output: UnsafeMutablePointer<Float>, scratch: UnsafeMutableRawPointer
    ) -> UnsafePointer<Float>
}

/// The grid's rows from one of the two sources, held inline: an existential (`any CellRows`) of these structs
/// would be boxed on the heap at every blur, the one allocation left in a renderer's steady state.
enum GridCells: CellRows, @unchecked Sendable {
    case whole(WholeCellRows)
    case averaged(AreaAverage)

    var scratchBytes: Int {
        switch self {
        case .whole(let cells): return cells.scratchBytes
        case .averaged(let cells): return cells.scratchBytes
        }
    }

    var bytesReadPerRow: Int {
        switch self {
        case .whole(let cells): return cells.bytesReadPerRow
        case .averaged(let cells): return cells.bytesReadPerRow
        }
    }

    func row(_ j: Int, into output: UnsafeMutablePointer<Float>, scratch: UnsafeMutableRawPointer)
        -> UnsafePointer<Float>
    {
        switch self {
        case .whole(let cells): return cells.row(j, into: output, scratch: scratch)
        case .averaged(let cells): return cells.row(j, into: output, scratch: scratch)
        }
    }
}

/// A grid made whole beforehand (the resizing route's, a few thousand cells).
struct WholeCellRows: CellRows, @unchecked Sendable {
    let cells: UnsafePointer<Float>
    let width: Int

    var scratchBytes: Int { 0 }
    var bytesReadPerRow: Int { 0 }

    func row(
        _ j: Int, into output: UnsafeMutablePointer<Float>, scratch: UnsafeMutableRawPointer
    ) -> UnsafePointer<Float> {
        cells + j * width * 4
    }
}

/// Cells that average f×f blocks of an image: cell (i, j) averages the block starting at
/// ((firstColumn + i)·f, (firstRow + j)·f), reading outside the image through the edge mode.
///
/// A cell row sums its f source rows into 32-bit lanes, then each run of f columns. Cells wholly inside the
/// image sum contiguous runs (`sumCells`); the few at the edges read their columns through a map.
struct AreaAverage: CellRows, @unchecked Sendable {
    private let source: Image
    private let factor: Int
    private let origin: Int
    private let width: Int
    private let edgeMode: EdgeMode
    private let columnMap: UnsafeMutablePointer<Int>
    /// Cells whose f columns all lie inside the image, and the first of those columns.
    private let interior: Range<Int>
    private let interiorColumn: Int
    private let kernels: any PyramidKernelSet.Type

    init(
        _ source: Image, factor: Int, firstColumn: Int, firstRow: Int, width: Int, edgeMode: EdgeMode,
        kernels: any PyramidKernelSet.Type, workspace: Workspace
    ) {
        self.source = source
        self.factor = factor
        self.width = width
        self.edgeMode = edgeMode
        self.kernels = kernels
        origin = firstRow * factor
        let columnOrigin = firstColumn * factor
        columnMap = workspace.buffer(.columnMap, count: width * factor, of: Int.self)
        for i in 0..<(width * factor) { columnMap[i] = edgeMode.sourceIndex(columnOrigin + i, count: source.width) }
        let low = min(max(-firstColumn, 0), width)
        interior = low..<max(low, min(width, source.width / factor - firstColumn))
        interiorColumn = columnOrigin + interior.lowerBound * factor
    }

    /// A row's column sums, and the source rows it reads.
    var scratchBytes: Int {
        ScratchCarver.bytes(source.width * 4, of: UInt32.self)
            + ScratchCarver.bytes(factor, of: UnsafePointer<UInt8>.self)
    }

    /// f source rows.
    var bytesReadPerRow: Int { factor * source.width * 4 }

    func row(
        _ j: Int, into output: UnsafeMutablePointer<Float>, scratch: UnsafeMutableRawPointer
    ) -> UnsafePointer<Float> {
        var carver = ScratchCarver(scratch)
        let sums = carver.take(source.width * 4, of: UInt32.self)
        let rows = carver.take(factor, of: UnsafePointer<UInt8>.self)
        var rowCount = 0
        for dy in 0..<factor {
            let sourceY = edgeMode.sourceIndex(origin + j * factor + dy, count: source.height)
            guard sourceY >= 0 else { continue }  // transparent: adds nothing
            rows[rowCount] = UnsafePointer(source.row(sourceY))
            rowCount += 1
        }
        let scale = 1 / Float(factor * factor)
        let interiorSums = interiorColumn * 4
        if factor <= maximumNarrowRows {
            let narrow = UnsafeMutableRawPointer(sums).bindMemory(to: UInt16.self, capacity: source.width * 4)
            kernels.sumNarrowRows(rows, rowCount: rowCount, count: source.width * 4, into: narrow)
            kernels.sumNarrowCells(
                narrow + interiorSums, factor: factor, count: interior.count, scale: scale,
                into: output + interior.lowerBound * 4)
            edgeCells(0..<interior.lowerBound, of: narrow, scale: scale, into: output)
            edgeCells(interior.upperBound..<width, of: narrow, scale: scale, into: output)
        } else {
            kernels.sumRows(rows, rowCount: rowCount, count: source.width * 4, into: sums)
            kernels.sumCells(
                sums + interiorSums, factor: factor, count: interior.count, scale: scale,
                into: output + interior.lowerBound * 4)
            edgeCells(0..<interior.lowerBound, of: sums, scale: scale, into: output)
            edgeCells(interior.upperBound..<width, of: sums, scale: scale, into: output)
        }
        return UnsafePointer(output)
    }

    /// Cells outside `interior`, whose columns come through the edge mode's map.
    private func edgeCells<Sum: FixedWidthInteger>(
        _ cells: Range<Int>, of sums: UnsafePointer<Sum>, scale: Float, into output: UnsafeMutablePointer<Float>
    ) {
        for i in cells {
            var sum = SIMD4<UInt32>()
            for k in (i * factor)..<((i + 1) * factor) where columnMap[k] >= 0 {
                let p = sums + columnMap[k] * 4
                sum &+= SIMD4(UInt32(p[0]), UInt32(p[1]), UInt32(p[2]), UInt32(p[3]))
            }
            for c in 0..<4 { output[i * 4 + c] = Float(sum[c]) * scale }
        }
    }
}

/// Typed regions cut one after another from a block of raw scratch memory, each 64-byte aligned (a cache line).
struct ScratchCarver {
    private var next: UnsafeMutableRawPointer

    init(_ memory: UnsafeMutableRawPointer) {
        next = memory
    }

    /// The bytes `take(count, of:)` uses, alignment included.
    static func bytes<T>(_ count: Int, of type: T.Type) -> Int {
        max(count, 0) * MemoryLayout<T>.stride + 63
    }

    mutating func take<T>(_ count: Int, of type: T.Type) -> UnsafeMutablePointer<T> {
        let start = next.alignedUp(toMultipleOf: 64)
        next = start + max(count, 0) * MemoryLayout<T>.stride
        return start.bindMemory(to: T.self, capacity: max(count, 0))
    }

    /// What is left.
    var rest: UnsafeMutableRawPointer { next }
}
