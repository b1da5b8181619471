/// A deliberately simple PNG writer for tests: every colour type and bit depth the format allows, optional
/// Adam7 interlacing, tRNS and arbitrary extra chunks (eXIf, tEXt, iCCP), but no compression and no filters.
///
/// It is written in pure Swift (stored zlib blocks, bitwise CRC-32 and Adler-32) so the test target needs no
/// C dependency, and so the files under test are built independently of libpng and of our own encoder.
struct PNGFileWriter {
    enum ColorType: UInt8 {
        case grey = 0
        case rgb = 2
        case palette = 3
        case greyAlpha = 4
        case rgba = 6

        var channels: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    var isInterlaced = false
    /// `width * height * channels` samples, row by row; palette images hold indices.
    var samples: [UInt16]
    /// PLTE entries (palette images only).
    var palette: [(UInt8, UInt8, UInt8)] = []
    /// The raw tRNS chunk data, when wanted.
    var transparency: [UInt8]?
    /// Chunks written between PLTE/tRNS and IDAT, as given.
    var chunksBeforeImageData: [(type: String, data: [UInt8])] = []

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The Adam7 passes: (first x, first y, x step, y step).
    static let adam7Passes = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
        (0, 1, 1, 2),
    ]

    func encoded() -> [UInt8] {
        precondition(samples.count == width * height * colorType.channels, "sample count does not match the size")
        var ihdr = PNGFileWriter.bigEndian(UInt32(width)) + PNGFileWriter.bigEndian(UInt32(height))
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, isInterlaced ? 1 : 0]
        var file = PNGFileWriter.signature + PNGFileWriter.chunk("IHDR", ihdr)
        if colorType == .palette {
            file += PNGFileWriter.chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })
        }
        if let transparency {
            file += PNGFileWriter.chunk("tRNS", transparency)
        }
        for extra in chunksBeforeImageData {
            file += PNGFileWriter.chunk(extra.type, extra.data)
        }
        file += PNGFileWriter.chunk("IDAT", PNGFileWriter.storedZlib(scanlines()))
        file += PNGFileWriter.chunk("IEND", [])
        return file
    }

    /// The filtered (filter type 0, None) scanlines of the whole image or of each Adam7 pass in turn.
    func scanlines() -> [UInt8] {
        guard isInterlaced else {
            return (0..<height).flatMap { y in [0] + packedRow(xs: Array(0..<width), y: y) }
        }
        var data: [UInt8] = []
        for (firstX, firstY, stepX, stepY) in PNGFileWriter.adam7Passes {
            let xs = Array(stride(from: firstX, to: width, by: stepX))
            guard !xs.isEmpty else { continue }  // empty passes have no scanlines at all, not even filter bytes
            for y in stride(from: firstY, to: height, by: stepY) {
                data += [0] + packedRow(xs: xs, y: y)
            }
        }
        return data
    }

    /// Samples of the pixels at `xs` in row `y`: big-endian for 16-bit, most significant bits first below 8.
    private func packedRow(xs: [Int], y: Int) -> [UInt8] {
        let channels = colorType.channels
        let values = xs.flatMap { x in (0..<channels).map { samples[(y * width + x) * channels + $0] } }
        switch bitDepth {
        case 16: return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return values.map { UInt8($0) }
        default:
            let perByte = 8 / bitDepth
            var bytes = [UInt8](repeating: 0, count: (values.count + perByte - 1) / perByte)
            for (index, value) in values.enumerated() {
                let shift = 8 - bitDepth * (index % perByte + 1)
                bytes[index / perByte] |= UInt8(value) << shift
            }
            return bytes
        }
    }

    // MARK: - Chunks, zlib, checksums

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        precondition(typeBytes.count == 4, "chunk types are four letters")
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream of stored (BTYPE=00) deflate blocks of at most 65535 bytes each.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32K window, no dictionary; 0x7801 is a multiple of 31
        var start = 0
        repeat {
            let end = min(start + 65535, data.count)
            let length = UInt16(end - start)
            stream.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE=00
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        return stream + bigEndian(adler32(data))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
