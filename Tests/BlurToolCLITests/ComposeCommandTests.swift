import Compositor
import Foundation
import ImageCodecs
import SceneFormat
import TestSupport
import XCTest

@testable import BlurToolCLI

final class ComposeCommandTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-compose-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let photo = try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40), as: .png)
        try Data(photo).write(to: URL(fileURLWithPath: directory + "photo.png"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// blurtool compose as a process would run it: output written, errors one line with the documented status.
    func testComposeCommand() throws {
        let scene = directory + "scene.json"
        try
            ##"{"canvas": {"width": 30, "height": 20, "scale": 2, "background": "#204060"}, "layers": [{"type": "image", "path": "photo.png"}, {"type": "backdrop", "material": "thin", "cornerRadius": 4, "frame": {"x": 5, "y": 5, "width": 20, "height": 10}}]}"##
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let result = ToolRun.run(["compose", scene])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, directory + "scene.png")
        let image = try ImageDecoder.decode(try FileIO.read(directory + "scene.png")).image
        XCTAssertEqual(image.width, 60)
        XCTAssertEqual(image.height, 40)

        try #"{"canvas": {"width": 30, "height": 20}, "layers": [{"type": "color", "color": "red", "opacity": 2}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let invalid = ToolRun.run(["compose", scene, "-o", directory + "bad.png"])
        XCTAssertEqual(invalid.status, 65)
        XCTAssertEqual(
            invalid.err, "blurtool: error: \"\(scene)\": layers[0].opacity: expected a number from 0 to 1, found 2")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "bad.png"))

        try #"{"canvas": {"width": 30, "height": 20}, "layers": [{"type": "image", "path": "nowhere.png"}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let missing = ToolRun.run(["compose", scene])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.err.contains("layers[0].path: \"\(directory)nowhere.png\": "), missing.err)

        XCTAssertEqual(ToolRun.run(["compose", scene, "--material", "thin"]).status, 64)
        XCTAssertEqual(ToolRun.run(["compose"]).status, 64)
        XCTAssertEqual(ToolRun.run(["compose", scene, "-o", scene]).status, 73, "never overwrites the scene")
    }

    /// Text layers through the tool: a label drawn, and every font problem one line naming the layer's font,
    /// with the status a missing image gets for a missing file (66) and 65 for the rest.
    func testComposeSetsTextAndRefusesBadFonts() throws {
        let scene = directory + "text.json"
        func compose(_ layer: String) throws -> (status: Int32, out: String, err: String) {
            try ##"{"canvas": {"width": 60, "height": 20, "background": "#fff"}, "layers": [\##(layer)]}"##
                .write(toFile: scene, atomically: true, encoding: .utf8)
            return ToolRun.run(["compose", scene, "-o", directory + "text.png"])
        }
        let drawn = try compose(#"{"type": "text", "text": "Rate it", "style": "headline", "alignment": "center"}"#)
        XCTAssertEqual(drawn.status, 0, drawn.err)
        let image = try ImageDecoder.decode(try FileIO.read(directory + "text.png")).image
        var darkest = 255
        for y in 0..<20 { for x in 0..<60 { darkest = min(darkest, Int(image[x, y].green)) } }
        XCTAssertEqual(darkest, 0, "black strokes, fully covered somewhere")
        XCTAssertEqual(image[1, 1], Pixel(red: 255, green: 255, blue: 255))
        try FileManager.default.removeItem(atPath: directory + "text.png")

        let typo = try compose(#"{"type": "text", "text": "a", "font": "DejaVu Sanz"}"#)
        XCTAssertEqual(typo.status, 65)
        XCTAssertTrue(
            typo.err.hasPrefix(
                "blurtool: error: \"\(scene)\": layers[0].font: no font family \"DejaVu Sanz\" is installed; close: "),
            typo.err)
        XCTAssertTrue(typo.err.contains("DejaVu Sans"), typo.err)
        let missing = try compose(#"{"type": "text", "text": "a", "font": "fonts/none.ttf"}"#)
        XCTAssertEqual(missing.status, 66, missing.err)
        XCTAssertTrue(missing.err.contains("layers[0].font: cannot read the font file"), missing.err)
        XCTAssertTrue(missing.err.contains("\(directory)fonts/none.ttf"), "resolved against the scene: \(missing.err)")
        let photo = try compose(#"{"type": "text", "text": "a", "font": "./photo.png"}"#)
        XCTAssertEqual(photo.status, 65)
        XCTAssertTrue(photo.err.hasSuffix("photo.png\" is not a font file (TrueType, OpenType or a collection)"), photo.err)
        // Neither a FIFO (opening it would wait for a writer) nor an endless device is read.
        XCTAssertEqual(mkfifo(directory + "fifo.ttf", 0o600), 0)
        XCTAssertEqual(try compose(#"{"type": "text", "text": "a", "font": "fifo.ttf"}"#).status, 65)
        XCTAssertEqual(try compose(#"{"type": "text", "text": "a", "font": "/dev/zero"}"#).status, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "text.png"), "no output on failure")
    }

    /// An endless input is refused at the scene size limit, not read until memory runs out.
    func testEndlessSceneInputIsRefused() {
        let result = ToolRun.run(["compose", "/dev/zero", "-o", directory + "zero.png"])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.err, "blurtool: error: \"/dev/zero\": larger than 16 MiB; not a scene file")
    }

    /// A scene's images are decoded once per file, however the path is written (`./photo.png`, a link to it),
    /// and the decoded pictures together stay within a budget; the one over it is refused, under its JSON path.
    func testImagesAreKeyedByTheFileAndBoundedTogether() throws {
        try FileManager.default.createSymbolicLink(atPath: directory + "link.png", withDestinationPath: "photo.png")
        let other = try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40), as: .png)
        try Data(other).write(to: URL(fileURLWithPath: directory + "other.png"))
        let console = BlurTool.Console(out: { _ in }, err: { _ in })
        // Room for two 60×40 pictures (9,600 bytes each), not three.
        let images = SceneImages(
            loading: ImageLoading(request: RenderRequest(input: "scene.json"), console: console), byteLimit: 20_000)
        let first = try images.load(directory + "photo.png")
        for name in ["./photo.png", "././photo.png", "link.png", "../" + URL(fileURLWithPath: directory).lastPathComponent + "/photo.png"] {
            XCTAssertTrue(try images.load(directory + name) === first, name)
        }
        XCTAssertFalse(try images.load(directory + "other.png") === first)
        let third = try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40), as: .png)
        try Data(third).write(to: URL(fileURLWithPath: directory + "third.png"))
        var file = SceneFile(directory: directory, maxPixels: 1 << 20, loadImage: images.load)
        let scene = #"{"canvas": {"width": 30, "height": 20}, "layers": [{"type": "image", "path": "link.png"}, {"type": "image", "path": "./other.png"}, {"type": "image", "path": "third.png"}]}"#
        XCTAssertThrowsError(try file.scene(fromJSON: Array(scene.utf8))) { error in
            guard case .image(let path, _, let underlying) = error as? SceneFileError,
                let failure = underlying as? ToolFailure
            else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "layers[2].path")
            XCTAssertEqual(failure.code, .cannotCreate)
            XCTAssertTrue(failure.reason.hasPrefix("decoding it would bring the scene's images to 28 KiB; the limit is 19 KiB"), failure.reason)
        }
    }
}
