// The text benchmarks of issue 12, each on one thread:
//
//   text-paragraph-cold             --text-file F [--font-file F] [--text-size PX] [--text-width PX]: the file's
//                                   text shaped, laid out in a frame that wide (at one pixel per point) and
//                                   rasterised into a new, cleared Plane made before the stopwatch starts (as
//                                   the peers make theirs), with a fresh GlyphCache every trial
//   text-paragraph-shape            its first part: `typeset` alone (fonts found, HarfBuzz shaping)
//   text-paragraph-draw-warm        its second, warm: the same shaped text drawn again (layout and glyphs cached)
//   text-review-labels-warm         the text layers of fixtures/showcase-review.json (inside groups too, through
//                                   their transforms and opacities) drawn onto an existing 1170x2532 canvas, as
//                                   the scene renderer draws a text layer, glyph cache warm: the steady state
//   text-review-labels-groups-warm  the same text layers in their groups drawn by the scene renderer itself onto the
//                                   canvas it keeps: the dimmed groups each isolated in a picture of their own (in
//                                   the full screen their faces need those pictures anyway)
//   text-review-scene-warm          the same layers as a scene (groups kept) through SceneRenderer.render: a new
//                                   canvas filled with the background every frame, isolated groups drawn apart
@_spi(Benchmarks) import Compositor
import ImageCodecs
import SceneFormat
@_spi(Benchmarks) import Scenes
import Typesetting

#if canImport(Glibc)
    import Glibc
#endif

struct TextOptions {
    var textFile: String?
    var fontFile: String?
    var size = 17.0
    var width = 1170.0
}

enum TextBenchmarks {
    /// The repository's root, from this file's place in it, so that the fixture is found from any directory.
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Benchmarks/blurbench/Text.swift
        return parts.joined(separator: "/")
    }()

    static let names = [
        "text-paragraph-cold", "text-paragraph-shape", "text-paragraph-draw-warm", "text-review-labels-warm",
        "text-review-scene-warm",
    ]

    /// The text benchmarks when `filters` may select one of them (they load fonts and a scene); the paragraph's
    /// only with a text file.
    static func benchmarks(_ options: TextOptions, filters: [String]?) -> [Benchmark] {
        func selects(_ name: String) -> Bool { filters.map { $0.contains(where: name.contains) } ?? true }
        guard names.contains(where: selects) else { return [] }
        guard options.size > 0, options.size <= FontTypesetter.maximumSize, options.width > 0,
            options.width <= 100_000
        else {
            fail("--text-size must be above 0 and at most 16384, --text-width above 0 and at most 100000", status: 64)
        }
        var benchmarks = reviewLabels()
        if let textFile = options.textFile {
            if let fontFile = options.fontFile {
                guard let file = fopen(fontFile, "rb") else { fail("cannot open \(fontFile)", status: 66) }
                fclose(file)
            }
            benchmarks = paragraph(String(decoding: readFile(textFile), as: UTF8.self), options) + benchmarks
        } else if filters != nil, names[..<3].contains(where: selects) {
            // On stderr (fd 2: Swift 6 refuses the C global `stderr`), so that --json output stays JSON.
            let note = "blurbench: text-paragraph-cold needs --text-file (and --font-file, else the system face)\n"
            _ = note.withCString { write(2, $0, strlen($0)) }
        }
        return benchmarks
    }

    /// Stops blurbench with a one-line message and a sysexits status.
    static func fail(_ message: String, status: Int32) -> Never {
        print("blurbench: \(message)")
        exit(status)
    }

    /// The cold paragraph, then its parts: shaping alone (`typeset`), and drawing alone (the same shaped text,
    /// its layout and glyphs cached).
    static func paragraph(_ text: String, _ options: TextOptions) -> [Benchmark] {
        let style = TextStyle(
            font: options.fontFile.map { .file($0) } ?? .system, size: options.size, alignment: .leading)
        let width = options.width
        // An unbounded height holds every line with the block's top at the frame's (no vertical centring), as
        // the peers draw it from the canvas's top; laid out once here for the plane's size.
        let height = Double.infinity
        /// A typesetter with an empty glyph cache of its own: nothing of an earlier trial is reused.
        func freshTypesetter() -> FontTypesetter {
            FontTypesetter(glyphCache: GlyphCache(byteLimit: 64 << 20))
        }
        let shaped: any TypesetText
        do {
            shaped = try freshTypesetter().typeset(text, style: style)
        } catch {
            fail("\(options.fontFile ?? "the system face"): \(error)", status: 65)
        }
        let ink = shaped.inkBounds(frameWidth: width, height: height)
        let planeHeight = Int((ink.map { $0.y + $0.height } ?? 1).rounded(.up)) + 1
        let planeWidth = Int(width.rounded(.up))
        let megapixels = Double(planeWidth * planeHeight) / 1e6
        // A new plane before every cold trial, its pages touched, outside the stopwatch: the peers make and clear
        // their canvas (`Image.new`, `Surface.MakeRaster` + `clear`) before theirs starts.
        final class Canvas { var plane = Plane(width: 1, height: 1) }
        let canvas = Canvas()
        func newPlane() { canvas.plane = Plane(width: planeWidth, height: planeHeight, fill: 0) }
        func draw(_ typeset: any TypesetText, into plane: Plane) -> Int {
            typeset.addCoverage(frameWidth: width, height: height, through: .identity, into: plane)
            return Int(plane[planeWidth / 2, planeHeight / 2]) &+ Int(plane[1, 10])
        }
        func draw(_ typeset: any TypesetText) -> Int {
            draw(typeset, into: Plane(width: planeWidth, height: planeHeight))
        }
        _ = draw(shaped)
        return [
            Benchmark(name: "text-paragraph-cold", megapixels: megapixels, prepare: newPlane) {
                let typeset = try freshTypesetter().typeset(text, style: style)
                return draw(typeset, into: canvas.plane)
            },
            Benchmark(name: "text-paragraph-shape", megapixels: megapixels) {
                // Shaping calls into HarfBuzz, which the optimiser cannot drop; no layout is asked for.
                _ = try freshTypesetter().typeset(text, style: style)
                return 1
            },
            Benchmark(name: "text-paragraph-draw-warm", megapixels: megapixels) { draw(shaped) },
        ]
    }

    /// A text layer with what the canvas needs to draw it: the map from its frame's coordinates to the canvas's
    /// pixels, and its opacity times its groups'.
    struct Label {
        var text: any TypesetText
        var color: RGBAColor
        var frame: Rect
        var canvasFromFrame: AffineTransform2D
        var opacity: Double
        var blend: CompositeOperator
    }

    static func reviewLabels() -> [Benchmark] {
        let path = root + "/fixtures/showcase-review.json"
        let cache = GlyphCache(byteLimit: 64 << 20)
        // Only the text is kept, so the pictures are never decoded.
        var file = SceneFile(
            directory: root + "/fixtures", maxPixels: 1 << 26, typesetter: FontTypesetter(glyphCache: cache),
            loadImage: { _ in Image(width: 1, height: 1) })
        var scene: Scene
        do {
            scene = try file.scene(fromJSON: readFile(path))
        } catch {
            fail("\(path): \(error)", status: 65)
        }
        scene.layers = textOnly(scene.layers)
        var labels: [Label] = []
        collect(
            scene.layers, canvasFromLocal: AffineTransform2D(scaleX: scene.scale, y: scene.scale),
            bounds: Rect(x: 0, y: 0, width: scene.width, height: scene.height), opacity: 1, into: &labels)
        let canvas = Image(
            width: scene.pixelWidth, height: scene.pixelHeight, fill: scene.background.premultipliedPixel)
        let space = scene.space
        draw(labels, onto: canvas, space: space)  // the glyph cache warmed once
        let renderer = SceneRenderer(threads: 1)
        let megapixels = Double(canvas.pixelCount) / 1e6
        return [
            Benchmark(name: "text-review-labels-warm", megapixels: megapixels) {
                draw(labels, onto: canvas, space: space)
                return Int(canvas[canvas.width / 2, 790 * 3].red) &+ labels.count
            },
            Benchmark(name: "text-review-labels-groups-warm", megapixels: megapixels) {
                try renderer.drawLayers(of: scene, onto: canvas)
                return Int(canvas[canvas.width / 2, 790 * 3].red)
            },
            Benchmark(name: "text-review-scene-warm", megapixels: megapixels) {
                let image = try renderer.render(scene)
                return Int(image[image.width / 2, 790 * 3].red)
            },
        ]
    }

    /// The layers with every one that is not text left out, groups kept (without their other layers) while they
    /// hold some text.
    static func textOnly(_ layers: [Layer]) -> [Layer] {
        layers.compactMap { layer in
            switch layer.content {
            case .text: return layer
            case .group(let children):
                let kept = textOnly(children)
                guard !kept.isEmpty else { return nil }
                var group = layer
                group.content = .group(kept)
                return group
            default: return nil
            }
        }
    }

    /// The text layers with their frames' maps to the canvas, walked as `SceneRenderer` places layers: a
    /// layer's transform acts about its frame's centre, a group's layers start at its frame's top left. A
    /// group's opacity is multiplied into its text's (the renderer isolates such a group; with one text layer
    /// in each, as here, the pixels differ by rounding only).
    static func collect(
        _ layers: [Layer], canvasFromLocal: AffineTransform2D, bounds: Rect, opacity: Double, into labels: inout [Label]
    ) {
        for layer in layers where layer.opacity > 0 {
            let frame = layer.frame ?? bounds
            guard frame.width > 0, frame.height > 0 else { continue }
            let centre = frame.center
            let placed = AffineTransform2D(translationX: -centre.x, y: -centre.y)
                .concatenating(layer.transform)
                .concatenating(AffineTransform2D(translationX: centre.x, y: centre.y))
                .concatenating(canvasFromLocal)
            guard placed.inverted() != nil else { continue }
            let canvasFromFrame = AffineTransform2D(translationX: frame.x, y: frame.y).concatenating(placed)
            switch layer.content {
            case .text(let text, let color):
                labels.append(
                    Label(
                        text: text, color: color, frame: frame, canvasFromFrame: canvasFromFrame,
                        opacity: opacity * layer.opacity, blend: layer.blend))
            case .group(let children):
                collect(
                    children, canvasFromLocal: layer.frame == nil ? placed : canvasFromFrame,
                    bounds: layer.frame == nil ? bounds : Rect(x: 0, y: 0, width: frame.width, height: frame.height),
                    opacity: opacity * layer.opacity, into: &labels)
            default: break
            }
        }
    }

    /// Each label as the scene renderer draws a text layer: its coverage over the pixels its ink touches, into a
    /// mask of that size, then its colour filled through the mask, on one thread.
    static func draw(_ labels: [Label], onto canvas: Image, space: WorkingSpace) {
        for label in labels {
            guard let ink = label.text.inkBounds(frameWidth: label.frame.width, height: label.frame.height) else {
                continue
            }
            let box = label.canvasFromFrame.apply(toRect: (ink.x, ink.y, ink.width, ink.height))
            let left = max(Int(box.x.rounded(.down)), 0)
            let top = max(Int(box.y.rounded(.down)), 0)
            let right = min(Int((box.x + box.width).rounded(.up)), canvas.width)
            let bottom = min(Int((box.y + box.height).rounded(.up)), canvas.height)
            guard right > left, bottom > top else { continue }
            let mask = Plane(width: right - left, height: bottom - top)
            label.text.addCoverage(
                frameWidth: label.frame.width, height: label.frame.height,
                through: label.canvasFromFrame.concatenating(
                    AffineTransform2D(translationX: -Double(left), y: -Double(top))),
                into: mask)
            canvas.fill(
                label.color, mask: mask, x: left, y: top, operator: label.blend, opacity: label.opacity, space: space,
                threads: 1)
        }
    }
}
