import CKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PathRasterizer {
    /// The rasteriser's working memory, kept between calls: an icon sheet fills hundreds of small paths, and
    /// allocating, clearing and freeing the cell buffers and edge lists for each one cost more than filling it.
    ///
    /// Every buffer is left as `coverage` needs to find it: cells zero, extents empty, owner stamps from earlier
    /// bands only. Owner stamps carry a band number unique over the scratch's life (`stampBase` plus the band's
    /// index), so that a cell stamped by an earlier call never reads as touched by this one.
    final class Scratch {
        private(set) var cells: UnsafeMutablePointer<Int32>
        private(set) var owners: UnsafeMutablePointer<Int64>
        private(set) var sharedCells: UnsafeMutablePointer<Int32>
        private(set) var partners: UnsafeMutablePointer<Int32>
        private(set) var extents: UnsafeMutablePointer<Int>
        /// A row of coverage bytes per worker, at most a cell buffer's row each.
        private(set) var rowBuffers: UnsafeMutablePointer<UInt8>
        private var cellCapacity: Int
        private var rowCapacity: Int
        /// Band numbers used by earlier calls: the next call's band b stamps with `stampBase + b`.
        private(set) var stampBase: Int64 = 0
        /// The polygons' edges cut to the box (`clipEdges`), `edges.count` of them.
        private(set) var edges = UnsafeBufferPointer<Edge>(start: nil, count: 0)
        private var edgeBuffer = UnsafeMutablePointer<Edge>.allocate(capacity: 0)
        private var edgeCapacity = 0
        var members: [Int32] = []
        var offsets: [Int] = []
        /// The exact cells' working lists (`ExactCellScratch`), one per worker.
        var exactCells: [ExactCellScratch] = []

        init() {
            (cellCapacity, rowCapacity) = (0, 0)
            (cells, owners, sharedCells) = (.allocate(capacity: 0), .allocate(capacity: 0), .allocate(capacity: 0))
            partners = .allocate(capacity: 0)
            (extents, rowBuffers) = (.allocate(capacity: 0), .allocate(capacity: 0))
        }

        deinit {
            release()
            edgeBuffer.deallocate()
        }

        private func release() {
            cells.deallocate()
            owners.deallocate()
            sharedCells.deallocate()
            partners.deallocate()
            extents.deallocate()
            rowBuffers.deallocate()
        }

        /// Bytes held, for the pool's limit.
        var bytes: Int {
            cellCapacity * 21 + rowCapacity * 16 + edgeCapacity * MemoryLayout<Edge>.stride
                + exactCells.reduce(0) { $0 + $1.chainCapacity * MemoryLayout<RowChain>.stride }
        }

        /// Cuts `polygons` (pixels) to `box` into `edges`, in the box's pixels (origin at its top-left corner), by
        /// `bt_path_clip_edges`: split where they cross its left and right sides, the parts right of it dropped (a
        /// pixel's coverage depends only on edges left of its right side) and the parts left of it moved onto its
        /// left side (the same winding for every pixel of those rows); parts above and below dropped; horizontal
        /// edges kept (winding 0) where they run through a row, for their chain's part in it. Each polygon is a
        /// new chain, and so is each turn in y, walked from a vertex where it turns so that its first and last
        /// chains are not one chain cut in two.
        func clipEdges(_ polygons: FlattenedPath, to box: PixelBox) {
            let vertices = polygons.xs.count
            guard vertices > 0, !polygons.ends.isEmpty else {
                edges = UnsafeBufferPointer(start: edgeBuffer, count: 0)
                return
            }
            // Most paths lie inside their box, an edge a vertex; three a vertex always suffice.
            var wanted = max(edgeCapacity, vertices + vertices / 4 + 16)
            while true {
                if wanted > edgeCapacity {
                    edgeBuffer.deallocate()
                    edgeBuffer = .allocate(capacity: wanted)
                    edgeCapacity = wanted
                }
                let count = polygons.xs.withUnsafeBufferPointer { xs in
                    polygons.ys.withUnsafeBufferPointer { ys in
                        polygons.ends.withUnsafeBufferPointer { ends in
                            bt_path_clip_edges(
                                xs.baseAddress!, ys.baseAddress!, ends.baseAddress!, ends.count, Double(box.x),
                                Double(box.y), Double(box.width), Double(box.height), edgeBuffer, edgeCapacity)
                        }
                    }
                }
                if count >= 0 {
                    edges = UnsafeBufferPointer(start: edgeBuffer, count: count)
                    return
                }
                // Doubled up to the most there can be (an edge of a polygon cuts into three at most, so that much
                // always suffices), so that memory follows the edges made, as an array's would.
                wanted = min(2 * edgeCapacity, 3 * vertices + 16)
            }
        }

        /// Makes room for `cellCount` cells and `rows` rows, and stamps for `bands` more bands.
        func reserve(cells cellCount: Int, rows: Int, bands: Int, workers: Int) {
            if cellCount > cellCapacity || rows > rowCapacity {
                release()
                (cellCapacity, rowCapacity) = (max(cellCount, cellCapacity), max(rows, rowCapacity))
                cells = .allocate(capacity: cellCapacity)
                cells.initialize(repeating: 0, count: cellCapacity)
                owners = .allocate(capacity: cellCapacity)
                owners.initialize(repeating: -1, count: cellCapacity)
                sharedCells = .allocate(capacity: cellCapacity)
                partners = .allocate(capacity: cellCapacity)
                rowBuffers = .allocate(capacity: cellCapacity)
                extents = .allocate(capacity: 2 * rowCapacity)
                for row in 0..<rowCapacity { (extents[2 * row], extents[2 * row + 1]) = (.max, -1) }
                stampBase = 0
            }
            // Stamps live in the high 32 bits: before they would run out, every cell is made untouched again.
            if stampBase + Int64(bands) >= Int64(Int32.max) {
                owners.update(repeating: -1, count: cellCapacity)
                stampBase = 0
            }
            while exactCells.count < workers { exactCells.append(ExactCellScratch()) }
        }

        /// After a call that used `bands` band numbers.
        func advanceStamps(by bands: Int) { stampBase += Int64(bands) }
    }

    /// Scratches not in use, for the next call on any thread; at most `pooledScratches`, each at most
    /// `pooledScratchBytes` (a huge path's buffers go back to the system).
    private static let pool = Locked<[Scratch]>([])
    private static let pooledScratches = 4
    private static let pooledScratchBytes = 16 << 20

    /// Runs `body` with a scratch from the pool (or a new one), returned to the pool after.
    static func withScratch<Result>(_ body: (Scratch) -> Result) -> Result {
        let scratch = pool.withLock { $0.popLast() } ?? Scratch()
        defer {
            if scratch.bytes <= pooledScratchBytes {
                pool.withLock { if $0.count < pooledScratches { $0.append(scratch) } }
            }
        }
        return body(scratch)
    }
}
