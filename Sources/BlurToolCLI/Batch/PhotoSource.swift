import ImageCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A photo of a batch: the path it is read from and the path its outputs mirror under the destination.
struct BatchPhoto: Equatable, Sendable {
    let path: String
    /// Relative, `/`-separated, never `..` or absolute: DEST/relativePath's folder receives its outputs.
    let relativePath: String
}

/// The photos a batch's SOURCE names: a folder walked recursively (images recognised by their first bytes, or
/// by a `.jpg`, `.jpeg` or `.png` name so a corrupt photo is reported rather than passed over), or a list file
/// with one path per line (`-`: standard input). Hidden files and folders and the destination are left out.
enum PhotoSource {
    /// The photos sorted by relative path, and how many other files a folder held.
    static func photos(
        from source: String, excluding destination: String
    ) throws(ToolFailure) -> (photos: [BatchPhoto], ignored: Int) {
        if source != "-", FileIO.isDirectory(source) {
            var walk = FolderWalk(excluded: FileIdentity(destination))
            let root = source.hasSuffix("/") ? String(source.dropLast()) : source
            try walk.visit(root.isEmpty ? "/" : root, relative: "")
            return (walk.photos.sorted { $0.relativePath < $1.relativePath }, walk.ignored)
        }
        let bytes = try FileIO.read(source, upTo: FileIO.maxInputBytes, whatItIs: "a list of photos")
        var photos: [BatchPhoto] = []
        var seen = Set<String>()
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var path = String(decoding: line, as: UTF8.self)
            if path.hasSuffix("\r") { path.removeLast() }
            guard !path.isEmpty else { continue }
            let relative = mirrored(path)
            guard seen.insert(relative).inserted else { continue }  // a photo listed twice is done once
            photos.append(BatchPhoto(path: path, relativePath: relative))
        }
        return (photos.sorted { $0.relativePath < $1.relativePath }, 0)
    }

    /// Where a listed path's outputs go: the path itself, normalised, when it is relative and stays inside the
    /// current folder; otherwise its absolute form without the leading `/` (so `../a.jpg` and `/x/a.jpg` never
    /// write outside the destination).
    static func mirrored(_ path: String) -> String {
        var parts: [Substring] = []
        var escapes = path.hasPrefix("/")
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                if parts.isEmpty { escapes = true } else { parts.removeLast() }
            } else {
                parts.append(part)
            }
        }
        if !escapes { return parts.joined(separator: "/") }
        let absolute: String
        if path.hasPrefix("/") {
            absolute = path
        } else {
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let folder = buffer.withUnsafeMutableBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) { getcwd($0.baseAddress, $0.count) } != nil
            }
            absolute = (folder ? String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self) : "") + "/" + path
        }
        var resolved: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = resolved.popLast() } else { resolved.append(part) }
        }
        return resolved.joined(separator: "/")
    }

    /// A depth-first walk that never follows a symbolic link to a folder (no loops) but takes a linked photo.
    private struct FolderWalk {
        let excluded: FileIdentity?
        var photos: [BatchPhoto] = []
        var ignored = 0

        mutating func visit(_ folder: String, relative: String) throws(ToolFailure) {
            guard let names = FileIO.names(in: folder) else {
                throw ToolFailure(.noInput, folder, FileIO.errorText(errno))
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder == "/" ? "/" + name : folder + "/" + name
                let relativePath = relative.isEmpty ? name : relative + "/" + name
                var link = stat()
                guard lstat(path, &link) == 0 else { continue }  // removed meanwhile
                if link.st_mode & S_IFMT == S_IFDIR {
                    if let excluded, FileIdentity(path) == excluded { continue }
                    try visit(path, relative: relativePath)
                    continue
                }
                var status = stat()
                guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                    ignored += 1
                    continue
                }
                if PhotoSource.looksLikePhoto(path) {
                    photos.append(BatchPhoto(path: path, relativePath: relativePath))
                } else {
                    ignored += 1
                }
            }
        }
    }

    /// A JPEG or PNG by its first bytes, or by its name when they cannot be read or are not an image's.
    static func looksLikePhoto(_ path: String) -> Bool {
        if ImageFormat(fileExtensionOf: path) != nil { return true }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: 8)
        let count = read(descriptor, &start, start.count)
        return count > 0 && ImageFormat(sniffing: Array(start[..<count])) != nil
    }
}
