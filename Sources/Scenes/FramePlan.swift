import Compositor

/// A frame worked out once: every layer placed in the image it is drawn into, emitters expanded into their
/// particles, what each layer draws and the pixels it may touch, and the frame's cost summed on the way.
/// `SceneRenderer.cost(of:)` reads the cost, and drawing reads the placements, so a frame is walked once for
/// both, and a new kind of layer is placed, costed and drawn from one `plan` case.
struct FramePlan {
    let layers: [PlannedLayer]
    let cost: SceneRenderer.Cost
}

/// One layer as a frame draws it (see `FramePlan`).
struct PlannedLayer {
    indirect enum Kind {
        /// Nothing to draw: invisible, squashed to a line, turned away or outside its target.
        case nothing
        case image(Image, filter: ResampleFilter, cornerRadius: Double, visible: Rect, box: PixelBox,
            pixelsFromImage: AffineTransform2D)
        case shape(ShapePaint, frame: Rect, radius: Double, box: PixelBox)
        case path(VectorShape, pathToPixels: AffineTransform2D, box: PixelBox)
        case backdrop(BackdropMaterial, frame: Rect, box: PixelBox)
        case text(any TypesetText, color: RGBAColor, maskFromFrame: AffineTransform2D, frame: Rect, box: PixelBox)
        /// A group drawn straight onto its target (not isolated; an emitter's particles).
        case inPlace([PlannedLayer])
        /// An isolated group, or a curled layer's page: its layers drawn on a picture covering `picture` of the
        /// target, then composited as one (curled first, for a page). `placement` is the picture's, kept for
        /// the frame cache's key.
        case pictured([PlannedLayer], picture: PixelBox, placement: Placement, curl: PageCurl?, clip: Clip?)
        /// A layer in perspective: its flat self drawn into a picture, warped onto the target.
        case projected(flat: PlannedLayer, picture: Placement, homography: Homography, box: PixelBox)
    }

    /// What a shape is filled with.
    enum ShapePaint {
        case color(RGBAColor)
        case gradient(GradientFill)
    }

    /// A clipped group's rounded frame (`Layer.clipCornerRadius`), in the coordinates `transform` maps to pixels.
    struct Clip {
        let frame: Rect
        let radius: Double
    }

    /// The layer as given (its opacity and operator are composited with).
    let layer: Layer
    let kind: Kind
    /// The layer's local coordinates to its target's pixels (identity when it draws nothing).
    var transform = AffineTransform2D.identity
    /// The target pixels the layer may touch, drawn or not (an invisible layer still counts for its group's
    /// picture).
    let box: PixelBox?
    /// What drawing it marks on the canvas for the frame cache: its box, unless it is invisible (a group drawn
    /// in place marks nothing itself: its layers do).
    var marks: PixelBox? {
        if case .inPlace = kind { return nil }
        return layer.drawsNothing ? nil : box
    }
}

extension SceneRenderer {
    /// The plan of a frame of `scene` (the renderer's `limits` are not applied).
    func plan(_ scene: Scene) -> FramePlan {
        let width = scene.pixelWidth
        let height = scene.pixelHeight
        let placement = Placement(
            transform: AffineTransform2D(scaleX: scene.scale, y: scene.scale),
            bounds: Rect(x: 0, y: 0, width: scene.width, height: scene.height), width: width, height: height)
        let canvas = Double(width) * Double(height)
        var work = 0.0
        let (layers, held) = plan(scene.layers, in: placement, adding: &work)
        var cost = Cost()
        cost.peakBytes = Int(saturating: (canvas + held) * Double(Image.bytesPerPixel), within: 0...Int.max)
        cost.work = work + canvas
        return FramePlan(layers: layers, cost: cost)
    }

    /// A shape's plan: a colour over an axis-aligned sharp rectangle needs no mask; anything else is masked.
    private func planShape(
        _ layer: Layer, _ shape: Shape, _ paint: PlannedLayer.ShapePaint, frame: Rect, box: PixelBox,
        transform: AffineTransform2D, adding work: inout Double
    ) -> (PlannedLayer, held: Double) {
        var masked = shape != .rectangle(cornerRadius: 0) || transform.b != 0 || transform.c != 0
        if case .gradient = paint { masked = true }
        let area = Double(box.width) * Double(box.height)
        work += area * (masked ? 2 : 1)
        let radius: Double
        switch shape {
        case .rectangle(let cornerRadius): radius = cornerRadius
        case .capsule: radius = min(frame.width, frame.height) / 2
        }
        let kind = PlannedLayer.Kind.shape(paint, frame: frame, radius: radius, box: box)
        // A mask is a byte a pixel.
        return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: box), masked ? area / 4 : 0)
    }

    /// Plans a layer in `placement`, adding its work to `work`; also returns the most pixels it holds at once
    /// beyond its target (in Double: 64 nested pictures of 2⁶² pixels each would overflow an Int). The weights
    /// are `Cost.work`'s.
    private func plan(_ layer: Layer, in placement: Placement, adding work: inout Double)
        -> (PlannedLayer, held: Double)
    {
        work += SceneRenderer.operationsPerLayer
        func nothing(box: PixelBox? = nil) -> (PlannedLayer, held: Double) {
            (PlannedLayer(layer: layer, kind: .nothing, box: box), 0)
        }
        guard let transform = self.placement(of: layer, in: placement) else { return nothing() }
        // An invisible layer draws nothing, but what it would touch still sizes its group's picture.
        guard !layer.drawsNothing else { return nothing(box: pixelBox(of: layer, in: placement)) }
        if layer.perspective != nil {
            // The flat picture (drawn, then shrunk into levels), the warp into the projected box (a bilinear
            // kernel's 6 where magnified, two levels' samples one by one where the plane recedes: counted as 12),
            // and the composite.
            guard let projection = projection(of: layer, in: placement) else { return nothing() }
            let picture = Double(projection.picture.width) * Double(projection.picture.height)
            let drawn = Double(projection.box.width) * Double(projection.box.height)
            let (flat, inside) = plan(projection.flat, in: projection.picture, adding: &work)
            work += picture * 2 + drawn * 14
            let kind = PlannedLayer.Kind.projected(
                flat: flat, picture: projection.picture, homography: projection.homography, box: projection.box)
            let held = picture * 4 / 3 + drawn + inside
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: projection.box), held)
        }
        let frame = layer.frame ?? placement.bounds
        let frameBox = PixelBox(covering: frame, through: transform, within: placement.width, placement.height)
        let marked = frameBox.isEmpty ? nil : frameBox
        let area = Double(frameBox.width) * Double(frameBox.height)
        switch layer.content {
        case .shape(let shape, let color):
            guard !frameBox.isEmpty else { return nothing() }
            return planShape(
                layer, shape, .color(color), frame: frame, box: frameBox, transform: transform, adding: &work)
        case .gradientShape(let shape, let gradient):
            guard !frameBox.isEmpty else { return nothing() }
            work += area * SceneRenderer.operationsPerGradientPixel
            return planShape(
                layer, shape, .gradient(gradient), frame: frame, box: frameBox, transform: transform, adding: &work)
        case .path(let shape):
            // The path's own extent (it is not clipped to the frame), flattened and covered when drawn.
            guard shape.paintsSomething, let bounds = shape.path.bounds else { return nothing(box: marked) }
            let pathToPixels = shape.pathToFrame(frame).concatenating(transform)
            // A stroke reaches past the bounds (a hairline by a pixel, whatever the transform).
            let reach = shape.strokeReach
            let grown = Rect(
                x: bounds.x - reach, y: bounds.y - reach, width: bounds.width + 2 * reach,
                height: bounds.height + 2 * reach)
            var box = PixelBox(covering: grown, through: pathToPixels, within: placement.width, placement.height)
            if shape.stroke != nil {
                box = box.expanded(by: 1).intersection(
                    PixelBox(x: 0, y: 0, width: placement.width, height: placement.height))
            }
            guard !box.isEmpty else { return nothing() }
            let covered = Double(box.width) * Double(box.height)
            // Cells accumulated, a prefix sum and a masked fill: about three passes, plus the segments.
            work += covered * 3 + Double(shape.path.elements.count) * SceneRenderer.operationsPerPathElement
            // A stroke is an outline of about four times the path's elements, filled over the same pixels.
            if shape.stroke != nil {
                work += covered * 3 + Double(shape.path.elements.count) * 4 * SceneRenderer.operationsPerPathElement
            }
            if shape.gradient != nil { work += covered * SceneRenderer.operationsPerGradientPixel }
            let kind = PlannedLayer.Kind.path(shape, pathToPixels: pathToPixels, box: box)
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: box), covered / 2)
        case .image(let image, let fit, let filter, let cornerRadius):
            guard let layout = imageLayout(image, fit: fit, frame: frame, transform: transform, in: placement)
            else { return nothing(box: marked) }
            let drawn = Double(layout.box.width) * Double(layout.box.height)
            work +=
                drawn * SceneRenderer.operationsPerPixel(resampling: layout.pixelsFromImage, filter: filter)
                + Double(image.width) * Double(image.height)
            let kind = PlannedLayer.Kind.image(
                image, filter: filter, cornerRadius: cornerRadius, visible: layout.visible, box: layout.box,
                pixelsFromImage: layout.pixelsFromImage)
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: marked), drawn)
        case .text(let text, let color):
            guard let box = textBox(text, frame: frame, transform: transform, in: placement) else { return nothing() }
            let area = Double(box.width) * Double(box.height)
            // Coverage added into a mask (glyphs blitted from the cache, a few rasterised), then a masked fill.
            work += area * 3
            // The typesetter sees the frame's coordinates (origin at its top left) mapped to the mask's pixels.
            let maskFromFrame = AffineTransform2D(translationX: frame.x, y: frame.y)
                .concatenating(transform)
                .concatenating(AffineTransform2D(translationX: -Double(box.x), y: -Double(box.y)))
            let kind = PlannedLayer.Kind.text(text, color: color, maskFromFrame: maskFromFrame, frame: frame, box: box)
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: box), area / 4)
        case .backdrop(let material):
            guard !frameBox.isEmpty else { return nothing() }
            work += area * 6
            // A gradient tint: its colours, a copy of the material to paint on, the dim after it.
            if material.tintGradient != nil { work += area * (SceneRenderer.operationsPerGradientPixel + 2) }
            // The material's picture (4 bytes a pixel) and the blur's streamed rows, counted as another picture:
            // they are rings of rows per thread, far smaller than the region on either route (and the gradient's
            // picture and mask, one more).
            let kind = PlannedLayer.Kind.backdrop(material, frame: frame, box: frameBox)
            let held = area * (material.tintGradient == nil ? 2 : 3.25)
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: marked), held)
        case .emitter(let emitter):
            // Expanded once here; the group it becomes is charged as a layer again, as it is drawn as one.
            work += Double(emitter.particlesEvaluated) * SceneRenderer.operationsPerParticle
            let (group, held) = plan(layer.expandingEmitter, in: placement, adding: &work)
            return (PlannedLayer(layer: layer, kind: group.kind, transform: group.transform, box: group.box), held)
        case .group(let layers):
            let inner = placement.inside(layer, transform: transform)
            guard layer.isIsolated else {
                let (planned, held) = plan(layers, in: inner, adding: &work)
                let box = planned.reduce(nil) { PixelBox.union($0, $1.box) }
                return (PlannedLayer(layer: layer, kind: .inPlace(planned), transform: transform, box: box), held)
            }
            guard var picture = pixelBox(ofLayers: layers, in: inner) else { return nothing() }
            var clip: PlannedLayer.Clip?
            if let radius = layer.clipCornerRadius {
                // Only what the rounded frame keeps is drawn; the mask costs about one more pass.
                picture = picture.intersection(frameBox)
                guard !picture.isEmpty else { return nothing() }
                clip = PlannedLayer.Clip(frame: frame, radius: radius)
                work += Double(picture.width) * Double(picture.height)
            }
            let pictured = inner.picture(picture)
            work += Double(picture.width) * Double(picture.height) * 2
            let (planned, children) = plan(layers, in: pictured, adding: &work)
            let kind = PlannedLayer.Kind.pictured(planned, picture: picture, placement: pictured, curl: nil, clip: clip)
            let held = Double(picture.width) * Double(picture.height) + children
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: picture), held)
        case .curled(let layers, let curl):
            guard let page = pageBox(of: layer, in: placement) else { return nothing() }
            let pictured = placement.inside(layer, transform: transform).picture(page)
            let area = Double(page.width) * Double(page.height)
            // The curl maps, samples twice and layers every pixel, about as much as ten fills; it holds the page,
            // its padded copy and the curled page at once.
            work += area * 12
            let (planned, children) = plan(layers, in: pictured, adding: &work)
            let kind = PlannedLayer.Kind.pictured(planned, picture: page, placement: pictured, curl: curl, clip: nil)
            return (PlannedLayer(layer: layer, kind: kind, transform: transform, box: marked), area * 3 + children)
        }
    }

    /// Plans layers drawn one after another on one target; the most any of them holds beyond it.
    private func plan(_ layers: [Layer], in placement: Placement, adding work: inout Double)
        -> ([PlannedLayer], held: Double)
    {
        var held = 0.0
        let planned = layers.map { child in
            let (planned, inside) = plan(child, in: placement, adding: &work)
            held = max(held, inside)
            return planned
        }
        return (planned, held)
    }
}
