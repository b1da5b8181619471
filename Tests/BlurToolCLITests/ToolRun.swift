import BlurToolCLI

/// Runs blurtool in-process as a user would from a shell, capturing what it prints.
enum ToolRun {
    private final class Captured: @unchecked Sendable {
        var out: [String] = []
        var err: [String] = []
    }

    /// Runs blurtool with `arguments`; returns the status and what it printed.
    static func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let captured = Captured()
        let console = BlurTool.Console(out: { captured.out.append($0) }, err: { captured.err.append($0) })
        let status = BlurTool.run(["blurtool"] + arguments, console: console)
        return (status, captured.out.joined(separator: "\n"), captured.err.joined(separator: "\n"))
    }

    /// The message `arguments` get from the parser, or nil when they parse.
    static func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try ArgumentParser.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }
}
