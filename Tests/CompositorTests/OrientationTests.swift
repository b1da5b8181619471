import Compositor
import XCTest

final class OrientationTests: XCTestCase {
    /// A 3x2 image whose pixel at (x, y) has red = x, green = y, so every output pixel names its source.
    private func labelled() -> Image {
        let image = Image(width: 3, height: 2)
        for y in 0..<2 {
            for x in 0..<3 { image[x, y] = Pixel(red: UInt8(x), green: UInt8(y), blue: 0) }
        }
        return image
    }

    /// The source pixel each displayed pixel shows, from the EXIF definitions of the eight orientations
    /// (where the stored 0th row and 0th column end up).
    private func expectedSource(_ orientation: Orientation, x: Int, y: Int, width w: Int, height h: Int) -> (Int, Int) {
        switch orientation {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    func testEveryOrientationMapsPixelsAsEXIFDefines() {
        let image = labelled()
        for orientation in Orientation.allCases {
            let result = image.oriented(orientation)
            XCTAssertEqual(result.width, orientation.swapsDimensions ? 2 : 3, "\(orientation)")
            XCTAssertEqual(result.height, orientation.swapsDimensions ? 3 : 2, "\(orientation)")
            for y in 0..<result.height {
                for x in 0..<result.width {
                    let (sx, sy) = expectedSource(orientation, x: x, y: y, width: 3, height: 2)
                    XCTAssertEqual(
                        result[x, y], Pixel(red: UInt8(sx), green: UInt8(sy), blue: 0),
                        "\(orientation) at (\(x), \(y))")
                }
            }
        }
    }

    func testRightMeansTurnClockwise() {
        // Orientation 6: the stored top-left corner is shown at the top right.
        let result = labelled().oriented(.right)
        XCTAssertEqual(result[result.width - 1, 0], Pixel(red: 0, green: 0, blue: 0))
    }

    func testInvalidEXIFValuesCountAsUp() {
        for value in [0, 9, 65535, -1] {
            XCTAssertEqual(Orientation(exifValue: value), .up)
        }
        XCTAssertEqual(Orientation(exifValue: 6), .right)
    }

    func testOrientingARegionReadsOnlyTheRegion() {
        let image = Image(width: 6, height: 6, fill: Pixel(red: 255, green: 0, blue: 0))
        let region = image.region(x: 2, y: 2, width: 2, height: 3)
        region.copyPixels(from: labelled().oriented(.right))
        XCTAssertTrue(region.oriented(.left).hasSamePixels(as: labelled()))
    }
}
