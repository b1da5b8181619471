import Compositor
import Scenes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An image layer whose `path` names an SVG file (`.svg`) draws the file's shapes as path layers: the subset icon
/// sets use (`svg` with `viewBox`, `width`, `height`; `g`; `path`, `rect`, `circle`, `ellipse`, `line`, `polygon`,
/// `polyline`; `transform`; `fill`, `fill-rule`, `fill-opacity`, `opacity`, and `stroke` with its `-width`,
/// `-linecap`, `-linejoin`, `-miterlimit`, `-dasharray`, `-dashoffset`, `-opacity`, as attributes or `style`
/// declarations; `defs`, `title`, `desc`, `metadata` skipped). The view box is drawn in the frame scaled to fit
/// and centred (`preserveAspectRatio` xMidYMid meet; `fit` does not apply). Anything else that would draw (text,
/// images, `use`, clips, masks, filters, paints by `url(…)`) is refused with a message naming it; the XML is read
/// without a DTD, entities or external references (`XMLElement`), at most 4 MiB.
extension SceneFile {
    static let maximumSVGBytes = 4 << 20

    struct SVGFailure: Error, CustomStringConvertible {
        var description: String
    }

    func svg(_ file: String, path: String) throws(SceneFileError) -> Layer.Content {
        let resolved = resolve(file)
        let bytes: [UInt8]
        let root: XMLElement
        do {
            bytes = try SceneFile.readBounded(resolved, limit: SceneFile.maximumSVGBytes)
            root = try XMLElement.parse(bytes)
        } catch {
            throw .image(path: path, file: resolved, underlying: error)
        }
        do {
            return .group(try SVGDrawing(root: root).layers())
        } catch {
            throw .image(path: path, file: resolved, underlying: error)
        }
    }

    /// An SVG document's bytes as the layers an image layer draws (the fuzz target's entry; see `svg`).
    package static func svgLayers(_ bytes: [UInt8]) throws -> [Layer] {
        try SVGDrawing(root: try XMLElement.parse(bytes)).layers()
    }

    /// A regular file's bytes, refused past `limit` (a device or a 1 GB file costs nothing).
    static func readBounded(_ file: String, limit: Int) throws -> [UInt8] {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SVGFailure(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw SVGFailure(description: "not a regular file")
        }
        guard Int(status.st_size) <= limit else { throw SVGFailure(description: "larger than \(limit >> 20) MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw SVGFailure(description: String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else { throw SVGFailure(description: "larger than \(limit >> 20) MiB") }
        return Array(bytes[0..<count])
    }
}

/// An SVG element tree turned into path layers (see `SceneFile.svg`).
struct SVGDrawing {
    let root: XMLElement

    /// What `fill` and friends inherit down the tree.
    struct Paint {
        var fill: RGBAColor? = .black
        var fillOpacity = 1.0
        var rule = FillRule.nonZero
        var transform = AffineTransform2D.identity
        var stroke: RGBAColor?
        var strokeOpacity = 1.0
        var style = StrokeStyle()
        var dashes: [Double] = []
        var dashOffset = 0.0
    }

    func layers() throws(SceneFile.SVGFailure) -> [Layer] {
        guard root.name == "svg" else { throw SceneFile.SVGFailure(description: "the root element is not <svg>") }
        let viewBox = try self.viewBox()
        var paint = Paint()
        return try children(of: root, paint: &paint, viewBox: viewBox)
    }

    /// The view box, else 0 0 width height; one of them is needed to place the drawing.
    private func viewBox() throws(SceneFile.SVGFailure) -> Rect {
        if let text = root.attributes["viewBox"] {
            let numbers = SVGDrawing.numbers(text)
            guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else {
                throw SceneFile.SVGFailure(
                    description: "viewBox \(text.quotedForMessage(limit: 40)) is not a positive box")
            }
            return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        guard let width = root.attributes["width"].flatMap(SVGDrawing.length),
            let height = root.attributes["height"].flatMap(SVGDrawing.length), width > 0, height > 0
        else { throw SceneFile.SVGFailure(description: "<svg> has neither a viewBox nor a width and height") }
        return Rect(x: 0, y: 0, width: width, height: height)
    }

    private func children(
        of element: XMLElement, paint: inout Paint, viewBox: Rect
    ) throws(SceneFile.SVGFailure)
        -> [Layer]
    {
        var layers: [Layer] = []
        for child in element.children {
            if ["defs", "title", "desc", "metadata"].contains(child.name) { continue }
            var inner = paint
            let properties = try SVGDrawing.properties(of: child)
            if let transform = child.attributes["transform"] {
                inner.transform = try SVGDrawing.transform(transform).concatenating(paint.transform)
            }
            try SVGDrawing.apply(properties, to: &inner)
            let opacity = try properties["opacity"].map(SVGDrawing.unit) ?? 1
            if child.name == "g" {
                var group = Layer.group(try children(of: child, paint: &inner, viewBox: viewBox), opacity: opacity)
                group.name = child.attributes["id"]
                layers.append(group)
                continue
            }
            guard let shape = try SVGDrawing.shape(child), !shape.isEmpty else { continue }
            // A line has no inside; everything else fills, then strokes. The path keeps the element's units and
            // its transform goes into the mapping, so a stroke's width scales with it as SVG's does.
            var fill = child.name == "line" ? nil : inner.fill
            fill?.alpha *= inner.fillOpacity
            var vector = VectorShape(shape, viewBox: viewBox, fill: fill, fillRule: inner.rule)
            vector.transform = inner.transform
            if var color = inner.stroke {
                color.alpha *= inner.strokeOpacity
                var style = inner.style
                // SVG ignores a dash array with a negative entry or of zeros: the line is solid.
                if !inner.dashes.isEmpty { style = (try? style.dashed(inner.dashes, phase: inner.dashOffset)) ?? style }
                vector.stroke = PathStroke(color: color, style: style)
            }
            guard vector.fill != nil || vector.stroke != nil else { continue }
            layers.append(.path(vector, opacity: opacity))
        }
        return layers
    }
}
