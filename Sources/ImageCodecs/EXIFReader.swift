import Compositor

/// Reads the orientation from an EXIF (TIFF-structured) block, trusting nothing in it.
///
/// Only IFD0 holds the orientation tag, so no IFD links are followed and loops cannot trap the reader;
/// every offset and count is checked against the block's length.
public enum EXIFReader {
    private static let orientationTag: UInt16 = 0x0112

    /// The orientation in `tiff` (which starts at the TIFF header, "II*\0" or "MM\0*", or at the "Exif\0\0"
    /// prefix before it). Nil when the block is malformed or has no orientation tag.
    public static func orientation(in block: [UInt8]) -> Orientation? {
        var tiff = block[...]
        if tiff.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) {  // "Exif\0\0", as PNG eXIf sometimes keeps it
            tiff = tiff.dropFirst(6)
        }
        let reader = ByteReader(bytes: Array(tiff))
        return reader.flatMap(readOrientation)
    }

    private static func readOrientation(_ reader: ByteReader) -> Orientation? {
        guard let ifd0 = reader.uint32(at: 4).map(Int.init), let count = reader.uint16(at: ifd0) else { return nil }
        for index in 0..<Int(count) {
            let entry = ifd0 + 2 + index * 12
            guard let tag = reader.uint16(at: entry), let type = reader.uint16(at: entry + 2) else { return nil }
            guard tag == orientationTag else { continue }
            switch type {
            case 3: return reader.uint16(at: entry + 8).map { Orientation(exifValue: Int($0)) }  // SHORT
            case 4: return reader.uint32(at: entry + 8).map { Orientation(exifValue: Int($0)) }  // LONG
            default: return .up
            }
        }
        return nil
    }
}

/// Bounds-checked reads in the byte order a TIFF header declares.
private struct ByteReader {
    let bytes: [UInt8]
    let isBigEndian: Bool

    init?(bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x49, 0x49, 0x2A, 0x00): isBigEndian = false
        case (0x4D, 0x4D, 0x00, 0x2A): isBigEndian = true
        default: return nil
        }
        self.bytes = bytes
    }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset + 1])
        return isBigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4, let first = uint16(at: offset),
            let second = uint16(at: offset + 2)
        else { return nil }
        return isBigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }
}
