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
    /// Holds the tables; in use for as long as this blur lives.
    private let workspace: BlurWorkspace
    /// The blurred small image (premultiplied RGBA Floats on the 0...255 scale), made row by row as rows are
    /// filled: all the work happens then, on the threads that render.
    private var small: SmallImageBlur
    private let columns: UpsampleColumns
    private let rowTaps: UnsafeMutablePointer<InterpolationTap>

    /// σ' is kept at or above this many small pixels.
    public static let minimumSmallSigma = 3.3

    /// The factor this route uses for σ; 1 means the pyramid would not shrink anything.
    public static func factor(forSigma sigma: Double) -> Int {
        max(1, Int(sigma / minimumSmallSigma))
    }

    private let kernels: any ConvolutionKernelSet.Type
    private let pyramidKernels: any PyramidKernelSet.Type

    /// Blurs the whole of `source`, or the rectangle of it at (regionX, y) with the given size: the small
    /// grid is aligned to the image's origin either way, so a region's result equals the whole image's
    /// result cropped to it, to the bit. The work is done as rows are filled (`render`, `fillRows`), with the
    /// threads given there: `source` is read then, so it must not change before (nor be the image rendered
    /// into; `GaussianBlur.apply` copies a source it blurs in place).
    ///
    /// With `sourceScale` d > 1, `source` is the image already reduced d times (a JPEG decoded with libjpeg's
    /// DCT scaling, say) while σ, the region and the result stay in full-resolution pixels: each source pixel
    /// stands for a d×d block, f is made a multiple of d, and cells average (f/d)² source pixels.
    public init(
        source: Image, sigma: Double, edgeMode: EdgeMode = .mirror,
        kernels: any ConvolutionKernelSet.Type = Kernels.active, regionX: Int = 0, y regionY: Int = 0,
        width regionWidth: Int? = nil, height regionHeight: Int? = nil, sourceScale: Int = 1,
        workspace: BlurWorkspace = BlurWorkspace()
    ) {
        let scale = max(sourceScale, 1)
        let factor = max(scale, PyramidGaussianBlur.factor(forSigma: sigma) / scale * scale)
        self.init(
            sigma: sigma, factor: factor, kernels: kernels, regionX: regionX, y: regionY,
            width: regionWidth ?? source.width * scale, height: regionHeight ?? source.height * scale,
            workspace: workspace
        ) { grid in
            AreaAverage(
                source, factor: factor / scale, firstColumn: grid.firstColumn, firstRow: grid.firstRow,
                width: grid.width, edgeMode: edgeMode, kernels: Kernels.pyramid(matching: kernels),
                workspace: workspace)
        }
    }

    /// The small grid's cells, in absolute cell indices: cell a covers full-resolution [a·f, (a + 1)·f).
    struct Grid {
        let firstColumn: Int
        let firstRow: Int
        let width: Int
        let height: Int
    }

    /// Lays out the grid for the region and prepares to blur the cell rows `cells` gives it (premultiplied RGBA
    /// Floats, cell by cell, margins included) and to interpolate back up.
    init(
        sigma: Double, factor: Int, kernels: any ConvolutionKernelSet.Type, regionX: Int, y regionY: Int,
        width: Int, height: Int, workspace: BlurWorkspace, cells: (Grid) -> some CellRows
    ) {
        let smallSigma = (max(sigma * sigma - Double(factor * factor - 1) / 12, 0)).squareRoot() / Double(factor)
        let kernel = GaussianKernel(sigma: smallSigma)
        let margin = kernel.radius + 1
        self.width = width
        self.height = height
        self.factor = factor
        self.smallSigma = smallSigma
        self.kernels = kernels
        pyramidKernels = Kernels.pyramid(matching: kernels)
        self.workspace = workspace
        // The grid starts `margin` cells before the region's first cell and ends `margin` cells after its last.
        let firstColumn = PyramidGaussianBlur.floorDivide(regionX, factor) - margin
        let firstRow = PyramidGaussianBlur.floorDivide(regionY, factor) - margin
        let smallWidth = PyramidGaussianBlur.floorDivide(regionX + max(width, 1) - 1, factor) + margin + 1 - firstColumn
        let smallHeight = PyramidGaussianBlur.floorDivide(regionY + max(height, 1) - 1, factor) + margin + 1 - firstRow
        let grid = Grid(firstColumn: firstColumn, firstRow: firstRow, width: smallWidth, height: smallHeight)
        small = SmallImageBlur(
            cells(grid), width: smallWidth, height: smallHeight, kernel: kernel, kernels: kernels, workspace: workspace)
        let columnTaps = workspace.buffer(.columnTaps, count: width, of: InterpolationTap.self)
        InterpolationTap.write(first: regionX, count: width, factor: factor, firstCell: firstColumn, into: columnTaps)
        let columnWeights = workspace.buffer(.columnWeights, count: width * 4, of: Float.self)
        for x in 0..<width {
            for c in 0..<4 { columnWeights[x * 4 + c] = columnTaps[x].weight }
        }
        let groups = workspace.buffer(.columnGroups, count: width / 4, of: Int32.self)
        UpsampleColumns.writeGroups(columnTaps, count: width, into: groups)
        columns = UpsampleColumns(count: width, taps: columnTaps, weights: columnWeights, groups: groups)
        rowTaps = workspace.buffer(.rowTaps, count: height, of: InterpolationTap.self)
        InterpolationTap.write(first: regionY, count: height, factor: factor, firstCell: firstRow, into: rowTaps)
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Two small rows upsampled to full width, and the small blur's ring (bytes, counted in Floats).
    public var scratchCount: Int {
        (ScratchCarver.bytes(2 * width * 4, of: Float.self) + small.scratchBytes + 3) / 4
    }

    /// Applies a per-pixel function to each row of the small blurred image before it is interpolated up. For
    /// the smooth signal a wide blur leaves, shading then interpolating differs from interpolating then shading
    /// only by the function's curvature over one small pixel's change (measured in MaterialTests).
    mutating func shadeSmallImage(_ shade: @escaping @Sendable (UnsafeMutablePointer<Float>, Int) -> Void) {
        small.shade = shade
    }

    /// Row y mixes two small rows, each first upsampled across: the per-pixel work of the horizontal step is then
    /// done once per small row (f times less), and the vertical step is a plain mix of two rows. A row alone
    /// costs the small rows it needs, each made from 2r + 1 grid rows: fill runs of rows with `fillRows`.
    public func fillRow(
        _ y: Int, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        fillRows(y..<(y + 1), into: destination, scratch: scratch) { _, row in
            row.write(count: width * 4, into: destination)
        }
    }

    /// Makes the small rows the run needs once each, upsamples each across once, and hands each row on as the
    /// mix of the two upsampled rows around it. `scratch` is raw memory here, cut into the pieces it holds.
    public func fillRows(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRow) -> Void
    ) {
        guard !rows.isEmpty else { return }
        var carver = ScratchCarver(UnsafeMutableRawPointer(scratch))
        var upper = carver.take(2 * width * 4, of: Float.self)
        var lower = upper + width * 4
        var stream = small.stream(smallRows(mixedBy: rows), scratch: carver.rest)
        var upperIndex = Int.min
        for y in rows {
            let tap = rowTaps[y]
            if tap.index != upperIndex {
                if tap.index == upperIndex + 1 {
                    swap(&upper, &lower)
                } else {
                    upsample(stream.row(tap.index), into: upper)
                }
                upsample(stream.row(tap.index + 1), into: lower)
                upperIndex = tap.index
            }
            body(y, MixedRow(upper: upper, lower: lower, t: tap.weight))
        }
    }

    /// The small rows that output rows `rows` (not empty) mix.
    private func smallRows(mixedBy rows: Range<Int>) -> ClosedRange<Int> {
        rowTaps[rows.lowerBound].index...(rowTaps[rows.upperBound - 1].index + 1)
    }

    /// The grid rows that neighbouring bands would both bring in (2r + 2 around each boundary: at σ 100 on 12 MP,
    /// over half of a ~100-row grid's work between two bands) are made once, by the band that needs them first.
    public func prepared(forBands bands: Int, workspace: BlurWorkspace) -> PyramidGaussianBlur {
        var prepared = self
        prepared.small.shareCellRows(
            among: bands, blurredRows: { smallRows(mixedBy: band($0, of: bands)) }, workspace: workspace)
        return prepared
    }

    /// Bands of equal work. A band makes the grid rows from its first small row's reach down to the next band's
    /// (the rows it shares with the band above were made there first, see `SharedCellRows`), each one f source
    /// rows read, and writes its output rows; reading a source row and writing an output row cost about the
    /// same (3.4 and 4.2 ms for all of them at σ 30 on 12 MP). So the first band takes about f·r/2 rows more
    /// than the others, and each band is at least one row.
    public func band(_ index: Int, of bands: Int) -> Range<Int> {
        start(ofBand: index, of: bands)..<start(ofBand: index + 1, of: bands)
    }

    private func start(ofBand index: Int, of bands: Int) -> Int {
        guard index > 0 else { return 0 }
        guard index < bands else { return height }
        let target = (factor * small.height + height) * index / bands
        var low = 0
        var high = height
        while low < high {
            let middle = (low + high) / 2
            if workAbove(middle) >= target { high = middle } else { low = middle + 1 }
        }
        return min(max(low, index), height - bands + index)
    }

    /// The work of the bands above one that starts at row y: the grid rows above what it reads, and y rows.
    private func workAbove(_ y: Int) -> Int {
        let firstSmallRow = rowTaps[y].index
        return factor * small.cellRows(readBy: firstSmallRow...firstSmallRow).lowerBound + y
    }

    private func upsample(_ smallRow: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        pyramidKernels.upsample(smallRow, columns: columns, into: output)
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
