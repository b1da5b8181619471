/// A large-σ Gaussian whose cost per pixel does not grow with σ: area-average the image down by an integer
/// factor f, blur the small image exactly with σ' = √(σ² − (f² − 1)/12) / f (the box average already
/// contributed variance (f² − 1)/12), and interpolate back up: with Catmull-Rom cubics (four small samples
/// across, four down) below σ 20, linearly above.
///
/// Edges: the small grid extends beyond the image by more than the small kernel's radius, and those
/// margins are filled through the edge mode from the full-resolution pixels, so every edge mode behaves
/// as in the exact blur and the small image's own borders never reach the result.
///
/// Error: interpolation is what limits f. Linear interpolation of a signal blurred by σ' small pixels errs by
/// about 7.7 / σ'² LSB on a full-range step, so it needs σ' ≥ 3.3; Catmull-Rom at σ' ≥ 2 errs less (on the
/// apples photo before rounding, σ 10/30/100/200: 0.70/0.45/0.54/0.56 LSB against 0.70/0.71/1.45/1.23 for
/// linear at σ' 3.3). Cost decides between them: σ' 2 lets f grow by 1.65, so the small image has 2.7× fewer
/// pixels and its kernel 40% fewer taps, but each output row mixes four upsampled rows instead of two. Where the
/// small blur dominates the cost (below σ 20; more so with rows rounded in groups, `MixedRowGroup`) cubics win;
/// at σ 30 and up the small image is already cheap, the four-row mix dominates and linear wins. Measured
/// against the exact blur: PSNR 50–63 dB (transparent edges lowest), max error 2 (see PyramidBlurTests).
struct PyramidGaussianBlur: BlurredRows, @unchecked Sendable {
    let width: Int
    let height: Int
    /// The downsampling factor.
    let factor: Int
    /// The σ of the exact blur applied to the small image, in small pixels.
    let smallSigma: Double
    /// Holds the tables; in use for as long as this blur lives.
    private let workspace: Workspace
    /// The blurred small image (premultiplied RGBA Floats on the 0...255 scale), made row by row as rows are
    /// filled: all the work happens then, on the threads that render.
    private var small: SmallImageBlur
    private let columns: UpsampleColumns
    private let rowTaps: UnsafeMutablePointer<InterpolationTap>
    /// Each row's interpolation weights, contiguous for `MixedRowGroup`.
    private let rowWeights: UnsafeMutablePointer<SIMD4<Float>>

    /// How small samples are interpolated back up to pixels.
    enum Interpolation: Sendable {
        case linear, cubic

        /// σ' is kept at or above this many small pixels.
        var minimumSmallSigma: Double { self == .cubic ? 2 : 3.3 }
    }

    /// Below this σ the exact route is faster (`BlurPrecision`), and the pyramid is not used.
    static let minimumSigma = 6.6

    /// Cubics below this σ, where they make the blur faster (see the error and cost notes above).
    static let cubicBelowSigma = 20.0

    /// The interpolation for σ (taken through `GaussianKernel.usableSigma`, as every σ here).
    static func interpolation(forSigma sigma: Double) -> Interpolation {
        GaussianKernel.usableSigma(sigma) < cubicBelowSigma ? .cubic : .linear
    }

    /// The σ left for the small image once a factor's box average has contributed its variance, in small pixels.
    static func smallSigma(sigma: Double, factor: Int) -> Double {
        (max(sigma * sigma - Double(factor * factor - 1) / 12, 0)).squareRoot() / Double(factor)
    }

    /// Grid cells read beyond a region's cells: the small kernel's radius, and interpolation reads one small
    /// sample before and two after the one at or left of a pixel.
    static func margin(smallKernelRadius radius: Int) -> Int { radius + 2 }

    /// How far beyond a region, in pixels along each axis, the pixels its result depends on may lie: the
    /// grid's margin of cells and the cells' alignment to the canvas origin.
    static func reach(forSigma sigma: Double) -> Int {
        let sigma = GaussianKernel.usableSigma(sigma)
        let factor = self.factor(forSigma: sigma)
        let radius = GaussianKernel.radius(forSigma: smallSigma(sigma: sigma, factor: factor))
        return (margin(smallKernelRadius: radius) + 2) * factor
    }

    /// The factor this route uses for σ; 1 means the pyramid is not used (NaN and σ ≤ 0 too). At most 3030,
    /// for `GaussianKernel.maximumSigma`.
    static func factor(forSigma sigma: Double) -> Int {
        let sigma = GaussianKernel.usableSigma(sigma)
        return sigma < minimumSigma ? 1 : max(1, Int(sigma / interpolation(forSigma: sigma).minimumSmallSigma))
    }

    let interpolation: Interpolation

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
    init(
        source: Image, sigma: Double, edgeMode: EdgeMode = .mirror,
        kernels: any ConvolutionKernelSet.Type = Kernels.active, regionX: Int = 0, y regionY: Int = 0,
        width regionWidth: Int? = nil, height regionHeight: Int? = nil, sourceScale: Int = 1,
        workspace: Workspace = Workspace()
    ) {
        let scale = max(sourceScale, 1)
        let factor = max(scale, PyramidGaussianBlur.factor(forSigma: sigma) / scale * scale)
        self.init(
            sigma: sigma, factor: factor, kernels: kernels, regionX: regionX, y: regionY,
            width: regionWidth ?? source.width * scale, height: regionHeight ?? source.height * scale,
            workspace: workspace
        ) { grid in
            .averaged(AreaAverage(
                source, factor: factor / scale, firstColumn: grid.firstColumn, firstRow: grid.firstRow,
                width: grid.width, edgeMode: edgeMode, kernels: Kernels.pyramid(matching: kernels),
                workspace: workspace))
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
        width: Int, height: Int, workspace: Workspace, cells: (Grid) -> GridCells
    ) {
        let sigma = GaussianKernel.usableSigma(sigma)
        let smallSigma = PyramidGaussianBlur.smallSigma(sigma: sigma, factor: factor)
        let kernel = workspace.gaussianKernel(sigma: smallSigma)
        interpolation = PyramidGaussianBlur.interpolation(forSigma: sigma)
        let margin = PyramidGaussianBlur.margin(smallKernelRadius: kernel.radius)
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
        InterpolationTap.write(
            first: regionX, count: width, factor: factor, firstCell: firstColumn, interpolation: interpolation,
            into: columnTaps)
        let columnFractions = workspace.buffer(.columnFractions, count: width * 4, of: Float.self)
        for x in 0..<width {
            for c in 0..<4 { columnFractions[x * 4 + c] = columnTaps[x].t }
        }
        let groups = workspace.buffer(.columnGroups, count: width / 4, of: Int32.self)
        UpsampleColumns.writeGroups(columnTaps, count: width, into: groups)
        columns = UpsampleColumns(
            count: width, taps: columnTaps, fractions: columnFractions, groups: groups, interpolation: interpolation)
        rowTaps = workspace.buffer(.rowTaps, count: height, of: InterpolationTap.self)
        InterpolationTap.write(
            first: regionY, count: height, factor: factor, firstCell: firstRow, interpolation: interpolation,
            into: rowTaps)
        rowWeights = workspace.buffer(.rowWeights, count: height, of: SIMD4<Float>.self)
        for y in 0..<height { rowWeights[y] = rowTaps[y].weights }
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// Four small rows upsampled to full width, and the small blur's ring (bytes, counted in Floats).
    var scratchCount: Int {
        (ScratchCarver.bytes(4 * width * 4, of: Float.self) + small.scratchBytes + 3) / 4
    }

    /// Applies a per-pixel function to each row of the small blurred image before it is interpolated up. For
    /// the smooth signal a wide blur leaves, shading then interpolating differs from interpolating then shading
    /// only by the function's curvature over one small pixel's change (measured in MaterialTests).
    mutating func shadeSmallImage(with shader: MaterialShader) {
        small.shader = shader
    }

    /// Row y mixes four small rows (two, linearly), each first upsampled across: the per-pixel work of the
    /// horizontal step is then done once per small row (f times less), and the vertical step is a plain mix. A
    /// row alone costs the small rows it needs, each made from 2r + 1 grid rows: fill runs of rows with
    /// `fillRows`.
    func fillRow(
        _ y: Int, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        fillRows(y..<(y + 1), into: destination, scratch: scratch) { _, row in
            row.write(count: width * 4, into: destination)
        }
    }

    /// Makes the small rows the run needs once each, upsamples each across once, and hands each row on as the
    /// mix of the upsampled rows around it. `scratch` is raw memory here, cut into the pieces it holds.
    func fillRows(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRow) -> Void
    ) {
        fillRowGroups(rows, into: destination, scratch: scratch) { first, group in
            for r in 0..<group.count { body(first + r, group[r]) }
        }
    }

    /// `fillRows` a group at a time: the rows between the same two small rows (f of them, or fewer at a run's
    /// ends) mix the same upsampled rows.
    func fillRowGroups(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRowGroup) -> Void
    ) {
        guard !rows.isEmpty else { return }
        var carver = ScratchCarver(UnsafeMutableRawPointer(scratch))
        let upsampled = carver.take(4 * width * 4, of: Float.self)
        /// Small row k, upsampled, lives in slot k mod 4 while it is one of the four in use.
        func slot(_ k: Int) -> UnsafePointer<Float> { UnsafePointer(upsampled + (k & 3) * width * 4) }
        var stream = small.stream(smallRows(mixedBy: rows), scratch: carver.rest)
        let reach = smallRows(mixedBy: 0)
        var held = Int.min..<Int.min
        var y = rows.lowerBound
        while y < rows.upperBound {
            let index = rowTaps[y].index
            var end = y + 1
            while end < rows.upperBound && rowTaps[end].index == index { end += 1 }
            let wanted = (index + reach.lowerBound)...(index + reach.upperBound)
            // Rows increase, so the rows already held are the first ones wanted, if any.
            for k in max(wanted.lowerBound, held.upperBound)...wanted.upperBound {
                upsample(stream.row(k), into: upsampled + (k & 3) * width * 4)
            }
            held = wanted.lowerBound..<(wanted.upperBound + 1)
            // Linear weights are (0, 1 − t, t, 0): rows i and i + 1 in the middle.
            let sources = (slot(index - 1), slot(index), slot(index + 1), slot(index + 2))
            body(y, MixedRowGroup(sources, weights: UnsafeBufferPointer(start: rowWeights + y, count: end - y)))
            y = end
        }
    }

    /// The small rows, relative to a tap's index, that a row mixes.
    private func smallRows(mixedBy tapIndex: Int) -> ClosedRange<Int> {
        interpolation == .cubic ? (tapIndex - 1)...(tapIndex + 2) : tapIndex...(tapIndex + 1)
    }

    /// The small rows that output rows `rows` (not empty) mix.
    private func smallRows(mixedBy rows: Range<Int>) -> ClosedRange<Int> {
        smallRows(mixedBy: rowTaps[rows.lowerBound].index)
            .lowerBound...smallRows(mixedBy: rowTaps[rows.upperBound - 1].index).upperBound
    }

    /// The grid rows that neighbouring bands would both bring in (2r + 2 around each boundary: at σ 100 on 12 MP,
    /// over half of a ~100-row grid's work between two bands) are made once, by the band that needs them first.
    func prepared(forBands bands: Int, workspace: Workspace) -> PyramidGaussianBlur {
        var prepared = self
        prepared.small.shareCellRows(
            among: bands, blurredRows: { smallRows(mixedBy: band($0, of: bands)) }, workspace: workspace)
        return prepared
    }

    /// Bands of equal work. A band makes the grid rows from its first small row's reach down to the next band's
    /// (the rows it shares with the band above were made there first, see `SharedCellRows`), each one f source
    /// rows read, and writes its output rows; reading a source row and writing an output row cost about the
    /// same (measured at σ 30, where the other work is smallest). So the first band takes about f·r/2 rows more
    /// than the others, and each band is at least one row.
    func band(_ index: Int, of bands: Int) -> Range<Int> {
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

/// Where full-resolution position x falls between two small samples, `index` and `index + 1` (fraction t of
/// the way), and the weights of samples index − 1 ... index + 2 there.
struct InterpolationTap: Sendable {
    let index: Int
    let t: Float
    let weights: SIMD4<Float>

    /// Absolute cell a is centred on full-resolution position a·f + (f − 1)/2; the small image's first cell
    /// is `firstCell`.
    static func write(
        first: Int, count: Int, factor: Int, firstCell: Int, interpolation: PyramidGaussianBlur.Interpolation,
        into taps: UnsafeMutablePointer<InterpolationTap>
    ) {
        for i in 0..<count {
            let position = (Double(first + i) - Double(factor - 1) / 2) / Double(factor) - Double(firstCell)
            let index = Int(position.rounded(.down))
            let t = Float(position - Double(index))
            taps[i] = InterpolationTap(index: index, t: t, weights: interpolation.weights(at: t))
        }
    }
}

extension PyramidGaussianBlur.Interpolation {
    /// The weights of samples i − 1 ... i + 2 at fraction t of the way from sample i to i + 1: linear ones
    /// (0, 1 − t, t, 0), or the cubic convolution of Keys with a = −0.5 (Catmull-Rom: exact for quadratics,
    /// (0, 1, 0, 0) at t = 0, summing to 1 to within rounding). `SIMDKernels.upsample` computes them lane by
    /// lane with the same operations (`weights(atLanes:)`), so the kernel twins agree to the bit.
    func weights(at t: Float) -> SIMD4<Float> {
        guard self == .cubic else { return SIMD4(0, 1 - t, t, 0) }
        let half = t * 0.5
        return SIMD4(
            half * ((2 - t) * t - 1), (t * t * (3 * t - 5) + 2) * 0.5, half * ((4 - 3 * t) * t + 1), half * t * (t - 1))
    }

    /// `weights(at:)` for 16 fractions at once.
    @inline(__always)
    func weights(atLanes t: SIMD16<Float>) -> (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>) {
        guard self == .cubic else { return (SIMD16(), 1 - t, t, SIMD16()) }
        let half = t * 0.5
        return (
            half * ((2 - t) * t - 1), (t * t * (3 * t - 5) + 2) * 0.5, half * ((4 - 3 * t) * t + 1), half * t * (t - 1)
        )
    }
}
