/// Separable resizing of premultiplied images (a pure scale, the common case of an affine warp), one output
/// row at a time: the vertical pass sums the source rows that row needs straight from their bytes (16 lanes
/// at a time), over just the columns the horizontal pass will read; the horizontal pass then sums that Float
/// row four channels at a time; then the row is rounded. Shrinking vertically first means the horizontal
/// pass runs once per output row, and nothing larger than a row is ever held. Output is bit-identical for
/// every thread count.
public struct Resampler: Sendable {
    public var filter: ResampleFilter
    public var threads: Int
    public var kernels: any ConvolutionKernelSet.Type = Kernels.active

    public init(filter: ResampleFilter = .lanczos3, threads: Int = Parallel.processorCount) {
        self.filter = filter
        self.threads = threads
    }

    /// The rectangle (x, y, width, height) of `source`, in source pixels (fractions allowed), resized to
    /// `width` × `height`.
    public func resize(
        _ source: Image, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
        width: Int, height: Int, workspace: BlurWorkspace = BlurWorkspace()
    ) -> Image {
        let result = Image(uninitializedWidth: width, height: height)
        resize(source, crop: crop, into: result, workspace: workspace)
        return result
    }

    public func resize(
        _ source: Image, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
        into destination: Image, workspace: BlurWorkspace = BlurWorkspace()
    ) {
        let crop = crop ?? (0, 0, Double(source.width), Double(source.height))
        let width = destination.width
        let height = destination.height
        guard width > 0, height > 0, source.width > 0, source.height > 0 else { return }
        let columns = ResampleWeights(
            filter: filter, sourceCount: source.width, start: crop.x, length: crop.width,
            count: width)
        let rows = ResampleWeights(
            filter: filter, sourceCount: source.height, start: crop.y, length: crop.height,
            count: height)
        // The source columns any output pixel reads.
        let firstColumn = columns.first.min()!
        let lastColumn = min(source.width - 1, columns.first.max()! + columns.taps - 1)
        let spanValues = (lastColumn - firstColumn + 1) * 4
        let workers = Parallel.workers(height, threads: threads)
        let pointers = workspace.buffers(
            .resizeRowPointers, workers: workers, count: rows.taps,
            of: UnsafePointer<UInt8>.self)
        let spans = workspace.buffers(.resizeRows, workers: workers, count: spanValues, of: Float.self)
        let outputs = workspace.buffers(.resizeOutput, workers: workers, count: width * 4, of: Float.self)
        rows.weights.withUnsafeBufferPointer { rowWeights in
            columns.first.withUnsafeBufferPointer { first in
                columns.weights.withUnsafeBufferPointer { columnWeights in
                    Parallel.forEach(height, threads: threads) { y, worker in
                        let rowPointers = pointers[worker]
                        for k in 0..<rows.taps {
                            // Taps past the last row have zero weight; point them at a real row.
                            rowPointers[k] = UnsafePointer(
                                source.row(min(rows.first[y] + k, source.height - 1))
                                    + firstColumn * 4)
                        }
                        let weights = UnsafeBufferPointer(rebasing: rowWeights[(y * rows.taps)..<((y + 1) * rows.taps)])
                        kernels.combineBytes(rowPointers, weights: weights, count: spanValues, into: spans[worker])
                        Resampler.resampleRow(
                            spans[worker], firstColumn: firstColumn, lastColumn: lastColumn,
                            first: first, weights: columnWeights, taps: columns.taps,
                            into: outputs[worker])
                        Quantizer().quantize(outputs[worker], count: width, into: destination.row(y), y: y)
                    }
                }
            }
        }
    }

    /// One row: output pixel i = Σₖ weights[i·taps + k] · span[first[i] + k − firstColumn], four channels at
    /// once (taps past `lastColumn` have zero weight and are skipped).
    static func resampleRow(
        _ span: UnsafePointer<Float>, firstColumn: Int, lastColumn: Int,
        first: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>, taps: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<first.count {
            var sum = SIMD4<Float>(repeating: 0)
            let start = first[i]
            let pixels = UnsafeRawPointer(span + (start - firstColumn) * 4)
            for k in 0..<min(taps, lastColumn + 1 - start) {
                let pixel = pixels.loadUnaligned(fromByteOffset: k * 16, as: SIMD4<Float>.self)
                sum = sum + SIMD4(repeating: weights[i * taps + k]) * pixel
            }
            UnsafeMutableRawPointer(output + i * 4).storeBytes(of: sum, as: SIMD4<Float>.self)
        }
    }

    /// The same sums one channel at a time: the twin the tests compare `resampleRow` with.
    static func resampleRowReference(
        _ span: UnsafePointer<Float>, firstColumn: Int, lastColumn: Int,
        first: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>, taps: Int,
        into output: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<first.count {
            for c in 0..<4 {
                var sum: Float = 0
                for k in 0..<min(taps, lastColumn + 1 - first[i]) {
                    sum = sum + weights[i * taps + k] * span[(first[i] + k - firstColumn) * 4 + c]
                }
                output[i * 4 + c] = sum
            }
        }
    }
}
