// The vector path benchmarks of issue 30, each on the threads asked for (one in the peer comparison):
//
//   paths-icons-fill     --paths-file F: the file's `icon` rows filled (non-zero) onto a new, cleared canvas
//   paths-icons-stroke   the same rows stroked (their width, round joins and caps), nothing filled
//   paths-icons          each icon filled, then stroked in its outline colour: an outlined icon sheet
//   paths-outline        the file's `outline` row filled: one large path of many segments
//
// The file is written by Benchmarks/peers/peer_paths.py, which draws the same rows with skia-python and pycairo:
// one row a line, tab-separated: kind (icon | outline), fill colour, stroke colour (#rrggbbaa), stroke width in
// path units, the transform "a b c d tx ty" from path units to canvas pixels, SVG path data. The first line is
// "canvas WIDTH HEIGHT". Paths are parsed before the stopwatch, as the peers build theirs before theirs.
// --paths-picture F.png adds paths-icons-picture: paths-icons, then its canvas written to F (for the script's pixel
// comparison; the encoding makes its time meaningless). --paths-tolerance PX flattens curves to PX pixels instead of
// the library's default (0.02 px; NaN or no number: the default), e.g. cairo's own 0.1 for a like-for-like run.
import Compositor
import ImageCodecs

#if canImport(Glibc)
    import Glibc
#endif

struct PathOptions {
    var pathsFile: String?
    var picture: String?
    /// Pixels a flattened curve may stray (`Image.fill`'s `tolerance`).
    var tolerance = Path.defaultFlatteningTolerance
}

enum PathBenchmarks {
    static let names = ["paths-icons-fill", "paths-icons-stroke", "paths-icons", "paths-outline"]

    /// One row of the file, parsed.
    struct Row {
        var kind: String
        var path: Path
        var fill: RGBAColor
        var stroke: RGBAColor
        var style: StrokeStyle
        var transform: AffineTransform2D
    }

    static func benchmarks(_ options: PathOptions, filters: [String]?, threads: Int) -> [Benchmark] {
        guard let file = options.pathsFile else {
            if let filters, names.contains(where: { name in filters.contains(where: name.contains) }) {
                let note = "blurbench: the paths benchmarks need --paths-file (peer_paths.py writes one)\n"
                _ = note.withCString { write(2, $0, strlen($0)) }
            }
            return []
        }
        let (width, height, rows) = read(file)
        let icons = rows.filter { $0.kind == "icon" }
        let outline = rows.filter { $0.kind == "outline" }
        let megapixels = Double(width * height) / 1e6
        final class Canvas { var image = Image(width: 1, height: 1) }
        let canvas = Canvas()
        // A new canvas cleared to white before every trial, outside the stopwatch, as the peers make theirs.
        func newCanvas() {
            canvas.image = Image(width: width, height: height, fill: Pixel(red: 255, green: 255, blue: 255))
        }
        let tolerance = options.tolerance
        func draw(_ rows: [Row], fill: Bool, stroke: Bool) -> Int {
            let image = canvas.image
            for row in rows {
                if fill {
                    image.fill(
                        row.path, color: row.fill, transform: row.transform, tolerance: tolerance, threads: threads)
                }
                if stroke {
                    image.stroke(
                        row.path, style: row.style, color: row.stroke, transform: row.transform, tolerance: tolerance,
                        threads: threads)
                }
            }
            return Int(image[width / 2, height / 2].red) &+ Int(image[width / 3, height / 3].green)
        }
        var benchmarks: [Benchmark] = []
        if !icons.isEmpty {
            benchmarks += [
                Benchmark(name: "paths-icons-fill", megapixels: megapixels, prepare: newCanvas) {
                    draw(icons, fill: true, stroke: false)
                },
                Benchmark(name: "paths-icons-stroke", megapixels: megapixels, prepare: newCanvas) {
                    draw(icons, fill: false, stroke: true)
                },
                Benchmark(name: "paths-icons", megapixels: megapixels, prepare: newCanvas) {
                    draw(icons, fill: true, stroke: true)
                },
            ]
            if let picture = options.picture {
                benchmarks.append(
                    Benchmark(name: "paths-icons-picture", megapixels: megapixels, prepare: newCanvas) {
                        let sum = draw(icons, fill: true, stroke: true)
                        writePicture(canvas.image, to: picture)
                        return sum
                    })
            }
        }
        if !outline.isEmpty {
            benchmarks.append(
                Benchmark(name: "paths-outline", megapixels: megapixels, prepare: newCanvas) {
                    draw(outline, fill: true, stroke: false)
                })
        }
        return benchmarks
    }

    static func writePicture(_ image: Image, to path: String) {
        guard let bytes = try? ImageEncoder.encode(image, as: .png), let file = fopen(path, "wb") else {
            TextBenchmarks.fail("cannot write \(path)", status: 73)
        }
        let written = fwrite(bytes, 1, bytes.count, file)
        guard fclose(file) == 0, written == bytes.count else { TextBenchmarks.fail("cannot write \(path)", status: 73) }
    }

    static func read(_ file: String) -> (width: Int, height: Int, rows: [Row]) {
        let lines = String(decoding: readFile(file), as: UTF8.self).split(separator: "\n")
        let header = lines.first?.split(separator: " ") ?? []
        guard header.count == 3, header[0] == "canvas", let width = Int(header[1]), let height = Int(header[2]),
            (1...20_000).contains(width), (1...20_000).contains(height)
        else { TextBenchmarks.fail("\(file): the first line must be \"canvas WIDTH HEIGHT\"", status: 65) }
        var rows: [Row] = []
        for (number, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            func bad(_ what: String) -> Never { TextBenchmarks.fail("\(file):\(number + 2): \(what)", status: 65) }
            guard fields.count == 6 else { bad("six tab-separated fields expected") }
            guard let fill = RGBAColor(css: String(fields[1])), let stroke = RGBAColor(css: String(fields[2])),
                let strokeWidth = Double(fields[3])
            else { bad("colours or stroke width unreadable") }
            let numbers = fields[4].split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 6 else { bad("the transform needs six numbers") }
            let path: Path
            do { path = try Path(svgPathData: String(fields[5])) } catch { bad("\(error)") }
            rows.append(
                Row(
                    kind: String(fields[0]), path: path, fill: fill, stroke: stroke,
                    style: StrokeStyle(width: strokeWidth, cap: .round, join: .round),
                    transform: AffineTransform2D(
                        a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], tx: numbers[4], ty: numbers[5])))
        }
        return (width, height, rows)
    }
}
