import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a batch has finished, kept under DEST/.blurtool-batch/ so a rerun does only what is left.
///
/// A photo is done when its outputs exist (they are only ever renamed into place, so an existing one is whole) and
/// the journal holds a line for it with the input's size and modification time and the run's option fingerprint:
/// a changed photo, or the same photo asked for with other options, is done again. Each shard appends to a file
/// of its own (`journal-K-of-N.tsv`: array tasks on several machines never write one file) and a run reads them
/// all, so a set started with one shard count can be finished with another. A line is written with one `write`
/// once every output of its photo is in place; a line cut short by a crash is not read.
final class BatchJournal: Sendable {
    static let folderName = ".blurtool-batch"

    /// What identifies a photo's finished state.
    struct Entry: Hashable {
        let fingerprint: String
        let size: Int64
        let modified: String
        let relativePath: String
    }

    private let finished: Set<Entry>
    private let descriptor: Mutex<Int32>
    /// The file this run appends to.
    let path: String

    /// Reads every journal under `destination` and opens this shard's for appending.
    init(destination: String, shard: Shard) throws(ToolFailure) {
        let folder = destination + "/" + BatchJournal.folderName
        try FileIO.makeFolder(folder)
        var finished = Set<Entry>()
        for name in FileIO.names(in: folder) ?? [] {
            guard name.hasPrefix("journal-"), name.hasSuffix(".tsv"),
                let bytes = try? FileIO.read(folder + "/" + name, whatItIs: "a batch journal")
            else { continue }
            BatchJournal.parse(bytes, into: &finished)
        }
        self.finished = finished
        path = folder + "/journal-\(shard.index)-of-\(shard.count).tsv"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno)) }
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        descriptor.withLock { _ = close($0) }
    }

    func contains(_ entry: Entry) -> Bool { finished.contains(entry) }

    /// Appends `entry` as one line.
    func record(_ entry: Entry) throws(ToolFailure) {
        let line = Array(
            "v1\t\(entry.fingerprint)\t\(entry.size)\t\(entry.modified)\t\(BatchJournal.escaped(entry.relativePath))\n"
                .utf8)
        let written = descriptor.withLock { descriptor in
            line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
        guard written == line.count else {
            throw ToolFailure(.ioError, path, written < 0 ? FileIO.errorText(errno) : "short write")
        }
    }

    static func parse(_ bytes: [UInt8], into entries: inout Set<Entry>) {
        // The last line counts only with its newline: a write cut short leaves none.
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 5, fields[0].elementsEqual("v1".utf8),
                let size = Int64(String(decoding: fields[2], as: UTF8.self)),
                let path = unescaped(String(decoding: fields[4], as: UTF8.self))
            else { continue }
            entries.insert(
                Entry(
                    fingerprint: String(decoding: fields[1], as: UTF8.self), size: size,
                    modified: String(decoding: fields[3], as: UTF8.self), relativePath: path))
        }
    }

    /// Backslash, tab, newline and carriage return written as `\\`, `\t`, `\n`, `\r`: one line per photo
    /// whatever its name.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    static func unescaped(_ text: String) -> String? {
        var result = ""
        var escaping = false
        for character in text.unicodeScalars {
            if escaping {
                switch character {
                case "\\": result += "\\"
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: return nil
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(character)
            }
        }
        return escaping ? nil : result
    }

    /// A file's size and modification time to the nanosecond, as the journal records them; nil when it cannot
    /// be asked about.
    static func identity(of path: String) -> (size: Int64, modified: String)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let nanoseconds = String(status.st_mtim.tv_nsec)
        return (
            Int64(status.st_size),
            "\(status.st_mtim.tv_sec)." + String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
        )
    }
}
