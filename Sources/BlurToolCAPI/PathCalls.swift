import CBlurToolAPI
import Compositor

/// What both path calls read: the destination, the parsed path, its matrix, colour, operator, opacity and threads.
private struct PathCall {
    let destination: CallerBuffer
    let path: Path
    let transform: AffineTransform2D
    let color: RGBAColor
    let op: CompositeOperator
    let opacity: Double
    let threads: Int

    init(
        _ destinationPointer: UnsafePointer<blurtool_buffer_t>?, _ data: UnsafePointer<CChar>?,
        _ matrixPointer: UnsafePointer<Double>?, _ colorPointer: UnsafePointer<Double>?,
        _ op: UnsafePointer<CChar>?, _ opacity: Double, _ threads: Int32
    ) throws(CallFailure) {
        destination = try CallerBuffer(destinationPointer, "destination")
        do {
            path = try Path(svgPathData: try string(data, "svg_path_data"))
        } catch let failure as CallFailure {
            throw failure
        } catch {
            throw .data("svg_path_data: \(error)")
        }
        if matrixPointer == nil {
            transform = .identity
        } else {
            let m = try matrix(matrixPointer, count: 6)
            transform = AffineTransform2D(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
        }
        guard let colorPointer else { throw .argument("color", "is NULL") }
        var channels: [Double] = []
        for index in 0..<4 { channels.append(try finite(colorPointer[index], "color[\(index)]", in: 0...1)) }
        color = RGBAColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
        self.op = try compositeOperator(op)
        self.opacity = try finite(opacity, "opacity", in: 0...1)
        self.threads = try threadCount(threads)
    }

    /// Paints `color` through a coverage mask at its box, in the destination's pixels (nil: nothing to paint).
    func paint(_ coverage: (box: PixelBox, plane: Plane)?) {
        guard let (box, mask) = coverage else { return }
        let target = destination.premultiplied(box)
        target.fill(color, mask: mask, operator: op, opacity: opacity, threads: threads)
        destination.store(target, x: box.x, y: box.y)
    }
}

@_cdecl("blurtool_fill_path")
public func blurtool_fill_path(
    _ destinationPointer: UnsafePointer<blurtool_buffer_t>?, _ data: UnsafePointer<CChar>?,
    _ matrixPointer: UnsafePointer<Double>?, _ colorPointer: UnsafePointer<Double>?, _ rule: blurtool_fill_rule_t,
    _ op: UnsafePointer<CChar>?, _ opacity: Double, _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_fill_path") { () throws(CallFailure) in
        let call = try PathCall(destinationPointer, data, matrixPointer, colorPointer, op, opacity, threads)
        let fillRule: FillRule
        switch rule {
        case BLURTOOL_FILL_NONZERO: fillRule = .nonZero
        case BLURTOOL_FILL_EVENODD: fillRule = .evenOdd
        default: throw .argument("rule", "must be a blurtool_fill_rule_t, not \(rule.rawValue)")
        }
        call.paint(
            Coverage.path(
                call.path, rule: fillRule, through: call.transform, within: call.destination.whole,
                threads: call.threads))
    }
}

@_cdecl("blurtool_stroke_path")
public func blurtool_stroke_path(
    _ destinationPointer: UnsafePointer<blurtool_buffer_t>?, _ data: UnsafePointer<CChar>?,
    _ matrixPointer: UnsafePointer<Double>?, _ colorPointer: UnsafePointer<Double>?,
    _ strokePointer: UnsafePointer<blurtool_stroke_t>?, _ op: UnsafePointer<CChar>?, _ opacity: Double,
    _ threads: Int32
) -> blurtool_status_t {
    entry("blurtool_stroke_path") { () throws(CallFailure) in
        let call = try PathCall(destinationPointer, data, matrixPointer, colorPointer, op, opacity, threads)
        let style = try strokeStyle(strokePointer)
        call.paint(
            Coverage.stroke(
                call.path, style: style, through: call.transform, within: call.destination.whole,
                threads: call.threads))
    }
}

/// A `blurtool_stroke_t` checked and made a `StrokeStyle`.
private func strokeStyle(_ pointer: UnsafePointer<blurtool_stroke_t>?) throws(CallFailure) -> StrokeStyle {
    guard let stroke = pointer?.pointee else { throw .argument("stroke", "is NULL") }
    let width = try finite(stroke.width, "stroke->width", in: 0...1e15)
    let cap: StrokeStyle.LineCap
    switch stroke.cap {
    case BLURTOOL_CAP_BUTT: cap = .butt
    case BLURTOOL_CAP_ROUND: cap = .round
    case BLURTOOL_CAP_SQUARE: cap = .square
    default: throw .argument("stroke->cap", "must be a blurtool_line_cap_t, not \(stroke.cap.rawValue)")
    }
    let join: StrokeStyle.LineJoin
    switch stroke.join {
    case BLURTOOL_JOIN_MITER: join = .miter
    case BLURTOOL_JOIN_ROUND: join = .round
    case BLURTOOL_JOIN_BEVEL: join = .bevel
    default: throw .argument("stroke->join", "must be a blurtool_line_join_t, not \(stroke.join.rawValue)")
    }
    let limit = try finite(stroke.miter_limit, "stroke->miter_limit", in: 0...1e6)
    var style = StrokeStyle(width: width, cap: cap, join: join, miterLimit: limit == 0 ? 4 : limit)
    guard stroke.dash_count >= 0, stroke.dash_count <= 1 << 16 else {
        throw .argument("stroke->dash_count", "must be 0 to 65536, not \(stroke.dash_count)")
    }
    guard stroke.dash_count > 0 else { return style }
    guard let dashes = stroke.dashes else { throw .argument("stroke->dashes", "is NULL with a dash_count") }
    var pattern: [Double] = []
    for index in 0..<Int(stroke.dash_count) {
        pattern.append(try finite(dashes[index], "stroke->dashes[\(index)]", in: 0...1e15))
    }
    let phase = try finite(stroke.dash_phase, "stroke->dash_phase", in: -1e15...1e15)
    do {
        style = try style.dashed(pattern, phase: phase)
    } catch {
        throw .argument("stroke->dashes", "\(error)")
    }
    return style
}
