/// The fields of an ICC profile's 128-byte header (ICC.1:2022 §7.2) that decide whether the profile may tag
/// the decoder's output. The decoders always return RGB(A) pixels, so only an RGB profile describes them: a
/// CMYK or grey profile embedded in an RGB file makes colour-managed viewers misrender or reject it.
struct ICCProfileHeader {
    /// Bytes 12-15: 'mntr' (display), 'scnr' (input), 'prtr' (output), 'spac' (colour space), 'link', …
    let deviceClass: ArraySlice<UInt8>
    /// Bytes 16-19: 'RGB ', 'GRAY', 'CMYK', 'Lab ', …
    let colorSpace: ArraySlice<UInt8>

    /// Nil unless `profile` holds a whole header with the 'acsp' signature at byte 36.
    init?(_ profile: [UInt8]) {
        guard profile.count >= 128, profile[36..<40].elementsEqual("acsp".utf8) else { return nil }
        deviceClass = profile[12..<16]
        colorSpace = profile[16..<20]
    }

    /// Device links, abstract and named-colour profiles map colours to colours; they describe no pixels.
    private static let pixelClasses = ["mntr", "scnr", "prtr", "spac"]

    /// Why the profile cannot tag RGB pixels, or nil when it can.
    var mismatchWithRGB: String? {
        guard ICCProfileHeader.pixelClasses.contains(where: { deviceClass.elementsEqual($0.utf8) }) else {
            return "its device class is \(ICCProfileHeader.printable(deviceClass))"
        }
        guard colorSpace.elementsEqual("RGB ".utf8) else {
            return "it describes \(ICCProfileHeader.printable(colorSpace)) pixels and the output is RGB"
        }
        return nil
    }

    /// A four-letter signature for a message: 'CMYK', 'Lab' (the padding dropped), or its bytes in hex.
    private static func printable(_ signature: ArraySlice<UInt8>) -> String {
        var letters = signature
        while letters.last == 0x20 { letters.removeLast() }
        let isText = !letters.isEmpty && letters.allSatisfy { (0x21...0x7E).contains($0) }
        return isText ? "'" + String(decoding: letters, as: UTF8.self) + "'" : PNGChunks.printable(signature)
    }

    /// Why `profile` cannot tag RGB(A) pixels (no valid header, another colour space or device class), or nil
    /// when it can.
    static func reasonItCannotTagRGB(_ profile: [UInt8]) -> String? {
        guard let header = ICCProfileHeader(profile) else { return "not a valid ICC header (\(profile.count) bytes)" }
        return header.mismatchWithRGB
    }
}
