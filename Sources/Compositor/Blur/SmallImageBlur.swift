/// The exact separable blur of the pyramid's small grid, with clamped edges (the pyramid's margins keep them
/// away from anything that is used).
///
/// Only the result is ever whole. Each worker takes one band of result rows and keeps a ring of the 2r + 1 grid
/// rows its current row needs, bringing each in once from `cells`; the vertical pass sums the ring into a line
/// padded for the horizontal pass, which writes the result row. Fresh memory costs about as much to touch as to
/// compute on (the kernel zeroes every new page), so a ring in cache replaces two grid-sized buffers.
///
/// A row's value depends only on its index, never on the band it falls in: results are the same for every
/// thread count.
enum SmallImageBlur {
    static func blur(
        _ cells: some CellRows, width: Int, height: Int, kernel: GaussianKernel, threads: Int,
        kernels: any ConvolutionKernelSet.Type, workspace: BlurWorkspace, into result: UnsafeMutablePointer<Float>
    ) {
        let radius = kernel.radius
        let taps = kernel.weights.count
        let rowCount = width * 4
        let workers = Parallel.workers(height, threads: threads)
        let rings = workspace.buffers(.ring, workers: workers, count: min(taps, height) * rowCount, of: Float.self)
        // Per worker: where each ring slot's row is (a slot, or a row `cells` already had), then the taps' rows.
        let pointers = workspace.buffers(.rowPointers, workers: workers, count: 2 * taps, of: UnsafePointer<Float>.self)
        let lines = workspace.buffers(.line, workers: workers, count: (width + 2 * radius) * 4, of: Float.self)
        let weights = workspace.buffer(.weights, count: taps, of: Float.self)
        kernel.weights.withUnsafeBufferPointer { weights.update(from: $0.baseAddress!, count: taps) }
        let tapWeights = UnsafeBufferPointer(start: UnsafePointer(weights), count: taps)
        Parallel.forEach(workers, threads: threads) { band, worker in
            let ring = rings[worker]
            let slots = pointers[worker]
            let rows = slots + taps
            let line = lines[worker]
            // The ring holds rows next − taps ..< next; row a sits in slot a mod taps.
            var next = max(height * band / workers - radius, 0)
            for j in (height * band / workers)..<(height * (band + 1) / workers) {
                while next <= min(j + radius, height - 1) {
                    let slot = next % taps
                    slots[slot] = cells.row(next, worker: worker, scratch: ring + slot * rowCount)
                    next += 1
                }
                for k in 0..<taps { rows[k] = slots[min(max(j + k - radius, 0), height - 1) % taps] }
                kernels.combine(rows, weights: tapWeights, count: rowCount, into: line + radius * 4)
                for i in 0..<radius {
                    (line + i * 4).update(from: line + radius * 4, count: 4)
                    (line + (radius + width + i) * 4).update(from: line + (radius + width - 1) * 4, count: 4)
                }
                kernels.convolve(line, step: 4, weights: tapWeights, count: rowCount, into: result + j * rowCount)
            }
        }
    }
}
