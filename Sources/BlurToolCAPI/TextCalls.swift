import CBlurToolAPI
import Compositor
import Scenes
import Typesetting

/// A `blurtool_label_t` checked and set: the text shaped in its style, its colour and its pixels per point.
private struct Label {
    let text: any TypesetText
    let color: RGBAColor
    let width: Double
    let scale: Double

    init(_ pointer: UnsafePointer<blurtool_label_t>?) throws(CallFailure) {
        guard let label = pointer?.pointee else { throw .argument("label", "is NULL") }
        let content = try string(label.text, "label->text")
        var style = TextStyle(size: try finite(label.size, "label->size", in: 0...FontTypesetter.maximumSize))
        guard style.size > 0 else { throw .argument("label->size", "must be above 0") }
        if label.font != nil {
            let font = try string(label.font, "label->font")
            style.font = font.hasPrefix("/") ? .file(font) : .family(font)
        }
        guard let weight = FontWeight(rawValue: Int(label.weight == 0 ? 400 : label.weight)) else {
            throw .argument("label->weight", "must be 100, 200, ... 900 (0: 400), not \(label.weight)")
        }
        style.weight = weight
        switch label.alignment {
        case BLURTOOL_ALIGN_NATURAL: style.alignment = .natural
        case BLURTOOL_ALIGN_LEADING: style.alignment = .leading
        case BLURTOOL_ALIGN_CENTER: style.alignment = .center
        case BLURTOOL_ALIGN_TRAILING: style.alignment = .trailing
        default: throw .argument("label->alignment", "must be a blurtool_alignment_t, not \(label.alignment.rawValue)")
        }
        guard label.line_limit >= 0 else {
            throw .argument("label->line_limit", "must be 0 or more, not \(label.line_limit)")
        }
        style.lineLimit = Int(label.line_limit)
        let (r, g, b, a) = label.color
        let channels = [
            try finite(r, "label->color[0]", in: 0...1), try finite(g, "label->color[1]", in: 0...1),
            try finite(b, "label->color[2]", in: 0...1), try finite(a, "label->color[3]", in: 0...1),
        ]
        color = RGBAColor(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
        width = try finite(label.width, "label->width", in: 0...1e7)
        let scale = try finite(label.scale, "label->scale", in: 0...1000)
        self.scale = scale > 0 ? scale : 1
        do {
            text = try FontTypesetter().typeset(content, style: style)
        } catch {
            throw .data("\(error)")
        }
    }

    /// The label's box in points.
    var size: Size { text.fittingSize(width: width) }
}

@_cdecl("blurtool_text_measure")
public func blurtool_text_measure(
    _ labelPointer: UnsafePointer<blurtool_label_t>?, _ width: UnsafeMutablePointer<Double>?,
    _ height: UnsafeMutablePointer<Double>?
) -> blurtool_status_t {
    entry("blurtool_text_measure") { () throws(CallFailure) in
        guard let width else { throw .argument("width", "is NULL") }
        guard let height else { throw .argument("height", "is NULL") }
        let label = try Label(labelPointer)
        let size = label.size
        width.pointee = size.width * label.scale
        height.pointee = size.height * label.scale
    }
}

@_cdecl("blurtool_text_draw")
public func blurtool_text_draw(
    _ labelPointer: UnsafePointer<blurtool_label_t>?, _ destinationPointer: UnsafePointer<blurtool_buffer_t>?,
    _ x: Double, _ y: Double
) -> blurtool_status_t {
    entry("blurtool_text_draw") { () throws(CallFailure) in
        let destination = try CallerBuffer(destinationPointer, "destination")
        let left = try finite(x, "x", in: -1e7...1e7)
        let top = try finite(y, "y", in: -1e7...1e7)
        let label = try Label(labelPointer)
        let frame = label.size
        guard let ink = label.text.inkBounds(frameWidth: frame.width, height: frame.height) else { return }
        // Frame points to destination pixels; the mask covers the ink's pixels within the destination only.
        let toPixels = AffineTransform2D(scaleX: label.scale, y: label.scale)
            .concatenating(AffineTransform2D(translationX: left, y: top))
        let box = PixelBox(covering: ink, through: toPixels, within: destination.width, destination.height)
            .intersection(destination.whole)
        guard !box.isEmpty else { return }
        let mask = Plane(width: box.width, height: box.height)
        label.text.addCoverage(
            frameWidth: frame.width, height: frame.height,
            through: toPixels.concatenating(AffineTransform2D(translationX: -Double(box.x), y: -Double(box.y))),
            into: mask)
        let target = destination.premultiplied(box)
        target.fill(label.color, mask: mask)
        destination.store(target, x: box.x, y: box.y)
    }
}
