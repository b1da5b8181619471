import CKernels

/// The exact engine's integer route (`FixedPointKernelSet`), taken up to `FixedPoint.maximumRadius` (σ 8).
///
/// Same schedule as the Float route (column tiles, row bands, a ring of horizontally blurred rows walked down
/// once), with 16-bit rows: a ring holds twice the columns in the same cache, so at σ 2 (7 taps a side,
/// `FixedPoint.radius(of:)`) a whole 4032-pixel row of RGBA fits (18 rows, 581 KB of the 1 MB L2). Whole rows
/// matter: a tile's slice of each source row is a few KB, and the prefetcher stops at every page boundary, so
/// narrow tiles wait on memory (even 1024-pixel tiles made the vertical pass much slower than whole rows). The
/// vertical pass writes bytes directly, with no Float row to quantise: integer sums round the same way whatever
/// the schedule, so the output is identical for every tiling and thread count.
extension SeparableBlurEngine {
    /// The integer kernels matching `kernels`, when the kernel is narrow enough for their error bound.
    var fixedPointKernels: (any FixedPointKernelSet.Type)? {
        guard kernel.radius <= FixedPoint.maximumRadius else { return nil }
        return kernels as? any FixedPointKernelSet.Type
    }

    /// Per-worker buffers for `runFixedPointTile`.
    struct FixedPointScratch: @unchecked Sendable {
        let ring: PerWorker<UInt16>
        let line: PerWorker<UInt16>
        let rowPointers: PerWorker<UnsafePointer<UInt16>>
        let outputs: PerWorker<UnsafeMutablePointer<UInt8>>
    }

    /// `run` on the integer route.
    func runFixedPoint(
        source: PixelRows, outputX: Int, outputY: Int, destination: PixelRows, workspace: Workspace,
        kernels fixed: any FixedPointKernelSet.Type
    ) {
        let radius = FixedPoint.radius(of: kernel)
        let ringRows = 2 * radius + Self.rowsPerStep
        let channels = source.channels
        let width = destination.width
        let height = destination.height
        guard width > 0, height > 0 else { return }
        let tile = tileWidth ?? max(16, min(width, integerRingBudget / (ringRows * channels * 2)))
        let tiles = (width + tile - 1) / tile
        let bandsPerTile = max(1, min((threads + tiles - 1) / tiles, height / max(4 * radius, 16)))
        let items = tiles * bandsPerTile
        let workers = Parallel.workers(items, threads: threads)

        let lineCount = width + 2 * radius
        let columnMap = workspace.buffer(.columnMap, count: lineCount, of: Int.self)
        for i in 0..<lineCount {
            columnMap[i] = edgeMode.sourceIndex(outputX - radius + i, count: source.width)
        }
        let weights = workspace.buffer(.weights, count: 2 * (radius + 1), of: UInt32.self)
        FixedPoint.write(kernel, radius: radius, scale: FixedPoint.horizontalScale, into: weights)
        FixedPoint.write(kernel, radius: radius, scale: FixedPoint.verticalScale, into: weights + radius + 1)
        let tileValues = min(tile, width) * channels
        let scratch = FixedPointScratch(
            ring: workspace.buffers(.ring, workers: workers, count: ringRows * Self.ringStride(tileValues)),
            line: workspace.buffers(.line, workers: workers, count: (min(tile, width) + 2 * radius) * channels),
            rowPointers: workspace.buffers(.rowPointers, workers: workers, count: ringRows),
            outputs: workspace.buffers(.rowOutput, workers: workers, count: Self.rowsPerStep))
        let shared = UncheckedSendable((columnMap, weights))
        Parallel.forEach(items, threads: threads) { item, worker in
            let tileIndex = item / bandsPerTile
            let band = item % bandsPerTile
            let x0 = tileIndex * tile
            let y0 = height * band / bandsPerTile
            let y1 = height * (band + 1) / bandsPerTile
            runFixedPointTile(
                source: source, destination: destination, columns: x0..<min(width, x0 + tile), rows: y0..<y1,
                outputX: outputX, outputY: outputY,
                columnMap: UnsafeBufferPointer(start: shared.value.0, count: lineCount),
                horizontal: UnsafeBufferPointer(start: shared.value.1, count: radius + 1),
                vertical: UnsafeBufferPointer(start: shared.value.1 + radius + 1, count: radius + 1),
                kernels: fixed, scratch: scratch, worker: worker)
        }
    }

    /// Ring rows start on 64-byte boundaries, so the vertical pass's loads never straddle two cache lines.
    static func ringStride(_ values: Int) -> Int {
        (values + 31) / 32 * 32
    }

    private func runFixedPointTile(
        source: PixelRows, destination: PixelRows, columns: Range<Int>, rows: Range<Int>, outputX: Int,
        outputY: Int, columnMap: UnsafeBufferPointer<Int>, horizontal: UnsafeBufferPointer<UInt32>,
        vertical: UnsafeBufferPointer<UInt32>, kernels fixed: any FixedPointKernelSet.Type,
        scratch: FixedPointScratch, worker: Int
    ) {
        let radius = FixedPoint.radius(of: kernel)
        let ringRows = 2 * radius + Self.rowsPerStep
        let channels = source.channels
        let tileValues = columns.count * channels
        let ringStride = Self.ringStride(tileValues)
        let ring = scratch.ring[worker]
        let line = scratch.line[worker]
        let rowPointers = scratch.rowPointers[worker]
        let outputs = scratch.outputs[worker]
        // Padded column i of this tile is source column firstX + i; those inside the source are read straight,
        // the rest (at most the radius on each side) through the edge mode.
        let lineStart = columns.lowerBound
        let lineCount = columns.count + 2 * radius
        let firstX = outputX - radius + lineStart
        let directStart = min(max(-firstX, 0), lineCount)
        let directEnd = max(min(source.width - firstX, lineCount), directStart)
        func slot(_ v: Int) -> UnsafeMutablePointer<UInt16> {
            ring + ((v % ringRows + ringRows) % ringRows) * ringStride
        }
        func widenThroughEdgeMode(_ row: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) {
            for i in range {
                let sourceX = columnMap[lineStart + i]
                for c in 0..<channels {
                    line[i * channels + c] = sourceX < 0 ? 0 : UInt16(row[sourceX * channels + c])
                }
            }
        }
        func blurRowHorizontally(_ v: Int) {
            let sourceY = edgeMode.sourceIndex(outputY + v, count: source.height)
            let target = slot(v)
            guard sourceY >= 0 else {
                target.initialize(repeating: 0, count: tileValues)
                return
            }
            let row = source.row(sourceY)
            widenThroughEdgeMode(row, 0..<directStart)
            widenThroughEdgeMode(row, directEnd..<lineCount)
            // The interior: one contiguous run of bytes, widened by a loop the compiler vectorises.
            let bytes = row + (firstX + directStart) * channels
            let values = line + directStart * channels
            for i in 0..<((directEnd - directStart) * channels) { values[i] = UInt16(bytes[i]) }
            fixed.blurRow(line, step: channels, weights: horizontal, count: tileValues, into: target)
        }
        // The parts of the source rows behind the virtual rows the next step widens, for the vertical pass to start
        // loading while it sums (`bt_upcoming_rows`).
        var upcoming = bt_upcoming_rows()
        upcoming.bytes = (directEnd - directStart) * channels
        func nameUpcomingRows(_ virtualRows: Range<Int>) {
            var named = upcoming.rows
            var count = 0
            if directStart < directEnd {
                withUnsafeMutablePointer(to: &named) { tuple in
                    tuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 4) { namedRows in
                        for v in virtualRows {
                            let sourceY = edgeMode.sourceIndex(outputY + v, count: source.height)
                            guard sourceY >= 0 else { continue }
                            namedRows[count] = UnsafePointer(source.row(sourceY) + (firstX + directStart) * channels)
                            count += 1
                        }
                    }
                }
            }
            upcoming.rows = named
            upcoming.count = count
        }
        for v in (rows.lowerBound - radius)..<(rows.lowerBound + radius) {
            blurRowHorizontally(v)
        }
        var y = rows.lowerBound
        while y < rows.upperBound {
            let step = min(Self.rowsPerStep, rows.upperBound - y)
            for r in 0..<step {
                blurRowHorizontally(y + r + radius)
                outputs[r] = destination.row(y + r) + columns.lowerBound * channels
            }
            for k in 0..<(2 * radius + step) { rowPointers[k] = UnsafePointer(slot(y - radius + k)) }
            nameUpcomingRows(y + step + radius..<min(y + step + radius + Self.rowsPerStep, rows.upperBound + radius))
            fixed.combine(
                rowPointers, weights: vertical, count: tileValues,
                into: UnsafeBufferPointer(start: outputs, count: step), prefetching: &upcoming)
            if channels == 4 {
                // Premultiplied input cannot give a colour above its alpha (every step is monotone and the same
                // for all channels); this keeps the output premultiplied even when the input was not.
                for r in 0..<step { Quantizer.limitColoursToAlpha(outputs[r], count: columns.count) }
            }
            y += step
        }
    }
}
