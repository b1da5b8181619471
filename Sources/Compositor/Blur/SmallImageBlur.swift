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
        // Four result rows per step (`combine4`: four independent sums, each loaded row used four times) read
        // taps + 3 grid rows.
        let span = taps + 3
        let rowCount = width * 4
        let workers = Parallel.workers(height, threads: threads)
        let rings = workspace.buffers(.ring, workers: workers, count: min(span, height) * rowCount, of: Float.self)
        // Per worker: where each ring slot's row is (a slot, or a row `cells` already had), the rows a step
        // reads, and the four lines it writes.
        let pointers = workspace.buffers(
            .rowPointers, workers: workers, count: 2 * span + 4, of: UnsafePointer<Float>.self)
        let lines = workspace.buffers(.line, workers: workers, count: 4 * (width + 2 * radius) * 4, of: Float.self)
        let padded = workspace.buffer(.weights, count: taps + 6, of: Float.self)
        PaddedWeights.write(kernel.weights, into: padded)
        let paddedWeights = UnsafeBufferPointer(start: UnsafePointer(padded), count: taps + 6)
        let weights = UnsafeBufferPointer(start: UnsafePointer(padded + 3), count: taps)
        Parallel.forEach(workers, threads: threads) { band, worker in
            let ring = rings[worker]
            let slots = pointers[worker]
            let rows = slots + span
            let outputs = UnsafeMutableRawPointer(rows + span).bindMemory(
                to: UnsafeMutablePointer<Float>.self, capacity: 4)
            let lineCount = (width + 2 * radius) * 4
            for r in 0..<4 { outputs[r] = lines[worker] + r * lineCount + radius * 4 }
            let end = height * (band + 1) / workers
            var j = height * band / workers
            // The ring holds rows next − span ..< next; row a sits in slot a mod span.
            var next = max(j - radius, 0)
            while j < end {
                let count = min(4, end - j)
                while next <= min(j + count - 1 + radius, height - 1) {
                    let slot = next % span
                    slots[slot] = cells.row(next, worker: worker, scratch: ring + slot * rowCount)
                    next += 1
                }
                for k in 0..<(taps + count - 1) { rows[k] = slots[min(max(j + k - radius, 0), height - 1) % span] }
                if count == 4 {
                    kernels.combine4(rows, paddedWeights: paddedWeights, count: rowCount, into: outputs)
                } else {
                    for r in 0..<count {
                        kernels.combine(rows + r, weights: weights, count: rowCount, into: outputs[r])
                    }
                }
                for r in 0..<count {
                    let line = outputs[r] - radius * 4
                    for i in 0..<radius {
                        (line + i * 4).update(from: line + radius * 4, count: 4)
                        (line + (radius + width + i) * 4).update(from: line + (radius + width - 1) * 4, count: 4)
                    }
                    kernels.convolve(
                        line, step: 4, weights: weights, count: rowCount, into: result + (j + r) * rowCount)
                }
                j += count
            }
        }
    }
}
