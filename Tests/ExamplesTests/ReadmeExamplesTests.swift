import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

final class ReadmeExamplesTests: XCTestCase {
    /// Every ```swift block of the README stands in ReadmeExamples.swift, line for line (indentation aside).
    func testEveryReadmeBlockIsCompiledHere() throws {
        let readme = try String(contentsOfFile: Fixtures.root + "README.md", encoding: .utf8)
        let examplesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ReadmeExamples.swift").path
        let examples = try String(contentsOfFile: examplesPath, encoding: .utf8)
        let exampleLines = examples.split(separator: "\n", omittingEmptySubsequences: false).map(trimmed)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        XCTAssertGreaterThanOrEqual(blocks.count, 4)
        for block in blocks {
            // Import lines stand at the top of the examples file instead.
            let lines = block.split(separator: "\n").map(trimmed).filter { !$0.hasPrefix("import ") }
            let found = exampleLines.indices.contains { start in
                start + lines.count <= exampleLines.count
                    && Array(exampleLines[start..<start + lines.count]) == lines
            }
            XCTAssertTrue(found, "README block not compiled in ReadmeExamples.swift:\n\(block)")
        }
    }

    private func trimmed(_ line: Substring) -> String { String(line.drop { $0 == " " }) }

    /// Each example runs and does what the README says (the two scenes take ~40 s of a debug build's time).
    func testExamplesRun() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("coffee.jpg"))))
        let photo = try ImageDecoder.decode(bytes)
        let screen = try sceneExample(photo: photo.image)
        XCTAssertEqual(screen.width, 1170)
        XCTAssertEqual(screen[200, 2283], Pixel(red: 255, green: 255, blue: 255), "the white button")

        let banner = try textExample()
        XCTAssertEqual(banner.height, 240)
        let band = banner.region(x: 60, y: 54, width: 1050, height: 132)
        var white = 0
        for y in 0..<band.height {
            for x in 0..<band.width where band[x, y] == Pixel(red: 255, green: 255, blue: 255) { white += 1 }
        }
        XCTAssertGreaterThan(white, 5_000, "the title's strokes, fully covered, are white")

        let review = try sceneFileExample(folder: Fixtures.root + "fixtures")
        XCTAssertEqual(review.height, 2532)

        let jpeg = try libraryExample(bytes: bytes)
        XCTAssertEqual(try ImageDecoder.decode(jpeg).image.width, 600)

        let buffer = Image(width: 1170, height: 2532, fill: Pixel(red: 10, green: 20, blue: 30))
        let blurred = borrowedBufferExample(pointer: buffer.baseAddress, stride: buffer.bytesPerRow)
        XCTAssertEqual(blurred.height, 732)
        XCTAssertEqual(blurred[100, 100], Pixel(red: 10, green: 20, blue: 30), "a flat picture stays flat")

        let (apng, still) = try animationExample(photo: photo.image)
        let animation = try AnimatedPNGDecoder.decode(apng, maxPixels: 1 << 24)
        XCTAssertEqual(animation.frames.count, 28)
        XCTAssertTrue(animation.frames[9].hasSamePixels(as: still))

        let (filled, turn, moved) = try resamplingExample(photo: photo)
        XCTAssertEqual(filled.width, 1170)
        XCTAssertEqual(turn.tx, 600)
        XCTAssertEqual(moved?.height, 2532)
    }
}
