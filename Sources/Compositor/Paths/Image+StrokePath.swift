extension Coverage {
    /// The coverage of `path` stroked with `style` and drawn through `transform` (path units to pixels), over
    /// the whole pixels the stroke touches within `clip`: that box and its plane, or nil when there are none
    /// (an empty path, a stroke outside the clip, a width that is negative or not finite, a transform that is
    /// not invertible, or a path refused as `Coverage.path` refuses one).
    ///
    /// The stroke is built in path units, as Core Graphics strokes in user space and then transforms, so the
    /// width scales with the transform: curves are flattened, and round joins and caps drawn, to `tolerance`
    /// pixels divided by the transform's largest scale (`Path.defaultFlatteningTolerance`; NaN means the
    /// default, below 0.001 px is 0.001), so the stroke is as smooth at scale 3 as at 1. Dashes are cut along
    /// the flattened path (`PathStroker.dashes`). A width of 0 is a hairline: the path, dashed in its units,
    /// is stroked in pixels one pixel wide with the style's caps and joins. The stroke's outline
    /// (`PathStroker`) is then filled by non-zero with the exact-area rasteriser: the same bytes for every
    /// thread count.
    ///
    /// Bounded work: the half-width is at most 10¹⁵ px after the transform (wider covers any image just the
    /// same), and curves, joins, dashes and the outline have the caps their types state.
    package static func stroke(
        _ path: Path, style: StrokeStyle, through transform: AffineTransform2D, within clip: PixelBox,
        tolerance: Double = Path.defaultFlatteningTolerance, threads: Int = Parallel.processorCount
    ) -> (box: PixelBox, plane: Plane)? {
        guard
            let (box, outline) = strokeOutline(
                path, style: style, through: transform, within: clip, tolerance: tolerance)
        else { return nil }
        return (box, PathRasterizer.coverage(of: outline, rule: .nonZero, over: box, threads: threads))
    }

    /// The stroke's outline in pixels (filled by non-zero) and the box of whole pixels it touches within `clip`,
    /// as `stroke` rasterises them; nil when that call gives nil.
    static func strokeOutline(
        _ path: Path, style: StrokeStyle, through transform: AffineTransform2D, within clip: PixelBox,
        tolerance: Double
    ) -> (box: PixelBox, outline: FlattenedPath)? {
        guard !clip.isEmpty, style.width >= 0, style.width.isFinite, let inverse = transform.inverted() else {
            return nil
        }
        let pixelTolerance = tolerance.isNaN ? Path.defaultFlatteningTolerance : max(tolerance, 0.001)
        // The largest and smallest lengths the transform gives a unit vector (its singular values).
        let sumOfSquares =
            transform.a * transform.a + transform.b * transform.b + transform.c * transform.c
            + transform.d * transform.d
        let determinant = transform.a * transform.d - transform.b * transform.c
        let largestScale =
            ((sumOfSquares
            + max(sumOfSquares * sumOfSquares - 4 * determinant * determinant, 0)
            .squareRoot()) / 2).squareRoot()
        guard largestScale.isFinite, largestScale > 0, transform.tx.isFinite, transform.ty.isFinite else { return nil }
        let hairline = style.width == 0
        let userTolerance = pixelTolerance / largestScale
        let halfWidth = min(style.width / 2, Path.maximumPixelCoordinate / largestScale)
        // How far the stroke reaches from the path, in pixels: the clip in path units, grown by that much,
        // is where curves must be flattened rather than replaced by chords.
        let reachFactor = max(
            style.join == .miter && style.miterLimit > 1 ? style.miterLimit : 1,
            style.cap == .square ? 2.0.squareRoot() : 1)
        let pixelReach = (hairline ? 0.5 : halfWidth * largestScale) * reachFactor + 1
        let corners = [
            (clip.x, clip.y), (clip.x + clip.width, clip.y), (clip.x, clip.y + clip.height),
            (clip.x + clip.width, clip.y + clip.height),
        ].map {
            inverse.apply(to: (Double($0.0), Double($0.1)))
        }
        let userReach = pixelReach * (largestScale / abs(determinant))
        let userClip = (
            minX: corners.map(\.x).min()! - userReach, minY: corners.map(\.y).min()! - userReach,
            maxX: corners.map(\.x).max()! + userReach, maxY: corners.map(\.y).max()! + userReach
        )
        guard let flattened = PathFlattener.polylines(path, tolerance: userTolerance, clip: userClip) else {
            return nil
        }
        // The path itself must be drawable, as a fill's is: within ±10¹⁵ px after the transform.
        for (x, y) in zip(flattened.xs, flattened.ys) {
            let point = transform.apply(to: (x, y))
            guard abs(point.x) <= Path.maximumPixelCoordinate, abs(point.y) <= Path.maximumPixelCoordinate else {
                return nil
            }
        }
        var outline: FlattenedPath
        if hairline {
            var stroker = PathStroker(halfWidth: 0.5, style: style, tolerance: pixelTolerance)
            for var line in dashedPolylines(flattened, style: style) {
                line.points = line.points.map { transform.apply(to: $0) }
                let direction = transform.apply(to: line.direction)
                let origin = transform.apply(to: (0, 0))
                line.direction = (direction.x - origin.x, direction.y - origin.y)
                stroker.add(line)
            }
            outline = stroker.outline
        } else {
            var stroker = PathStroker(halfWidth: halfWidth, style: style, tolerance: userTolerance)
            stroker.reserve(for: flattened)
            if style.evenDashes == nil {
                // Each subpath straight from the flattening (no polylines of its own to allocate).
                for index in flattened.ends.indices { stroker.add(flattened, subpath: index) }
            } else {
                for line in dashedPolylines(flattened, style: style) { stroker.add(line) }
            }
            outline = stroker.outline
            for index in outline.xs.indices {
                (outline.xs[index], outline.ys[index]) = transform.apply(to: (outline.xs[index], outline.ys[index]))
            }
        }
        guard let box = pixelBox(of: outline, within: clip) else { return nil }
        return (box, outline)
    }

    /// The subpaths of `flattened` as polylines, cut into the style's dashes if it has any.
    private static func dashedPolylines(_ flattened: FlattenedPath, style: StrokeStyle) -> [StrokePolyline] {
        let lines = StrokePolyline.all(in: flattened)
        guard let pattern = style.evenDashes else { return lines }
        return PathStroker.dashes(of: lines, pattern: pattern, phase: style.dashPhase) ?? lines
    }
}

extension Image {
    /// Strokes `path` with `color` in `style` (width, caps, joins, miter limit, dashes), anti-aliased by exact
    /// area coverage, as SVG's `stroke` and Core Graphics' `strokePath` draw one.
    ///
    /// The path is stroked in its own units and mapped to this image's pixels by `transform`, so the width
    /// scales with it (a width of 0 is a one-pixel hairline); see `Coverage.stroke` for the tolerance and the
    /// bounds on the work. The coverage acts as the mask of `fill(_:mask:x:y:…)`, with that call's operator,
    /// opacity, working space and threads; pixels the stroke does not cover are left as they are. Where the
    /// stroke overlaps itself it is drawn once, as SVG draws it. The same bytes for every thread count.
    public func stroke(
        _ path: Path, style: StrokeStyle, color: RGBAColor, transform: AffineTransform2D = .identity,
        operator op: CompositeOperator = .sourceOver, opacity: Double = 1, space: WorkingSpace = .srgb,
        tolerance: Double = Path.defaultFlatteningTolerance, threads: Int = Parallel.processorCount
    ) {
        let canvas = PixelBox(x: 0, y: 0, width: width, height: height)
        guard
            let (box, outline) = Coverage.strokeOutline(
                path, style: style, through: transform, within: canvas, tolerance: tolerance)
        else { return }
        PathRasterizer.paint(
            outline, rule: .nonZero, over: box, threads: threads,
            with: RowPainter(
                op, solid: color.unitPixel, opacity: opacity, space: space, pixels: box.width * box.height),
            onto: self)
    }
}
