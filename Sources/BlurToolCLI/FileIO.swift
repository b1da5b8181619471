#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls, each failure mapped to an exit status.
enum FileIO {
    /// Inputs above this are refused before reading: no real photo comes close.
    static let maxInputBytes = 1 << 30

    static func read(_ path: String) throws(ToolFailure) -> [UInt8] {
        if path == "-" { return try readAll(descriptor: STDIN_FILENO, subject: "<stdin>") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            throw ToolFailure(
                error == ENOENT || error == ENOTDIR || error == EACCES ? .noInput : .ioError,
                path, errorText(error))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ToolFailure(.ioError, path, errorText(errno)) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw ToolFailure(.noInput, path, "is a directory") }
        return try readAll(descriptor: descriptor, subject: path)
    }

    private static func readAll(descriptor: Int32, subject: String) throws(ToolFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw ToolFailure(.ioError, subject, errorText(errno))
            }
            guard bytes.count + count <= maxInputBytes else {
                throw ToolFailure(.dataError, subject, "larger than \(maxInputBytes >> 20) MiB")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
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
