/// The layering loop of `PageCurl`, in fixed point: per pixel, the back sample (greyed as paper: part of its
/// colour, part of its alpha as grey), the front sample and the roll's black shadow, each with weights in 1/256
/// that add up to at most 256, so every sum fits 16 bits and a front weight of 256 alone returns its sample
/// exactly. `SIMD` works on 16 pixels as four 32-bit lanes' worth of channels; `ScalarPageCurlKernels` is the twin
/// it is held to, bit for bit.
package enum PageCurlKernels {
    /// Per-pixel weights in 1/256, one plane per kind, `count` apart.
    package struct Weights {
        package let base: UnsafeMutablePointer<UInt32>
        package let count: Int

        package init(base: UnsafeMutablePointer<UInt32>, count: Int) {
            (self.base, self.count) = (base, count)
        }

        /// The back sample's colour, and its alpha as paper grey, into the colour channels.
        var backColor: UnsafeMutablePointer<UInt32> { base }
        var backPaper: UnsafeMutablePointer<UInt32> { base + count }
        /// The back sample's alpha into the alpha channel.
        var backAlpha: UnsafeMutablePointer<UInt32> { base + 2 * count }
        var frontColor: UnsafeMutablePointer<UInt32> { base + 3 * count }
        var frontAlpha: UnsafeMutablePointer<UInt32> { base + 4 * count }
        /// The shadow's black, into the alpha channel only.
        var shadowAlpha: UnsafeMutablePointer<UInt32> { base + 5 * count }

        package static let planes = 6
    }

    private typealias Words = SIMD16<UInt32>

    /// For pixels 0..<count: colour `(B·backColor + Bα·backPaper + F·frontColor + 128) >> 8`, alpha
    /// `(Bα·backAlpha + Fα·frontAlpha + 255·shadowAlpha + 128) >> 8`, from little-endian RGBA words.
    package static func layer(
        back: UnsafePointer<UInt32>, front: UnsafePointer<UInt32>, weights: Weights, count: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        let bytes = Words(repeating: 255)
        let half = Words(repeating: 128)
        var i = 0
        while i + 16 <= count {
            func load(_ pointer: UnsafePointer<UInt32>) -> Words {
                UnsafeRawPointer(pointer + i).loadUnaligned(as: Words.self)
            }
            let b = load(back)
            let f = load(front)
            let (wb, gb, ab) = (load(weights.backColor), load(weights.backPaper), load(weights.backAlpha))
            let (wf, af, shadow) = (load(weights.frontColor), load(weights.frontAlpha), load(weights.shadowAlpha))
            let backAlpha = b &>> 24
            let paper = backAlpha &* gb &+ half
            var result = ((backAlpha &* ab &+ (f &>> 24) &* af &+ shadow &* bytes &+ half) &>> 8) &<< 24
            for shift: UInt32 in [0, 8, 16] {
                let channel = (b &>> shift & bytes) &* wb &+ (f &>> shift & bytes) &* wf &+ paper
                result |= (channel &>> 8) &<< shift
            }
            UnsafeMutableRawPointer(destination + i * 4).storeBytes(of: result, as: Words.self)
            i += 16
        }
        ScalarPageCurlKernels.layer(
            back: back + i, front: front + i, weights: weights, offset: i, count: count - i,
            into: destination + i * 4)
    }
}

/// The scalar twin of `PageCurlKernels`: the same integer formulas one channel at a time (the SIMD loop's tail,
/// and the reference the tests hold it to).
enum ScalarPageCurlKernels {
    /// As `PageCurlKernels.layer`, reading weights from index `offset` of each plane on.
    static func layer(
        back: UnsafePointer<UInt32>, front: UnsafePointer<UInt32>, weights: PageCurlKernels.Weights, offset: Int,
        count: Int, into destination: UnsafeMutablePointer<UInt8>
    ) {
        for k in 0..<count {
            let j = offset + k
            let (b, f) = (back[k], front[k])
            let backAlpha = b >> 24
            for channel in 0..<3 {
                let shift = UInt32(channel * 8)
                let sum =
                    (b >> shift & 255) * weights.backColor[j] + backAlpha * weights.backPaper[j]
                    + (f >> shift & 255) * weights.frontColor[j] + 128
                destination[k * 4 + channel] = UInt8(truncatingIfNeeded: sum >> 8)
            }
            let alpha =
                backAlpha * weights.backAlpha[j] + (f >> 24) * weights.frontAlpha[j] + 255 * weights.shadowAlpha[j]
                + 128
            destination[k * 4 + 3] = UInt8(truncatingIfNeeded: alpha >> 8)
        }
    }
}
