/// Separable resizing of premultiplied images (a pure scale, the common case of an affine warp), two output
/// rows at a time: the vertical pass sums the source rows each needs straight from their bytes (16 lanes at
/// a time), over just the columns the horizontal pass will read; the horizontal pass then sums both Float
/// rows two taps of a pixel at a time, sharing the weights; then the rows are rounded. Shrinking vertically
/// first means the horizontal pass runs once per output row, and nothing larger than two rows is ever
/// held. Output is bit-identical for every thread count.
public struct Resampler: Sendable {
    public var filter: ResampleFilter
    public var threads: Int
    @_spi(Benchmarks) public var kernels: any ConvolutionKernelSet.Type = Kernels.active

    public init(filter: ResampleFilter = .lanczos3, threads: Int = Parallel.processorCount) {
        self.filter = filter
        self.threads = threads
    }

    /// The rectangle (x, y, width, height) of `source`, in source pixels (fractions allowed), resized to
    /// `width` × `height`.
    public func resize(
        _ source: Image, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
        width: Int, height: Int, workspace: Workspace = Workspace()
    ) -> Image {
        let result = Image(uninitializedWidth: width, height: height)
        resize(source, crop: crop, into: result, workspace: workspace)
        return result
    }

    public func resize(
        _ source: Image, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
        into destination: Image, workspace: Workspace = Workspace()
    ) {
        let crop = crop ?? (0, 0, Double(source.width), Double(source.height))
        guard destination.width > 0, destination.height > 0, source.width > 0, source.height > 0 else { return }
        let columns = ResampleWeights(
            filter: filter, sourceCount: source.width, start: crop.x, length: crop.width,
            count: destination.width)
        let rows = ResampleWeights(
            filter: filter, sourceCount: source.height, start: crop.y, length: crop.height,
            count: destination.height)
        let quantizer = Quantizer()
        resample(source, columns: columns, rows: rows, workspace: workspace) { y, row in
            quantizer.quantize(row, count: destination.width, into: destination.row(y), y: y)
        }
    }

    /// Resamples `source` by the given weights and hands each output row (RGBA Floats, `columns.first.count`
    /// pixels) to `emit` with its index, from up to `threads` threads at once; the row is scratch, reused
    /// once `emit` returns.
    func resample(
        _ source: Image, columns: ResampleWeights, rows: ResampleWeights, workspace: Workspace,
        emit: (Int, UnsafeMutablePointer<Float>) -> Void
    ) {
        let width = columns.first.count
        let height = rows.first.count
        // The source columns any output pixel reads, and the span the horizontal pass reads them from: its
        // taps rounded up to a pair, past the last column into zeros (weighted zero).
        let firstColumn = columns.first.min()!
        let lastColumn = min(source.width - 1, columns.first.max()! + columns.taps - 1)
        let sourceValues = (lastColumn - firstColumn + 1) * 4
        let taps = (columns.taps + 1) / 2 * 2
        let spanValues = (columns.first.max()! - firstColumn + taps) * 4
        let first = workspace.buffer(.resizeFirst, count: width, of: Int.self)
        let weights = workspace.buffer(.resizeWeights, count: width * taps * 4, of: Float.self)
        columns.writeRowLayout(firstColumn: firstColumn, taps: taps, first: first, weights: weights)
        // Rows in pairs: the horizontal pass shares its weights between the two.
        let pairs = (height + 1) / 2
        let workers = Parallel.workers(pairs, threads: threads)
        let pointers = workspace.buffers(
            .resizeRowPointers, workers: workers, count: rows.taps, of: UnsafePointer<UInt8>.self)
        let spans = workspace.buffers(.resizeRows, workers: workers, count: 2 * spanValues, of: Float.self)
        let outputs = workspace.buffers(.resizeOutput, workers: workers, count: 2 * width * 4, of: Float.self)
        for worker in 0..<workers {
            for span in [spans[worker], spans[worker] + spanValues] {
                (span + sourceValues).initialize(repeating: 0, count: spanValues - sourceValues)
            }
        }
        let kernels = kernels
        rows.weights.withUnsafeBufferPointer { rowWeights in
            Parallel.forEach(pairs, threads: threads) { pair, worker in
                let rowPointers = pointers[worker]
                let count = min(2, height - 2 * pair)
                for r in 0..<count {
                    let y = 2 * pair + r
                    for k in 0..<rows.taps {
                        // Taps past the last row have zero weight; point them at a real row.
                        rowPointers[k] = UnsafePointer(
                            source.row(min(rows.first[y] + k, source.height - 1)) + firstColumn * 4)
                    }
                    let weightsOfRow = UnsafeBufferPointer(
                        rebasing: rowWeights[(y * rows.taps)..<((y + 1) * rows.taps)])
                    kernels.combineBytes(
                        rowPointers, weights: weightsOfRow, count: sourceValues, into: spans[worker] + r * spanValues)
                }
                let output = outputs[worker]
                if count == 2 {
                    kernels.resampleRowPair(
                        spans[worker], spans[worker] + spanValues, first: first, weights: weights, taps: taps,
                        count: width, into: output, output + width * 4)
                    emit(2 * pair, output)
                    emit(2 * pair + 1, output + width * 4)
                } else {
                    kernels.resampleRow(
                        spans[worker], first: first, weights: weights, taps: taps, count: width, into: output)
                    emit(2 * pair, output)
                }
            }
        }
    }
}
