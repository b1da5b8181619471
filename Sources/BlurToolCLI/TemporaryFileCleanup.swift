#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import Synchronization

/// Removes the outputs' temporary files when SIGINT, SIGTERM or SIGHUP ends the process mid-write, and when a
/// fault (a trap's SIGILL or SIGTRAP, SIGSEGV, SIGBUS, an abort's SIGABRT) does.
///
/// A signal handler may call only async-signal-safe functions: no allocation, no lock. So the paths live in C
/// buffers allocated once, before any handler is installed (reaching the `static let` then takes no lock, only a
/// check that it is initialised), and the handler only reads them,
/// calls `unlink`, restores the default action and raises the signal again (the exit status stays the signal's,
/// as a shell or a supervisor expects). One temporary file is written at a time per slot: a command writes its
/// outputs one by one, a batch one per photo in flight.
///
/// A batch asks for `defersTermination`: the first SIGINT, SIGTERM or SIGHUP is then only recorded
/// (`terminationSignal`), so the photos in flight can finish and the run stop cleanly; a second ends the process
/// as above.
enum TemporaryFileCleanup {
    private static let capacity = Int(PATH_MAX) + 1
    /// Temporary files that may exist at once: one per photo in flight (`Batch.maximumJobs`) and the report.
    static let slotCount = 72

    /// The temporary files' paths, NUL-terminated, `capacity` bytes each; a slot is empty when its first byte is 0.
    nonisolated(unsafe) private static let buffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotCount)
        buffer.initialize(repeating: 0, count: capacity * slotCount)
        return buffer
    }()
    private static let slotsInUse = Mutex([Bool](repeating: false, count: slotCount))

    /// Set by `defersTermination()`.
    fileprivate static let defers = Atomic<Bool>(false)
    /// The signal recorded while termination is deferred; 0 before any.
    fileprivate static let recordedSignal = Atomic<Int32>(0)
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
        _ = defers.load(ordering: .relaxed)
        _ = recordedSignal.load(ordering: .relaxed)
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

    /// Creates `path` (mode 0644 before the umask) and records it for the handlers. Exclusively by default: nil
    /// when a file of that name exists (another process's, perhaps with this process id on another host or
    /// container: it is never removed), so the caller tries another name. With `replacing`, a file of that name
    /// is truncated and taken over: a batch's fixed temporary name, left by a run that was killed.
    /// - Returns: the descriptor and the slot that `remove` and `forget` need.
    static func create(
        _ path: String, subject: String, replacing: Bool = false
    ) throws(ToolFailure) -> (descriptor: Int32, slot: Int)? {
        _ = installed
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { throw ToolFailure(.cannotCreate, subject, FileIO.errorText(ENAMETOOLONG)) }
        let free = slotsInUse.withLock { inUse -> Int? in
            guard let slot = inUse.firstIndex(of: false) else { return nil }
            inUse[slot] = true
            return slot
        }
        guard let slot = free else { throw ToolFailure(.cannotCreate, subject, "too many outputs open at once") }
        record(bytes, slot: slot)
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC | O_NOFOLLOW : O_EXCL)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            let error = errno
            forget(slot: slot)
            if error == EEXIST { return nil }
            throw ToolFailure(.cannotCreate, subject, FileIO.errorText(error))
        }
        return (descriptor, slot)
    }

    /// Removes the temporary file at `path` and stops tracking it.
    static func remove(_ path: String, slot: Int) {
        unlink(path)
        forget(slot: slot)
    }

    /// Stops tracking the temporary file (it was renamed into place).
    static func forget(slot: Int) {
        buffer[slot * capacity] = 0
        slotsInUse.withLock { $0[slot] = false }
    }

    /// From now on the first SIGINT, SIGTERM or SIGHUP is only recorded (see `terminationSignal`); a second
    /// removes the temporary files and ends the process.
    static func defersTermination() {
        _ = installed
        defers.store(true, ordering: .sequentiallyConsistent)
    }

    /// The signal that asked the process to stop while termination was deferred, or nil.
    static var terminationSignal: Int32? {
        let number = recordedSignal.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    private static func record(_ bytes: [UInt8], slot: Int) {
        // The terminator first and the first byte last, so a handler never sees a half-written path as whole.
        let path = buffer + slot * capacity
        path[0] = 0
        for (index, byte) in bytes.enumerated().dropFirst() { path[index] = CChar(bitPattern: byte) }
        path[bytes.count] = 0
        if let first = bytes.first { path[0] = CChar(bitPattern: first) }
    }

    /// Unlinks every recorded temporary file: async-signal-safe.
    fileprivate static func removeAll() {
        for slot in 0..<slotCount {
            let path = buffer + slot * capacity
            if path[0] != 0 { unlink(path) }
        }
    }
}

/// The handler: only async-signal-safe calls (`unlink`, `signal`, `raise`, lock-free atomics).
private func removeAndReraise(_ number: Int32) {
    if TemporaryFileCleanup.defers.load(ordering: .relaxed),
        TemporaryFileCleanup.recordedSignal.compareExchange(
            expected: 0, desired: number, ordering: .sequentiallyConsistent
        ).exchanged
    {
        return
    }
    TemporaryFileCleanup.removeAll()
    signal(number, SIG_DFL)
    raise(number)
}

/// The faults' handler: removes the file, puts the earlier action back and raises the signal again (it stays
/// pending while this handler runs, then reaches that action; a fault returned from re-runs its instruction, which
/// faults again into the same action). Only async-signal-safe calls (`unlink`, `sigaction`, `raise`).
private func removeAndRaiseAgainWithPreviousAction(_ number: Int32) {
    TemporaryFileCleanup.removeAll()
    sigaction(number, TemporaryFileCleanup.previousActions + Int(number), nil)
    raise(number)
}
