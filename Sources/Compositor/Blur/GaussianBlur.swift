import Dispatch

/// Which Gaussian route to use.
///
/// `fast` and `auto` make the same choice today: the pyramid from σ 6.6 px up (`PyramidGaussianBlur`). A
/// coarser pyramid below that was measured (while its small grids were still whole Float
/// buffers, at f = 2 as large as the image) and was not faster: σ 3.5-6.5 took 1.5-5× longer than the exact
/// engine on 12 MP.
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
    /// with σ: σ 2000 on a 600×400 photo took over 40 s, as did σ 2500 (a material at 100 pixels per point) on 12 MP.
    public static let maximumExactSigma = 100.0

    /// The route `precision` resolves to for this σ.
    public var usesPyramid: Bool {
        PyramidGaussianBlur.factor(forSigma: sigma) > 1
            && (precision != .exact || GaussianKernel.usableSigma(sigma) > GaussianBlur.maximumExactSigma)
    }

    /// Which convolution loops to run: SIMD, or the scalar twins (`Kernels.active` honours
    /// `BLURTOOL_KERNELS=reference`).
    public var kernels: any ConvolutionKernelSet.Type = Kernels.active

    /// The blurred rows of `source` as Floats, for stages that work before quantising (materials): the pyramid's,
    /// or the exact engine's Float route (`SeparableBlurRows`), both made as they are filled by the threads that
    /// render, neither holding the image in Float. `source` must not change while the rows are in use, and
    /// `workspace` is in use for as long as they live.
    public func rows(of source: Image, workspace: BlurWorkspace = BlurWorkspace()) -> any BlurredRows {
        if usesPyramid {
            return PyramidGaussianBlur(
                source: source, sigma: sigma, edgeMode: edgeMode, kernels: kernels, workspace: workspace)
        }
        return SeparableBlurRows(source: source, engine: engine, workspace: workspace)
    }

    /// A new blurred image of the same size.
    public func apply(to source: Image, workspace: BlurWorkspace = BlurWorkspace()) -> Image {
        let result = Image(uninitializedWidth: source.width, height: source.height)
        apply(to: source, into: result, workspace: workspace)
        return result
    }

    /// Blurs `source` into `destination` (same size; it may be `source` itself).
    public func apply(to source: Image, into destination: Image, workspace: BlurWorkspace = BlurWorkspace()) {
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
        workspace: BlurWorkspace = BlurWorkspace()
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
            engine.run(
                source: PixelRows(input), outputX: x, outputY: y, destination: PixelRows(destination),
                workspace: workspace)
        }
    }

    /// Blurs a single-channel plane (a mask, an alpha channel) with the exact route, into `destination` of the
    /// same size (which may be `source`). Above `maximumExactSigma` the plane goes through the pyramid route as
    /// the four channels of an image (which this call allocates).
    public func apply(to source: Plane, into destination: Plane, workspace: BlurWorkspace = BlurWorkspace()) {
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
        engine.run(
            source: PixelRows(input), outputX: 0, outputY: 0, destination: PixelRows(destination),
            workspace: workspace)
    }

    /// The plane as an image whose four channels are its values (valid premultiplied: colour = alpha), blurred
    /// by the pyramid, and one channel read back.
    private func applyThroughPyramid(to source: Plane, into destination: Plane, workspace: BlurWorkspace) {
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

    var engine: SeparableBlurEngine {
        SeparableBlurEngine(
            kernel: GaussianKernel(sigma: sigma), edgeMode: edgeMode, kernels: kernels, threads: threads)
    }

    /// `source` copied into the workspace, so an in-place blur reads pixels it has not yet overwritten.
    private func copy(_ source: Image, into workspace: BlurWorkspace) -> Image {
        let bytes = workspace.buffer(.sourceCopy, count: source.width * source.height * 4, of: UInt8.self)
        let copy = Image(borrowing: bytes, width: source.width, height: source.height, bytesPerRow: source.width * 4)
        copy.copyPixels(from: source)
        return copy
    }
}

extension BlurredRows {
    /// Finishes every row into `destination` (which has this size), each thread one band of rows.
    ///
    /// - Parameters:
    ///   - dither: round up or down at random with the probabilities that keep each value's mean.
    ///   - grain: amplitude of monochrome noise added before rounding, as a fraction of full scale.
    ///   - threads: at most this many threads; the result is the same for every count.
    ///   - noiseOrigin: where `destination` lies in the picture the noise is laid over, so a region rendered
    ///     alone gets the same dither and grain as the same pixels of the whole picture.
    ///   - finish: turns one Float row (y given) into the row to quantise, in place or not; it must depend
    ///     only on the row and y.
    public func render(
        into destination: Image, dither: Bool = false, grain: Float = 0,
        threads: Int = Parallel.processorCount, workspace: BlurWorkspace = BlurWorkspace(),
        noiseOrigin: (x: Int, y: Int) = (0, 0),
        finish: ((UnsafeMutablePointer<Float>, Int, Int) -> UnsafeMutablePointer<Float>)? = nil
    ) {
        precondition(destination.width == width && destination.height == height, "destination size differs")
        // One band per worker: a band's rows share work in `fillRows`, which a band boundary restarts.
        let workers = Parallel.workers(height, threads: threads)
        let blur = prepared(forBands: workers, workspace: workspace)
        let rows = workspace.buffers(.renderRow, workers: workers, count: width * 4, of: Float.self)
        let scratch = workspace.buffers(.renderScratch, workers: workers, count: scratchCount, of: Float.self)
        let grainRows = workspace.buffers(.grain, workers: workers, count: grain != 0 ? width * 4 : 0, of: Float.self)
        let quantizer = Quantizer(dither: dither, grain: grain)
        Parallel.forEach(workers, threads: threads) { band, worker in
            let row = rows[worker]
            if finish == nil && grain == 0 {
                blur.fillRowGroups(blur.band(band, of: workers), into: row, scratch: scratch[worker]) { y, group in
                    quantizer.quantize(
                        group, count: width, into: destination.row(y), bytesPerRow: destination.bytesPerRow,
                        y: y + noiseOrigin.y, firstX: noiseOrigin.x)
                }
                return
            }
            blur.fillRows(blur.band(band, of: workers), into: row, scratch: scratch[worker]) {
                y, mixed in
                guard let finish else {
                    quantizer.quantize(
                        mixed, count: width, into: destination.row(y), y: y + noiseOrigin.y, firstX: noiseOrigin.x,
                        rowScratch: row, grainScratch: grainRows[worker])
                    return
                }
                mixed.write(count: width * 4, into: row)
                quantizer.quantize(
                    finish(row, y, width), count: width, into: destination.row(y), y: y + noiseOrigin.y,
                    firstX: noiseOrigin.x, grainScratch: grainRows[worker])
            }
        }
    }
}

/// Rounds premultiplied Float pixels (0...255 scale) to RGBA8, keeping each colour at or below its alpha.
///
/// Each value v becomes roundToNearestEven(v + offset), offset 0 without dither; with dither, offset is
/// uniform in (−0.5, 0.5) from a fixed noise tile, which rounds v up with probability equal to its fraction,
/// so smooth gradients show no bands while whole numbers stay unchanged (a uniform image stays uniform).
/// The colour channels share one offset so greys stay grey. Grain adds a monochrome offset of up to
/// ±grain/2 of full scale, scaled by alpha. Colours are clamped to alpha before rounding; rounding is
/// monotone, so the result stays premultiplied.
public struct Quantizer: Sendable {
    public let dither: Bool
    public let grain: Float

    public init(dither: Bool = false, grain: Float = 0) {
        self.dither = dither
        self.grain = grain
    }

    /// Adding 1.5·2²³ to a Float in [0, 2²²) leaves it rounded to the nearest integer, ties to even, in the
    /// low mantissa bits: one vector add instead of a per-lane call.
    static let magic: Float = 12_582_912

    /// Float in 0...255 to its byte, rounded to nearest, ties to even (the add puts the rounded integer in the
    /// low mantissa bits); out-of-range values clamp.
    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(max(value, 0), 255) + magic).bitPattern)
    }

    /// Two passes the compiler vectorises well: Float to bytes over the whole row (plus dither, read from the
    /// tile in runs that line up with it), then each colour byte limited to its pixel's alpha byte, 16 bytes
    /// at a time. Limiting after rounding equals limiting before it, because rounding is monotone.
    /// - Parameters:
    ///   - y, firstX: the position of the row's first pixel in the noise tiles' coordinates.
    ///   - grainScratch: room for `count * 4` Floats, needed only when `grain` is not zero.
    public func quantize(
        _ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<UInt8>,
        y: Int, firstX: Int = 0, grainScratch: UnsafeMutablePointer<Float>? = nil
    ) {
        var source = source
        if grain != 0, let grainScratch {
            addGrain(source, count: count, y: y, firstX: firstX, into: grainScratch)
            source = UnsafePointer(grainScratch)
        }
        let ditherRow = NoiseTile.dither.row(y)
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            let input = source + x * 4
            let output = destination + x * 4
            if dither {
                let tile = ditherRow + ((firstX + x) & NoiseTile.mask) * 4
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(input[i] + tile[i]) }
            } else {
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(input[i]) }
            }
            x += run
        }
        Quantizer.limitColoursToAlpha(destination, count: count)
    }

    /// Lowers each colour byte of `count` RGBA pixels to its alpha byte where it is above it.
    static func limitColoursToAlpha(_ destination: UnsafeMutablePointer<UInt8>, count: Int) {
        // Pixels as little-endian words (alpha in the top byte): shifts, masks and `min` on 16 at a time.
        var pixel = 0
        let byteMask = SIMD16<UInt32>(repeating: 0xFF)
        while pixel + 16 <= count {
            let pointer = UnsafeMutableRawPointer(destination + pixel * 4)
            let words = pointer.loadUnaligned(as: SIMD16<UInt32>.self)
            // Compare-and-select rather than `pointwiseMin`, which stays an outlined generic call here.
            let alpha: SIMD16<UInt32> = words &>> 24
            var red: SIMD16<UInt32> = words & byteMask
            var green: SIMD16<UInt32> = (words &>> 8) & byteMask
            var blue: SIMD16<UInt32> = (words &>> 16) & byteMask
            red.replace(with: alpha, where: red .> alpha)
            green.replace(with: alpha, where: green .> alpha)
            blue.replace(with: alpha, where: blue .> alpha)
            let packed: SIMD16<UInt32> = red | (green &<< 8) | (blue &<< 16) | (alpha &<< 24)
            pointer.storeBytes(of: packed, as: SIMD16<UInt32>.self)
            pixel += 16
        }
        while pixel < count {
            let bytes = destination + pixel * 4
            for c in 0..<3 { bytes[c] = min(bytes[c], bytes[3]) }
            pixel += 1
        }
    }

    /// The row with grain added to the colours, scaled by alpha.
    private func addGrain(
        _ source: UnsafePointer<Float>, count: Int, y: Int, firstX: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let grainRow = NoiseTile.grain.row(y)
        for x in 0..<count {
            let tile = ((firstX + x) & NoiseTile.mask) * 4
            let alpha = source[x * 4 + 3]
            for c in 0..<3 { output[x * 4 + c] = source[x * 4 + c] + grainRow[tile + c] * grain * alpha }
            output[x * 4 + 3] = alpha
        }
    }

    /// The same rounding one value at a time, written plainly: the twin the tests compare with.
    public func quantizeReference(
        _ source: UnsafePointer<Float>, count: Int,
        into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int = 0
    ) {
        let ditherRow = NoiseTile.dither.row(y)
        let grainRow = NoiseTile.grain.row(y)
        for i in 0..<count {
            let tile = ((firstX + i) & NoiseTile.mask) * 4
            var values = (0..<4).map { source[i * 4 + $0] }
            if grain != 0 {
                let alpha = values[3]
                for c in 0..<3 { values[c] += grainRow[tile + c] * grain * alpha }
            }
            if dither {
                for c in 0..<4 { values[c] += ditherRow[tile + c] }
            }
            let rounded = values.map { UInt8(min(max($0, 0), 255).rounded(.toNearestOrEven)) }
            for c in 0..<3 { destination[i * 4 + c] = min(rounded[c], rounded[3]) }
            destination[i * 4 + 3] = rounded[3]
        }
    }
}

/// A fixed tile of noise, laid out per pixel as (n, n, n, m) so a run of it lines up with a run of pixels: the colour
/// channels share n (greys stay grey), alpha gets m (0 for grain, which leaves alpha alone).
struct NoiseTile: @unchecked Sendable {
    static let size = 128
    static let mask = size - 1
    /// Allocated once per tile and never freed: the two tiles live as long as the process.
    private let values: UnsafeMutablePointer<Float>

    /// Dither offsets, uniform in [−0.4995, 0.4995]: a whole number never moves.
    static let dither = NoiseTile(seed: 0x5EED_D17E, alpha: true)
    /// Grain in [−0.5, 0.5] of the grain amplitude; alpha untouched.
    static let grain = NoiseTile(seed: 0x06A1_4E55, alpha: false)

    private init(seed: UInt64, alpha: Bool) {
        var state = seed
        func next() -> Float {
            // SplitMix64: deterministic, and good enough for noise nobody should see.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Float(z >> 40) / Float(1 << 24) * 0.999 - 0.4995
        }
        let values = UnsafeMutablePointer<Float>.allocate(capacity: NoiseTile.size * NoiseTile.size * 4)
        for pixel in 0..<(NoiseTile.size * NoiseTile.size) {
            let shared = next()
            values[pixel * 4] = shared
            values[pixel * 4 + 1] = shared
            values[pixel * 4 + 2] = shared
            values[pixel * 4 + 3] = alpha ? next() : 0
        }
        self.values = values
    }

    /// The tile's row for image row y (the tile repeats).
    func row(_ y: Int) -> UnsafePointer<Float> {
        UnsafePointer(values + (y & NoiseTile.mask) * NoiseTile.size * 4)
    }
}
