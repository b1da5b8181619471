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
}

/// A failure that ends a run: one line for stderr and the status to exit with.
struct ToolFailure: Error {
    let code: ExitCode
    let subject: String?
    let reason: String

    init(_ code: ExitCode, _ subject: String?, _ reason: String) {
        self.code = code
        self.subject = subject
        self.reason = reason
    }

    var line: String {
        "blurtool: error: " + (subject.map { "\($0): " } ?? "") + reason
    }
}
