import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import BlurToolCLI

final class SceneFileTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-scenes-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let photo = try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40), as: .png)
        try Data(photo).write(to: URL(fileURLWithPath: directory + "photo.png"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The message a scene text gets, or nil when it loads.
    private func error(_ text: String) -> String? {
        var file = SceneFile(directory: directory, maxPixels: 1_000_000) { path in
            try ImageDecoder.decode(try FileIO.read(path)).image
        }
        do {
            _ = try file.scene(from: try JSONParser.parse(Array(text.utf8)))
            return nil
        } catch let error as SceneError {
            return error.description
        } catch let failure as ToolFailure {
            return failure.line
        } catch {
            return "\(error)"
        }
    }

    private let canvas = #""canvas": {"width": 40, "height": 30}"#

    func testValidationNamesTheJSONPathAndWhatWasExpected() {
        let cases: [(String, String)] = [
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "red"}, {"type": "color", "color": "red"}, {"type": "color", "color": "red", "opacity": 1.5}]}"#,
                "layers[2].opacity: expected a number from 0 to 1, found 1.5"
            ),
            (#"{"layers": []}"#, "canvas: missing"),
            (
                #"{"canvas": {"width": 0, "height": 30}, "layers": []}"#,
                "canvas.width: expected a number above 0, found 0"
            ),
            (#"{\#(canvas), "layers": {}}"#, "layers: expected an array of layers, found an object"),
            (
                #"{\#(canvas), "layers": [{"type": "circle"}]}"#,
                "layers[0].type: expected one of backdrop, color, group, image, shape, found \"circle\""
            ),
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "red", "opactiy": 1}]}"#,
                "layers[0].opactiy: unknown key; expected one of type, name, frame, opacity, blend, transform, color"
            ),
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "reddish"}]}"#,
                "layers[0].color: expected a colour (#rgb, #rrggbb, #rrggbbaa or a name), found \"reddish\""
            ),
            (
                #"{\#(canvas), "layers": [{"type": "group", "layers": [{"type": "shape", "color": "red", "frame": {"x": 0, "y": 0, "width": -1, "height": 2}}]}]}"#,
                "layers[0].layers[0].frame.width: expected a number of at least 0, found -1"
            ),
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "red", "blend": "burn"}]}"#,
                "layers[0].blend: unknown operator 'burn'; expected one of"
            ),
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "red", "transform": "spin(3)"}]}"#,
                "layers[0].transform: "
            ),
            (
                #"{\#(canvas), "layers": [{"type": "backdrop", "material": "frosted"}]}"#,
                "layers[0].material: unknown material 'frosted'"
            ),
            (#"{\#(canvas), "layers": [{"type": "image", "path": "missing.jpg"}]}"#, "layers[0].path: "),
            (
                #"{"canvas": {"width": 5000, "height": 5000, "scale": 3}, "layers": []}"#,
                "canvas: 15000x15000 pixels is outside 1 to 1000000 pixels"
            ),
            (#"{"canvas": {"width": 390, "height": 1e300}, "layers": []}"#, "canvas: 390x2147483647 pixels is outside"),
        ]
        for (text, expected) in cases {
            let message = error(text)
            XCTAssertTrue(message?.contains(expected) == true, "\(message ?? "no error") does not contain \(expected)")
        }
        XCTAssertNil(error(#"{\#(canvas), "layers": [{"type": "image", "path": "photo.png", "fit": "fit"}]}"#))
    }

    func testJSONSyntaxErrorsGiveLineAndColumn() {
        func syntax(_ text: String) -> String {
            do {
                _ = try JSONParser.parse(Array(text.utf8))
                return "parsed"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(syntax("{\n  \"a\": 1,\n  \"b\" 2\n}"), "line 3, column 7: expected ':'")
        XCTAssertEqual(syntax(#"{"a": 1, "a": 2}"#), #"line 1, column 13: key "a" appears twice"#)
        XCTAssertEqual(syntax("[01]"), "line 1, column 4: numbers do not start with 0")
        XCTAssertEqual(syntax(String(repeating: "[", count: 100)), "line 1, column 65: nested more than 64 levels deep")
        XCTAssertEqual(syntax(#"["\u00e9\ud83d\ude00", 1e3, -0.5, true, null]"#), "parsed")
        XCTAssertEqual(
            try JSONParser.parse(Array(#"["\u00e9\ud83d\ude00", 1e3]"#.utf8)), .array([.string("é😀"), .number(1000)]))
        XCTAssertEqual(syntax("{} x"), "line 1, column 4: unexpected text after the JSON value")
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
            invalid.err, "blurtool: error: \(scene): layers[0].opacity: expected a number from 0 to 1, found 2")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "bad.png"))

        try #"{"canvas": {"width": 30, "height": 20}, "layers": [{"type": "image", "path": "nowhere.png"}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let missing = ToolRun.run(["compose", scene])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.err.contains("layers[0].path: \(directory)nowhere.png"), missing.err)

        XCTAssertEqual(ToolRun.run(["compose", scene, "--material", "thin"]).status, 64)
        XCTAssertEqual(ToolRun.run(["compose"]).status, 64)
        XCTAssertEqual(ToolRun.run(["compose", scene, "-o", scene]).status, 73, "never overwrites the scene")
    }

    /// The review screen that ships in fixtures/, checked by what should be where (at 1 px per point, to stay
    /// quick in debug builds; the scene is the same).
    func testReviewScreenHasEverythingWhereItShouldBe() throws {
        let path = Fixtures.path("review-screen.json")
        var file = SceneFile(directory: Fixtures.root + "fixtures", maxPixels: 10_000_000) { path in
            try ImageDecoder.decode(try FileIO.read(path)).image
        }
        var scene = try file.scene(from: try JSONParser.parse(try FileIO.read(path)))
        XCTAssertEqual(scene.pixelWidth, 1170)
        XCTAssertEqual(scene.pixelHeight, 2532)
        scene.scale = 1
        let screen = SceneRenderer().render(scene)
        XCTAssertTrue(screen.isOpaque)
        // The close button's cross, and the "Rate it" button.
        XCTAssertEqual(screen[40, 80], Pixel(red: 255, green: 255, blue: 255))
        XCTAssertEqual(screen[60, 761], Pixel(red: 255, green: 255, blue: 255))
        XCTAssertEqual(screen[195, 761], Pixel(red: 0x1E, green: 0x27, blue: 0x2E), "the button's label")
        // The faces: the selected one (fourth) in its own colour; the others dimmed to 55% over the backdrop.
        let selected = screen[28 + 3 * 68 + 29, 360 + 4]
        XCTAssertEqual(selected, Pixel(red: 0xA3, green: 0xD9, blue: 0x77), "4th face, at the top of its circle")
        let first = screen[28 + 29, 360 + 44]
        XCTAssertGreaterThan(Int(first.red), Int(first.green) + 60, "1st face is red: \(first)")
        XCTAssertLessThan(Int(first.red), 0xFF * 60 / 100 + 30, "and dimmed by its group's opacity")
        // The backdrop: dark and smooth away from the controls (the photo's detail blurred away).
        var darkest = 255
        var brightest = 0
        for y in stride(from: 120, to: 230, by: 5) {
            let p = screen[300, y]
            darkest = min(darkest, Int(p.green))
            brightest = max(brightest, Int(p.green))
        }
        XCTAssertLessThan(brightest, 90, "dimmed")
        XCTAssertLessThan(brightest - darkest, 12, "blurred")
        // The comment card: its rounded corner shows the backdrop beneath; inside, the lighter material.
        let beside = screen[21, 501]
        let inside = screen[100, 640]
        XCTAssertEqual(screen[21, 501], beside)
        XCTAssertGreaterThan(Int(inside.green), Int(screen[100, 700].green), "the card is lighter than below it")
    }
}
