/// Tiny zlib streams that inflate to many zero bytes, for decompression-bomb tests: one fixed-Huffman
/// deflate block holding a literal 0 and then length-258, distance-1 copies of it (13 bits per 258 bytes,
/// so 5 MiB costs about 33 KB), with the correct Adler-32, so the stream is valid whatever its size.
enum ZlibBomb {
    static func zeros(count: Int) -> [UInt8] {
        precondition(count >= 1)
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE = 01, fixed Huffman codes
        bits.writeCode(0x30, length: 8)  // literal 0
        for _ in 0..<((count - 1) / 258) {
            bits.writeCode(0xC5, length: 8)  // length symbol 285: 258 bytes, no extra bits
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
        }
        for _ in 0..<((count - 1) % 258) {
            bits.writeCode(0x30, length: 8)
        }
        bits.writeCode(0, length: 7)  // end of block (symbol 256)
        // Adler-32 of n zero bytes: a stays 1, b gains 1 per byte.
        return [0x78, 0x01] + bits.bytes + PNGFileWriter.bigEndian(UInt32(count % 65521) << 16 | 1)
    }

    /// Deflate packs bits least significant first; Huffman codes go in most significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { appendBit(UInt8(value >> UInt32(index) & 1)) }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { appendBit(UInt8(code >> UInt32(index) & 1)) }
        }

        private mutating func appendBit(_ bit: UInt8) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= bit << UInt8(used)
            used += 1
        }
    }
}
