import CBlurToolAPI
import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a C call failed: its status code and one line naming the argument or the reason.
struct CallFailure: Error {
    let status: blurtool_status_t
    let message: String

    static func argument(_ name: String, _ problem: String) -> CallFailure {
        CallFailure(status: BLURTOOL_ERROR_ARGUMENT, message: "\(name): \(problem)")
    }

    static func data(_ message: String) -> CallFailure { CallFailure(status: BLURTOOL_ERROR_DATA, message: message) }
    static func limit(_ message: String) -> CallFailure { CallFailure(status: BLURTOOL_ERROR_LIMIT, message: message) }
    static func memory(_ message: String) -> CallFailure {
        CallFailure(status: BLURTOOL_ERROR_MEMORY, message: message)
    }
}

/// Runs the body of a C entry point: its failure becomes the status returned and this thread's last error,
/// prefixed by the function's name.
func entry(_ function: String, _ body: () throws(CallFailure) -> Void) -> blurtool_status_t {
    do {
        try body()
        return BLURTOOL_OK
    } catch {
        LastError.set("\(function): \(error.message)")
        return error.status
    }
}

/// The message of each thread's last failed call, kept in thread-specific storage as a C string that stays
/// valid until the thread's next failure (or its end, when the key's destructor frees it).
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { free($0) }
        precondition(created == 0, "no thread-specific key for blurtool_last_error")
        return key
    }()

    nonisolated(unsafe) private static let empty: UnsafeMutablePointer<CChar> = strdup("")!

    static func set(_ message: String) {
        // One line, whatever an underlying error said.
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        free(pthread_getspecific(key))
        pthread_setspecific(key, strdup(line))
    }

    static var current: UnsafePointer<CChar> {
        UnsafePointer(pthread_getspecific(key)?.assumingMemoryBound(to: CChar.self) ?? empty)
    }
}

/// A C string argument as a Swift string: NULL and invalid UTF-8 are refused, naming the argument.
func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(CallFailure) -> String {
    guard let pointer else { throw .argument(name, "is NULL") }
    guard let value = String(validatingCString: pointer) else { throw .argument(name, "is not valid UTF-8") }
    return value
}

/// A number argument that must be finite (and within `range` when given).
func finite(_ value: Double, _ name: String, in range: ClosedRange<Double>? = nil) throws(CallFailure) -> Double {
    guard value.isFinite else { throw .argument(name, "must be a finite number, not \(value)") }
    if let range, !range.contains(value) {
        throw .argument(name, "must be within \(range.lowerBound) to \(range.upperBound), not \(value)")
    }
    return value
}

/// A `threads` argument: 0 for one a core, else at least 1.
func threadCount(_ value: Int32) throws(CallFailure) -> Int {
    guard value >= 0 else { throw .argument("threads", "must be 0 (one a core) or more, not \(value)") }
    return value == 0 ? Parallel.processorCount : Int(value)
}
