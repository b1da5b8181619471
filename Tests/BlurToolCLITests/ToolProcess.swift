import Foundation

/// Runs the built `blurtool` binary as a child process, for what only a process shows: its standard output as
/// bytes, its standard input, signals and its exit by a signal.
enum ToolProcess {
    struct Result {
        var status: Int32
        /// True when a signal ended it (`status` is then the signal's number).
        var wasSignalled: Bool
        var out: Data
        var err: String
    }

    struct MissingBinary: Error, CustomStringConvertible {
        var description: String
    }

    /// The `blurtool` built beside the test bundle (`swift test` builds every product of the package).
    static func executable() throws -> URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDirectory, Bundle.main.bundleURL.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("blurtool")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw MissingBinary(description: "no blurtool binary beside \(bundleDirectory.path); run 'swift build' first")
    }

    /// Starts blurtool with `arguments`, standard input from `input` (a file path) or empty, and this process's
    /// environment with `environment` added.
    static func start(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
    ) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput =
            try input.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
            ?? FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        return (process, out, err)
    }

    /// Runs blurtool to its end and returns what it printed.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let (process, out, err) = try start(arguments, input: input, environment: environment)
        return finish(process, out, err)
    }

    static func finish(_ process: Process, _ out: Pipe, _ err: Pipe) -> Result {
        // Read both pipes before waiting, so a full pipe cannot stall the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let outData = Box()
        let reader = Thread { outData.data = out.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        while !reader.isFinished { usleep(1000) }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, wasSignalled: process.terminationReason == .uncaughtSignal,
            out: outData.data, err: String(decoding: errData, as: UTF8.self))
    }
}
