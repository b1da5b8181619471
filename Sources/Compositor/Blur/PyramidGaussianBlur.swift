/// A large-σ Gaussian whose cost per pixel does not grow with σ: area-average the image down by an integer
/// factor f, blur the small image exactly with σ' = √(σ² − (f² − 1)/12) / f (the box average already
/// contributed variance (f² − 1)/12), and interpolate back up bilinearly.
///
/// Edges: the small grid extends beyond the image by more than the small kernel's radius, and those
/// margins are filled through the edge mode from the full-resolution pixels, so every edge mode behaves
/// as in the exact blur and the small image's own borders never reach the result.
///
/// Error: bilinear interpolation of a signal blurred by σ' small pixels errs by at most about
/// 7.7 / σ'² LSB on a full-range step; f is chosen so that σ' ≥ 3.3 (about 0.7 LSB). Measured against the
/// exact blur: PSNR 54–60 dB, max error 2 (see PyramidBlurTests).
public struct PyramidGaussianBlur: BlurredRows, @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// The downsampling factor.
    public let factor: Int
    /// The σ of the exact blur applied to the small image, in small pixels.
    public let smallSigma: Double
    let smallWidth: Int
    let smallHeight: Int
    /// Holds `small` and the taps; in use for as long as this blur lives.
    private let workspace: BlurWorkspace
    /// The blurred small image, premultiplied RGBA Floats on the 0...255 scale.
    private let small: UnsafeMutablePointer<Float>
    private let columnTaps: UnsafeMutablePointer<InterpolationTap>
    /// Each column's weight repeated for its four channels, so four pixels load as one SIMD16.
    private let columnWeights: UnsafeMutablePointer<Float>
    private let rowTaps: UnsafeMutablePointer<InterpolationTap>

    /// σ' is kept at or above this many small pixels.
    public static let minimumSmallSigma = 3.3

    /// The factor this route uses for σ; 1 means the pyramid would not shrink anything.
    public static func factor(forSigma sigma: Double) -> Int {
        max(1, Int(sigma / minimumSmallSigma))
    }

    private let kernels: any ConvolutionKernelSet.Type

    /// Blurs the whole of `source`, or the rectangle of it at (regionX, y) with the given size: the small
    /// grid is aligned to the image's origin either way, so a region's result equals the whole image's
    /// result cropped to it, to the bit.
    ///
    /// With `sourceScale` d > 1, `source` is the image already reduced d times (a JPEG decoded with libjpeg's
    /// DCT scaling, say) while σ, the region and the result stay in full-resolution pixels: each source pixel
    /// stands for a d×d block, f is made a multiple of d, and cells average (f/d)² source pixels.
    public init(
        source: Image, sigma: Double, edgeMode: EdgeMode = .mirror, threads: Int = Parallel.processorCount,
        kernels: any ConvolutionKernelSet.Type = Kernels.active, regionX: Int = 0, y regionY: Int = 0,
        width regionWidth: Int? = nil, height regionHeight: Int? = nil, sourceScale: Int = 1,
        workspace: BlurWorkspace = BlurWorkspace()
    ) {
        let scale = max(sourceScale, 1)
        let factor = max(scale, PyramidGaussianBlur.factor(forSigma: sigma) / scale * scale)
        self.init(
            sigma: sigma, factor: factor, threads: threads, kernels: kernels, regionX: regionX, y: regionY,
            width: regionWidth ?? source.width * scale, height: regionHeight ?? source.height * scale,
            workspace: workspace
        ) { grid, averaged in
            PyramidGaussianBlur.areaAverage(
                source, factor: factor / scale, firstColumn: grid.firstColumn, firstRow: grid.firstRow,
                smallWidth: grid.width, smallHeight: grid.height, edgeMode: edgeMode,
                threads: threads, into: averaged, workspace: workspace)
        }
    }

    /// The small grid's cells, in absolute cell indices: cell a covers full-resolution [a·f, (a + 1)·f).
    struct Grid {
        let firstColumn: Int
        let firstRow: Int
        let width: Int
        let height: Int
    }

    /// Lays out the grid for the region, lets `average` fill it (premultiplied RGBA Floats, cell by cell,
    /// margins included), blurs it and prepares the interpolation back up.
    init(
        sigma: Double, factor: Int, threads: Int, kernels: any ConvolutionKernelSet.Type, regionX: Int,
        y regionY: Int, width: Int, height: Int, workspace: BlurWorkspace,
        average: (Grid, UnsafeMutablePointer<Float>) -> Void
    ) {
        let smallSigma = (max(sigma * sigma - Double(factor * factor - 1) / 12, 0)).squareRoot() / Double(factor)
        let kernel = GaussianKernel(sigma: smallSigma)
        let margin = kernel.radius + 1
        self.width = width
        self.height = height
        self.factor = factor
        self.smallSigma = smallSigma
        self.kernels = kernels
        self.workspace = workspace
        // The grid starts `margin` cells before the region's first cell and ends `margin` cells after its last.
        let firstColumn = PyramidGaussianBlur.floorDivide(regionX, factor) - margin
        let firstRow = PyramidGaussianBlur.floorDivide(regionY, factor) - margin
        smallWidth = PyramidGaussianBlur.floorDivide(regionX + max(width, 1) - 1, factor) + margin + 1 - firstColumn
        smallHeight = PyramidGaussianBlur.floorDivide(regionY + max(height, 1) - 1, factor) + margin + 1 - firstRow
        let averaged = workspace.buffer(.smallAverage, count: smallWidth * smallHeight * 4, of: Float.self)
        average(Grid(firstColumn: firstColumn, firstRow: firstRow, width: smallWidth, height: smallHeight), averaged)
        small = workspace.buffer(.smallBlurred, count: smallWidth * smallHeight * 4, of: Float.self)
        SmallImageBlur.blur(
            averaged, width: smallWidth, height: smallHeight, kernel: kernel, threads: threads,
            kernels: kernels, into: small, workspace: workspace)
        columnTaps = workspace.buffer(.columnTaps, count: width, of: InterpolationTap.self)
        rowTaps = workspace.buffer(.rowTaps, count: height, of: InterpolationTap.self)
        InterpolationTap.write(first: regionX, count: width, factor: factor, firstCell: firstColumn, into: columnTaps)
        columnWeights = workspace.buffer(.columnWeights, count: width * 4, of: Float.self)
        for x in 0..<width {
            for c in 0..<4 { columnWeights[x * 4 + c] = columnTaps[x].weight }
        }
        InterpolationTap.write(first: regionY, count: height, factor: factor, firstCell: firstRow, into: rowTaps)
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    public var scratchCount: Int { smallWidth * 4 }

    /// Applies a per-pixel function to the small blurred image before it is interpolated up. For the smooth
    /// signal a wide blur leaves, shading then interpolating differs from interpolating then shading only by
    /// the function's curvature over one small pixel's change (measured in MaterialTests).
    func shadeSmallImage(_ shade: (UnsafeMutablePointer<Float>, Int) -> Void) {
        for j in 0..<smallHeight {
            shade(small + j * smallWidth * 4, smallWidth)
        }
    }

    /// Small pixel (i, j) averages the f×f block of full-resolution pixels starting at
    /// ((firstColumn + i)·f, (firstRow + j)·f), reading outside the image through the edge mode. Each small row first
    /// sums its f source rows into 32-bit lanes (a loop the compiler vectorises), then sums f columns.
    private static func areaAverage(
        _ source: Image, factor: Int, firstColumn: Int, firstRow: Int, smallWidth: Int,
        smallHeight: Int, edgeMode: EdgeMode, threads: Int,
        into small: UnsafeMutablePointer<Float>, workspace: BlurWorkspace
    ) {
        let columnOrigin = firstColumn * factor
        let origin = firstRow * factor
        let columnCount = smallWidth * factor
        let columnMap = workspace.buffer(.columnMap, count: columnCount, of: Int.self)
        for i in 0..<columnCount { columnMap[i] = edgeMode.sourceIndex(columnOrigin + i, count: source.width) }
        let rowValues = source.width * 4
        let sumsPerWorker = workspace.buffers(
            .sums, workers: Parallel.workers(smallHeight, threads: threads),
            count: rowValues, of: UInt32.self)
        let scale = 1 / Float(factor * factor)
        let shared = UncheckedSendable((small, columnMap))
        Parallel.forEach(smallHeight, threads: threads) { j, worker in
            let (small, columnMap) = shared.value
            let sums = sumsPerWorker[worker]
            sums.initialize(repeating: 0, count: rowValues)
            for dy in 0..<factor {
                let sourceY = edgeMode.sourceIndex(origin + j * factor + dy, count: source.height)
                guard sourceY >= 0 else { continue }
                let row = source.row(sourceY)
                for i in 0..<rowValues {
                    sums[i] &+= UInt32(row[i])
                }
            }
            let out = small + j * smallWidth * 4
            var column = 0
            for i in 0..<smallWidth {
                var r: UInt32 = 0
                var g: UInt32 = 0
                var b: UInt32 = 0
                var a: UInt32 = 0
                for _ in 0..<factor {
                    let sourceX = columnMap[column]
                    column += 1
                    guard sourceX >= 0 else { continue }
                    let p = sums + sourceX * 4
                    r &+= p[0]
                    g &+= p[1]
                    b &+= p[2]
                    a &+= p[3]
                }
                out[i * 4] = Float(r) * scale
                out[i * 4 + 1] = Float(g) * scale
                out[i * 4 + 2] = Float(b) * scale
                out[i * 4 + 3] = Float(a) * scale
            }
        }
    }

    public func fillRow(
        _ y: Int, into destination: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let rowTap = rowTaps[y]
        let rowWidth = smallWidth * 4
        let upper = small + rowTap.index * rowWidth
        kernels.interpolate(upper, upper + rowWidth, t: rowTap.weight, count: rowWidth, into: scratch)
        var x = 0
        while x < width {
            let tap = columnTaps[x]
            let left = UnsafeRawPointer(scratch + tap.index * 4).loadUnaligned(as: SIMD4<Float>.self)
            let right = UnsafeRawPointer(scratch + tap.index * 4 + 4).loadUnaligned(as: SIMD4<Float>.self)
            if x + 4 <= width && columnTaps[x + 3].index == tap.index {
                // Four pixels between the same two samples: one 16-lane step, same arithmetic per lane.
                let left4 = SIMD16(
                    lowHalf: SIMD8(lowHalf: left, highHalf: left), highHalf: SIMD8(lowHalf: left, highHalf: left))
                let right4 = SIMD16(
                    lowHalf: SIMD8(lowHalf: right, highHalf: right),
                    highHalf: SIMD8(lowHalf: right, highHalf: right))
                let weights = UnsafeRawPointer(columnWeights + x * 4).loadUnaligned(as: SIMD16<Float>.self)
                let value = left4 + weights * (right4 - left4)
                UnsafeMutableRawPointer(destination + x * 4).storeBytes(of: value, as: SIMD16<Float>.self)
                x += 4
            } else {
                let value = left + SIMD4(repeating: tap.weight) * (right - left)
                UnsafeMutableRawPointer(destination + x * 4).storeBytes(of: value, as: SIMD4<Float>.self)
                x += 1
            }
        }
    }
}

/// Where full-resolution position x falls between two small samples: sample `index` and `index + 1`,
/// mixed with `weight` of the second.
struct InterpolationTap: Sendable {
    let index: Int
    let weight: Float

    /// Absolute cell a is centred on full-resolution position a·f + (f − 1)/2; the small image's first cell
    /// is `firstCell`.
    static func write(
        first: Int, count: Int, factor: Int, firstCell: Int, into taps: UnsafeMutablePointer<InterpolationTap>
    ) {
        for i in 0..<count {
            let position = (Double(first + i) - Double(factor - 1) / 2) / Double(factor) - Double(firstCell)
            let index = Int(position.rounded(.down))
            taps[i] = InterpolationTap(index: index, weight: Float(position - Double(index)))
        }
    }
}

/// The exact separable blur of a small Float RGBA image, with clamped edges (the pyramid's margins keep them
/// away from anything that is used).
enum SmallImageBlur {
    static func blur(
        _ samples: UnsafeMutablePointer<Float>, width: Int, height: Int, kernel: GaussianKernel,
        threads: Int, kernels: any ConvolutionKernelSet.Type, into result: UnsafeMutablePointer<Float>,
        workspace: BlurWorkspace
    ) {
        let radius = kernel.radius
        let taps = kernel.weights.count
        let rowCount = width * 4
        let horizontal = workspace.buffer(.smallHorizontal, count: rowCount * height, of: Float.self)
        // Weights with three zeros on each side: the middle is the kernel, the whole is what combine4 reads.
        let padded = workspace.buffer(.weights, count: taps + 6, of: Float.self)
        PaddedWeights.write(kernel.weights, into: padded)
        let weights = padded + 3
        let workers = Parallel.workers(height, threads: threads)
        let lines = workspace.buffers(.line, workers: workers, count: (width + 2 * radius) * 4, of: Float.self)
        // Per worker: taps + 3 row pointers, then four output pointers.
        let rowPointers = workspace.buffers(
            .rowPointers, workers: workers, count: taps + 8, of: UnsafePointer<Float>.self)
        let shared = UncheckedSendable((samples, horizontal, result, weights))
        Parallel.forEach(height, threads: threads) { j, worker in
            let (samples, horizontal, _, weights) = shared.value
            let line = lines[worker]
            let row = samples + j * rowCount
            for i in 0..<(width + 2 * radius) {
                (line + i * 4).update(from: row + min(max(i - radius, 0), width - 1) * 4, count: 4)
            }
            kernels.convolve(
                line, step: 4, weights: UnsafeBufferPointer(start: weights, count: taps), count: rowCount,
                into: horizontal + j * rowCount)
        }
        // Vertical: four output rows per step (combine4), the last few one at a time.
        let steps = (height + 3) / 4
        let paddedWeights = UnsafeBufferPointer(start: UnsafePointer(padded), count: taps + 6)
        Parallel.forEach(steps, threads: threads) { step, worker in
            let (_, horizontal, result, weights) = shared.value
            let rows = rowPointers[worker]
            let first = step * 4
            let count = min(4, height - first)
            for k in 0..<(taps + count - 1) {
                rows[k] = UnsafePointer(horizontal + min(max(first + k - radius, 0), height - 1) * rowCount)
            }
            if count == 4 {
                let outputs = UnsafeMutableRawPointer(rows + taps + 3).bindMemory(
                    to: UnsafeMutablePointer<Float>.self,
                    capacity: 4)
                for r in 0..<4 { outputs[r] = result + (first + r) * rowCount }
                kernels.combine4(rows, paddedWeights: paddedWeights, count: rowCount, into: outputs)
            } else {
                for r in 0..<count {
                    kernels.combine(
                        rows + r, weights: UnsafeBufferPointer(start: weights, count: taps), count: rowCount,
                        into: result + (first + r) * rowCount)
                }
            }
        }
    }
}
