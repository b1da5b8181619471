import Compositor
import TestSupport

/// Seeded PNG files of every kind, and the premultiplied pixels each must decode to.
enum PNGSamples {
    /// A `width` x `height` PNG with random samples; the first pixel is all zeros and the second all ones
    /// (maximum values), so the extremes are always covered. With `transparency`, palette images get a tRNS
    /// shorter than the palette (later entries stay opaque) and grey/RGB images a tRNS colour key that every
    /// fifth pixel matches.
    static func random(
        _ colorType: PNGFileWriter.ColorType, bitDepth: Int, interlaced: Bool = false,
        transparency: Bool = false, width: Int = 13, height: Int = 11, seed: UInt64 = 7
    )
        -> PNGFileWriter
    {
        var random = SeededGenerator(seed: seed &+ UInt64(bitDepth) &* 31 &+ UInt64(colorType.rawValue))
        let channels = colorType.channels
        let entries = 1 << bitDepth
        let maximum = UInt16(truncatingIfNeeded: (1 << bitDepth) - 1)
        var samples = (0..<(width * height * channels)).map { _ in UInt16.random(in: 0...maximum, using: &random) }
        for channel in 0..<channels where width * height >= 2 {
            samples[channel] = 0
            samples[channels + channel] = maximum
        }
        var png = PNGFileWriter(
            width: width, height: height, colorType: colorType, bitDepth: bitDepth,
            isInterlaced: interlaced, samples: samples)
        if colorType == .palette {
            png.palette = (0..<entries).map { _ in
                (
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random)
                )
            }
        }
        guard transparency else { return png }
        switch colorType {
        case .palette:
            var alphas = (0..<max(1, entries / 2)).map { _ in UInt8.random(in: 0...255, using: &random) }
            alphas[0] = 0
            png.transparency = alphas
        case .grey, .rgb:
            let key = (0..<channels).map { _ in UInt16.random(in: 0...maximum, using: &random) }
            for pixel in stride(from: 2, to: width * height, by: 5) {
                png.samples.replaceSubrange((pixel * channels)..<((pixel + 1) * channels), with: key)
            }
            png.transparency = key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .greyAlpha, .rgba:
            preconditionFailure("colour types with an alpha channel cannot have tRNS")
        }
        return png
    }

    /// What `png` must decode to: 8-bit samples (bit replication below 8 bits, round(v / 257) for 16),
    /// grey copied to red, green and blue, alpha from the alpha channel or tRNS, then premultiplied.
    static func expectedPixels(of png: PNGFileWriter) -> [Pixel] {
        let channels = png.colorType.channels
        let key = png.transparency.map { bytes in
            stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        }
        return (0..<(png.width * png.height)).map { index in
            let raw = Array(png.samples[(index * channels)..<((index + 1) * channels)])
            let eight = raw.map { ReferenceMath.eightBit($0, bitDepth: png.bitDepth) }
            let straight: Pixel
            switch png.colorType {
            case .grey, .rgb:
                let alpha: UInt8 = raw == key ? 0 : 255
                straight =
                    channels == 1
                    ? Pixel(red: eight[0], green: eight[0], blue: eight[0], alpha: alpha)
                    : Pixel(red: eight[0], green: eight[1], blue: eight[2], alpha: alpha)
            case .greyAlpha:
                straight = Pixel(red: eight[0], green: eight[0], blue: eight[0], alpha: eight[1])
            case .rgba:
                straight = Pixel(red: eight[0], green: eight[1], blue: eight[2], alpha: eight[3])
            case .palette:
                let entryIndex = Int(raw[0])
                let entry = png.palette[entryIndex]
                let alphas = png.transparency ?? []
                straight = Pixel(
                    red: entry.0, green: entry.1, blue: entry.2,
                    alpha: entryIndex < alphas.count ? alphas[entryIndex] : 255)
            }
            return ReferenceMath.premultiplied(straight)
        }
    }
}
