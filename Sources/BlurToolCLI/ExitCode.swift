/// Exit statuses, from sysexits.h, as scripts expect of a Unix tool.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// The arguments are wrong (EX_USAGE).
    case usage = 64
    /// The input is not a valid image or breaks a limit (EX_DATAERR).
    case dataError = 65
    /// The input does not exist or cannot be opened (EX_NOINPUT).
    case noInput = 66
    /// A bug: something that should not happen (EX_SOFTWARE).
    case internalError = 70
    /// The output cannot be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// Reading or writing failed part-way (EX_IOERR).
    case ioError = 74
    /// A batch stopped by SIGINT, SIGTERM or SIGHUP before every photo was done; the photos in flight were
    /// finished, and running the same command again does the rest (EX_TEMPFAIL).
    case incomplete = 75
    /// The environment asks for something this machine cannot do, e.g. `BLURTOOL_KERNELS` naming kernels the CPU
    /// lacks (EX_CONFIG).
    case configuration = 78
}

/// A failure that ends a run: one line for stderr and the status to exit with.
struct ToolFailure: Error {
    let code: ExitCode
    /// What failed, as the message shows it (a quoted path, `<stdin>`).
    let subject: String?
    let reason: String

    /// A failure of the file at `path` (quoted in the message: a path is user text), of `<stdin>` or `<stdout>`.
    init(_ code: ExitCode, _ path: String?, _ reason: String) {
        self.init(code, shownAs: path.map(ToolFailure.display), reason)
    }

    init(_ code: ExitCode, shownAs subject: String?, _ reason: String) {
        self.code = code
        self.subject = subject
        self.reason = reason
    }

    /// A path as messages show it: quoted and cut (longer than any real path's useful part), except the
    /// standard streams' names.
    static func display(_ path: String) -> String {
        path == "<stdin>" || path == "<stdout>" ? path : path.quotedForMessage(limit: 240)
    }

    var line: String {
        ("blurtool: error: " + (subject.map { "\($0): " } ?? "") + reason).escapedForMessageLine()
    }
}
