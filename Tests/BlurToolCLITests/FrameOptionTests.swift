import BlurToolCLI
import Compositor
import Foundation
import ImageCodecs
import XCTest

/// `--transform`, `--fit fit` and `--background` end to end: the written image's size and the pixels that prove
/// the warp, the letterbox and its colour.
final class FrameOptionTests: XCTestCase {
    private var directory = ""
    private let red = Pixel(red: 255, green: 0, blue: 0)
    private let blue = Pixel(red: 0, green: 0, blue: 255)

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-frame-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // 80x40: the left half red, the right half blue.
        let image = Image(width: 80, height: 40, fill: red)
        for y in 0..<40 { for x in 40..<80 { image[x, y] = blue } }
        try Data(try ImageEncoder.encode(image, as: .png)).write(to: URL(fileURLWithPath: directory + "halves.png"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func render(_ options: [String]) throws -> Image {
        let output = directory + "out.png"
        let result = ToolRun.run([directory + "halves.png"] + options + ["-o", output])
        XCTAssertEqual(result.status, 0, result.err)
        return try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))).image
    }

    private func assertClose(_ pixel: Pixel, _ expected: Pixel, within tolerance: Int = 2, _ what: String) {
        let channels = [
            (pixel.red, expected.red), (pixel.green, expected.green), (pixel.blue, expected.blue),
            (pixel.alpha, expected.alpha),
        ]
        XCTAssertTrue(channels.allSatisfy { abs(Int($0) - Int($1)) <= tolerance }, "\(what): \(pixel), not \(expected)")
    }

    func testTransformMirrorsThePictureOnACanvasOfItsSize() throws {
        let image = try render(["--transform", "translate(80,0) scaleX(-1)", "--filter", "nearest"])
        XCTAssertEqual([image.width, image.height], [80, 40])
        assertClose(image[10, 20], blue, within: 0, "left, once right")
        assertClose(image[70, 20], red, within: 0, "right, once left")
    }

    func testTransformLeavesUncoveredPartsTransparentAndBlursAfterwards() throws {
        let image = try render(["--transform", "translate(0,20)", "--filter", "nearest"])
        assertClose(image[10, 5], Pixel(red: 0, green: 0, blue: 0, alpha: 0), within: 0, "moved out of view")
        assertClose(image[10, 30], red, within: 0, "moved down")
        let blurred = try render(["--transform", "translate(0,20)", "--sigma", "2", "--edge", "clamp"])
        XCTAssertLessThan(blurred[10, 20].alpha, 250, "the blur follows the warp: the new edge is soft")
        XCTAssertGreaterThan(blurred[10, 20].alpha, 5)
    }

    func testFitLetterboxesOntoTheBackground() throws {
        let image = try render(["--size", "40x40", "--fit", "fit", "--background", "#00ff00"])
        XCTAssertEqual([image.width, image.height], [40, 40])
        let green = Pixel(red: 0, green: 255, blue: 0)
        for y in [0, 9, 30, 39] { assertClose(image[20, y], green, within: 0, "letterbox row \(y)") }
        assertClose(image[5, 20], red, "the picture's left half, 40x20 in the middle")
        assertClose(image[35, 20], blue, "the picture's right half")
    }

    func testFitWithoutABackgroundIsTransparentAndAMaterialSeesTheBackground() throws {
        let clear = try render(["--size", "40x40", "--fit", "fit"])
        XCTAssertEqual(clear[20, 2].alpha, 0)
        XCTAssertEqual(clear[20, 20].alpha, 255)
        let blurred = try render(["--size", "40x40", "--fit", "fit", "--background", "#00ff00", "--sigma", "2"])
        assertClose(blurred[20, 0], Pixel(red: 0, green: 255, blue: 0), "far from the picture: the background")
        XCTAssertGreaterThan(Int(blurred[20, 10].red) + Int(blurred[20, 10].blue), 30, "the picture's edge bleeds")
    }
}
