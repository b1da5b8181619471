// blurbench: times the pipeline's stages on one image, in one process, and reports medians, megapixels
// per second and each stage's time as a multiple of one copy of the image (measured in the same run).
//
//   blurbench [--input PHOTO] [--filter TEXT[,TEXT…]] [--trials N] [--warmup N] [--threads N] [--scalar] [--json]
//             [--serve]
//
// --filter runs the benchmarks whose names contain any of the comma-separated texts (and the copies).
// `copy` is one memcpy into an existing buffer (the unit of the × copy column); `copy-new` allocates the
// destination too, as every blur that returns a new image must; `*-reuse` blurs into an existing image
// with a reused workspace, as a renderer does every frame. New images come from PixelMemory, which keeps
// released blocks for reuse, so in a loop they land in warm memory as in a long-running renderer; the
// `*-fresh` cases turn that off, so every new image pays for fresh pages as a one-shot process does.
// --serve times one trial at a time for a peer script that alternates its own trials with ours (this machine's speed
// wanders within seconds, so figures taken apart can differ by more than the work does): the selected benchmarks
// are warmed up, then each line read from standard input names one, which is prepared and run once, and its
// milliseconds are written as one line; end of input ends the process.
// --scalar adds each blur run with the scalar twin kernels and reports the SIMD speed-up. The kernels are the
// process's (`Kernels.active`, the best C level the CPU has unless BLURTOOL_KERNELS names a set).
@_spi(Benchmarks) import Compositor
import ImageCodecs
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

struct Options {
    var input: String?
    /// Benchmarks whose names contain one of these run (all when nil).
    var filters: [String]?
    var trials = 7
    var warmup = 1
    var json = false
    var serve = false
    var threads = Parallel.processorCount
    /// Also time each blur with the scalar twin kernels, for the SIMD speed-up column.
    var scalar = false
    var text = TextOptions()
    var paths = PathOptions()
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        switch argument {
        case "--input": options.input = arguments.next()
        case "--filter": options.filters = arguments.next()?.split(separator: ",").map(String.init)
        case "--trials": options.trials = Int(arguments.next() ?? "") ?? options.trials
        case "--warmup": options.warmup = Int(arguments.next() ?? "") ?? options.warmup
        case "--json": options.json = true
        case "--serve": options.serve = true
        case "--scalar": options.scalar = true
        case "--threads": options.threads = Int(arguments.next() ?? "") ?? options.threads
        case "--text-file": options.text.textFile = arguments.next()
        case "--font-file": options.text.fontFile = arguments.next()
        case "--text-size": options.text.size = Double(arguments.next() ?? "") ?? .nan
        case "--text-width": options.text.width = Double(arguments.next() ?? "") ?? .nan
        case "--paths-file": options.paths.pathsFile = arguments.next()
        case "--paths-picture": options.paths.picture = arguments.next()
        case "--paths-tolerance": options.paths.tolerance = Double(arguments.next() ?? "") ?? .nan
        default:
            print(
                "usage: blurbench [--input PHOTO] [--filter TEXT[,TEXT…]] [--trials N] [--warmup N] [--threads N]"
                    + " [--scalar] [--json] [--serve] [--text-file F] [--font-file F] [--text-size PX]"
                    + " [--text-width PX] [--paths-file F] [--paths-picture F.png] [--paths-tolerance PX]"
            )
            exit(argument == "--help" || argument == "-h" ? 0 : 64)
        }
    }
    return options
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        print("blurbench: cannot open \(path)")
        exit(66)
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<count])
    }
}

// glibc's allocator is left as every process has it (blurtool, a renderer, the peers' Python): its mmap threshold
// rises after a large block is freed, so later blocks of that size come from its heap, in warm pages. Pinning the
// threshold to keep `-fresh` cases fresh would make every array above 128 KiB new pages on every trial, a cost no
// such process pays (a cold paragraph's text trial spent a fifth of its time in page faults so). The `-fresh` cases
// hand freed memory back to the system before each trial instead (`freshBenchmark`).

let options = parseOptions()
// Timing other kernels than the ones asked for would mislead: stop, as blurtool does (EX_CONFIG).
if let problem = Kernels.environmentProblem {
    print("blurbench: \(problem)")
    exit(78)
}
let sourceBytes: [UInt8]
if let input = options.input {
    sourceBytes = readFile(input)
} else {
    // A generated 12 MP (4032x3024) image with photo-like statistics, stored as JPEG q90 like a phone photo.
    sourceBytes = try ImageEncoder.encode(TestImages.photoLike(width: 4032, height: 3024, seed: 12), as: .jpeg)
}
let decoded = try ImageDecoder.decode(sourceBytes)
let image = decoded.image
let megapixels = Double(image.pixelCount) / 1e6
let copyTarget = Image(width: image.width, height: image.height)
let threads = options.threads
let materialEffect = MaterialEffect(
    recipe: Material.thin.recipe(for: .light),
    pixelsPerPoint: MaterialEffect.pixelsPerPoint(fillingScreenWith: image.width, image.height), threads: threads)

/// The blur suites: exact σ 2, fast σ 10/30/100, and the automatic choice at each σ of the peer script.
func blurBenchmarks(kernels: any ConvolutionKernelSet.Type, suffix: String) -> [Benchmark] {
    func blur(_ sigma: Double, _ precision: BlurPrecision) -> GaussianBlur {
        var blur = GaussianBlur(sigma: sigma, precision: precision, threads: threads)
        blur.kernels = kernels
        return blur
    }
    let exact = [
        Benchmark(name: "blur-exact-sigma2" + suffix, megapixels: megapixels) {
            checksum(blur(2, .exact).apply(to: image))
        }
    ]
    let fast = [10.0, 30, 100].map { sigma in
        Benchmark(name: "blur-fast-sigma\(Int(sigma))" + suffix, megapixels: megapixels) {
            checksum(blur(sigma, .fast).apply(to: image))
        }
    }
    let auto = [2.0, 10, 30, 100].map { sigma in
        Benchmark(name: "blur-auto-sigma\(Int(sigma))" + suffix, megapixels: megapixels) {
            checksum(blur(sigma, .auto).apply(to: image))
        }
    }
    let fresh = [2.0, 10, 30, 100].map { sigma in
        freshBenchmark(name: "blur-auto-sigma\(Int(sigma))-fresh" + suffix, megapixels: megapixels) {
            checksum(blur(sigma, .auto).apply(to: image))
        }
    }
    // A renderer's steady state: the same destination and workspace every call.
    let destination = Image(width: image.width, height: image.height)
    let workspace = Workspace()
    let reuse = [2.0, 10, 30, 100].map { sigma in
        Benchmark(name: "blur-auto-sigma\(Int(sigma))-reuse" + suffix, megapixels: megapixels) {
            blur(sigma, .auto).apply(to: image, into: destination, workspace: workspace)
            return checksum(destination)
        }
    }
    // The C interface's region blur as Swift calls it: the bottom third of the photo into a buffer of its size, the
    // workspace kept (Benchmarks/capi times the same call from C, trial by trial with these).
    let panelHeight = image.height / 3
    let panel = Image(width: image.width, height: panelHeight)
    let region = [2.0, 30].map { sigma in
        Benchmark(name: "region-blur-sigma\(Int(sigma))-reuse" + suffix, megapixels: megapixels / 3) {
            blur(sigma, .auto).apply(
                to: image, regionX: 0, y: image.height - panelHeight, into: panel, workspace: workspace)
            return Int(panel[0, 0].red)
        }
    }
    return exact + fast + auto + fresh + reuse + region
}

/// The compositing layer of the peer script: the photo mirrored left to right, with straight alpha rising from 0
/// at the left edge to 255 at the right, premultiplied.
func compositeLayer(from image: Image) -> Image {
    let layer = Image(width: image.width, height: image.height)
    let straight = image.straightRGBABytes()
    for y in 0..<image.height {
        for x in 0..<image.width {
            let from = (y * image.width + image.width - 1 - x) * 4
            let alpha = (255 * x + (image.width - 1) / 2) / max(image.width - 1, 1)
            func channel(_ c: Int) -> UInt8 { UInt8((Int(straight[from + c]) * alpha + 127) / 255) }
            layer[x, y] = Pixel(red: channel(0), green: channel(1), blue: channel(2), alpha: UInt8(alpha))
        }
    }
    return layer
}

@_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32  // <malloc.h>, not in Glibc

/// A benchmark whose every new image gets pages the kernel has just zeroed, as a one-shot process's do: it runs
/// with PixelMemory's reuse off, and before each trial (untimed) glibc gives what was freed back to the system
/// (`malloc_trim` advises its free chunks' pages away), so no block comes back warm from glibc's heap either.
func freshBenchmark(name: String, megapixels: Double, run: @escaping () -> Int) -> Benchmark {
    Benchmark(name: name, megapixels: megapixels, prepare: { _ = mallocTrim(0) }) {
        let limit = PixelMemory.reuseLimit
        PixelMemory.reuseLimit = 0
        defer { PixelMemory.reuseLimit = limit }
        return run()
    }
}

func checksum(_ image: Image) -> Int {
    Int(image[image.width / 2, image.height / 2].red) &+ Int(image[0, 0].green) &+ image.width
}

// Built only when a composite suite will run (it takes a moment at 12 MP).
let layer =
    options.filters.map { $0.contains { $0.hasPrefix("composite") || "composite-over-opacity-new".contains($0) } }
    ?? true
    ? compositeLayer(from: image) : Image(width: 1, height: 1)
let compositeTarget = image.copy()

func perspective12MP() -> Int {
    let centre = (x: Double(image.width) / 2, y: Double(image.height) / 2)
    let turn = Transform3D.translation(x: -centre.x, y: -centre.y, z: 0)
        .concatenating(.rotation(angle: .pi / 6, x: 0, y: 1, z: 0))
        .concatenating(.perspective(eyeDistance: 1000))
        .concatenating(.translation(x: centre.x, y: centre.y, z: 0))
    return checksum(
        PerspectiveWarp(homography: turn.homography, threads: threads)
            .apply(to: image, width: image.width, height: image.height)!)
}

/// A flip transition's frame (`UIView.transition(…, .transitionFlipFromLeft)`, or `FromTop` with `tilt`): a
/// 1170×2532 card half way to edge on (45° about its vertical axis, or its horizontal one, the camera 1200 points
/// away at scale 3) onto a canvas of its size, by the two-pass route or, with `mipRoute`, the general one.
let flipCard = image.region(x: 0, y: 0, width: min(1170, image.width), height: min(2532, image.height)).copy()
func flipFrame(tilt: Bool = false, mipRoute: Bool) -> Int {
    let centre = (x: Double(flipCard.width) / 2, y: Double(flipCard.height) / 2)
    let turn = Transform3D.translation(x: -centre.x, y: -centre.y, z: 0)
        .concatenating(.rotation(angle: .pi / 4, x: tilt ? 1 : 0, y: tilt ? 0 : 1, z: 0))
        .concatenating(.perspective(eyeDistance: 3600))
        .concatenating(.translation(x: centre.x, y: centre.y, z: 0))
    var warp = PerspectiveWarp(homography: turn.homography, threads: threads)
    warp.takesAxisTurns = !mipRoute
    return checksum(warp.apply(to: flipCard, width: flipCard.width, height: flipCard.height)!)
}

func rotate30() -> Int {
    let centre = (x: Double(image.width) / 2, y: Double(image.height) / 2)
    let turn = AffineTransform2D(translationX: -centre.x, y: -centre.y)
        .concatenating(AffineTransform2D(rotationAngle: -.pi / 6))
        .concatenating(AffineTransform2D(translationX: centre.x, y: centre.y))
    return checksum(
        AffineWarp(transform: turn, filter: .bilinear, threads: threads)
            .apply(to: image, width: image.width, height: image.height)!)
}

func compositeIntoNewImage() -> Int {
    let result = image.copy()
    result.draw(layer, opacity: 0.8, threads: threads)
    return checksum(result)
}

let benchmarks: [Benchmark] =
    [
        Benchmark(name: "copy", megapixels: megapixels) {
            copyTarget.copyPixels(from: image)
            return checksum(copyTarget)
        },
        Benchmark(name: "decode-\(decoded.info.format.rawValue)", megapixels: megapixels) {
            checksum(try ImageDecoder.decode(sourceBytes).image)
        },
        Benchmark(name: "decode-jpeg-1/8", megapixels: megapixels) {
            checksum(try ImageDecoder.decode(sourceBytes, options: DecodeOptions(scaleDenominator: 8)).image)
        },
        Benchmark(name: "copy-new", megapixels: megapixels) {
            checksum(image.copy())
        },
        freshBenchmark(name: "copy-new-fresh", megapixels: megapixels) { checksum(image.copy()) },
    ] + blurBenchmarks(kernels: Kernels.active, suffix: "")
    + (options.scalar ? blurBenchmarks(kernels: ScalarKernels.self, suffix: "-scalar") : []) + [
        Benchmark(name: "material-thin", megapixels: megapixels) {
            checksum(materialEffect.apply(to: image))
        },
        Benchmark(name: "resize-fill-1170x2532-lanczos3", megapixels: megapixels) {
            checksum(Resampler(filter: .lanczos3, threads: threads).fit(image, width: 1170, height: 2532, mode: .fill))
        },
        Benchmark(name: "resize-fill-1170x2532-bilinear", megapixels: megapixels) {
            checksum(Resampler(filter: .bilinear, threads: threads).fit(image, width: 1170, height: 2532, mode: .fill))
        },
        // The peers' way: every result in pages the kernel has just zeroed (a one-shot caller's).
        freshBenchmark(name: "resize-fill-1170x2532-lanczos3-fresh", megapixels: megapixels) {
            checksum(Resampler(filter: .lanczos3, threads: threads).fit(image, width: 1170, height: 2532, mode: .fill))
        },
        freshBenchmark(name: "resize-fill-1170x2532-bilinear-fresh", megapixels: megapixels) {
            checksum(Resampler(filter: .bilinear, threads: threads).fit(image, width: 1170, height: 2532, mode: .fill))
        },
        // 30° counter-clockwise about the centre onto a canvas of the same size, as OpenCV's
        // warpAffine(getRotationMatrix2D(centre, 30, 1)) in the peer script.
        Benchmark(name: "rotate30-bilinear", megapixels: megapixels) { rotate30() },
        freshBenchmark(name: "rotate30-bilinear-fresh", megapixels: megapixels, run: rotate30),
        // 30° about the vertical axis through the centre seen from 1000 px (m34 = −1/1000), onto a canvas of the
        // same size, as OpenCV's warpPerspective in peer_perspective.py.
        Benchmark(name: "perspective-12mp", megapixels: megapixels) { perspective12MP() },
        // The same with the canvas and the levels in fresh pages, as OpenCV's result is.
        freshBenchmark(name: "perspective-12mp-fresh", megapixels: megapixels, run: perspective12MP),
        // The route against the general one on a flip transition's frame, in fresh pages as a transition's are.
        freshBenchmark(name: "perspective-flip-frame-fresh", megapixels: 1170 * 2532 / 1e6) {
            flipFrame(mipRoute: false)
        },
        freshBenchmark(name: "perspective-flip-frame-mip-fresh", megapixels: 1170 * 2532 / 1e6) {
            flipFrame(mipRoute: true)
        },
        freshBenchmark(name: "perspective-tilt-frame-fresh", megapixels: 1170 * 2532 / 1e6) {
            flipFrame(tilt: true, mipRoute: false)
        },
        freshBenchmark(name: "perspective-tilt-frame-mip-fresh", megapixels: 1170 * 2532 / 1e6) {
            flipFrame(tilt: true, mipRoute: true)
        },
        // A renderer's steady state: drawing onto the frame it keeps, in place.
        Benchmark(name: "composite-over-opacity", megapixels: megapixels) {
            compositeTarget.draw(layer, opacity: 0.8, threads: threads)
            return checksum(compositeTarget)
        },
        // A blend mode through the general planar kernel (the non-separable ones cost about the same).
        Benchmark(name: "composite-multiply-opacity", megapixels: megapixels) {
            compositeTarget.draw(layer, operator: .multiply, opacity: 0.8, threads: threads)
            return checksum(compositeTarget)
        },
        Benchmark(name: "composite-luminosity-opacity", megapixels: megapixels) {
            compositeTarget.draw(layer, operator: .luminosity, opacity: 0.8, threads: threads)
            return checksum(compositeTarget)
        },
        // As the peers do: the result in a new image.
        Benchmark(name: "composite-over-opacity-new", megapixels: megapixels) { compositeIntoNewImage() },
        freshBenchmark(name: "composite-over-opacity-new-fresh", megapixels: megapixels, run: compositeIntoNewImage),
        Benchmark(name: "encode-jpeg-q90", megapixels: megapixels) {
            try ImageEncoder.encode(image, as: .jpeg).count
        },
        Benchmark(name: "encode-png-fast", megapixels: megapixels) {
            try ImageEncoder.encode(image, as: .png, options: EncodeOptions(threads: threads)).count
        },
        Benchmark(name: "encode-png-level5", megapixels: megapixels) {
            try ImageEncoder.encode(image, as: .png, options: EncodeOptions(pngCompressionLevel: 5, threads: threads))
                .count
        },
    ] + TextBenchmarks.benchmarks(options.text, filters: options.filters)
    + PathBenchmarks.benchmarks(options.paths, filters: options.filters, threads: threads)

if options.serve {
    let served = benchmarks.filter { benchmark in
        options.filters.map { $0.contains(where: benchmark.name.contains) } ?? true
    }
    for benchmark in served { _ = try Harness.measure(benchmark, warmup: options.warmup, trials: 0) }
    while let name = readLine() {
        guard let benchmark = served.first(where: { $0.name == name }) else {
            TextBenchmarks.fail("--serve: no selected benchmark is named \"\(name)\"", status: 64)
        }
        let milliseconds = try Harness.measure(benchmark, warmup: 0, trials: 1).milliseconds[0]
        // Straight to the descriptor: print's buffer would hold the answer the script is waiting for.
        let line = "\(milliseconds)\n"
        _ = line.withCString { write(1, $0, strlen($0)) }
    }
    exit(0)
}
var results: [Measurement] = []
for benchmark in benchmarks
where options.filters.map({ $0.contains(where: benchmark.name.contains) || benchmark.name.hasPrefix("copy") }) ?? true {
    results.append(try Harness.measure(benchmark, warmup: options.warmup, trials: options.trials))
}
let copyMilliseconds = results.first { $0.name == "copy" }?.median
let inputName = options.input ?? "generated 4032x3024 photo-like JPEG"
if options.json {
    print(Harness.json(results, copyMilliseconds: copyMilliseconds, input: inputName, threads: threads))
} else {
    print(
        "blurbench: \(image.width)x\(image.height) (\(String(format1: megapixels)) MP) from \(inputName); "
            + "\(options.trials) trials after \(options.warmup) warm-up, \(threads) threads, \(Kernels.name) kernels")
    print("blurbench: \(Machine.current().summary)")
    print(Harness.table(results, copyMilliseconds: copyMilliseconds))
}
