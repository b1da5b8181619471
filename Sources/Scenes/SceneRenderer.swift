import Compositor

/// Draws a `Scene` into a new image, layer by layer, bottom first.
///
/// Each layer is drawn only over the pixels its transformed frame touches: images are resampled straight into
/// that box (a separable resize when the transform keeps axes, an affine warp otherwise), shapes and clips
/// become anti-aliased coverage masks, and a backdrop material blurs the canvas beneath its frame reading the
/// pixels around it, so a panel's edge shows no seam. Results are identical for every thread count.
/// Thread safety: a renderer may draw several scenes at once; the scene's images are only read.
public struct SceneRenderer: Sendable {
    public var threads: Int
    /// How backdrop materials blur (see `BlurPrecision`).
    public var precision: BlurPrecision
    /// The widest backdrop blur σ, in pixels (as `blurtool --sigma` allows).
    public static let maximumBlurPixels = 10_000.0

    /// What a scene may cost before it is drawn (see `SceneRenderer.Limits`).
    public var limits: Limits
    /// Where the perspective layers' warps are counted by route, when set (`--verbose`).
    public var warpRoutes: WarpRoutes?

    public init(threads: Int = Parallel.processorCount, precision: BlurPrecision = .auto, limits: Limits = Limits()) {
        self.threads = threads
        self.precision = precision
        self.limits = limits
    }

    /// Draws `scene` into a new image, once its cost is known to be within `limits` (checked before any pixel
    /// is allocated).
    /// - Throws: `SceneRenderError` when the scene would need more memory or work than `limits` allow.
    public func render(_ scene: Scene, workspace: Workspace = Workspace()) throws(SceneRenderError) -> Image {
        try render(scene, workspace: workspace, cache: nil)
    }

    /// Draws a still scene (an animation's snapshot); with a cache, from its copy of the static bottom layers,
    /// with the backdrops and static groups it keeps. The result is the same with or without one.
    func render(_ scene: Scene, workspace: Workspace, cache: FrameCache?) throws(SceneRenderError) -> Image {
        try renderFrame(scene, workspace: workspace, cache: cache).image
    }

    /// `render(_:workspace:cache:)`, with the box outside which the frame is the cache's base (`touched` nil: the
    /// base everywhere; without a cache, the whole canvas): two frames drawn from one cache differ only inside
    /// the union of theirs, which is all an animated PNG encoder then has to compare.
    ///
    /// `spare`: an earlier frame of the same cache that nothing else holds, drawn on again (only what it touched
    /// is copied back from the base, and no new canvas's pages are cleared by the system).
    func renderFrame(
        _ scene: Scene, workspace: Workspace, cache: FrameCache?,
        reusing spare: (image: Image, touched: PixelBox?)? = nil
    ) throws(SceneRenderError) -> (image: Image, touched: PixelBox?) {
        let evaluation = SceneRenderer.evaluationWork(of: scene)
        guard evaluation <= limits.work else { throw .tooMuchWork(needed: evaluation, limit: limits.work) }
        let plan = plan(scene)
        try limits.check(plan.cost)
        var layers = plan.layers[...]
        guard let cache else {
            let canvas: Image
            do {
                canvas = try Image(
                    checkedWidth: scene.pixelWidth, height: scene.pixelHeight,
                    fill: scene.background.premultipliedPixel)
            } catch {
                throw .outOfMemory(error)
            }
            try draw(layers, onto: canvas, space: scene.space, workspace: workspace, cache: nil)
            return (canvas, PixelBox(x: 0, y: 0, width: canvas.width, height: canvas.height))
        }
        let canvas: Image
        if let spare, spare.image.width == cache.base.width, spare.image.height == cache.base.height {
            canvas = spare.image
            if let touched = spare.touched { canvas.copyPixels(from: cache.base, in: touched) }
        } else {
            do {  // every pixel comes from the base: no fill first
                canvas = try Image(checkedUninitializedWidth: cache.base.width, height: cache.base.height)
            } catch {
                throw .outOfMemory(error)
            }
            canvas.copyPixels(from: cache.base)
        }
        layers = layers.dropFirst(cache.staticPrefix)
        let history = CanvasHistory()
        try draw(layers, onto: canvas, space: scene.space, workspace: workspace, cache: cache, history: history)
        return (canvas, history.dirty)
    }

    /// Draws the scene's layers onto a canvas of its size that the caller keeps (a renderer's steady state, for
    /// blurbench): no cost check, no new canvas.
    @_spi(Benchmarks) public func drawLayers(of scene: Scene, onto canvas: Image, workspace: Workspace = Workspace())
        throws(SceneRenderError)
    {
        try draw(plan(scene).layers[...], onto: canvas, space: scene.space, workspace: workspace, cache: nil)
    }

    /// Draws planned top-level layers onto a canvas of the scene's size.
    /// `history`, with a cache: where the layers drawn leave the canvas no longer the cache's base.
    func draw(
        _ layers: ArraySlice<PlannedLayer>, onto canvas: Image, space: WorkingSpace, workspace: Workspace,
        cache: FrameCache?, history: CanvasHistory? = nil
    ) throws(SceneRenderError) {
        let context = Context(
            target: canvas, space: space, workspace: workspace, cache: cache,
            history: cache.map { _ in history ?? CanvasHistory() })
        for (index, layer) in zip(layers.indices, layers) {
            var inner = context
            inner.path = [index]
            try draw(layer, in: inner)
        }
    }

    /// What layers are drawn onto: the target image (the canvas, or a picture of a group or a flat layer in
    /// perspective) and what the frame cache needs to know of it. Where each layer lands is in its plan.
    private struct Context {
        var target: Image
        var space: WorkingSpace
        var workspace: Workspace
        var cache: FrameCache?
        /// Where the canvas no longer holds the cache's base (nil without a cache).
        var history: CanvasHistory?
        /// The layer's child indices from the top, for the cache's static groups.
        var path: [Int] = []
        /// Drawing onto the canvas itself, not an isolated group's picture.
        var onCanvas = true
    }

    private func draw(_ planned: PlannedLayer, in context: Context) throws(SceneRenderError) {
        let (layer, target) = (planned.layer, context.target)
        // Whatever this layer draws, the canvas beneath the next one is no longer the cache's base there.
        defer {
            if context.onCanvas, let history = context.history { history.touch(planned.marks) }
        }
        switch planned.kind {
        case .nothing:
            return
        case .image(let image, let filter, let cornerRadius, let visible, let box, let pixelsFromImage):
            drawImage(
                image, filter: filter, cornerRadius: cornerRadius, visible: visible, box: box, t: pixelsFromImage,
                layer: layer, transform: planned.transform, context: context)
        case .shape(let paint, let frame, let radius, let box):
            drawShape(
                paint, frame: frame, radius: radius, box: box, layer: layer, transform: planned.transform,
                target: target, space: context.space)
        case .path(let shape, let pathToPixels, let box):
            drawFill(
                of: shape, pathToPixels: pathToPixels, box: box, layer: layer, target: target, space: context.space)
            guard let stroke = shape.stroke, shape.strokeEnd > 0 else { return }
            // Trimmed along the path's length in path units, flattened finely enough for the pixels it maps to.
            let scale = max(abs(pathToPixels.a * pathToPixels.d - pathToPixels.b * pathToPixels.c).squareRoot(), 1e-9)
            let path =
                shape.strokeEnd < 1 ? shape.path.trimmed(to: shape.strokeEnd, tolerance: 0.02 / scale) : shape.path
            guard
                let (covered, mask) = Coverage.stroke(
                    path, style: stroke.style, through: pathToPixels, within: box, threads: threads)
            else { return }
            target.fill(
                stroke.color, mask: mask, x: covered.x, y: covered.y, operator: layer.blend, opacity: layer.opacity,
                space: context.space, threads: threads)
        case .backdrop(let material, let frame, let box):
            drawBackdrop(
                material, opacity: layer.opacity, frame: frame, box: box, transform: planned.transform,
                context: context)
        case .text(let text, let color, let maskFromFrame, let frame, let box):
            let mask = Plane(width: box.width, height: box.height)
            text.addCoverage(frameWidth: frame.width, height: frame.height, through: maskFromFrame, into: mask)
            target.fill(
                color, mask: mask, x: box.x, y: box.y, operator: layer.blend, opacity: layer.opacity,
                space: context.space, threads: threads)
        case .inPlace(let layers):
            try draw(layers, in: context)
        case .pictured(let layers, let box, let placement, let curl, let clip):
            // Its layers drawn alone on a transparent picture just large enough to hold them, then composited as
            // one. A curled layer's picture is its page: the frame.
            var inner = context
            inner.onCanvas = false
            func drawPicture() throws(SceneRenderError) -> Image {
                do {
                    inner.target = try Image(checkedWidth: box.width, height: box.height)
                } catch {
                    throw .outOfMemory(error)
                }
                try draw(layers, in: inner)
                return inner.target
            }
            var picture: Image
            if let cache = context.cache, cache.staticGroups.contains(context.path) {
                picture = try cache.group(
                    FrameCache.GroupKey(
                        path: context.path, transform: placement.transform, bounds: placement.bounds, box: box),
                    draw: drawPicture)
            } else {
                picture = try drawPicture()
            }
            if let curl { picture = curl.curled(picture, threads: threads) }
            // A clipped group keeps what lies inside its rounded frame, anti-aliased as a shape's edge.
            let mask = clip.flatMap {
                Coverage.roundedRectangle($0.frame, radius: $0.radius, through: planned.transform, over: box)
            }
            target.draw(
                picture, x: box.x, y: box.y, operator: layer.blend, opacity: layer.opacity, mask: mask,
                space: context.space, threads: threads)
        case .projected(let flat, let picture, let homography, let box):
            // Drawn flat into a picture of its own (without the cache, which knows only the canvas's placements),
            // then warped onto the target with the layer's opacity and operator.
            var inner = context
            do {
                inner.target = try Image(checkedWidth: picture.width, height: picture.height)
            } catch {
                throw .outOfMemory(error)
            }
            (inner.cache, inner.history, inner.onCanvas) = (nil, nil, false)
            try draw(flat, in: inner)
            let warp = PerspectiveWarp(
                homography: homography.concatenating(
                    Homography(AffineTransform2D(translationX: -Double(box.x), y: -Double(box.y)))),
                threads: threads)
            warpRoutes?.record(
                warp.route(
                    sourceWidth: picture.width, sourceHeight: picture.height, width: box.width, height: box.height))
            guard let warped = warp.apply(to: inner.target, width: box.width, height: box.height) else { return }
            target.draw(
                warped, x: box.x, y: box.y, operator: layer.blend, opacity: layer.opacity, space: context.space,
                threads: threads)
        }
    }

    /// A path layer's fill (a colour or a gradient) through the coverage of its outline.
    private func drawFill(
        of shape: VectorShape, pathToPixels: AffineTransform2D, box: PixelBox, layer: Layer, target: Image,
        space: WorkingSpace
    ) {
        guard shape.isFilled,
            let (covered, mask) = Coverage.path(
                shape.path, rule: shape.fillRule, through: pathToPixels, within: box, threads: threads)
        else { return }
        if let paint = shape.gradient {
            guard let gradientToPath = paint.gradientToBox(shape.path.bounds, userSpace: .identity) else { return }
            target.fill(
                paint.gradient, mask: mask, x: covered.x, y: covered.y,
                transform: gradientToPath.concatenating(pathToPixels), operator: layer.blend,
                opacity: layer.opacity, space: space, threads: threads)
        } else if let fill = shape.fill {
            target.fill(
                fill, mask: mask, x: covered.x, y: covered.y, operator: layer.blend, opacity: layer.opacity,
                space: space, threads: threads)
        }
    }

    /// A group's layers, in order, each with its path for the cache's static groups.
    private func draw(_ layers: [PlannedLayer], in context: Context) throws(SceneRenderError) {
        var inner = context
        for (index, child) in layers.enumerated() {
            if context.cache != nil { inner.path = context.path + [index] }
            try draw(child, in: inner)
        }
    }

    private func drawImage(
        _ image: Image, filter: ResampleFilter, cornerRadius: Double, visible: Rect, box: PixelBox,
        t: AffineTransform2D, layer: Layer, transform: AffineTransform2D, context: Context
    ) {
        let target = context.target
        let pixels: Image
        if t.b == 0, t.c == 0, t.a > 0, t.d > 0 {
            // Axes kept: a separable resize of the part of the picture behind the box.
            pixels = Resampler(filter: filter, threads: threads).resize(
                image,
                crop: (
                    (Double(box.x) - t.tx) / t.a, (Double(box.y) - t.ty) / t.d, Double(box.width) / t.a,
                    Double(box.height) / t.d
                ), width: box.width, height: box.height, workspace: context.workspace)
        } else {
            // Clamped edges: the coverage mask below, not the warp, decides where the picture ends.
            let warp = AffineWarp(
                transform: t.concatenating(AffineTransform2D(translationX: -Double(box.x), y: -Double(box.y))),
                filter: filter, edgeMode: .clamp, threads: threads)
            guard let warped = warp.apply(to: image, width: box.width, height: box.height) else { return }
            pixels = warped
        }
        let mask = Coverage.roundedRectangle(visible, radius: cornerRadius, through: transform, over: box)
        target.draw(
            pixels, x: box.x, y: box.y, operator: layer.blend, opacity: layer.opacity, mask: mask,
            space: context.space, threads: threads)
    }

    /// The canvas beneath the frame through the material, mixed in by the frame's coverage times the opacity
    /// (a backdrop replaces what it covers; its `blend` is not used).
    private func drawBackdrop(
        _ material: BackdropMaterial, opacity: Double, frame: Rect, box: PixelBox, transform: AffineTransform2D,
        context: Context
    ) {
        let target = context.target
        // The blur scales with the layer (a group scaled 2x blurs twice as wide), up to the longest blur
        // the command line accepts: beyond it any picture is one flat colour anyway.
        var recipe = material.effectiveRecipe
        let pixelsPerPoint = abs(transform.a * transform.d - transform.b * transform.c).squareRoot()
        recipe.blurPoints = min(recipe.blurPoints, SceneRenderer.maximumBlurPixels / pixelsPerPoint)
        // With a gradient tint the dim comes after it, on the tinted picture.
        let dim = material.tintGradient == nil ? material.dim : 0
        let effect = MaterialEffect(
            recipe: recipe, dim: dim, pixelsPerPoint: pixelsPerPoint, precision: precision, threads: threads)
        func effectSeen(in region: PixelBox) -> Image {
            effect.apply(
                to: target, regionX: region.x, y: region.y, width: region.width, height: region.height,
                workspace: context.workspace)
        }
        var seen: Image
        if let cache = context.cache, context.onCanvas, let history = context.history,
            let reach = effect.reach, history.isUntouched(box.expanded(by: reach))
        {
            // Over pixels of the base alone: the same material of the same pixels whatever the frame (the region
            // API's grid and dither are aligned to the canvas, so a crop of the whole equals the region).
            let state = FrameCache.BackdropState(
                recipe: recipe, dim: dim, pixelsPerPoint: pixelsPerPoint, precision: precision)
            seen = cache.backdrop(state, box: box, wholeAllowed: history.dirty == nil, make: effectSeen(in:))
        } else {
            seen = effectSeen(in: box)
        }
        if let tint = material.tintGradient {
            seen = tinted(
                seen, by: tint, effect: material.effect, dim: material.dim, frame: frame, box: box,
                transform: transform, space: context.space)
        }
        var mask = Coverage.roundedRectangle(
            frame, radius: material.cornerRadius, through: transform, over: box)
        if opacity < 1 {
            let scaled = mask ?? Plane(width: box.width, height: box.height, fill: 255)
            let factor = Float(max(opacity, 0))
            for y in 0..<scaled.height {
                let row = scaled.row(y)
                for x in 0..<scaled.width { row[x] = UInt8((Float(row[x]) * factor).rounded()) }
            }
            mask = scaled
        }
        target.draw(seen, x: box.x, y: box.y, operator: .copy, mask: mask, space: context.space, threads: threads)
    }
}

/// Where a frame's canvas no longer holds the cache's base: a backdrop that reads none of it sees the same
/// pixels in every frame.
final class CanvasHistory {
    /// The union of what the layers drawn so far touched; nil while the canvas is the base.
    private(set) var dirty: PixelBox?

    func touch(_ box: PixelBox?) {
        guard let box, !box.isEmpty else { return }
        dirty = dirty.map { $0.union(box) } ?? box
    }

    func isUntouched(_ area: PixelBox) -> Bool {
        guard let dirty else { return true }
        return dirty.intersection(area).isEmpty
    }
}
