import ImageCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads with POSIX calls, each failure mapped to an exit status (writes: `OutputFile`).
enum FileIO {
    /// Inputs above this are refused before reading: no real photo comes close.
    static let maxInputBytes = 1 << 30

    /// The whole of a file, or of standard input for "-", refused once it passes `limit` bytes: an endless
    /// stream (`/dev/zero`, a pipe that never closes) is read only up to one byte past the limit.
    /// - Parameter whatItIs: how the message names what the input is not ("an image", "a scene file").
    /// - Parameter refusesStart: given the first 8 bytes (or all, when fewer), the reason the input cannot be
    ///   what is wanted, or nil: an endless stream of the wrong bytes is then refused at once.
    static func read(
        _ path: String, upTo limit: Int = maxInputBytes, whatItIs: String = "an image",
        refusesStart: (([UInt8]) -> String?)? = nil
    ) throws(ToolFailure) -> [UInt8] {
        let tooLarge = "larger than \(limit >> 20) MiB; not \(whatItIs)"
        let check = Start(subject: path == "-" ? "<stdin>" : path, refuses: refusesStart)
        if path == "-" {
            return try readAll(descriptor: STDIN_FILENO, subject: "<stdin>", limit: limit, tooLarge, start: check)
        }
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
        if let stream = ownOutputStream(status) {
            // A pipe or terminal this process writes itself (`/proc/self/fd/1`): it would wait for its own end.
            throw ToolFailure(.noInput, path, "is this process's own \(stream); it would never end")
        }
        guard status.st_size <= limit else { throw ToolFailure(.dataError, path, tooLarge) }
        // A regular file's size is known: read it into one buffer of that size (a pipe, a device or a file that
        // grows meanwhile still ends up complete, through the growing loop).
        return try readAll(
            descriptor: descriptor, subject: path, limit: limit, tooLarge,
            expected: status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 1 << 20, start: check)
    }

    /// An image file's bytes: anything but JPEG or PNG is refused after its first 8 bytes, so `/dev/zero` is
    /// not read to the 1 GiB limit first.
    static func readImage(_ path: String) throws(ToolFailure) -> [UInt8] {
        try read(path) { ImageFormat(sniffing: $0) == nil ? CodecError.unrecognizedFormat.description : nil }
    }

    /// The check of an input's first bytes, made once when 8 have arrived or the input has ended.
    private struct Start {
        static let length = 8
        let subject: String
        let refuses: (([UInt8]) -> String?)?

        func check(_ bytes: [UInt8], filled: Int, ended: Bool) throws(ToolFailure) {
            guard let refuses, filled >= Start.length || ended, filled > 0 else { return }
            if let reason = refuses(Array(bytes[..<min(filled, Start.length)])) {
                throw ToolFailure(.dataError, subject, reason)
            }
        }
    }

    private static func readAll(
        descriptor: Int32, subject: String, limit: Int, _ tooLarge: String, expected: Int = 1 << 20, start: Start
    ) throws(ToolFailure) -> [UInt8] {
        // One byte more than the limit is the most ever held: reading it is how a longer input is recognised.
        let ceiling = limit + 1
        var bytes = [UInt8](repeating: 0, count: min(max(expected, 1) + 1, ceiling))
        var filled = 0
        var startChecked = false
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
            if !startChecked, filled >= Start.length {
                try start.check(bytes, filled: filled, ended: false)
                startChecked = true
            }
        }
        if !startChecked { try start.check(bytes, filled: filled, ended: true) }
        guard filled <= limit else { throw ToolFailure(.dataError, subject, tooLarge) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// True when `path` (through any symbolic link) is a character device or a FIFO, which is written directly.
    /// "standard output" or "standard error" when `status` is the pipe, socket or terminal behind one of them.
    private static func ownOutputStream(_ status: stat) -> String? {
        guard status.st_mode & S_IFMT != S_IFREG else { return nil }
        for (descriptor, name) in [(STDOUT_FILENO, "standard output"), (STDERR_FILENO, "standard error")] {
            var output = stat()
            if fstat(descriptor, &output) == 0, output.st_dev == status.st_dev, output.st_ino == status.st_ino {
                return name
            }
        }
        return nil
    }

    static func isStream(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT == S_IFCHR || status.st_mode & S_IFMT == S_IFIFO)
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

    /// Creates the folder at `path` (mode 0755 before the umask); one that is there already is fine.
    static func makeFolder(_ path: String) throws(ToolFailure) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw ToolFailure(.cannotCreate, path, errorText(errno))
        }
    }

    /// `mkdir -p`: the folder at `path` and every missing one above it.
    static func makeFolders(_ path: String) throws(ToolFailure) {
        if isDirectory(path) { return }
        var partial = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            partial += "/" + part
            try makeFolder(partial)
        }
    }

    /// The names in a folder (`.` and `..` among them), in the order the system gives; nil when it cannot be
    /// opened (`errno` says why).
    static func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                })
        }
        return names
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
