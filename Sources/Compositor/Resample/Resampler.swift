/// Separable resizing of premultiplied images (a pure scale, the common case of an affine warp): each
/// needed source row is resampled horizontally into Floats, then each output row is a weighted sum of those
/// rows (the SIMD `combine` kernel), then rounded. Output is bit-identical for every thread count.
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
    public func resize(_ source: Image, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
                       width: Int, height: Int, workspace: BlurWorkspace = BlurWorkspace()) -> Image {
        let result = Image(uninitializedWidth: width, height: height)
        resize(source, crop: crop, into: result, workspace: workspace)
        return result
    }

    public func resize(_ source: Image, crop: (x: Double, y: Double, width: Double, height: Double)? = nil,
                       into destination: Image, workspace: BlurWorkspace = BlurWorkspace()) {
        let crop = crop ?? (0, 0, Double(source.width), Double(source.height))
        let width = destination.width, height = destination.height
        guard width > 0, height > 0, source.width > 0, source.height > 0 else { return }
        let columns = ResampleWeights(filter: filter, sourceCount: source.width, start: crop.x, length: crop.width,
                                      count: width)
        let rows = ResampleWeights(filter: filter, sourceCount: source.height, start: crop.y, length: crop.height,
                                   count: height)
        // The source rows any output row reads.
        let firstRow = rows.first.min()!, lastRow = min(source.height - 1, rows.first.max()! + rows.taps - 1)
        let rowValues = width * 4
        let horizontal = workspace.buffer(.resizeRows, count: (lastRow - firstRow + 1) * rowValues, of: Float.self)
        let shared = UncheckedSendable(horizontal)
        columns.first.withUnsafeBufferPointer { first in
            columns.weights.withUnsafeBufferPointer { weights in
                Parallel.forEach(lastRow - firstRow + 1, threads: threads) { index, _ in
                    Resampler.resampleRow(source.row(firstRow + index), sourceWidth: source.width, first: first,
                                          weights: weights, taps: columns.taps,
                                          into: shared.value + index * rowValues)
                }
            }
        }
        let workers = Parallel.workers(height, threads: threads)
        let pointers = workspace.buffers(.resizeRowPointers, workers: workers, count: rows.taps, of: UnsafePointer<Float>.self)
        let outputs = workspace.buffers(.resizeOutput, workers: workers, count: rowValues, of: Float.self)
        rows.weights.withUnsafeBufferPointer { weights in
            Parallel.forEach(height, threads: threads) { y, worker in
                let rowPointers = pointers[worker]
                for k in 0..<rows.taps {
                    let sourceRow = min(rows.first[y] + k, lastRow) - firstRow  // zero-weight taps past the end
                    rowPointers[k] = UnsafePointer(shared.value + sourceRow * rowValues)
                }
                let rowWeights = UnsafeBufferPointer(rebasing: weights[(y * rows.taps)..<((y + 1) * rows.taps)])
                kernels.combine(rowPointers, weights: rowWeights, count: rowValues, into: outputs[worker])
                Quantizer().quantize(outputs[worker], count: width, into: destination.row(y), y: y)
            }
        }
    }

    /// One row: output pixel i = Σₖ weights[i·taps + k] · source[first[i] + k], four channels at once.
    static func resampleRow(_ row: UnsafeMutablePointer<UInt8>, sourceWidth: Int, first: UnsafeBufferPointer<Int>,
                            weights: UnsafeBufferPointer<Float>, taps: Int, into output: UnsafeMutablePointer<Float>) {
        for i in 0..<first.count {
            var sum = SIMD4<Float>(repeating: 0)
            let start = first[i]
            for k in 0..<min(taps, sourceWidth - start) {
                let p = row + (start + k) * 4
                let pixel = SIMD4<Float>(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
                sum = sum + SIMD4(repeating: weights[i * taps + k]) * pixel
            }
            UnsafeMutableRawPointer(output + i * 4).storeBytes(of: sum, as: SIMD4<Float>.self)
        }
    }

    /// The same sums one channel at a time: the twin the tests compare `resampleRow` with.
    static func resampleRowReference(_ row: UnsafeMutablePointer<UInt8>, sourceWidth: Int,
                                     first: UnsafeBufferPointer<Int>, weights: UnsafeBufferPointer<Float>, taps: Int,
                                     into output: UnsafeMutablePointer<Float>) {
        for i in 0..<first.count {
            for c in 0..<4 {
                var sum: Float = 0
                for k in 0..<min(taps, sourceWidth - first[i]) {
                    sum = sum + weights[i * taps + k] * Float(row[(first[i] + k) * 4 + c])
                }
                output[i * 4 + c] = sum
            }
        }
    }
}
