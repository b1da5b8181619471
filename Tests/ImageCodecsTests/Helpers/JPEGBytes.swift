import Compositor
import ImageCodecs
import TestSupport

/// Byte-level surgery on JPEG files: finding marker segments, inserting APP segments, patching the header.
enum JPEGBytes {
    static let startOfImage: [UInt8] = [0xFF, 0xD8]
    static let endOfImage: [UInt8] = [0xFF, 0xD9]

    /// The offset of the first `0xFF marker` segment before the first scan, or nil.
    static func offset(ofMarker marker: UInt8, in jpeg: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let current = jpeg[offset + 1]
            if current == marker { return offset }
            if current == 0xDA { return nil }  // start of scan: the header segments are over
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        return nil
    }

    /// `jpeg` with an APPn segment holding `payload` inserted straight after SOI (before any JFIF APP0).
    static func inserting(appSegment n: UInt8, payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        precondition(length <= 0xFFFF, "an APP segment holds at most 65533 bytes")
        let segment = [0xFF, 0xE0 + n, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[..<2]) + segment + Array(jpeg[2...])
    }

    /// `jpeg` with an APP1 "Exif\0\0" segment holding the TIFF block `tiff` inserted after SOI.
    static func withEXIF(_ tiff: [UInt8], in jpeg: [UInt8]) -> [UInt8] {
        inserting(appSegment: 1, payload: Array("Exif".utf8) + [0, 0] + tiff, into: jpeg)
    }

    /// `jpeg` with the image height in its SOF0/SOF2 header replaced.
    static func settingHeight(_ height: UInt16, in jpeg: [UInt8]) -> [UInt8] {
        guard let sof = offset(ofMarker: 0xC0, in: jpeg) ?? offset(ofMarker: 0xC2, in: jpeg) else {
            preconditionFailure("no SOF0 or SOF2 segment")
        }
        var patched = jpeg
        patched[sof + 5] = UInt8(height >> 8)  // FF Cn, length (2), precision (1), then height
        patched[sof + 6] = UInt8(height & 0xFF)
        return patched
    }

    /// A JPEG of `image` from our encoder, which the tests then modify.
    static func encode(
        _ image: Image, quality: Int = 90, chroma: EncodeOptions.ChromaSubsampling = .yuv420,
        progressive: Bool = false
    ) throws -> [UInt8] {
        try ImageEncoder.encode(
            image, as: .jpeg,
            options: EncodeOptions(
                quality: quality, chromaSubsampling: chroma, isProgressive: progressive))
    }
}

/// Builds TIFF-structured EXIF blocks (starting at the TIFF header) holding an IFD0 with an orientation tag.
enum EXIFBlock {
    /// A TIFF header and IFD0 at offset 8 holding `filler` unrelated entries, then the orientation tag
    /// (0x0112) with `value` as a SHORT (type 3) or LONG (type 4), then a zero next-IFD offset.
    static func tiff(
        orientation value: UInt32, bigEndian: Bool = false, type: UInt16 = 3, filler: Int = 0
    )
        -> [UInt8]
    {
        let order = ByteOrder(bigEndian: bigEndian)
        var block: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        block += order.uint32(8)
        block += order.uint16(UInt16(filler + 1))
        for index in 0..<filler {  // ImageWidth-like LONG entries, sorted before 0x0112 as TIFF requires
            block += order.uint16(0x0100 + UInt16(index)) + order.uint16(4) + order.uint32(1) + order.uint32(640)
        }
        block += order.uint16(0x0112) + order.uint16(type) + order.uint32(1)
        block += type == 3 ? order.uint16(UInt16(truncatingIfNeeded: value)) + [0, 0] : order.uint32(value)
        return block + order.uint32(0)
    }

    struct ByteOrder {
        let bigEndian: Bool

        func uint16(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }

        func uint32(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
    }
}
