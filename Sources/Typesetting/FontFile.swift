#if canImport(Glibc)
    import Glibc
#endif

/// What a font path must be before it is opened: a regular file of a font's size. HarfBuzz reads a path it
/// cannot map to its end, so a FIFO would block the open for ever and /dev/zero would fill memory.
enum FontFile {
    /// Larger than any font, collections included (Noto's CJK collection is about 20 MiB).
    static let maximumBytes = 256 << 20

    static func check(_ path: String) throws(TypesettingError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadableFile(path: path) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAFont(path: path) }
        guard status.st_size <= maximumBytes else {
            throw .fileTooLarge(path: path, bytes: Int(status.st_size))
        }
    }
}
