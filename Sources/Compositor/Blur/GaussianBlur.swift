import Dispatch

/// Which Gaussian route to use.
///
/// `fast` and `auto` make the same choice today: the pyramid from σ 6.6 px up (`PyramidGaussianBlur`). A
/// coarser pyramid below that was measured (while its small grids were still whole Float buffers, at f = 2 as
/// large as the image) and was slower than the exact engine there at every σ tried, so both take the exact
/// route below it.
public enum BlurPrecision: String, CaseIterable, Sendable {
    /// The direct convolution up to σ `GaussianBlur.maximumExactSigma` (cost grows with σ); above it the pyramid
    /// route too, so that no σ can make a blur run for minutes.
    case exact
    /// The pyramid route wherever it applies (σ ≥ 6.6 px): cost independent of σ, within the error stated by
    /// `PyramidGaussianBlur`; below that the exact route, which is then also the faster one.
    case fast
    /// Exact below σ 6.6 px, the pyramid above.
    case auto
}

/// A Gaussian blur with σ (standard deviation, in pixels) as its one unit, on premultiplied images.
public struct GaussianBlur: Sendable {
    /// Any value is accepted and none traps: NaN and σ ≤ 0 give no blur (a copy), σ above
    /// `GaussianKernel.maximumSigma` (+∞ too) blurs as that σ (`GaussianKernel.usableSigma`).
    public var sigma: Double
    public var edgeMode: EdgeMode
    public var precision: BlurPrecision
    /// At most this many threads (default: every core); results are identical for every count.
    public var threads: Int

    public init(
        sigma: Double, edgeMode: EdgeMode = .mirror, precision: BlurPrecision = .auto,
        threads: Int = Parallel.processorCount
    ) {
        self.sigma = sigma
        self.edgeMode = edgeMode
        self.precision = precision
        self.threads = threads
    }

    /// The widest σ the direct convolution takes, in pixels (radius 400): above it every precision takes the
    /// pyramid route (PSNR 50–63 dB against the direct blur, cost independent of σ). The direct blur's cost grows
    /// with σ, so a request for an absurd σ would otherwise run for minutes.
    public static let maximumExactSigma = 100.0

    /// How many pixels along each axis the pyramid route averages into one cell (1 on the direct route):
    /// detail finer than that cannot show in the result, so a caller may resample the picture more cheaply.
    public var reductionFactor: Int { usesPyramid ? PyramidGaussianBlur.factor(forSigma: sigma) : 1 }

    /// How far beyond a region its blurred pixels may read, in pixels along each axis (so pixels changed farther
    /// away leave a region's result as it was); nil when any pixel may count (wrapped edges read the far side).
    package var reach: Int? {
        guard edgeMode != .wrap else { return nil }
        let sigma = GaussianKernel.usableSigma(self.sigma)
        guard sigma > 0 else { return 0 }
        return usesPyramid ? PyramidGaussianBlur.reach(forSigma: sigma) : GaussianKernel.radius(forSigma: sigma)
    }

    /// Whether `precision` resolves to the pyramid route for this σ.
    public var usesPyramid: Bool {
        PyramidGaussianBlur.factor(forSigma: sigma) > 1
            && (precision != .exact || GaussianKernel.usableSigma(sigma) > GaussianBlur.maximumExactSigma)
    }

    /// Which convolution loops to run: SIMD, or the scalar twins (`Kernels.active` honours
    /// `BLURTOOL_KERNELS=reference`).
    @_spi(Benchmarks) public var kernels: any ConvolutionKernelSet.Type = Kernels.active

    /// The blurred rows of `source` as Floats, for stages that work before quantising (materials): the pyramid's,
    /// or the exact engine's Float route (`SeparableBlurRows`), both made as they are filled by the threads that
    /// render, neither holding the image in Float. `source` must not change while the rows are in use, and
    /// `workspace` is in use for as long as they live.
    func rows(of source: Image, workspace: Workspace = Workspace()) -> any BlurredRows {
        if usesPyramid {
            return PyramidGaussianBlur(
                source: source, sigma: sigma, edgeMode: edgeMode, kernels: kernels, workspace: workspace)
        }
        return SeparableBlurRows(source: source, engine: engine(workspace), workspace: workspace)
    }

    /// A new blurred image of the same size.
    public func apply(to source: Image, workspace: Workspace = Workspace()) -> Image {
        let result = Image(uninitializedWidth: source.width, height: source.height)
        apply(to: source, into: result, workspace: workspace)
        return result
    }

    /// Blurs `source` into `destination` (same size; it may be `source` itself).
    public func apply(to source: Image, into destination: Image, workspace: Workspace = Workspace()) {
        precondition(destination.width == source.width && destination.height == source.height, "sizes differ")
        apply(to: source, regionX: 0, y: 0, into: destination, workspace: workspace)
    }

    /// Blurs the rectangle of `source` at (x, y) with `destination`'s size, reading the pixels around it
    /// (and, past the image's edges, the edge mode) as a backdrop filter does, so the result equals the
    /// whole-image blur cropped to the rectangle: no seam where a panel meets the rest of the screen.
    /// `destination` may overlap `source` (the panel blurred in place; the source region is then copied).
    ///
    /// A renderer that passes the same `workspace` every frame allocates no scratch memory once sizes
    /// settle. Thread safety: calls may run at once on different destinations with different workspaces;
    /// the source is only read.
    public func apply(
        to source: Image, regionX x: Int, y: Int, into destination: Image,
        workspace: Workspace = Workspace()
    ) {
        precondition(
            x >= 0 && y >= 0 && x + destination.width <= source.width
                && y + destination.height <= source.height, "region outside the source")
        let input = source.overlaps(destination) ? copy(source, into: workspace) : source
        if usesPyramid {
            let rows = PyramidGaussianBlur(
                source: input, sigma: sigma, edgeMode: edgeMode, kernels: kernels, regionX: x, y: y,
                width: destination.width, height: destination.height, workspace: workspace)
            rows.render(into: destination, threads: threads, workspace: workspace)
        } else {
            engine(workspace).run(
                source: PixelRows(input), outputX: x, outputY: y, destination: PixelRows(destination),
                workspace: workspace)
        }
    }

    /// Blurs a single-channel plane (a mask, an alpha channel) with the exact route, into `destination` of the
    /// same size (which may be `source`). Above `maximumExactSigma` the plane goes through the pyramid route as
    /// the four channels of an image (which this call allocates).
    public func apply(to source: Plane, into destination: Plane, workspace: Workspace = Workspace()) {
        precondition(destination.width == source.width && destination.height == source.height, "sizes differ")
        if GaussianKernel.usableSigma(sigma) > GaussianBlur.maximumExactSigma {
            applyThroughPyramid(to: source, into: destination, workspace: workspace)
            return
        }
        var input = source
        if source.baseAddress == destination.baseAddress {
            // As for images: an in-place blur reads a copy kept in the workspace.
            let bytes = workspace.buffer(.sourceCopy, count: source.width * source.height, of: UInt8.self)
            input = Plane(borrowing: bytes, width: source.width, height: source.height, bytesPerRow: source.width)
            for y in 0..<source.height { input.row(y).update(from: source.row(y), count: source.width) }
        }
        engine(workspace).run(
            source: PixelRows(input), outputX: 0, outputY: 0, destination: PixelRows(destination),
            workspace: workspace)
    }

    /// The plane as an image whose four channels are its values (valid premultiplied: colour = alpha), blurred
    /// by the pyramid, and one channel read back.
    private func applyThroughPyramid(to source: Plane, into destination: Plane, workspace: Workspace) {
        let image = Image(uninitializedWidth: source.width, height: source.height)
        for y in 0..<source.height {
            let words = UnsafeMutableRawPointer(image.row(y)).assumingMemoryBound(to: UInt32.self)
            let values = source.row(y)
            for x in 0..<source.width { words[x] = UInt32(values[x]) &* 0x0101_0101 }
        }
        var blur = self
        blur.precision = .fast
        blur.apply(to: image, into: image, workspace: workspace)
        for y in 0..<source.height {
            let bytes = image.row(y)
            let values = destination.row(y)
            for x in 0..<source.width { values[x] = bytes[x * 4] }
        }
    }

    /// The exact route, its weights from the workspace's memo (a renderer's steady state makes none).
    func engine(_ workspace: Workspace) -> SeparableBlurEngine {
        SeparableBlurEngine(
            kernel: workspace.gaussianKernel(sigma: sigma), edgeMode: edgeMode, kernels: kernels, threads: threads)
    }

    /// `source` copied into the workspace, so an in-place blur reads pixels it has not yet overwritten.
    private func copy(_ source: Image, into workspace: Workspace) -> Image {
        let bytes = workspace.buffer(.sourceCopy, count: source.width * source.height * 4, of: UInt8.self)
        let copy = workspace.borrowedImage(
            bytes, width: source.width, height: source.height, bytesPerRow: source.width * 4)
        copy.copyPixels(from: source)
        return copy
    }
}
