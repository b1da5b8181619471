import ImageCodecs

/// Where a command writes: `-o` as given, or a name made from the input's stem when `-o` is missing or
/// names a directory. Rendering and composing share it, so both treat directories and `-` alike.
enum OutputPath {
    /// `output` as given; or, when it is nil or names a directory, `name(stem)` in that directory (or beside
    /// `input`, whose stem is its file name without the extension); standard output for standard input.
    /// - Throws: `UsageError` for a directory and standard input, which has no name to give the file (the image
    ///   went to stdout instead, mixed with whatever else the user sent there).
    static func resolve(_ output: String?, input: String, name: (String) -> String) throws(UsageError) -> String {
        var directory: String?
        if let output {
            guard output != "-", output.hasSuffix("/") || FileIO.isDirectory(output) else { return output }
            directory = output.hasSuffix("/") ? output : output + "/"
        }
        if input == "-", let directory {
            throw UsageError(
                "-o \(ToolFailure.display(directory)) is a directory, and standard input has no name to give the "
                    + "file there; name the output file")
        }
        guard input != "-" else { return "-" }
        let (folder, stem) = folderAndStem(input)
        return (directory ?? folder) + name(stem)
    }

    /// A path's folder, with its trailing slash (empty when the path names none), and its file name without
    /// the extension (a leading dot is part of the name, not an extension).
    static func folderAndStem(_ path: String) -> (folder: String, stem: String) {
        let slash = path.lastIndex(of: "/")
        var stem = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        return (slash.map { String(path[...$0]) } ?? "", stem)
    }

    /// The format asked for, or the one the path's extension names; nil for standard output, a character device
    /// or a FIFO (`/dev/null`, `/dev/stdout`: the caller decides). Any other path naming no format is a usage error.
    static func format(of path: String, requested: ImageFormat?) throws -> ImageFormat? {
        if let requested { return requested }
        if path == "-" { return nil }
        if let format = ImageFormat(fileExtensionOf: path) { return format }
        if FileIO.isStream(path) { return nil }
        throw UsageError(
            "cannot tell the output format from \(ToolFailure.display(path)); name it .png or .jpg, or give --format")
    }

    /// Refuses an output that is the input itself (`what`: "input", "scene"): it would be overwritten by
    /// its own result. Standard input and output are never the same file.
    static func refuseOverwriting(_ input: String, with output: String, what: String) throws(ToolFailure) {
        if input != "-", output != "-", FileIO.isSameFile(input, output) {
            throw ToolFailure(.cannotCreate, output, "is the \(what) file; refusing to overwrite it")
        }
    }
}
