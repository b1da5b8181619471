import Compositor
import TestSupport
import XCTest

final class ImageTests: XCTestCase {
    func testNewImageIsTransparentAndTightlyPacked() {
        let image = Image(width: 5, height: 3)
        XCTAssertEqual(image.bytesPerRow, 20)
        XCTAssertEqual(image[4, 2], .transparent)
        XCTAssertFalse(image.isOpaque)
    }

    /// The sixteen-pixel test agrees with a pixel-by-pixel one wherever the one translucent pixel sits: in a
    /// chunk, in a row's tail past the last chunk, in a region with a padded stride, or nowhere.
    func testIsOpaqueFindsAnyTranslucentPixel() {
        func pixelByPixel(_ image: Image) -> Bool {
            (0..<image.height).allSatisfy { y in (0..<image.width).allSatisfy { x in image[x, y].alpha == 255 } }
        }
        for width in [1, 15, 16, 17, 37] {
            let image = Image(width: width, height: 3, fill: Pixel(red: 9, green: 8, blue: 7))
            XCTAssertTrue(image.isOpaque)
            for (x, y) in [(0, 0), (width - 1, 2), (width / 2, 1)] {
                for alpha: UInt8 in [0, 254] {
                    image[x, y] = Pixel(red: 0, green: 0, blue: 0, alpha: alpha)
                    XCTAssertEqual(image.isOpaque, pixelByPixel(image), "width \(width), (\(x), \(y))")
                    XCTAssertFalse(image.isOpaque)
                    image[x, y] = Pixel(red: 9, green: 8, blue: 7)
                }
            }
        }
        let parent = Image(width: 40, height: 4, fill: Pixel(red: 1, green: 2, blue: 3))
        parent[39, 1] = .transparent  // outside the region: the padded stride must not read it
        XCTAssertTrue(parent.region(x: 2, y: 0, width: 37, height: 4).isOpaque)
        XCTAssertFalse(parent.isOpaque)
    }

    func testFillSetsEveryPixel() {
        let pixel = Pixel(red: 10, green: 20, blue: 30, alpha: 40)
        let image = Image(width: 7, height: 2, fill: pixel)
        for y in 0..<2 {
            for x in 0..<7 { XCTAssertEqual(image[x, y], pixel) }
        }
    }

    func testRegionSharesPixelsWithItsParent() {
        let image = Image(width: 10, height: 8, fill: Pixel(red: 1, green: 2, blue: 3))
        let region = image.region(x: 3, y: 2, width: 4, height: 5)
        XCTAssertEqual(region.bytesPerRow, image.bytesPerRow)
        region[0, 0] = Pixel(red: 200, green: 100, blue: 50)
        XCTAssertEqual(image[3, 2], Pixel(red: 200, green: 100, blue: 50))
        image[6, 6] = Pixel(red: 9, green: 9, blue: 9)
        XCTAssertEqual(region[3, 4], Pixel(red: 9, green: 9, blue: 9))
    }

    func testRegionOutlivesItsParentReference() {
        var image: Image? = Image(width: 4, height: 4, fill: Pixel(red: 7, green: 7, blue: 7))
        let region = image!.region(x: 1, y: 1, width: 2, height: 2)
        image = nil  // the storage stays alive through the region
        XCTAssertEqual(region[1, 1], Pixel(red: 7, green: 7, blue: 7))
    }

    func testBorrowedBufferWithPaddedStrideIsReadAndWrittenInPlace() {
        let width = 3
        let height = 2
        let stride = 20  // 8 bytes of padding per row
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        bytes.withUnsafeMutableBufferPointer { buffer in
            let image = Image(borrowing: buffer.baseAddress!, width: width, height: height, bytesPerRow: stride)
            image[2, 1] = Pixel(red: 1, green: 2, blue: 3, alpha: 4)
            let copy = image.copy()
            XCTAssertEqual(copy.bytesPerRow, 12)
            XCTAssertTrue(copy.hasSamePixels(as: image))
        }
        XCTAssertEqual(Array(bytes[(stride + 8)..<(stride + 12)]), [1, 2, 3, 4])
        XCTAssertEqual(bytes[stride - 1], 0xEE, "padding must not be touched")
    }

    func testStraightAlphaRoundTripIsExactForOpaqueAndBoundedForTranslucentPixels() {
        let image = TestImages.randomPremultiplied(width: 64, height: 64)
        let straight = image.straightRGBABytes()
        let back = straight.withUnsafeBufferPointer {
            Image(straightRGBA: $0.baseAddress!, width: 64, height: 64, bytesPerRow: 64 * 4)
        }
        for y in 0..<64 {
            for x in 0..<64 {
                let original = image[x, y]
                let restored = back[x, y]
                XCTAssertEqual(original.alpha, restored.alpha)
                // Unpremultiplying rounds to 1/alpha steps; premultiplying back lands within one LSB.
                XCTAssertLessThanOrEqual(abs(Int(original.red) - Int(restored.red)), 1)
                XCTAssertLessThanOrEqual(abs(Int(original.blue) - Int(restored.blue)), 1)
                if original.alpha == 255 { XCTAssertEqual(original, restored) }
            }
        }
    }

    func testPremultiplyInPlaceMatchesTheFormula() {
        let image = Image(width: 256, height: 1)
        for alpha in 0..<256 {
            image[alpha, 0] = Pixel(red: 255, green: 128, blue: 1, alpha: UInt8(alpha))
        }
        image.premultiplyInPlace()
        for alpha in 0..<256 {
            let expected = { (value: Int) in UInt8((Double(value * alpha) / 255).rounded()) }
            XCTAssertEqual(
                image[alpha, 0],
                Pixel(
                    red: expected(255), green: expected(128), blue: expected(1),
                    alpha: UInt8(alpha)))
        }
    }

    /// Pixels outside the package are reached through scoped buffers: a region's span runs from its first
    /// pixel to its last row's end at its parent's stride, reads what the subscript reads, and writes through to
    /// the parent; an empty image's span is empty.
    func testScopedBytesCoverTheRowsAtTheirStride() {
        let parent = Image(width: 10, height: 6, fill: Pixel(red: 1, green: 2, blue: 3, alpha: 4))
        parent[3, 2] = Pixel(red: 9, green: 8, blue: 7, alpha: 200)
        let region = parent.region(x: 3, y: 2, width: 4, height: 3)
        region.withUnsafeBytes { bytes in
            XCTAssertEqual(bytes.count, 2 * 40 + 4 * 4)
            XCTAssertEqual(Array(bytes[0..<4]), [9, 8, 7, 200])
            XCTAssertEqual(Array(bytes[40..<44]), [1, 2, 3, 4], "the next row, one stride on")
        }
        region.withUnsafeMutableBytes { bytes in
            bytes[2 * 40 + 3 * 4] = 77  // the region's bottom-right pixel's red
        }
        XCTAssertEqual(parent[6, 4].red, 77)
        Image(width: 5, height: 0).withUnsafeBytes { XCTAssertEqual($0.count, 0) }
        let plane = Plane(width: 7, height: 3, fill: 5)
        plane.withUnsafeMutableBytes { bytes in
            XCTAssertEqual(bytes.count, 21)
            bytes[20] = 6
        }
        XCTAssertEqual(plane[6, 2], 6)
    }
}
