import Compositor
import ImageCodecs

/// Runs one render request: read, decode, blur and tint, encode, write.
struct Renderer {
    let request: RenderRequest
    let console: BlurTool.Console

    private var subject: String { request.input == "-" ? "<stdin>" : request.input }

    /// Stage names and durations, for --verbose.
    final class StageTimes {
        private let clock = ContinuousClock()
        private(set) var stages: [(name: String, duration: Duration)] = []

        func time<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            let start = clock.now
            defer { stages.append((name, clock.now - start)) }
            return try work()
        }
    }

    func run() throws {
        let times = StageTimes()
        let outputPath = try resolvedOutputPath()
        let namedFormat = try OutputPath.format(of: outputPath, requested: request.format)  // nil: the input's
        try OutputPath.refuseOverwriting(request.input, with: outputPath, what: "input")
        let bytes = try times.time("read") { try FileIO.readImage(request.input) }
        // Opened once the input is known to be there, so an output that cannot be created fails before the work.
        let output = try OutputFile(outputPath)
        defer { output.discard() }
        let (decoded, effect, result): (DecodedImage, MaterialEffect, Image)
        do {
            (decoded, effect, result) = try render(bytes, times: times)
        } catch let error as CodecError {
            throw ToolFailure(.dataError, subject, error.description)
        }
        let encoded = try times.time("encode") {
            try ImageWriting.encode(
                result, as: namedFormat ?? decoded.info.format, request: request, iccProfile: decoded.info.iccProfile,
                outputPath: outputPath)
        }
        try times.time("write") { try output.commit(encoded) }
        if outputPath != "-", request.output == nil || outputPath != request.output {
            console.out(outputPath)  // the user did not name it: say where it went (never into the image on stdout)
        }
        if request.isVerbose {
            let route =
                !hasEffect
                ? "no blur"
                : GaussianBlur(
                    sigma: effect.sigmaPixels, edgeMode: effect.edgeMode,
                    precision: effect.precision
                ).usesPyramid ? "pyramid" : "exact"
            let stages = times.stages.map { "\($0.name) \(milliseconds($0.duration)) ms" }.joined(separator: ", ")
            console.err(
                "blurtool: \(result.width)x\(result.height), σ \(String(format2: effect.sigmaPixels)) px "
                    + "(\(route), \(Kernels.name) kernels, build \(Kernels.build), \(request.threads) threads), "
                    + stages)
        }
    }

    /// Decodes (as small as the frame and the material allow), lays out, transforms, blurs and tints.
    private func render(_ bytes: [UInt8], times: StageTimes) throws -> (DecodedImage, MaterialEffect, Image) {
        let header = try loading.inspect(bytes, path: request.input)
        let scale = try decodeScale(for: header)
        let decoded = try decode(bytes, header: header, scale: scale, times: times)
        let (effect, result) = try finish(decoded.image, header: header, scale: scale, times: times)
        return (decoded, effect, result)
    }

    /// How many times smaller the picture may be decoded for this request (a JPEG's DCT scaling; 1 for other
    /// formats, for a transform and where the material's blur would not hide it). The full, upright size
    /// decides the layout and the material's σ, whatever size is decoded.
    func decodeScale(for header: ImageInfo) throws -> Int {
        let (width, height) = loading.upright(header)
        guard header.format == .jpeg else { return 1 }
        guard let size = request.size else {
            // A transform needs the picture at full size.
            guard request.transform == nil else { return 1 }
            return materialEffect(forWidth: width, height: height).decodeScale(fullWidth: width, fullHeight: height)
        }
        let layout = FitLayout(
            sourceWidth: width, sourceHeight: height, frameWidth: size.width,
            frameHeight: size.height, mode: request.fit)
        let shrink = min(
            layout.sourceRect.width / Double(layout.frameRect.width),
            layout.sourceRect.height / Double(layout.frameRect.height))
        return materialEffect(forWidth: size.width, height: size.height).decodeScale(
            fullWidth: width, fullHeight: height, shrink: shrink)
    }

    /// The result from `image`, the picture `header` describes decoded at 1/`scale` (any scale up to
    /// `decodeScale(for:)`: several requests may share one decode at the smallest of theirs).
    func finish(_ image: Image, header: ImageInfo, scale: Int, times: StageTimes) throws -> (MaterialEffect, Image) {
        let (width, height) = loading.upright(header)
        guard let size = request.size else {
            let effect = materialEffect(forWidth: width, height: height)
            let placed = try transformed(image, times: times)
            guard hasEffect else { return (effect, placed) }
            let result = times.time("blur+tint") {
                effect.apply(toReduced: placed, scale: scale, width: width, height: height)
            }
            return (effect, result)
        }
        let layout = FitLayout(
            sourceWidth: width, sourceHeight: height, frameWidth: size.width,
            frameHeight: size.height, mode: request.fit)
        let effect = materialEffect(forWidth: size.width, height: size.height)
        try MemoryBudget.check(width: size.width, height: size.height, what: "--size", subject: nil)
        // Under a pyramid blur whose cells span 4 or more frame pixels, the reconstruction filter cannot
        // show; bilinear is then as good and much cheaper (the reduced decode is usually magnified here).
        let hidesFilter = GaussianBlur(sigma: effect.sigmaPixels, precision: effect.precision).reductionFactor >= 4
        let filter = request.filter ?? (hidesFilter ? .bilinear : .lanczos3)
        let sourceScale = (Double(width) / Double(image.width), Double(height) / Double(image.height))
        if hasEffect, request.fit != .fit, request.transform == nil {
            // The frame is all picture: the material can blur it without it being made (see apply(toResized:)).
            let result = times.time("resize+blur+tint") {
                effect.apply(
                    toResized: image, crop: layout.sourceRect(reducedBy: sourceScale), filter: filter,
                    width: size.width, height: size.height)
            }
            return (effect, result)
        }
        let resized = times.time("resize") {
            Resampler(filter: filter, threads: request.threads).place(
                image, layout: layout, width: size.width, height: size.height, mode: request.fit,
                background: request.background.premultipliedPixel,
                sourceScale: sourceScale)
        }
        let placed = try transformed(resized, times: times)
        guard hasEffect else { return (effect, placed) }
        return (effect, times.time("blur+tint") { effect.apply(to: placed) })
    }

    /// False for a resize or a warp alone (no material, no blur, no tint, dim, saturation or grain): the picture
    /// is then written as placed, not sent through a blur of σ 0 that would only copy it.
    private var hasEffect: Bool {
        request.materialName != nil || (request.sigma ?? 0) > 0 || request.dim > 0 || request.tint != nil
            || (request.saturation ?? 1) != 1 || (request.grain ?? 0) > 0
    }

    /// The picture drawn through `--transform` onto a canvas of its own size, or the picture itself.
    private func transformed(_ image: Image, times: StageTimes) throws -> Image {
        guard let transform = request.transform else { return image }
        return try times.time("transform") {
            guard
                let warped = AffineWarp(
                    transform: transform, filter: request.filter ?? .bilinear, threads: request.threads
                )
                .apply(to: image, width: image.width, height: image.height)
            else {
                throw UsageError(
                    "--transform cannot be inverted: it squashes the picture to a line or stretches it past what a "
                        + "Double holds")
            }
            return warped
        }
    }

    var loading: ImageLoading { ImageLoading(request: request, console: console) }

    private func decode(_ bytes: [UInt8], header: ImageInfo, scale: Int, times: StageTimes) throws -> DecodedImage {
        try times.time(scale > 1 ? "decode at 1/\(scale)" : "decode") {
            try loading.decode(bytes, header: header, path: request.input, scale: scale)
        }
    }

    /// The material's recipe with the request's overrides, or a plain blur when no material was named.
    func materialEffect(forWidth width: Int, height: Int) -> MaterialEffect {
        let pixelsPerPoint = request.pixelsPerPoint ?? MaterialEffect.pixelsPerPoint(fillingScreenWith: width, height)
        var recipe = MaterialRecipe(blurPoints: 0)
        if let name = request.materialName, let (material, forced) = MaterialCatalog.lookup(name) {
            recipe = material.recipe(for: forced ?? request.appearance)
        }
        if let sigma = request.sigma { recipe.blurPoints = sigma / pixelsPerPoint }
        if let saturation = request.saturation { recipe.saturation = saturation }
        if let tint = request.tint { recipe.tints = [TintLayer(tint)] }
        if let grain = request.grain { recipe.grain = grain }
        var effect = MaterialEffect(
            recipe: recipe, dim: request.dim, pixelsPerPoint: pixelsPerPoint,
            edgeMode: request.edgeMode, precision: request.precision, threads: request.threads)
        effect.dither = request.materialName != nil || request.dither
        return effect
    }

    /// The output as given, or `<stem>-<material>.<ext>` (`<stem>-sigma<S>`, `<stem>-<W>x<H>` for a resize alone,
    /// `<stem>-transformed` for a warp alone) beside the input or in the directory -o names; stdout for stdin.
    private func resolvedOutputPath() throws(UsageError) -> String {
        try OutputPath.resolve(request.output, input: request.input) { stem in
            let format = request.format ?? ImageFormat(fileExtensionOf: request.input) ?? .png
            return stem + "-" + defaultSuffix + "." + format.fileExtension
        }
    }

    /// What a default output name adds to the input's stem: the material, `sigma<S>`, `<W>x<H>` for a resize
    /// alone or `transformed` for a warp alone.
    var defaultSuffix: String {
        request.materialName.map(Renderer.kebabCase) ?? request.sigma.map { "sigma\(String(format2: $0))" }
            ?? request.size.map { "\($0.width)x\($0.height)" } ?? "transformed"
    }

    static func kebabCase(_ name: String) -> String {
        var result = ""
        for character in name where character != "." {
            if character.isUppercase, !result.isEmpty, result.last != "-" { result.append("-") }
            result.append(character == "_" || character == " " ? "-" : Character(character.lowercased()))
        }
        return result
    }

    private func milliseconds(_ duration: Duration) -> Int {
        Int(Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }
}
