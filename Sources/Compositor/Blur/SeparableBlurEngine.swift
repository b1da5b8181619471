/// The exact separable Gaussian for 8-bit images, scheduled for caches and threads (the algorithm is in
/// `ConvolutionKernelSet`; this file only decides what is computed where, Halide-style). Kernels up to
/// `FixedPoint.maximumRadius` take the integer route (`SeparableBlurEngine+FixedPoint.swift`), which is faster
/// and as exact; wider ones the Float route below.
///
/// Schedule: the output is cut into column tiles narrow enough that the ring of 2r + 1 horizontally blurred
/// Float rows of one tile stays in L2, and, when there are more threads than tiles, into row bands. Each
/// (tile, band) walks down its rows once: every source row is blurred horizontally once into the ring, and
/// every output row is the weighted sum of the ring's rows, which are contiguous, so the vertical pass
/// never strides through memory column by column. Every output value is computed by the same operations in
/// the same order whatever the tiling or thread count, so the result is bit-identical across schedules.
///
/// The output may be any rectangle of the (edge-extended) source: pixels outside it are read as the
/// blur's edge, which is what a backdrop panel blurring part of a screen needs.
struct SeparableBlurEngine {
    let kernel: GaussianKernel
    let edgeMode: EdgeMode
    let kernels: any ConvolutionKernelSet.Type
    let threads: Int
    /// Bytes of Float ring per tile that should stay in cache.
    var ringBudget = 192 * 1024
    /// The same for the integer route's 16-bit ring: most of the L2 (1 MB here), so whole rows fit at small σ.
    var integerRingBudget = 768 * 1024
    /// Force a tile width (tests use it to prove results do not depend on it).
    var tileWidth: Int?

    /// Blurs `source` (`channels` bytes per pixel: 4 for premultiplied RGBA, 1 for a plane) and writes the
    /// part starting at (outputX, outputY) in source coordinates to `destination`, whose size is the part's.
    /// Every scratch buffer comes from `workspace`.
    func run(source: PixelRows, outputX: Int, outputY: Int, destination: PixelRows, workspace: Workspace) {
        if let fixed = fixedPointKernels {
            runFixedPoint(
                source: source, outputX: outputX, outputY: outputY, destination: destination, workspace: workspace,
                kernels: fixed)
            return
        }
        let radius = kernel.radius
        let taps = 2 * radius + 1
        let channels = source.channels
        let width = destination.width
        let height = destination.height
        guard width > 0, height > 0 else { return }
        let tile = tileWidth ?? max(16, min(width, ringBudget / (taps * channels * MemoryLayout<Float>.size)))
        let tiles = (width + tile - 1) / tile
        let bandsPerTile = max(1, min((threads + tiles - 1) / tiles, height / max(4 * radius, 16)))
        let items = tiles * bandsPerTile
        let workers = Parallel.workers(items, threads: threads)

        let lineCount = width + 2 * radius
        let columnMap = workspace.buffer(.columnMap, count: lineCount, of: Int.self)
        for i in 0..<lineCount {
            columnMap[i] = edgeMode.sourceIndex(outputX - radius + i, count: source.width)
        }
        let padded = workspace.buffer(.weights, count: taps + 6, of: Float.self)
        PaddedWeights.write(kernel.weights, into: padded)
        let tileValues = min(tile, width) * channels
        let scratch = TileScratch(
            ring: workspace.buffers(
                .ring, workers: workers,
                count: (taps + Self.rowsPerStep - 1) * Self.paddedRowCount(tileValues)),
            line: workspace.buffers(.line, workers: workers, count: (min(tile, width) + 2 * radius) * channels),
            output: workspace.buffers(.rowOutput, workers: workers, count: Self.rowsPerStep * tileValues),
            rowPointers: workspace.buffers(
                .rowPointers, workers: workers, count: taps + Self.rowsPerStep + 4,
                of: UnsafePointer<Float>.self))
        let shared = UncheckedSendable((columnMap, padded))
        Parallel.forEach(items, threads: threads) { item, worker in
            let tileIndex = item / bandsPerTile
            let band = item % bandsPerTile
            let x0 = tileIndex * tile
            let x1 = min(width, x0 + tile)
            let y0 = height * band / bandsPerTile
            let y1 = height * (band + 1) / bandsPerTile
            let buffers = TileBuffers(
                ring: scratch.ring[worker], line: scratch.line[worker], output: scratch.output[worker],
                rowPointers: scratch.rowPointers[worker])
            runTile(
                source: source, columns: x0..<x1, rows: y0..<y1, outputY: outputY, outputX: outputX,
                columnMap: UnsafeBufferPointer(start: shared.value.0, count: lineCount),
                paddedWeights: UnsafeBufferPointer(start: shared.value.1, count: taps + 6), buffers: buffers
            ) { values, y in
                let target = destination.row(y) + x0 * channels
                if channels == 4 {
                    Quantizer().quantize(values, count: x1 - x0, into: target, y: y)
                } else {
                    Quantizer.quantizePlane(values, count: (x1 - x0) * channels, into: target)
                }
            }
        }
    }

    /// One worker's buffers for `runTile`: a ring of `ringRows` rows of `paddedRowCount(tile values)` Floats, a
    /// line of (tile + 2r) pixels, four output rows and `taps + rowsPerStep + 4` row pointers.
    struct TileBuffers {
        let ring: UnsafeMutablePointer<Float>
        let line: UnsafeMutablePointer<Float>
        let output: UnsafeMutablePointer<Float>
        let rowPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    }

    /// Per-worker buffers for `runTile`.
    struct TileScratch: @unchecked Sendable {
        let ring: PerWorker<Float>
        let line: PerWorker<Float>
        let output: PerWorker<Float>
        let rowPointers: PerWorker<UnsafePointer<Float>>
    }

    /// Output rows computed per vertical step (`combine4`): the ring holds taps + 3 rows.
    static let rowsPerStep = 4

    /// Ring rows start on 64-byte boundaries, so the vertical pass's vector loads never straddle two cache
    /// lines (a split load costs two).
    static func paddedRowCount(_ values: Int) -> Int {
        (values + 15) / 16 * 16
    }

    /// Blurs the tile `columns` × `rows` of the output, which starts at (outputX, outputY) of the source, and hands
    /// each output row's Floats (0...255 scale, the tile's columns only) to `emit` with the row's y, in order.
    func runTile(
        source: PixelRows, columns: Range<Int>, rows: Range<Int>, outputY: Int, outputX: Int,
        columnMap: UnsafeBufferPointer<Int>, paddedWeights: UnsafeBufferPointer<Float>, buffers: TileBuffers,
        emit: (UnsafePointer<Float>, Int) -> Void
    ) {
        let radius = kernel.radius
        let taps = 2 * radius + 1
        let channels = source.channels
        let weights = UnsafeBufferPointer(rebasing: paddedWeights[3..<(taps + 3)])
        let ringRows = taps + Self.rowsPerStep - 1
        let tileValues = columns.count * channels
        let sourceWidth = source.width
        let ring = buffers.ring
        let line = buffers.line
        let output = buffers.output
        let rowPointers = buffers.rowPointers
        // Four output row pointers live after the ring's row pointers.
        let outputPointers = UnsafeMutableRawPointer(rowPointers + ringRows)
            .bindMemory(to: UnsafeMutablePointer<Float>.self, capacity: 4)
        for r in 0..<4 { outputPointers[r] = output + r * tileValues }
        // Padded column i of this tile is source column firstX + i; those inside the source are read straight,
        // the rest (at most the radius on each side) through the edge mode.
        let lineStart = columns.lowerBound
        let lineCount = columns.count + 2 * radius
        let firstX = outputX - radius + lineStart
        let directStart = min(max(-firstX, 0), lineCount)
        let directEnd = max(min(sourceWidth - firstX, lineCount), directStart)
        // Ring slot for virtual source row v (v may lie outside the image: the edge mode maps it).
        let ringStride = Self.paddedRowCount(tileValues)
        func slot(_ v: Int) -> UnsafeMutablePointer<Float> {
            ring + ((v % ringRows + ringRows) % ringRows) * ringStride
        }
        func convertThroughEdgeMode(_ row: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) {
            for i in range {
                let sourceX = columnMap[lineStart + i]
                let destination = line + i * channels
                if sourceX < 0 {
                    for c in 0..<channels { destination[c] = 0 }
                } else {
                    let pixel = row + sourceX * channels
                    for c in 0..<channels { destination[c] = Float(pixel[c]) }
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
            // The edges go through the edge mode: only the kernel's radius on each side, for most tiles.
            convertThroughEdgeMode(row, 0..<directStart)
            convertThroughEdgeMode(row, directEnd..<lineCount)
            if directStart < directEnd {
                // The interior: one contiguous run of bytes, converted by a loop the compiler vectorises.
                let bytes = row + (firstX + directStart) * channels
                let floats = line + directStart * channels
                for i in 0..<((directEnd - directStart) * channels) { floats[i] = Float(bytes[i]) }
            }
            kernels.convolve(line, step: channels, weights: weights, count: tileValues, into: target)
        }
        for v in (rows.lowerBound - radius)..<(rows.lowerBound + radius) {
            blurRowHorizontally(v)
        }
        var y = rows.lowerBound
        while y < rows.upperBound {
            let step = min(Self.rowsPerStep, rows.upperBound - y)
            for r in 0..<step { blurRowHorizontally(y + r + radius) }
            for k in 0..<(taps + step - 1) { rowPointers[k] = UnsafePointer(slot(y - radius + k)) }
            if step == Self.rowsPerStep {
                kernels.combine4(rowPointers, paddedWeights: paddedWeights, count: tileValues, into: outputPointers)
            } else {
                for r in 0..<step {
                    kernels.combine(rowPointers + r, weights: weights, count: tileValues, into: outputPointers[r])
                }
            }
            for r in 0..<step { emit(outputPointers[r], y + r) }
            y += step
        }
    }
}

/// Rows of 8-bit pixels, as the engine reads and writes them: an `Image` (4 channels) or a `Plane` (1).
struct PixelRows {
    let base: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let channels: Int

    init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int, channels: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.channels = channels
    }

    init(_ image: Image) {
        self.init(
            base: image.baseAddress, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow,
            channels: 4)
    }

    init(_ plane: Plane) {
        self.init(
            base: plane.baseAddress, width: plane.width, height: plane.height, bytesPerRow: plane.bytesPerRow,
            channels: 1)
    }

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        base + y * bytesPerRow
    }
}

extension Quantizer {
    /// Rounds a plane's Floats to bytes (nearest, ties to even), clamping to 0...255.
    static func quantizePlane(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<UInt8>)
    {
        for i in 0..<count {
            destination[i] = UInt8(truncatingIfNeeded: (min(max(source[i], 0), 255) + 12_582_912).bitPattern)
        }
    }
}
