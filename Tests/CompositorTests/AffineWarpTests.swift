import TestSupport
import XCTest

@testable import Compositor

final class AffineWarpTests: XCTestCase {
    private let image = TestImages.randomPremultiplied(width: 13, height: 9, seed: 71)

    func testIdentityAndIntegerTranslationAreExactCopies() {
        for filter in ResampleFilter.allCases {
            let same = AffineWarp(transform: .identity, filter: filter).apply(to: image, width: 13, height: 9)!
            XCTAssertTrue(same.hasSamePixels(as: image), "\(filter)")
        }
        let moved = AffineWarp(transform: AffineTransform2D(translationX: 3, y: -2), filter: .lanczos3)
            .apply(to: image, width: 13, height: 9)!
        for y in 0..<9 {
            for x in 0..<13 {
                let inside = x >= 3 && y + 2 < 9
                XCTAssertEqual(moved[x, y], inside ? image[x - 3, y + 2] : .transparent, "\((x, y))")
            }
        }
    }

    func testQuarterTurnsAndFlipsAreExact() {
        // Turning 90° clockwise about the origin sends the picture to negative x: translate it back into view.
        let cases: [(AffineTransform2D, Orientation, Int, Int)] = [
            (
                AffineTransform2D(rotationAngle: .pi / 2).concatenating(AffineTransform2D(translationX: 9, y: 0)),
                .right, 9, 13
            ),
            (
                AffineTransform2D(rotationAngle: .pi).concatenating(AffineTransform2D(translationX: 13, y: 9)), .down,
                13, 9
            ),
            (
                AffineTransform2D(rotationAngle: -.pi / 2).concatenating(AffineTransform2D(translationX: 0, y: 13)),
                .left, 9, 13
            ),
            (
                AffineTransform2D(scaleX: -1, y: 1).concatenating(AffineTransform2D(translationX: 13, y: 0)),
                .upMirrored, 13, 9
            ),
            (
                AffineTransform2D(scaleX: 1, y: -1).concatenating(AffineTransform2D(translationX: 0, y: 9)),
                .downMirrored, 13, 9
            ),
        ]
        for (transform, orientation, width, height) in cases {
            let warp = AffineWarp(transform: transform, filter: .bilinear)
            XCTAssertNotNil(warp.pixelExact(transform.inverted()!), "\(orientation) takes the exact path")
            let result = warp.apply(to: image, width: width, height: height)!
            XCTAssertTrue(result.hasSamePixels(as: image.oriented(orientation)), "\(orientation)")
        }
    }

    func testConstantImageStaysConstantUnderEveryFilterWithFillingEdges() {
        let pixel = Pixel(red: 10, green: 200, blue: 90, alpha: 255)
        let constant = Image(width: 20, height: 15, fill: pixel)
        let transform = try! AffineTransform2D(parsing: "translate(10, 4) rotate(30deg) scale(0.7)")
        for filter in ResampleFilter.allCases {
            for edge in [EdgeMode.clamp, .mirror, .wrap] {
                let result = AffineWarp(transform: transform, filter: filter, edgeMode: edge)
                    .apply(to: constant, width: 25, height: 18)!
                XCTAssertTrue(result.hasSamePixels(as: Image(width: 25, height: 18, fill: pixel)), "\(filter) \(edge)")
            }
        }
    }

    func testTransparentEdgesFadeAndOutsideIsClear() {
        let constant = Image(width: 20, height: 20, fill: Pixel(red: 255, green: 255, blue: 255))
        let result = AffineWarp(transform: AffineTransform2D(translationX: 5.5, y: 5.5), filter: .bilinear)
            .apply(to: constant, width: 40, height: 40)!
        XCTAssertEqual(result[0, 0], .transparent)
        XCTAssertEqual(result[15, 15].alpha, 255)
        XCTAssertEqual(Int(result[5, 15].alpha), 128, accuracy: 1, "half a pixel covered at the edge")
    }

    /// Bilinear at a 30° turn against the same interpolation in Double.
    func testBilinearRotationMatchesAFloat64Evaluation() {
        let photo = TestImages.photoLike(width: 30, height: 20, seed: 72)
        let transform = AffineTransform2D(translationX: 15, y: 3).rotatedBy(.pi / 6)
        let result = AffineWarp(transform: transform, filter: .bilinear, edgeMode: .clamp).apply(
            to: photo, width: 30, height: 30)!
        let inverse = transform.inverted()!
        var maxError = 0.0
        for y in 0..<30 {
            for x in 0..<30 {
                let (u, v) = inverse.apply(to: (Double(x) + 0.5, Double(y) + 0.5))
                let px = u - 0.5
                let py = v - 0.5
                let x0 = Int(px.rounded(.down))
                let y0 = Int(py.rounded(.down))
                let fx = px - Double(x0)
                let fy = py - Double(y0)
                func pixel(_ i: Int, _ j: Int) -> [Double] {
                    let p = photo[min(max(i, 0), 29), min(max(j, 0), 19)]
                    return [Double(p.red), Double(p.green), Double(p.blue)]
                }
                let corners = [
                    (pixel(x0, y0), (1 - fx) * (1 - fy)), (pixel(x0 + 1, y0), fx * (1 - fy)),
                    (pixel(x0, y0 + 1), (1 - fx) * fy), (pixel(x0 + 1, y0 + 1), fx * fy),
                ]
                let p = result[x, y]
                for (c, value) in [p.red, p.green, p.blue].enumerated() {
                    let expected = corners.reduce(0) { $0 + $1.0[c] * $1.1 }
                    maxError = max(maxError, abs(Double(value) - expected))
                }
            }
        }
        XCTAssertLessThanOrEqual(maxError, 0.51)
    }

    func testMinificationAveragesInsteadOfAliasing() {
        // A one-pixel checkerboard shrunk 4×: every output pixel covers equal black and white, so grey.
        let board = Image(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                board[x, y] =
                    (x + y) % 2 == 0 ? Pixel(red: 255, green: 255, blue: 255) : Pixel(red: 0, green: 0, blue: 0)
            }
        }
        let result = AffineWarp(
            transform: AffineTransform2D(scaleX: 0.25, y: 0.25), filter: .bilinear, edgeMode: .clamp
        )
        .apply(to: board, width: 16, height: 16)!
        for y in 2..<14 {
            for x in 2..<14 { XCTAssertEqual(Int(result[x, y].red), 128, accuracy: 12, "\((x, y))") }
        }
    }

    func testSingularTransformDrawsNothingAndThreadsDoNotMatter() {
        XCTAssertNil(AffineWarp(transform: AffineTransform2D(scaleX: 0, y: 1)).apply(to: image, width: 4, height: 4))
        let photo = TestImages.photoLike(width: 60, height: 40, seed: 73)
        let transform = try! AffineTransform2D(parsing: "translate(30,0) rotate(20deg) scale(0.8)")
        let one = AffineWarp(transform: transform, filter: .lanczos3, threads: 1).apply(
            to: photo, width: 70, height: 50)!
        let three = AffineWarp(transform: transform, filter: .lanczos3, threads: 3).apply(
            to: photo, width: 70, height: 50)!
        XCTAssertTrue(one.hasSamePixels(as: three))
    }
}
