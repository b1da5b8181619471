#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an image is written, opened before it is encoded (so an output that cannot be created fails before the
/// work, and an interrupted encode leaves nothing behind).
///
/// A regular file (new or existing) is written through a temporary file beside it, renamed over it only once
/// complete: a failed or interrupted run never leaves a half-written image (a power loss is another matter: it is
/// not synced to disk), and SIGINT, SIGTERM or SIGHUP remove
/// the temporary file. A symbolic link is written through: the temporary file goes beside its final target, which
/// is replaced and the link kept. A character device (`/dev/null`, a terminal) or a FIFO is written directly,
/// never replaced. Anything else (a directory, a block device, a socket) is refused with 73.
final class OutputFile {
    private enum Target {
        case standardOutput
        case direct(descriptor: Int32)
        case replacing(final: String, temporary: String, descriptor: Int32, slot: Int)
    }

    /// The path as the user gave it, for messages.
    let path: String
    private var target: Target?
    /// A batch's outputs are written through `.NAME.blurtool-batch.tmp`: one name per output, so a run killed
    /// outright (SIGKILL, a node lost) leaves at most that file, which the rerun that redoes the photo takes over.
    private let hasFixedTemporaryName: Bool

    /// Opens `path` ("-" for standard output) for writing; nothing is replaced until `commit`.
    init(_ path: String, fixedTemporaryName: Bool = false) throws(ToolFailure) {
        self.path = path
        hasFixedTemporaryName = fixedTemporaryName
        if path == "-" {
            target = .standardOutput
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            // Nothing there yet (a dangling link's target is created where the link points).
            guard errno == ENOENT else { throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno)) }
            target = try replacing(try OutputFile.resolvingSymbolicLinks(path), keeping: nil)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFCHR, S_IFIFO:
            // Opened by the path itself, so /dev/stdout and /proc/self/fd/N reach what they name.
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else { throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno)) }
            target = .direct(descriptor: descriptor)
        case S_IFREG:
            guard let resolved = realpath(path, nil) else {
                throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno))
            }
            defer { free(resolved) }
            target = try replacing(String(cString: resolved), keeping: status.st_mode & 0o777)
        case S_IFDIR:
            throw ToolFailure(.cannotCreate, path, "is a directory")
        default:
            throw ToolFailure(.cannotCreate, path, "is neither a regular file, a character device nor a FIFO")
        }
    }

    /// A temporary file beside `final`, to be renamed over it; `mode` is the replaced file's permissions.
    private func replacing(_ final: String, keeping mode: mode_t?) throws(ToolFailure) -> Target {
        for attempt in 0..<100 {
            let temporary =
                hasFixedTemporaryName
                ? OutputFile.temporaryPath(beside: final, suffix: ".blurtool-batch.tmp")
                : OutputFile.temporaryPath(beside: final, attempt: attempt)
            guard
                let (descriptor, slot) = try TemporaryFileCleanup.create(
                    temporary, subject: path, replacing: hasFixedTemporaryName)
            else { continue }
            if let mode { _ = fchmod(descriptor, mode) }
            return .replacing(final: final, temporary: temporary, descriptor: descriptor, slot: slot)
        }
        throw ToolFailure(.cannotCreate, path, "100 temporary names beside it are taken")
    }

    deinit { discard() }

    /// Writes `bytes` now, for an output made in parts (a video stream's frames); `commit` completes it. A
    /// regular file still appears only at `commit`.
    func append(_ bytes: [UInt8]) throws(ToolFailure) {
        guard let target else { return }
        let descriptor: Int32
        switch target {
        case .standardOutput: descriptor = STDOUT_FILENO
        case .direct(let open): descriptor = open
        case .replacing(_, _, let open, _): descriptor = open
        }
        guard OutputFile.writeAll(bytes, to: descriptor) else {
            let error = errno
            discard()
            throw ToolFailure(.ioError, path == "-" ? "<stdout>" : path, FileIO.errorText(error))
        }
    }

    /// Writes `bytes` and, for a regular file, renames the temporary file over the output.
    func commit(_ bytes: [UInt8]) throws(ToolFailure) {
        guard let target else { return }
        switch target {
        case .standardOutput:
            guard OutputFile.writeAll(bytes, to: STDOUT_FILENO) else {
                throw ToolFailure(.ioError, "<stdout>", FileIO.errorText(errno))
            }
        case .direct(let descriptor):
            let written = OutputFile.writeAll(bytes, to: descriptor)
            let error = errno
            discard()
            guard written else { throw ToolFailure(.ioError, path, FileIO.errorText(error)) }
        case .replacing(let final, let temporary, let descriptor, let slot):
            let written = OutputFile.writeAll(bytes, to: descriptor)
            var error = errno
            let closed = close(descriptor) == 0
            if written, !closed { error = errno }
            self.target = nil
            guard written, closed else {
                TemporaryFileCleanup.remove(temporary, slot: slot)
                throw ToolFailure(.ioError, path, FileIO.errorText(error))
            }
            guard rename(temporary, final) == 0 else {
                let error = errno
                TemporaryFileCleanup.remove(temporary, slot: slot)
                throw ToolFailure(.cannotCreate, path, FileIO.errorText(error))
            }
            TemporaryFileCleanup.forget(slot: slot)
        }
        self.target = nil
    }

    /// Closes without replacing anything; the temporary file, if any, is removed.
    func discard() {
        guard let target else { return }
        self.target = nil
        switch target {
        case .standardOutput: break
        case .direct(let descriptor): close(descriptor)
        case .replacing(_, let temporary, let descriptor, let slot):
            close(descriptor)
            TemporaryFileCleanup.remove(temporary, slot: slot)
        }
    }

    /// For a path that does not exist: `path` with every symbolic link of its last component followed (up to 40,
    /// as the kernel allows), so a dangling link's target is created and the link kept.
    private static func resolvingSymbolicLinks(_ path: String) throws(ToolFailure) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno)) }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else {
                current = (current.lastIndex(of: "/").map { String(current[...$0]) } ?? "") + target
            }
        }
        throw ToolFailure(.cannotCreate, path, FileIO.errorText(ELOOP))
    }

    /// `.NAME.blurtool-PID.tmp` (`-PID-N` for later attempts) in the directory of `path`, with NAME cut so the
    /// whole stays within NAME_MAX (255 bytes): an output name near the limit must not fail for its temporary
    /// file's longer name.
    static func temporaryPath(beside path: String, attempt: Int = 0) -> String {
        temporaryPath(beside: path, suffix: ".blurtool-\(getpid())" + (attempt == 0 ? "" : "-\(attempt)") + ".tmp")
    }

    static func temporaryPath(beside path: String, suffix: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var kept = ""
        var bytes = 1 + suffix.utf8.count
        for character in name {
            bytes += character.utf8.count
            if bytes > 255 { break }
            kept.append(character)
        }
        return directory + "." + kept + suffix
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }
}
