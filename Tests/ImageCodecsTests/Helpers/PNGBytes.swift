/// Byte-level surgery on PNG files: finding chunks, inserting them, corrupting their CRCs.
enum PNGBytes {
    /// The offset of the first chunk of `type` (its length field), or nil.
    static func offset(ofChunk type: String, in png: [UInt8]) -> Int? {
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return offset }
            offset += 12 + length
        }
        return nil
    }

    /// `png` with a chunk inserted straight after IHDR (which is always 25 bytes from the signature's end).
    static func inserting(chunk type: String, data: [UInt8], into png: [UInt8]) -> [UInt8] {
        let afterIHDR = 8 + 25
        return Array(png[..<afterIHDR]) + PNGFileWriter.chunk(type, data) + Array(png[afterIHDR...])
    }

    /// `png` with one bit of the CRC of the first chunk of `type` flipped.
    static func corruptingCRC(ofChunk type: String, in png: [UInt8]) -> [UInt8] {
        guard let offset = offset(ofChunk: type, in: png) else { preconditionFailure("no \(type) chunk") }
        let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        var corrupted = png
        corrupted[offset + 8 + length] ^= 0x01
        return corrupted
    }
}
