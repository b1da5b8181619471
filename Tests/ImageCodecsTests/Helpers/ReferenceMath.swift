import Compositor
import ImageCodecs
import TestSupport
import XCTest

/// Independent re-statements of the arithmetic the codecs are documented to do, so the tests compute their
/// expectations without calling the code under test.
enum ReferenceMath {
    /// round(value * alpha / 255): what premultiplying is documented to do (no ties occur, 255 being odd).
    static func premultiply(_ value: UInt8, by alpha: UInt8) -> UInt8 {
        UInt8((Double(value) * Double(alpha) / 255).rounded())
    }

    /// round(value * 255 / alpha) with ties up, clamped to 255; alpha 0 gives 0.
    static func unpremultiply(_ value: UInt8, by alpha: UInt8) -> UInt8 {
        guard alpha != 0 else { return 0 }
        return UInt8(min((Double(value) * 255 / Double(alpha)).rounded(), 255))
    }

    static func premultiplied(_ straight: Pixel) -> Pixel {
        Pixel(
            red: premultiply(straight.red, by: straight.alpha), green: premultiply(straight.green, by: straight.alpha),
            blue: premultiply(straight.blue, by: straight.alpha), alpha: straight.alpha)
    }

    /// A PNG sample of `bitDepth` bits as an 8-bit value: bit replication below 8 bits (1-bit 1 → 255,
    /// 2-bit 1 → 85, 4-bit 1 → 17, which is exactly value * 255 / max), and round(value / 257) for 16 bits,
    /// which is libpng's png_set_scale_16 formula (value * 255 + 32895) >> 16. Measured: libpng 1.6.39's
    /// simplified API with PNG_IMAGE_FLAG_16BIT_sRGB matched this on all 4096 sampled 16-bit values and on
    /// 4096 random RGBA16 pixels, so the PNG tests compare 16-bit files exactly, with no ±1 allowance.
    static func eightBit(_ sample: UInt16, bitDepth: Int) -> UInt8 {
        switch bitDepth {
        case 16: return UInt8((UInt32(sample) * 255 + 32895) >> 16)
        case 8: return UInt8(sample)
        default: return UInt8(UInt32(sample) * 255 / (1 << UInt32(bitDepth) - 1))
        }
    }

    /// The mean of each channel over the whole image.
    static func meanColor(of image: Image) -> (red: Double, green: Double, blue: Double) {
        var sums = (0.0, 0.0, 0.0)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                sums.0 += Double(p.red)
                sums.1 += Double(p.green)
                sums.2 += Double(p.blue)
            }
        }
        let count = Double(max(image.pixelCount, 1))
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    /// Averages `factor` x `factor` blocks (the last row and column of blocks may be partial), rounding.
    static func boxDownsample(_ image: Image, by factor: Int) -> Image {
        let width = (image.width + factor - 1) / factor
        let height = (image.height + factor - 1) / factor
        let result = Image(width: width, height: height)
        for blockY in 0..<height {
            for blockX in 0..<width {
                var sums = [0, 0, 0, 0]
                var count = 0
                for y in (blockY * factor)..<min((blockY + 1) * factor, image.height) {
                    for x in (blockX * factor)..<min((blockX + 1) * factor, image.width) {
                        let p = image[x, y]
                        sums[0] += Int(p.red)
                        sums[1] += Int(p.green)
                        sums[2] += Int(p.blue)
                        sums[3] += Int(p.alpha)
                        count += 1
                    }
                }
                let mean = sums.map { UInt8(($0 + count / 2) / count) }
                result[blockX, blockY] = Pixel(red: mean[0], green: mean[1], blue: mean[2], alpha: mean[3])
            }
        }
        return result
    }
}

/// The `CodecError` that `body` throws, failing the test when it throws nothing or something else.
func codecError<T>(
    _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
)
    -> CodecError?
{
    do {
        _ = try body()
        XCTFail("expected a CodecError, but nothing was thrown", file: file, line: line)
    } catch let error as CodecError {
        return error
    } catch {
        XCTFail("expected a CodecError, got \(error)", file: file, line: line)
    }
    return nil
}

/// Asserts every channel of `actual` is within `tolerance` of `expected`.
func assertPixel(
    _ actual: Pixel, near expected: Pixel, tolerance: Int, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let differences = [
        (actual.red, expected.red), (actual.green, expected.green), (actual.blue, expected.blue),
        (actual.alpha, expected.alpha),
    ].map { abs(Int($0.0) - Int($0.1)) }
    XCTAssertLessThanOrEqual(
        differences.max()!, tolerance, "\(actual) is not within \(tolerance) of \(expected) \(message)",
        file: file, line: line)
}
