import Compositor
import Scenes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `blurtool curve --format png`: the curve over its duration on a 480×320 plot, drawn as a scene of shapes
/// (the product's own anti-aliased coverage), with a quarter grid and darker lines at the 0 and 1 levels and at
/// t = 0. The value axis spans 0…1 and whatever the curve overshoots or undershoots, so a spring's bounce shows.
struct CurvePlot {
    let request: CurveRequest

    static let width = 480.0
    static let height = 320.0
    static let margin = 24.0
    /// Points drawn per pixel of the plot's width: enough for the steepest spring to look smooth.
    static let pointsPerPixel = 2.0
    static let lineWidth = 2.5

    private static let gridColor = RGBAColor(rgbHex: 0xE5E5EA)
    private static let levelColor = RGBAColor(rgbHex: 0x8E8E93)
    private static let curveColor = RGBAColor(rgbHex: 0x007AFF)

    func render() throws(ToolFailure) -> Image {
        let inner = (width: CurvePlot.width - 2 * CurvePlot.margin, height: CurvePlot.height - 2 * CurvePlot.margin)
        let points = request.points(count: Int(inner.width * CurvePlot.pointsPerPixel) + 1)
        let low = min(0, points.map(\.value).min()!)
        let high = max(1, points.map(\.value).max()!)
        let padding = 0.05 * (high - low)
        let (bottom, top) = (low - padding, high + padding)
        let duration = request.duration
        func x(_ time: Double) -> Double { CurvePlot.margin + time / duration * inner.width }
        func y(_ value: Double) -> Double { CurvePlot.margin + (top - value) / (top - bottom) * inner.height }

        var layers: [Layer] = []
        func line(_ from: (Double, Double), _ to: (Double, Double), width: Double, color: RGBAColor) {
            let length = hypot(to.0 - from.0, to.1 - from.1)
            let centre = ((from.0 + to.0) / 2, (from.1 + to.1) / 2)
            // A capsule as long as the segment plus its round caps, turned about its centre onto the segment.
            layers.append(
                .shape(
                    .capsule, color: color,
                    frame: Rect(
                        x: centre.0 - (length + width) / 2, y: centre.1 - width / 2, width: length + width,
                        height: width),
                    transform: AffineTransform2D(rotationAngle: atan2(to.1 - from.1, to.0 - from.0))))
        }
        for quarter in 0...4 {
            let time = duration * Double(quarter) / 4
            line(
                (x(time), y(top)), (x(time), y(bottom)), width: quarter == 0 ? 1.5 : 1,
                color: quarter == 0 ? CurvePlot.levelColor : CurvePlot.gridColor)
        }
        for level in [0.25, 0.5, 0.75] {
            line((x(0), y(level)), (x(duration), y(level)), width: 1, color: CurvePlot.gridColor)
        }
        for level in [0.0, 1.0] {
            line((x(0), y(level)), (x(duration), y(level)), width: 1.5, color: CurvePlot.levelColor)
        }
        for (start, end) in zip(points, points.dropFirst()) {
            line(
                (x(start.time), y(start.value)), (x(end.time), y(end.value)), width: CurvePlot.lineWidth,
                color: CurvePlot.curveColor)
        }
        let scene = Scene(width: CurvePlot.width, height: CurvePlot.height, background: .white, layers: layers)
        do {
            return try SceneRenderer().render(scene)
        } catch {
            throw ToolFailure(.internalError, shownAs: nil, "drawing the plot: \(error)")
        }
    }
}
