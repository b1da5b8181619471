#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls, each failure mapped to an exit status.
enum FileIO {
    /// Inputs above this are refused before reading: no real photo comes close.
    static let maxInputBytes = 1 << 30

    /// The whole of a file, or of standard input for "-", refused once it passes `limit` bytes: an endless
    /// stream (`/dev/zero`, a pipe that never closes) is read only up to one byte past the limit.
    /// - Parameter whatItIs: how the message names what the input is not ("an image", "a scene file").
    static func read(
        _ path: String, upTo limit: Int = maxInputBytes, whatItIs: String = "an image"
    ) throws(ToolFailure) -> [UInt8] {
        let tooLarge = "larger than \(limit >> 20) MiB; not \(whatItIs)"
        if path == "-" { return try readAll(descriptor: STDIN_FILENO, subject: "<stdin>", limit: limit, tooLarge) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            throw ToolFailure(
                error == ENOENT || error == ENOTDIR || error == EACCES || error == ENAMETOOLONG || error == ELOOP
                    ? .noInput : .ioError,
                path, errorText(error))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ToolFailure(.ioError, path, errorText(errno)) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw ToolFailure(.noInput, path, "is a directory") }
        guard status.st_size <= limit else { throw ToolFailure(.dataError, path, tooLarge) }
        // A regular file's size is known: read it into one buffer of that size (a pipe, a device or a file that
        // grows meanwhile still ends up complete, through the growing loop).
        return try readAll(
            descriptor: descriptor, subject: path, limit: limit, tooLarge,
            expected: status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 1 << 20)
    }

    private static func readAll(
        descriptor: Int32, subject: String, limit: Int, _ tooLarge: String, expected: Int = 1 << 20
    ) throws(ToolFailure) -> [UInt8] {
        // One byte more than the limit is the most ever held: reading it is how a longer input is recognised.
        let ceiling = limit + 1
        var bytes = [UInt8](repeating: 0, count: min(max(expected, 1) + 1, ceiling))
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count < ceiling else { throw ToolFailure(.dataError, subject, tooLarge) }
                bytes.append(contentsOf: [UInt8](repeating: 0, count: min(bytes.count, ceiling - bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ToolFailure(.ioError, subject, errorText(errno))
            }
            filled += count
        }
        guard filled <= limit else { throw ToolFailure(.dataError, subject, tooLarge) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Writes through a temporary file in the same directory, renamed over `path` only once complete, so a
    /// failed run never leaves a half-written image.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ToolFailure) {
        if path == "-" {
            guard writeAll(bytes, to: STDOUT_FILENO) else { throw ToolFailure(.ioError, "<stdout>", errorText(errno)) }
            return
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + ".\(name).blurtool-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ToolFailure(.cannotCreate, path, errorText(errno)) }
        let written = writeAll(bytes, to: descriptor)
        let writeError = errno
        let closed = close(descriptor) == 0
        guard written, closed else {
            unlink(temporary)
            throw ToolFailure(.ioError, path, errorText(written ? errno : writeError))
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw ToolFailure(.cannotCreate, path, errorText(error))
        }
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

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// True when both paths name the same existing file (so the output would overwrite the input).
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
