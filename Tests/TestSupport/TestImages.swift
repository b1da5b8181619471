import Compositor

#if canImport(Glibc)
    import Glibc
#endif

/// A small, fast, seeded generator (SplitMix64), so every test image is the same on every run.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public enum TestImages {
    /// An opaque image with photo-like statistics: smooth gradients, a few hard-edged shapes and mild noise.
    public static func photoLike(width: Int, height: Int, seed: UInt64 = 1) -> Image {
        var random = SeededGenerator(seed: seed)
        let image = Image(width: width, height: height)
        let shapes = (0..<6).map { _ in
            (
                x: Double.random(in: 0..<1, using: &random) * Double(width),
                y: Double.random(in: 0..<1, using: &random) * Double(height),
                r: Double.random(in: 0.05..<0.3, using: &random) * Double(max(width, height)),
                color: (
                    UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                    UInt8.random(in: 0...255, using: &random)
                )
            )
        }
        for y in 0..<height {
            for x in 0..<width {
                var r = Double(x) / Double(max(width - 1, 1)) * 180 + 40
                var g = Double(y) / Double(max(height - 1, 1)) * 160 + 50
                var b = 120 + 60 * sin(Double(x + y) / 23)
                for shape in shapes {
                    let dx = Double(x) - shape.x
                    let dy = Double(y) - shape.y
                    if dx * dx + dy * dy < shape.r * shape.r {
                        (r, g, b) = (Double(shape.color.0), Double(shape.color.1), Double(shape.color.2))
                    }
                }
                let noise = Double.random(in: -6...6, using: &random)
                image[x, y] = Pixel(red: clampByte(r + noise), green: clampByte(g + noise), blue: clampByte(b + noise))
            }
        }
        return image
    }

    /// Random premultiplied pixels, alpha included (0 and 255 among them).
    public static func randomPremultiplied(width: Int, height: Int, seed: UInt64 = 2) -> Image {
        var random = SeededGenerator(seed: seed)
        let image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let alpha: UInt8 = [0, 255, UInt8.random(in: 0...255, using: &random)][
                    Int.random(in: 0..<3, using: &random)]
                image[x, y] = Pixel(
                    red: UInt8.random(in: 0...alpha, using: &random),
                    green: UInt8.random(in: 0...alpha, using: &random),
                    blue: UInt8.random(in: 0...alpha, using: &random), alpha: alpha)
            }
        }
        return image
    }

    public static func clampByte(_ value: Double) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}

/// Differences between two images of the same size, over all four channels.
public struct ImageDifference: CustomStringConvertible {
    public let maxError: Int
    public let meanSquaredError: Double

    public init(_ first: Image, _ second: Image, channels: Int = 4) {
        precondition(first.width == second.width && first.height == second.height, "sizes differ")
        var maxError = 0
        var sum = 0.0
        for y in 0..<first.height {
            let a = first.row(y)
            let b = second.row(y)
            for x in 0..<first.width {
                for c in 0..<channels {
                    let d = abs(Int(a[x * 4 + c]) - Int(b[x * 4 + c]))
                    maxError = max(maxError, d)
                    sum += Double(d * d)
                }
            }
        }
        self.maxError = maxError
        meanSquaredError = sum / Double(max(first.pixelCount * channels, 1))
    }

    /// Peak signal-to-noise ratio in dB (infinite for identical images).
    public var psnr: Double {
        meanSquaredError == 0 ? .infinity : 10 * log10(255 * 255 / meanSquaredError)
    }

    public var description: String { "max error \(maxError), PSNR \(psnr) dB" }
}
