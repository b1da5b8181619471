import CCodecShim

/// PNG's chunk layout (a big-endian length, a four-letter type, the data, a CRC-32 of type and data), written
/// and read by hand for APNG: Debian's libpng has no APNG API.
struct PNGChunkWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private(set) var bytes: [UInt8]

    /// Chunks after the signature, or (`signature: false`) more chunks of a file being written in parts.
    init(reservingCapacity capacity: Int, signature: Bool = true) {
        bytes = signature ? PNGChunkWriter.signature : []
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ type: String, _ data: [UInt8]) {
        append(type, data[...])
    }

    mutating func append(_ type: String, _ data: ArraySlice<UInt8>) {
        precondition(data.count <= Int(Int32.max), "a PNG chunk holds at most 2^31 - 1 bytes")
        bytes.appendBigEndian(UInt32(data.count))
        let start = bytes.count
        bytes += Array(type.utf8)
        bytes += data
        let crc = bytes[start...].withUnsafeBufferPointer { bt_crc32(0, $0.baseAddress, $0.count) }
        bytes.appendBigEndian(crc)
    }
}

/// One chunk of a PNG file, its CRC checked.
struct PNGChunk {
    /// The four type bytes as text (already checked to be ASCII letters).
    var type: String
    var data: ArraySlice<UInt8>

    /// Ancillary chunks (lowercase first letter) may be skipped by a reader that does not know them.
    var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? true }
}

/// Walks the chunks after the signature, refusing lengths past the end and bad CRCs.
struct PNGChunkReader {
    private let bytes: [UInt8]
    private var offset = PNGChunkWriter.signature.count

    init(_ bytes: [UInt8]) throws(CodecError) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.starts(with: PNGChunkWriter.signature) else { throw .unrecognizedFormat }
        self.bytes = bytes
    }

    /// The next chunk, or nil when the bytes end exactly after one.
    mutating func next() throws(CodecError) -> PNGChunk? {
        guard offset < bytes.count else { return nil }
        guard bytes.count - offset >= 12 else { throw .corrupt("the file ends inside a chunk header") }
        let length = Int(bytes.bigEndianUInt32(at: offset))
        let typeBytes = bytes[(offset + 4)..<(offset + 8)]
        guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0 & ~0x20) }) else {
            throw .corrupt("a chunk type \(PNGChunks.printable(typeBytes)) is not four letters")
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        guard length <= Int(Int32.max), length <= bytes.count - offset - 12 else {
            throw .corrupt("\(type) chunk claims \(length) bytes; the file ends \(bytes.count - offset - 8) bytes on")
        }
        let crc = bytes[(offset + 4)..<(offset + 8 + length)].withUnsafeBufferPointer {
            bt_crc32(0, $0.baseAddress, $0.count)
        }
        guard crc == bytes.bigEndianUInt32(at: offset + 8 + length) else {
            throw .corrupt("\(type) chunk's CRC does not match its data")
        }
        let chunk = PNGChunk(type: type, data: bytes[(offset + 8)..<(offset + 8 + length)])
        offset += 12 + length
        return chunk
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
        ])
    }

    mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)])
    }
}

extension Collection where Element == UInt8, Index == Int {
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }

    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }
}
