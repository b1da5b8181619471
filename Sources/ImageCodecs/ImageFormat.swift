/// The file formats this library reads and writes.
public enum ImageFormat: String, CaseIterable, Sendable {
    case jpeg, png

    /// The usual file extension, without a dot.
    public var fileExtension: String { self == .jpeg ? "jpg" : "png" }

    /// The format the first bytes announce, whatever the file is called.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else {
            return nil
        }
    }

    /// The format a file name's extension names (`.jpg`, `.jpeg`, `.png`, any case), if any.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }
}
