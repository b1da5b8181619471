extension Coverage {
    /// The coverage of `path` filled by `rule` and drawn through `transform` (path units to pixels), over the
    /// whole pixels its flattened outline touches within `clip`: that box and its plane, or nil when there are
    /// none (an empty path, one outside the clip, or one refused because a point is not finite or beyond
    /// ±10¹⁵ px after the transform).
    ///
    /// Curves are flattened after the transform, to `tolerance` pixels (`Path.defaultFlatteningTolerance`;
    /// NaN means the default, and below 0.001 px is 0.001); the coverage is the exact area of the flattened
    /// outline (`PathRasterizer`), the same bytes for every thread count.
    package static func path(
        _ path: Path, rule: FillRule, through transform: AffineTransform2D, within clip: PixelBox,
        tolerance: Double = Path.defaultFlatteningTolerance, threads: Int = Parallel.processorCount
    ) -> (box: PixelBox, plane: Plane)? {
        guard let (box, polygons) = outline(path, through: transform, within: clip, tolerance: tolerance) else {
            return nil
        }
        return (box, PathRasterizer.coverage(of: polygons, rule: rule, over: box, threads: threads))
    }

    /// `path`'s flattened outline in pixels and the box of whole pixels it touches within `clip`, as `path`
    /// rasterises them; nil when that call gives nil.
    static func outline(
        _ path: Path, through transform: AffineTransform2D, within clip: PixelBox, tolerance: Double
    ) -> (box: PixelBox, polygons: FlattenedPath)? {
        guard !clip.isEmpty else { return nil }
        let clipEdges = (
            minX: Double(clip.x), minY: Double(clip.y), maxX: Double(clip.x + clip.width),
            maxY: Double(clip.y + clip.height)
        )
        guard let polygons = PathFlattener.flatten(path, through: transform, tolerance: tolerance, clip: clipEdges),
            let box = pixelBox(of: polygons, within: clip)
        else { return nil }
        return (box, polygons)
    }

    /// The whole pixels within `clip` that the polygons' vertices span, nil when none.
    static func pixelBox(of polygons: FlattenedPath, within clip: PixelBox) -> PixelBox? {
        guard let bounds = polygons.bounds else { return nil }
        let columns = clip.x...(clip.x + clip.width)
        let rows = clip.y...(clip.y + clip.height)
        let left = Int(saturating: bounds.minX.rounded(.down), within: columns)
        let top = Int(saturating: bounds.minY.rounded(.down), within: rows)
        let right = Int(saturating: bounds.maxX.rounded(.up), within: columns)
        let bottom = Int(saturating: bounds.maxY.rounded(.up), within: rows)
        let box = PixelBox(x: left, y: top, width: right - left, height: bottom - top)
        return box.isEmpty ? nil : box
    }
}

extension Image {
    /// Fills `path` with `color`, anti-aliased by exact area coverage, as SVG's `fill` and Core Graphics'
    /// `fillPath` draw one.
    ///
    /// The path is mapped to this image's pixels by `transform` and filled by `rule`; its coverage then acts
    /// as the mask of `fill(_:mask:x:y:…)`, over the whole pixels the outline touches within the image, with
    /// that call's operator, opacity, working space and threads (pixels the path does not cover are left as
    /// they are, whatever the operator). Curves are flattened after the transform, within `tolerance` pixels
    /// (see `Path.defaultFlatteningTolerance`; NaN means the default, below 0.001 is 0.001), so the path is as
    /// smooth at any scale. A path with a point that is not finite or lies beyond ±10¹⁵ px after the transform
    /// draws nothing, and curves reaching far outside the image cost only their pieces near it. The same bytes
    /// for every thread count.
    public func fill(
        _ path: Path, color: RGBAColor, rule: FillRule = .nonZero, transform: AffineTransform2D = .identity,
        operator op: CompositeOperator = .sourceOver, opacity: Double = 1, space: WorkingSpace = .srgb,
        tolerance: Double = Path.defaultFlatteningTolerance, threads: Int = Parallel.processorCount
    ) {
        let canvas = PixelBox(x: 0, y: 0, width: width, height: height)
        guard let (box, polygons) = Coverage.outline(path, through: transform, within: canvas, tolerance: tolerance)
        else { return }
        PathRasterizer.paint(
            polygons, rule: rule, over: box, threads: threads,
            with: RowPainter(
                op, solid: color.unitPixel, opacity: opacity, space: space, pixels: box.width * box.height),
            onto: self)
    }
}
