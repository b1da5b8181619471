import Compositor

/// YUV4MPEG2 for piping frames to a video encoder (`… --format y4m | ffmpeg -i - … out.mp4`): 4:2:0 BT.709 in
/// limited range (the header says the range; y4m has no field for the matrix, so the encoder is told it:
/// `-colorspace bt709 -color_primaries bt709 -color_trc iec61966-2-1 -color_range tv`, and players that find no
/// tag assume BT.709 at the phone sizes this tool makes); chroma is the average of each 2×2 block (centred, as
/// C420jpeg says; at an odd width or height the last column or row is averaged alone).
public struct Y4MWriter: Sendable {
    public let width: Int
    public let height: Int
    public let framesPerSecond: FrameRate

    /// - Precondition: positive sizes and frame-rate terms.
    public init(width: Int, height: Int, framesPerSecond: FrameRate) {
        precondition(width > 0 && height > 0, "Y4M frames have a positive size")
        precondition(framesPerSecond.numerator > 0 && framesPerSecond.denominator > 0, "a positive frame rate")
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
    }

    /// The stream header, written once before the frames.
    public var header: [UInt8] {
        let rate = "F\(framesPerSecond.numerator):\(framesPerSecond.denominator)"
        return Array("YUV4MPEG2 W\(width) H\(height) \(rate) Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n".utf8)
    }

    /// One frame: `FRAME`, then the Y, Cb and Cr planes. A premultiplied pixel is its picture over black, so its
    /// colour bytes are used as they are and alpha is ignored.
    /// - Precondition: the image is the stream's size.
    public func frame(_ image: Image) -> [UInt8] {
        precondition(image.width == width && image.height == height, "a Y4M frame of another size")
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        let marker = Array("FRAME\n".utf8)
        let lumaStart = marker.count
        let cbStart = lumaStart + width * height
        let crStart = cbStart + chromaWidth * chromaHeight
        return [UInt8](unsafeUninitializedCapacity: crStart + chromaWidth * chromaHeight) { buffer, count in
            let base = buffer.baseAddress!
            for (index, byte) in marker.enumerated() { base[index] = byte }
            for y in 0..<height {
                let row = image.row(y)
                let luma = base + lumaStart + y * width
                for x in 0..<width {
                    let p = row + x * 4
                    luma[x] = Y4MWriter.limited(Y4MWriter.luma(p[0], p[1], p[2]), offset: 16)
                }
            }
            for cy in 0..<chromaHeight {
                let rows = (2 * cy)..<min(2 * cy + 2, height)
                for cx in 0..<chromaWidth {
                    let columns = (2 * cx)..<min(2 * cx + 2, width)
                    var cb = 0
                    var cr = 0
                    for y in rows {
                        let row = image.row(y)
                        for x in columns {
                            let p = row + x * 4
                            cb += Y4MWriter.blueDifference(p[0], p[1], p[2])
                            cr += Y4MWriter.redDifference(p[0], p[1], p[2])
                        }
                    }
                    let samples = rows.count * columns.count
                    base[cbStart + cy * chromaWidth + cx] = Y4MWriter.limited(cb / samples, offset: 128)
                    base[crStart + cy * chromaWidth + cx] = Y4MWriter.limited(cr / samples, offset: 128)
                }
            }
            count = crStart + chromaWidth * chromaHeight
        }
    }

    // BT.709 (Kr 0.2126, Kb 0.0722) in limited range with the colour bytes as they are (sRGB-encoded, as video
    // expects): Y = 16 + 219 (Kr R + Kg G + Kb B) / 255, Cb = 128 + 224 (B − Y′) / (2 (1 − Kb)) / 255, Cr likewise
    // with R and Kr, in 1/2^16 of a level (each difference's weights sum to 0, so a grey has no colour). Chroma is
    // averaged before rounding, so a block is rounded once.
    private static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        11966 * Int(r) + 40254 * Int(g) + 4064 * Int(b)
    }

    private static func blueDifference(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        -6596 * Int(r) - 22188 * Int(g) + 28784 * Int(b)
    }

    private static func redDifference(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        28784 * Int(r) - 26145 * Int(g) - 2639 * Int(b)
    }

    /// A value in 1/2^16 of a level, rounded to nearest and offset (the sums stay within 16...240).
    private static func limited(_ value: Int, offset: Int) -> UInt8 {
        UInt8(clamping: offset + (value + 32768) >> 16)
    }
}
