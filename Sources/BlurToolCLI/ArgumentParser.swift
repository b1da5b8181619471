import Compositor
import ImageCodecs

/// Turns arguments (without the program name) into a `Command`: a pure function, so every form can be
/// tested without running anything. Accepts `--name value`, `--name=value`, `-o value`, `-ovalue`, and
/// `--` to end options (so a file may be called `-x.jpg`).
public enum ArgumentParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var positionals: [String] = []
        var options: [(name: String, value: String?)] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--"), argument.count > 2 {
                name = String(argument.prefix(2))  // -ovalue
                inlineValue = String(argument.dropFirst(2))
            }
            // In a batch, -j counts photos in flight (as GNU parallel's and make's do); --threads is per photo.
            let isBatch = positionals.first == "batch"
            guard let spec = isBatch && name == "-j" ? OptionSpec.named("--jobs") : OptionSpec.named(name) else {
                throw UsageError("unknown option \(name.quotedForMessage())")
            }
            if spec.takesValue {
                if inlineValue == nil {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    inlineValue = arguments[index]
                    index += 1
                }
                options.append((spec.name, inlineValue))
            } else {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                options.append((spec.name, nil))
            }
        }
        if options.contains(where: { $0.name == "--help" }) { return .help }
        if options.contains(where: { $0.name == "--version" }) { return .version }
        switch positionals.first {
        case "materials":
            try expectNoOptions(options, positionals: positionals, command: "materials")
            return .listMaterials
        case "info":
            guard positionals.count >= 2 else { throw UsageError("'info' needs at least one INPUT") }
            try expectNoOptions(options, positionals: [positionals[0]], command: "info")
            return .info(paths: Array(positionals.dropFirst()))
        case "compose":
            guard positionals.count == 2 else { throw UsageError("'compose' needs exactly one SCENE file") }
            let applicable: Set = [
                "--output", "--format", "--quality", "--chroma", "--progressive", "--optimize", "--png-compression",
                "--no-auto-orient", "--lenient", "--max-pixels", "--verbose", "--threads", "--precision",
            ]
            if let option = options.first(where: { !applicable.contains($0.name) }) {
                throw UsageError("option '\(option.name)' does not apply to 'compose' (the scene file says it)")
            }
            return .compose(try renderRequest(input: positionals[1], options: options, needsEffect: false))
        case "curve":
            return .curve(try CurveRequest(positionals: Array(positionals.dropFirst()), options: options))
        case "animate":
            guard positionals.count == 2 else { throw UsageError("'animate' needs exactly one SCENE file") }
            return .animate(try animationRequest(scene: positionals[1], options: options))
        case "transition":
            return .transition(try transitionRequest(positionals: Array(positionals.dropFirst()), options: options))
        case "sheet":
            return .sheet(try sheetRequest(positionals: Array(positionals.dropFirst()), options: options))
        case "batch":
            return .batch(try batchRequest(positionals: Array(positionals.dropFirst()), options: options))
        case nil:
            throw UsageError("no INPUT given")
        default:
            let request = try renderRequest(input: positionals[0], options: options)
            if positionals.count > 1 {
                // Several INPUTs: each output gets its default name, beside its input or in the -o directory.
                if positionals.contains("-") {
                    throw UsageError("'-' (standard input) cannot be one of several INPUTs")
                }
                if request.output == "-" { throw UsageError("several INPUTs cannot all go to standard output") }
            }
            return .render(
                positionals.map { input in
                    var copy = request
                    copy.input = input
                    if positionals.count > 1, let directory = request.output {
                        copy.output = directory.hasSuffix("/") ? directory : directory + "/"
                    }
                    return copy
                })
        }
    }

    private static func expectNoOptions(
        _ options: [(name: String, value: String?)], positionals: [String],
        command: String
    ) throws(UsageError) {
        if let option = options.first { throw UsageError("'\(command)' takes no option '\(option.name)'") }
        if command == "materials", positionals.count > 1 { throw UsageError("'materials' takes no arguments") }
    }

    static func renderRequest(
        input: String, options: [(name: String, value: String?)], needsEffect: Bool = true
    )
        throws(UsageError) -> RenderRequest
    {
        var request = RenderRequest(input: input)
        var given = Set<String>()
        for (name, value) in options {
            given.insert(name)
            let value = value ?? ""
            switch name {
            case "--output": request.output = value
            case "--material":
                guard MaterialCatalog.lookup(value) != nil else {
                    throw UsageError(
                        "unknown material \(value.quotedForMessage()); known: "
                            + MaterialCatalog.knownNames.joined(separator: ", "))
                }
                request.materialName = value
            case "--appearance":
                guard let appearance = Appearance(rawValue: value.lowercased()) else {
                    throw UsageError("--appearance must be light or dark, not \(value.quotedForMessage())")
                }
                request.appearance = appearance
            case "--dim": request.dim = try number(value, name, in: 0...1)
            case "--sigma": request.sigma = try number(value, name, in: 0...10_000)
            case "--saturation": request.saturation = try number(value, name, in: 0...10)
            case "--grain": request.grain = try number(value, name, in: 0...1)
            case "--pixels-per-point": request.pixelsPerPoint = try number(value, name, in: 0.01...100)
            case "--tint":
                guard let color = RGBAColor(css: value) else {
                    throw UsageError(
                        "--tint expects #rgb, #rgba, #rrggbb or #rrggbbaa, not \(value.quotedForMessage())")
                }
                request.tint = color
            case "--edge":
                guard let edge = EdgeMode(rawValue: value.lowercased()) else {
                    throw UsageError(
                        "--edge must be one of mirror, clamp, wrap, transparent, not \(value.quotedForMessage())")
                }
                request.edgeMode = edge
            case "--precision":
                guard let precision = BlurPrecision(rawValue: value.lowercased()) else {
                    throw UsageError("--precision must be exact, fast or auto, not \(value.quotedForMessage())")
                }
                request.precision = precision
            case "--format":
                switch value.lowercased() {
                case "jpeg", "jpg": request.format = .jpeg
                case "png": request.format = .png
                default: throw UsageError("--format must be png or jpeg, not \(value.quotedForMessage())")
                }
            case "--quality": request.quality = Int(try number(value, name, in: 1...100, integer: true))
            case "--chroma":
                switch value {
                case "420", "4:2:0": request.chromaSubsampling = .yuv420
                case "444", "4:4:4": request.chromaSubsampling = .yuv444
                default: throw UsageError("--chroma must be 420 or 444, not \(value.quotedForMessage())")
                }
            case "--progressive": request.isProgressive = true
            case "--optimize": request.optimizesHuffmanTables = true
            case "--png-compression":
                request.pngCompressionLevel = Int(try number(value, name, in: 0...9, integer: true))
            case "--no-auto-orient": request.appliesOrientation = false
            case "--lenient": request.isLenient = true
            case "--max-pixels":
                request.maxPixels = Int(try number(value, name, in: 1...1e12, integer: true))
            case "--verbose": request.isVerbose = true
            case "--dither": request.dither = true
            case "--size":
                let parts = value.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "X" }
                guard parts.count == 2, let width = wholeNumber(parts[0]), let height = wholeNumber(parts[1]),
                    (1...65_500).contains(width),
                    (1...65_500).contains(height)
                else {
                    throw UsageError(
                        "--size expects WIDTHxHEIGHT in pixels, 1 to 65500 each, not \(value.quotedForMessage())")
                }
                request.size = FrameSize(width: width, height: height)
            case "--fit":
                guard let fit = FitMode(rawValue: value.lowercased()) else {
                    throw UsageError("--fit must be fill, fit or stretch, not \(value.quotedForMessage())")
                }
                request.fit = fit
            case "--filter":
                guard let filter = ResampleFilter(rawValue: value.lowercased()) else {
                    throw UsageError(
                        "--filter must be one of "
                            + ResampleFilter.allCases.map(\.rawValue).joined(separator: ", ")
                            + ", not \(value.quotedForMessage())")
                }
                request.filter = filter
            case "--transform":
                do {
                    request.transform = try AffineTransform2D(parsing: value)
                } catch {
                    throw UsageError("--transform: " + error.description.escapedForMessageLine())
                }
            case "--background":
                guard let color = RGBAColor(css: value) else {
                    throw UsageError(
                        "--background expects #rgb, #rgba, #rrggbb or #rrggbbaa, not \(value.quotedForMessage())")
                }
                request.background = color
            case "--threads": request.threads = Int(try number(value, name, in: 1...256, integer: true))
            default: throw UsageError("option '\(name)' does not apply to rendering")
            }
        }
        // A resize or a warp alone is a whole job (its blur is none); otherwise there must be an effect.
        guard
            !needsEffect || request.materialName != nil || request.sigma != nil || request.size != nil
                || request.transform != nil
        else {
            throw UsageError("give --material NAME, --sigma S, --size WxH or --transform")
        }
        // An option that would change nothing is a mistake to report, as an unknown key in a scene file is.
        if needsEffect {
            let blurOnly = ["--edge", "--precision"].filter { given.contains($0) }
            let materialOnly = ["--appearance", "--pixels-per-point"].filter { given.contains($0) }
            if request.materialName == nil, let name = materialOnly.first {
                throw UsageError("\(name) applies to a material; give --material NAME")
            }
            if request.materialName == nil, request.sigma == nil, let name = blurOnly.first {
                throw UsageError("\(name) applies to a blur; give --material NAME or --sigma S")
            }
        }
        // Checked here, after every option (--max-pixels may follow --size), so nothing is allocated for it.
        if let size = request.size, size.width * size.height > request.maxPixels {
            throw UsageError(
                "--size \(size.width)x\(size.height) is \(size.width * size.height) pixels, more than the limit of "
                    + "\(request.maxPixels) (--max-pixels)")
        }
        return request
    }
}

/// The options `blurtool` knows, with their short forms.
struct OptionSpec {
    let name: String
    let short: String?
    let takesValue: Bool

    static let all: [OptionSpec] = [
        OptionSpec(name: "--help", short: "-h", takesValue: false),
        OptionSpec(name: "--version", short: "-V", takesValue: false),
        OptionSpec(name: "--output", short: "-o", takesValue: true),
        OptionSpec(name: "--material", short: "-m", takesValue: true),
        OptionSpec(name: "--appearance", short: "-a", takesValue: true),
        OptionSpec(name: "--dim", short: nil, takesValue: true),
        OptionSpec(name: "--sigma", short: "-s", takesValue: true),
        OptionSpec(name: "--saturation", short: nil, takesValue: true),
        OptionSpec(name: "--tint", short: nil, takesValue: true),
        OptionSpec(name: "--grain", short: nil, takesValue: true),
        OptionSpec(name: "--pixels-per-point", short: nil, takesValue: true),
        OptionSpec(name: "--edge", short: nil, takesValue: true),
        OptionSpec(name: "--precision", short: nil, takesValue: true),
        OptionSpec(name: "--format", short: "-f", takesValue: true),
        OptionSpec(name: "--quality", short: "-q", takesValue: true),
        OptionSpec(name: "--chroma", short: nil, takesValue: true),
        OptionSpec(name: "--progressive", short: nil, takesValue: false),
        OptionSpec(name: "--optimize", short: nil, takesValue: false),
        OptionSpec(name: "--png-compression", short: nil, takesValue: true),
        OptionSpec(name: "--no-auto-orient", short: nil, takesValue: false),
        OptionSpec(name: "--lenient", short: nil, takesValue: false),
        OptionSpec(name: "--max-pixels", short: nil, takesValue: true),
        OptionSpec(name: "--verbose", short: "-v", takesValue: false),
        OptionSpec(name: "--dither", short: nil, takesValue: false),
        OptionSpec(name: "--size", short: nil, takesValue: true),
        OptionSpec(name: "--fit", short: nil, takesValue: true),
        OptionSpec(name: "--filter", short: nil, takesValue: true),
        OptionSpec(name: "--background", short: nil, takesValue: true),
        OptionSpec(name: "--transform", short: nil, takesValue: true),
        OptionSpec(name: "--threads", short: "-j", takesValue: true),
        OptionSpec(name: "--samples", short: nil, takesValue: true),
        OptionSpec(name: "--fps", short: nil, takesValue: true),
        OptionSpec(name: "--duration", short: nil, takesValue: true),
        OptionSpec(name: "--at", short: nil, takesValue: true),
        OptionSpec(name: "--loop", short: nil, takesValue: true),
        OptionSpec(name: "--lossy", short: nil, takesValue: false),
        OptionSpec(name: "--benchmark", short: nil, takesValue: false),
        OptionSpec(name: "--scale", short: nil, takesValue: true),
        OptionSpec(name: "--style", short: nil, takesValue: true),
        OptionSpec(name: "--curve", short: nil, takesValue: true),
        OptionSpec(name: "--jobs", short: nil, takesValue: true),
        OptionSpec(name: "--shard", short: nil, takesValue: true),
        OptionSpec(name: "--shards", short: nil, takesValue: true),
        OptionSpec(name: "--report", short: nil, takesValue: true),
        OptionSpec(name: "--quiet", short: nil, takesValue: false),
        OptionSpec(name: "--list", short: nil, takesValue: false),
        OptionSpec(name: "--sheet", short: nil, takesValue: false),
        OptionSpec(name: "--foreground", short: nil, takesValue: true),
        OptionSpec(name: "--embed", short: nil, takesValue: false),
    ]

    static func named(_ name: String) -> OptionSpec? {
        all.first { $0.name == name || $0.short == name }
    }
}
