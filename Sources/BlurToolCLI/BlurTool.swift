import Compositor
import ImageCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `blurtool` program, callable from tests: `exit(BlurTool.run(CommandLine.arguments))`.
public enum BlurTool {
    /// Where a run writes its text; tests capture it.
    public struct Console: Sendable {
        public var out: @Sendable (String) -> Void
        public var err: @Sendable (String) -> Void

        public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
            self.out = out
            self.err = err
        }

        public static let standard = Console(out: { print($0) }, err: { writeToStandardError($0 + "\n") })
    }

    /// Runs with `arguments` as `CommandLine.arguments` gives them (program name first); returns the exit status.
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        // Checked before anything runs: a benchmark or a check against the reference twins must not go on
        // quietly with other kernels than the ones it asked for.
        if let problem = Kernels.environmentProblem {
            console.err("blurtool: error: \(problem)".escapedForMessageLine())
            return ExitCode.configuration.rawValue
        }
        do {
            switch try ArgumentParser.parse(Array(arguments.dropFirst())) {
            case .help: console.out(HelpText.usage)
            case .version: console.out(HelpText.version)
            case .listMaterials: console.out(MaterialTable.text())
            case .info(let paths): return try showInfo(paths, console: console)
            case .render(let requests): return render(requests, console: console)
            case .compose(let request): try Composer(request: request, console: console).run()
            case .curve(let request): try CurveCommand(request: request, console: console).run()
            case .animate(let request): try Animator(request: request, console: console).run()
            case .transition(let request): try TransitionCommand(request: request, console: console).run()
            case .batch(let request): return try Batch(request: request, console: console).run().rawValue
            case .sheet(let request): try SheetCommand(request: request, console: console).run()
            }
            return ExitCode.success.rawValue
        } catch let error as UsageError {
            console.err(
                "blurtool: error: \(error.message.escapedForMessageLine())\n"
                    + "Usage: \(HelpText.usageLine(for: arguments.dropFirst().first)); see 'blurtool --help'.")
            return ExitCode.usage.rawValue
        } catch let failure as ToolFailure {
            console.err(failure.line)
            return failure.code.rawValue
        } catch {
            console.err("blurtool: error: \(error)".escapedForMessageLine())
            return ExitCode.internalError.rawValue
        }
    }

    /// Renders each request; a failure is reported and the rest go on. Returns the first failure's status.
    private static func render(_ requests: [RenderRequest], console: Console) -> Int32 {
        var status = ExitCode.success
        for request in requests {
            do {
                try Renderer(request: request, console: console).run()
            } catch let failure as ToolFailure {
                console.err(failure.line)
                if status == .success { status = failure.code }
            } catch let error as UsageError {
                console.err("blurtool: error: \(error.message)".escapedForMessageLine())
                if status == .success { status = .usage }
            } catch {
                console.err("blurtool: error: \(ToolFailure.display(request.input)): \(error)".escapedForMessageLine())
                if status == .success { status = .internalError }
            }
        }
        return status.rawValue
    }

    private static func showInfo(_ paths: [String], console: Console) throws -> Int32 {
        var status = ExitCode.success
        for path in paths {
            do {
                let bytes = try FileIO.readImage(path)
                let info: ImageInfo
                do {
                    info = try ImageDecoder.inspect(bytes)
                } catch let error as CodecError {
                    throw ToolFailure(.dataError, path, error.description)
                }
                let upright =
                    info.orientation.swapsDimensions
                    ? (info.storedHeight, info.storedWidth) : (info.storedWidth, info.storedHeight)
                let profile =
                    info.iccProfile.map { "\($0.count) bytes" }
                    ?? info.droppedICCProfileReason.map { "none passed on (\($0))" } ?? "none"
                console.out(
                    """
                    \(ToolFailure.display(path)):
                      format:      \(info.format.rawValue.uppercased())
                      size:        \(upright.0)x\(upright.1) upright (stored \(info.storedWidth)x\(info.storedHeight))
                      orientation: \(info.orientation.rawValue) (\(info.orientation))
                      colour:      \(info.colorType), \(info.bitsPerSample) bits per sample\
                    \(info.hasAlpha ? ", alpha" : "")
                      ICC profile: \(profile)
                      file size:   \(bytes.count) bytes
                    """)
            } catch let failure as ToolFailure {
                console.err(failure.line)
                status = failure.code
            }
        }
        return status.rawValue
    }
}

func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
