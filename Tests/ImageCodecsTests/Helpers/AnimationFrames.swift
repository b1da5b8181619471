import Compositor
import TestSupport

/// Animations for the encoder tests: a photo-like background with a square that slides across it.
enum AnimationFrames {
    /// `count` frames of `width`×`height`; the square moves `step` pixels right per frame. Translucent frames
    /// have random premultiplied pixels (every alpha) in the square and a half-transparent background.
    static func sliding(count: Int, width: Int, height: Int, step: Int = 3, translucent: Bool = false) -> [Image] {
        let background = TestImages.photoLike(width: width, height: height, seed: 7)
        if translucent {
            for y in 0..<height {
                for x in 0..<width where (x + y) % 2 == 0 {
                    let p = background[x, y]
                    background[x, y] = Pixel(red: p.red / 2, green: p.green / 2, blue: p.blue / 2, alpha: 128)
                }
            }
        }
        let side = max(1, min(width, height) / 3)
        let square =
            translucent
            ? TestImages.randomPremultiplied(width: side, height: side, seed: 3)
            : TestImages.photoLike(width: side, height: side, seed: 9)
        return (0..<count).map { index in
            let frame = background.copy()
            let left = (index * step) % max(1, width - side)
            frame.region(x: left, y: height / 3, width: side, height: side).copyPixels(from: square)
            return frame
        }
    }

    /// Chunk types of a PNG file, in order.
    static func chunkTypes(_ png: [UInt8]) -> [String] {
        chunks(png).map(\.type)
    }

    /// Every chunk's type and data (CRCs not checked: tests rebuild files from these).
    static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        var result: [(type: String, data: [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append((type, Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return result
    }

    /// A PNG file from chunks, each given a correct CRC.
    static func file(_ chunks: [(type: String, data: [UInt8])]) -> [UInt8] {
        chunks.reduce(PNGFileWriter.signature) { $0 + PNGFileWriter.chunk($1.type, $1.data) }
    }
}
