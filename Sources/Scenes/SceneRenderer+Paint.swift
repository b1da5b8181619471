import Compositor

extension SceneRenderer {
    /// A shape layer: its colour or gradient through the coverage of its rounded frame (no mask at all for a colour
    /// over a rectangle on whole pixels).
    func drawShape(
        _ paint: PlannedLayer.ShapePaint, frame: Rect, radius: Double, box: PixelBox, layer: Layer,
        transform: AffineTransform2D, target: Image, space: WorkingSpace
    ) {
        let mask = Coverage.roundedRectangle(frame, radius: radius, through: transform, over: box)
        switch paint {
        case .color(let color):
            if let mask {
                target.fill(
                    color, mask: mask, x: box.x, y: box.y, operator: layer.blend, opacity: layer.opacity,
                    space: space, threads: threads)
            } else {
                target.fill(
                    color, x: box.x, y: box.y, width: box.width, height: box.height, operator: layer.blend,
                    opacity: layer.opacity, space: space, threads: threads)
            }
        case .gradient(let paint):
            guard let gradientToParent = paint.gradientToParent(frame: frame) else { return }
            target.fill(
                paint.gradient, mask: mask ?? Plane(width: box.width, height: box.height, fill: 255), x: box.x,
                y: box.y, transform: gradientToParent.concatenating(transform), operator: layer.blend,
                opacity: layer.opacity, space: space, threads: threads)
        }
    }

    /// A backdrop's material with its gradient tint painted over it and then its dim, in a picture of its own
    /// (`material`, the material of `box` made without the dim, may be the frame cache's, which is only read).
    /// - Parameter transform: the frame's coordinates (its parent's) to the target's pixels.
    func tinted(
        _ material: Image, by paint: GradientFill, effect: Double, dim: Double, frame: Rect, box: PixelBox,
        transform: AffineTransform2D, space: WorkingSpace
    ) -> Image {
        let picture = Image(uninitializedWidth: material.width, height: material.height)
        picture.copyPixels(from: material)
        if let gradientToParent = paint.gradientToParent(frame: frame) {
            let toPicture = gradientToParent.concatenating(transform).concatenating(
                AffineTransform2D(translationX: -Double(box.x), y: -Double(box.y)))
            picture.fill(
                paint.gradient, mask: Plane(width: box.width, height: box.height, fill: 255), x: 0, y: 0,
                transform: toPicture, opacity: effect, space: space, threads: threads)
        }
        if dim > 0 {
            picture.fill(
                .black, x: 0, y: 0, width: box.width, height: box.height, opacity: dim, space: space,
                threads: threads)
        }
        return picture
    }
}
