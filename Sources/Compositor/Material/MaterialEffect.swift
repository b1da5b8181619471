/// A material drawn behind content: the backdrop blurred, saturated and tinted, then optionally dimmed, as
/// `Rectangle().fill(.ultraThinMaterial)` over a photo followed by `Color.black.opacity(dim)`.
public struct MaterialEffect: Sendable {
    public var recipe: MaterialRecipe
    /// Opacity of a black overlay drawn last (0 for none).
    public var dim: Double
    /// How many pixels one point covers in the image being processed.
    public var pixelsPerPoint: Double
    public var edgeMode: EdgeMode
    public var precision: BlurPrecision
    /// At most this many threads; results are identical for every count.
    public var threads: Int
    /// Round with a dither that hides banding (default); off, values round to nearest as a plain blur does.
    public var dither = true

    /// A phone screen is about this many points across its shorter side (390 pt on current iPhones).
    public static let screenPoints = 390.0

    /// The pixels per point of a photo shown full-screen: its shorter side spans `screenPoints`, so a
    /// material looks the same whatever the photo's resolution.
    public static func pixelsPerPoint(fillingScreenWith width: Int, _ height: Int) -> Double {
        Double(max(min(width, height), 1)) / screenPoints
    }

    public init(
        recipe: MaterialRecipe, dim: Double = 0, pixelsPerPoint: Double, edgeMode: EdgeMode = .mirror,
        precision: BlurPrecision = .auto, threads: Int = Parallel.processorCount
    ) {
        self.recipe = recipe
        self.dim = dim
        self.pixelsPerPoint = pixelsPerPoint
        self.edgeMode = edgeMode
        self.precision = precision
        self.threads = threads
    }

    /// The blur σ in pixels.
    public var sigmaPixels: Double { recipe.blurPoints * pixelsPerPoint }

    /// How far beyond a region `apply(to:regionX:…)` reads the source (see `GaussianBlur.reach`); the shading
    /// and dither are per pixel.
    package var reach: Int? { GaussianBlur(sigma: sigmaPixels, edgeMode: edgeMode, precision: precision).reach }

    /// Nothing but a blur: no saturation, tint, grain, dim or dither, so `GaussianBlur` gives the same pixels.
    var isPlainBlur: Bool {
        recipe.saturation == 1 && recipe.tints.isEmpty && recipe.grain == 0 && dim == 0 && !dither
    }

    /// How many times smaller a JPEG may be decoded (libjpeg's DCT scaling: 1, 2, 4 or 8) for this material,
    /// on an image of the given full size that will be shown `shrink` times smaller (1 when it keeps its
    /// size; 4032 / 1170 when a photo fills a phone screen).
    ///
    /// Without a pyramid the decoded image must keep the output's resolution (d ≤ shrink). With one, each
    /// pyramid cell must still span at least 4 decoded pixels (d ≤ shrink · f / 4): the reduced decode
    /// then only replaces averaging the blur would do anyway. Tests bound both routes against full size.
    public func decodeScale(fullWidth: Int, fullHeight: Int, shrink: Double = 1) -> Int {
        var allowed = shrink
        // Exact precision keeps the full decode even where σ is past `GaussianBlur.maximumExactSigma` and the blur
        // takes the pyramid route: that route bounds the work, the full decode costs no more than it does below.
        if precision != .exact && GaussianBlur(sigma: sigmaPixels, precision: precision).usesPyramid {
            allowed = max(shrink, shrink * Double(PyramidGaussianBlur.factor(forSigma: sigmaPixels)) / 4)
        }
        return [8, 4, 2].first { Double($0) <= allowed && min(fullWidth, fullHeight) >= 16 * $0 } ?? 1
    }

    /// `source` reduced `scale` times (see `decodeScale`), seen through this material at full size:
    /// `width` × `height`, the full image's size.
    public func apply(
        toReduced source: Image, scale: Int, width: Int, height: Int,
        workspace: Workspace = Workspace()
    ) -> Image {
        guard scale > 1 else { return apply(to: source, workspace: workspace) }
        let result = Image(uninitializedWidth: width, height: height)  // every pixel is written
        renderPyramid(source, sourceScale: scale, into: result, workspace: workspace)
        return result
    }

    /// The pyramid route: blur small, shade the small image, interpolate up into `result` with dither/grain.
    /// `result` receives the rectangle of the full-size picture at `region`.
    private func renderPyramid(
        _ source: Image, sourceScale: Int, region: (x: Int, y: Int) = (0, 0), into result: Image,
        workspace: Workspace
    ) {
        let rows = PyramidGaussianBlur(
            source: source, sigma: sigmaPixels, edgeMode: edgeMode, regionX: region.x, y: region.y,
            width: result.width, height: result.height, sourceScale: sourceScale, workspace: workspace)
        render(rows, into: result, noiseOrigin: region, workspace: workspace)
    }

    private func render(
        _ rows: PyramidGaussianBlur, into result: Image, noiseOrigin: (x: Int, y: Int) = (0, 0),
        workspace: Workspace
    ) {
        var rows = rows
        if !isPlainBlur {  // a plain blur's shader would change nothing (but rounding)
            rows.shadeSmallImage(with: MaterialShader(recipe: recipe, dim: dim))
        }
        rows.render(
            into: result, dither: dither, grain: Float(recipe.grain), threads: threads, workspace: workspace,
            noiseOrigin: noiseOrigin)
    }

    /// The rectangle of `source` at (x, y) of the given size seen through this material, reading the pixels
    /// around it as the blur's backdrop (past the image's edges, the edge mode), as a panel's backdrop filter
    /// does: on the pyramid route the result equals `apply(to:)` cropped to the rectangle, to the bit, so a
    /// panel shows no seam. (Below the pyramid's σ a shaded material is blurred, rounded, then shaded, where
    /// `apply(to:)` shades before rounding: within one LSB of each other.)
    public func apply(
        to source: Image, regionX x: Int, y: Int, width: Int, height: Int, workspace: Workspace = Workspace()
    ) -> Image {
        let result = Image(uninitializedWidth: width, height: height)  // every pixel is written
        apply(to: source, regionX: x, y: y, into: result, workspace: workspace)
        return result
    }

    /// The same, written into `result` (the region's size, not overlapping `source`): a renderer that passes the
    /// same result and workspace every frame allocates nothing.
    public func apply(
        to source: Image, regionX x: Int, y: Int, into result: Image, workspace: Workspace = Workspace()
    ) {
        let (width, height) = (result.width, result.height)
        precondition(x >= 0 && y >= 0 && x + width <= source.width && y + height <= source.height, "region outside")
        precondition(!result.overlaps(source), "the result overlaps the source")
        let blur = GaussianBlur(sigma: sigmaPixels, edgeMode: edgeMode, precision: precision, threads: threads)
        if blur.usesPyramid && !isPlainBlur {
            renderPyramid(source, sourceScale: 1, region: (x, y), into: result, workspace: workspace)
            return
        }
        blur.apply(to: source, regionX: x, y: y, into: result, workspace: workspace)
        if !isPlainBlur {
            let shader = MaterialShader(recipe: recipe, dim: dim)
            let quantizer = Quantizer(dither: dither, grain: Float(recipe.grain))
            let row = workspace.buffer(.shadeRow, count: width * 4 * 2, of: Float.self)
            for line in 0..<height {
                for i in 0..<(width * 4) { row[i] = Float(result.row(line)[i]) }
                shader.shade(row, count: width)
                quantizer.quantize(
                    row, count: width, into: result.row(line), y: y + line, firstX: x, grainScratch: row + width * 4)
            }
        }
    }

    /// The `crop` of `source` resized to `width` × `height` with `filter`, seen through this material: the
    /// result of `apply(to:)` on `Resampler(filter:).resize(source, crop:, …)`. On the pyramid route the
    /// resized image is never made: the pyramid's cells are resampled from `source` directly (see
    /// `PyramidGaussianBlur(resizing:)`), which saves most of the work when `source` is a reduced decode.
    public func apply(
        toResized source: Image, crop: (x: Double, y: Double, width: Double, height: Double),
        filter: ResampleFilter, width: Int, height: Int, workspace: Workspace = Workspace()
    ) -> Image {
        guard GaussianBlur(sigma: sigmaPixels, precision: precision).usesPyramid else {
            let resized = Resampler(filter: filter, threads: threads).resize(
                source, crop: crop, width: width, height: height, workspace: workspace)
            return apply(to: resized, workspace: workspace)
        }
        let result = Image(uninitializedWidth: width, height: height)  // every pixel is written
        let rows = PyramidGaussianBlur(
            resizing: source, crop: crop, filter: filter, sigma: sigmaPixels, edgeMode: edgeMode,
            threads: threads, kernels: Kernels.active, width: width, height: height, workspace: workspace)
        render(rows, into: result, workspace: workspace)
        return result
    }

    /// A new image: `source` seen through this material.
    ///
    /// On the pyramid route the shader runs on the small blurred image, before interpolation: the blur is so
    /// wide that this changes the result by less than one LSB (MaterialTests measures it), and it turns a
    /// per-pixel cost at full resolution into one over a few thousand pixels.
    public func apply(to source: Image, workspace: Workspace = Workspace()) -> Image {
        let result = Image(uninitializedWidth: source.width, height: source.height)  // every pixel is written
        let blur = GaussianBlur(sigma: sigmaPixels, edgeMode: edgeMode, precision: precision, threads: threads)
        if isPlainBlur {
            blur.apply(to: source, into: result, workspace: workspace)  // the SIMD engine, no Float detour
        } else if blur.usesPyramid {
            renderPyramid(source, sourceScale: 1, into: result, workspace: workspace)
        } else {
            let shader = MaterialShader(recipe: recipe, dim: dim)
            blur.rows(of: source).render(
                into: result, dither: dither, grain: Float(recipe.grain), threads: threads,
                workspace: workspace
            ) { row, _, width in
                shader.shade(row, count: width)
                return row
            }
        }
        return result
    }
}

/// The per-pixel part of a material, on premultiplied Float pixels (0...255): saturation, tints, dim. (Grain
/// is added per output pixel when quantising.)
struct MaterialShader: Sendable {
    private let saturation: Float
    /// The recipe's own array (shared, not copied: a renderer's frame makes no new one), in Float per row.
    private let tints: [TintLayer]
    private let keep: Float  // 1 − dim

    private typealias FloatTint = (red: Float, green: Float, blue: Float, opacity: Float, mode: BlendMode)

    // Rec. 709 luma, as UIImageEffects' saturation matrix uses.
    private static let luma: (Float, Float, Float) = (0.2126, 0.7152, 0.0722)

    init(recipe: MaterialRecipe, dim: Double) {
        saturation = Float(recipe.saturation)
        tints = recipe.tints
        keep = Float(1 - min(max(dim, 0), 1))
    }

    func shade(_ row: UnsafeMutablePointer<Float>, count: Int) {
        // On the stack: a row's tints in Float.
        withUnsafeTemporaryAllocation(of: FloatTint.self, capacity: tints.count) { floats in
            for (index, tint) in tints.enumerated() {
                floats[index] = (
                    Float(tint.color.red), Float(tint.color.green), Float(tint.color.blue),
                    Float(min(max(tint.color.alpha, 0), 1)), tint.blendMode
                )
            }
            shade(row, count: count, tints: UnsafeBufferPointer(floats))
        }
    }

    private func shade(_ row: UnsafeMutablePointer<Float>, count: Int, tints: UnsafeBufferPointer<FloatTint>) {
        let dimAlpha = 1 - keep
        for x in 0..<count {
            let p = row + x * 4
            // Work in unit premultiplied values.
            var a = p[3] / 255
            var r = p[0] / 255
            var g = p[1] / 255
            var b = p[2] / 255
            if saturation != 1 {
                // Linear in colour, so it applies to premultiplied values directly.
                let l = MaterialShader.luma.0 * r + MaterialShader.luma.1 * g + MaterialShader.luma.2 * b
                r = min(max(l + saturation * (r - l), 0), a)
                g = min(max(l + saturation * (g - l), 0), a)
                b = min(max(l + saturation * (b - l), 0), a)
            }
            for tint in tints {
                // W3C compositing: Cs' = (1 − αb)·Cs + αb·B(Cb, Cs), then source-over with the tint's opacity.
                let ab = a
                // Straight colour by a true division: c · (1/α) rounds twice and gives 0.99999994 for c = α at
                // some alphas, which color-burn's Cb = 1 case then misses (a black burn took white to black).
                func straight(_ c: Float) -> Float { ab > 0 ? c / ab : 0 }
                let blendR =
                    tint.mode == .normal
                    ? tint.red
                    : (1 - ab) * tint.red + ab * tint.mode.blend(backdrop: straight(r), source: tint.red)
                let blendG =
                    tint.mode == .normal
                    ? tint.green
                    : (1 - ab) * tint.green + ab * tint.mode.blend(backdrop: straight(g), source: tint.green)
                let blendB =
                    tint.mode == .normal
                    ? tint.blue
                    : (1 - ab) * tint.blue + ab * tint.mode.blend(backdrop: straight(b), source: tint.blue)
                let o = tint.opacity
                r = o * blendR + (1 - o) * r
                g = o * blendG + (1 - o) * g
                b = o * blendB + (1 - o) * b
                a = o + (1 - o) * ab
            }
            if dimAlpha > 0 {
                r *= keep
                g *= keep
                b *= keep
                a = dimAlpha + keep * a
            }
            p[0] = r * 255
            p[1] = g * 255
            p[2] = b * 255
            p[3] = a * 255
        }
    }
}
