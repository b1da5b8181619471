#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes the output's temporary file when SIGINT, SIGTERM or SIGHUP ends the process mid-write, and when a
/// fault (a trap's SIGILL or SIGTRAP, SIGSEGV, SIGBUS, an abort's SIGABRT) does.
///
/// A signal handler may call only async-signal-safe functions: no allocation, no lock. So the path lives in a C
/// buffer allocated once, before any handler is installed (reaching the `static let` then takes no lock, only a
/// check that it is initialised), and the handler only reads it,
/// calls `unlink`, restores the default action and raises the signal again (the exit status stays the signal's,
/// as a shell or a supervisor expects). One temporary file exists at a time: outputs are written one by one.
enum TemporaryFileCleanup {
    private static let capacity = Int(PATH_MAX) + 1

    /// The temporary file's path, NUL-terminated; empty when there is none.
    nonisolated(unsafe) private static let buffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()

    private static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// Faults: the action found before ours (the Swift runtime's backtracer, say) is put back and the signal
    /// raised again, so the crash report and the exit status are what they would have been.
    private static let faults = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT]

    /// The actions found for `faults`, indexed by signal number, kept where a handler reads them without
    /// allocating or touching a Swift array.
    nonisolated(unsafe) fileprivate static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        actions.initialize(repeating: sigaction(), count: Int(NSIG))
        return actions
    }()

    /// Installs the handlers once (a signal the parent set to be ignored stays ignored, as `nohup` expects).
    private static let installed: Bool = {
        _ = buffer  // initialised here, never first from a handler
        for number in signals {
            // Asked first, so a signal the parent ignores (nohup's SIGHUP) is never briefly handled.
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                    != unsafeBitCast(SIG_IGN, to: Int.self)
            else { continue }
            signal(number, removeAndReraise)
        }
        for number in faults {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = removeAndRaiseAgainWithPreviousAction
            sigemptyset(&action.sa_mask)
            // On the alternate stack where the runtime set one up: a stack overflow's SIGSEGV still cleans up.
            action.sa_flags = Int32(SA_ONSTACK)
            sigaction(number, &action, previousActions + Int(number))
        }
        return true
    }()

    /// Creates `path` exclusively (mode 0644 before the umask) and records it for the handlers; nil when a
    /// file of that name exists (another process's, perhaps with this process id on another host or container:
    /// it is never removed), so the caller tries another name.
    static func create(_ path: String, subject: String) throws(ToolFailure) -> Int32? {
        _ = installed
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { throw ToolFailure(.cannotCreate, subject, FileIO.errorText(ENAMETOOLONG)) }
        record(bytes)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let error = errno
            forget()
            if error == EEXIST { return nil }
            throw ToolFailure(.cannotCreate, subject, FileIO.errorText(error))
        }
        return descriptor
    }

    /// Removes the temporary file at `path` and stops tracking it.
    static func remove(_ path: String) {
        unlink(path)
        forget()
    }

    /// Stops tracking the temporary file (it was renamed into place).
    static func forget() {
        buffer[0] = 0
    }

    private static func record(_ bytes: [UInt8]) {
        // The terminator first and the first byte last, so a handler never sees a half-written path as whole.
        buffer[0] = 0
        for (index, byte) in bytes.enumerated().dropFirst() { buffer[index] = CChar(bitPattern: byte) }
        buffer[bytes.count] = 0
        if let first = bytes.first { buffer[0] = CChar(bitPattern: first) }
    }

    fileprivate static var pathBuffer: UnsafeMutablePointer<CChar> { buffer }
}

/// The handler: only async-signal-safe calls (`unlink`, `signal`, `raise`).
private func removeAndReraise(_ number: Int32) {
    let path = TemporaryFileCleanup.pathBuffer
    if path[0] != 0 { unlink(path) }
    signal(number, SIG_DFL)
    raise(number)
}

/// The faults' handler: removes the file, puts the earlier action back and raises the signal again (it stays
/// pending while this handler runs, then reaches that action; a fault returned from re-runs its instruction, which
/// faults again into the same action). Only async-signal-safe calls (`unlink`, `sigaction`, `raise`).
private func removeAndRaiseAgainWithPreviousAction(_ number: Int32) {
    let path = TemporaryFileCleanup.pathBuffer
    if path[0] != 0 { unlink(path) }
    sigaction(number, TemporaryFileCleanup.previousActions + Int(number), nil)
    raise(number)
}
