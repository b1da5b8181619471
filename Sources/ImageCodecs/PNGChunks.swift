import CCodecShim

/// The few PNG chunks libpng's simplified API does not expose, read straight from the bytes: the header
/// fields, the ICC profile (iCCP) and the EXIF block (eXIf). Stops at the first IDAT: both must precede it.
struct PNGChunks {
    var width = 0
    var height = 0
    var bitDepth = 0
    var colorType = 0
    var isInterlaced = false
    /// A tRNS chunk: palette or colour-key transparency.
    var hasTransparency = false
    var iccProfile: [UInt8]?
    var exif: [UInt8]?
    /// Set when a chunk before the image data claims more bytes than the file holds: libpng would allocate
    /// the claimed size (up to 2 GB) before finding out, so such files are refused here first.
    var truncatedChunk: String?

    /// ICC profiles are rarely above 1 MB; a larger inflated iCCP is a bomb, and is ignored.
    static let maxICCBytes = 4 << 20

    init(_ bytes: [UInt8]) {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(PNGChunks.bigEndianUInt32(bytes, offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            let dataStart = offset + 8
            guard length <= bytes.count - dataStart - 4 else {
                if type != "IDAT" && type != "IEND" {
                    truncatedChunk =
                        "\(PNGChunks.printable(typeBytes)) chunk claims \(length) bytes; "
                        + "the file ends \(bytes.count - dataStart) bytes on"
                }
                return
            }
            let data = bytes[dataStart..<(dataStart + length)]
            switch type {
            case "IHDR" where length >= 13:
                width = Int(PNGChunks.bigEndianUInt32(bytes, dataStart))
                height = Int(PNGChunks.bigEndianUInt32(bytes, dataStart + 4))
                bitDepth = Int(bytes[dataStart + 8])
                colorType = Int(bytes[dataStart + 9])
                isInterlaced = bytes[dataStart + 12] == 1
            case "iCCP" where iccProfile == nil:
                iccProfile = PNGChunks.inflateICC(data)
            case "tRNS":
                hasTransparency = true
            case "eXIf" where exif == nil:
                exif = Array(data)
            case "IDAT", "IEND":
                return
            default:
                break
            }
            offset = dataStart + length + 4
        }
    }

    /// A chunk type for a one-line message: its letters when it is printable ASCII, else its bytes in hex
    /// (a damaged type can hold NULs, newlines or terminal escapes).
    static func printable(_ type: ArraySlice<UInt8>) -> String {
        if type.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return String(decoding: type, as: UTF8.self)
        }
        return "[" + type.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ") + "]"
    }

    /// iCCP: a profile name of 1–79 bytes, a zero, compression method 0, then a zlib stream.
    private static func inflateICC(_ data: ArraySlice<UInt8>) -> [UInt8]? {
        guard let nameEnd = data.prefix(80).firstIndex(of: 0), nameEnd + 2 <= data.endIndex,
            data[nameEnd + 1] == 0
        else { return nil }
        let compressed = Array(data[(nameEnd + 2)...])
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ok = compressed.withUnsafeBufferPointer {
            bt_zlib_inflate($0.baseAddress, $0.count, maxICCBytes, &output, &length)
        }
        guard ok != 0, let output else { return nil }
        defer { bt_free(output) }
        return [UInt8](UnsafeBufferPointer(start: output, count: length))
    }

    private static func bigEndianUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    var colorTypeName: String {
        let kind: String
        switch colorType {
        case 0: kind = "greyscale"
        case 2: kind = "RGB"
        case 3: kind = "palette"
        case 4: kind = "greyscale+alpha"
        case 6: kind = "RGBA"
        default: kind = "colour type \(colorType)"
        }
        return "\(kind) \(bitDepth)-bit" + (isInterlaced ? ", Adam7 interlaced" : "")
    }
}
