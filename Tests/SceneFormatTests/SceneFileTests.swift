import Compositor
import Foundation
import ImageCodecs
import Scenes
import TestSupport
import Typesetting
import XCTest

@testable import SceneFormat

/// Decodes an image file as a scene's loader would.
func loadImageFile(_ path: String) throws -> Image {
    try ImageDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).image
}

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
        var file = SceneFile(directory: directory, maxPixels: 1_000_000, typesetter: FontTypesetter(), loadImage: loadImageFile)
        do {
            _ = try file.scene(fromJSON: Array(text.utf8))
            return nil
        } catch {
            return error.description
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
                "layers[0].type: expected one of backdrop, color, curled, emitter, group, image, path, shape, symbol, text, transition, found \"circle\""
            ),
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "red", "opactiy": 1}]}"#,
                "layers[0].opactiy: unknown key; expected one of type, name, frame, opacity, blend, transform, animations, transform3D, doubleSided, color"
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
                #"layers[0].blend: unknown operator "burn"; expected one of"#
            ),
            (
                #"{\#(canvas), "layers": [{"type": "color", "color": "red", "transform": "spin(3)"}]}"#,
                "layers[0].transform: "
            ),
            (
                #"{\#(canvas), "layers": [{"type": "backdrop", "material": "frosted"}]}"#,
                #"layers[0].material: unknown material "frosted""#
            ),
            (
                #"{\#(canvas), "layers": [{"type": "image", "path": "missing.jpg"}]}"#,
                #"layers[0].path: "\#(directory)missing.jpg": "#
            ),
            (
                #"{\#(canvas), "layers": [{"type": "backdrop", "material": "a\nb\u001b[31m"}]}"#,
                #"layers[0].material: unknown material "a\nb\u{1B}[31m"; "#
            ),
            (
                #"{\#(canvas), "layers": [], "layers": []}"#,
                #"not valid JSON: line 1, column 55: key "layers" appears twice"#
            ),
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
        XCTAssertEqual(syntax(#"{"a": 1, "a": 2}"#), #"line 1, column 10: key "a" appears twice"#)
        XCTAssertEqual(syntax("[01]"), "line 1, column 4: numbers do not start with 0")
        XCTAssertEqual(syntax(String(repeating: "[", count: 100)), "line 1, column 65: nested more than 64 levels deep")
        XCTAssertEqual(syntax(#"["\u00e9\ud83d\ude00", 1e3, -0.5, true, null]"#), "parsed")
        XCTAssertEqual(
            try JSONParser.parse(Array(#"["\u00e9\ud83d\ude00", 1e3]"#.utf8)), .array([.string("é😀"), .number(1000)]))
        XCTAssertEqual(syntax("{} x"), "line 1, column 4: unexpected text after the JSON value")
        XCTAssertEqual(syntax(#"["\u+041"]"#), #"line 1, column 5: expected four hex digits after \u"#)
        XCTAssertEqual(syntax(#"["\u004"]"#), #"line 1, column 8: expected four hex digits after \u"#)
        XCTAssertEqual(syntax(#"["\q"]"#), "line 1, column 3: unknown escape: backslash then character 'q'")
        XCTAssertEqual(syntax("[\u{1}]"), "line 1, column 2: unexpected byte 0x1")
    }

    /// Invalid UTF-8 is an error, never replaced by U+FFFD: a scene's names and paths are what it says.
    func testJSONRefusesInvalidUTF8() {
        for invalid: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] {
            let text = Array(#"["ok", "x"#.utf8) + invalid + Array(#"y"]"#.utf8)
            XCTAssertThrowsError(try JSONParser.parse(text), "\(invalid)") { error in
                XCTAssertEqual((error as? JSONSyntaxError)?.message, "invalid UTF-8 in a string")
            }
        }
        XCTAssertEqual(try JSONParser.parse(Array(#"["é€😀"]"#.utf8)), .array([.string("é€😀")]))
        // The column is where the run holding the bad byte starts, after any escape before it.
        XCTAssertThrowsError(try JSONParser.parse(Array(#"["ok", "a\nb"#.utf8) + [0xFF] + Array(#""]"#.utf8))) {
            XCTAssertEqual(($0 as? JSONSyntaxError)?.column, 12)
        }
    }

    /// A repeated key is found through a set: 200,000 keys (a quadratic check would compare 2·10¹⁰ pairs)
    /// parse in well under a second even in a debug build, and a repeat at the end is still found.
    func testManyKeysParseInLinearTime() throws {
        let keys = (0..<200_000).map { "\"k\($0)\": 0" }
        let clock = ContinuousClock()
        let start = clock.now
        guard case .object(let members) = try JSONParser.parse(Array(("{" + keys.joined(separator: ",") + "}").utf8))
        else { return XCTFail("not an object") }
        XCTAssertEqual(members.count, 200_000)
        XCTAssertLessThan(clock.now - start, .seconds(10), "quadratic")
        let repeated = "{" + keys.joined(separator: ",") + #", "k7": 1}"#
        XCTAssertThrowsError(try JSONParser.parse(Array(repeated.utf8)))
    }

    /// A string of escapes is built once: 300,000 escaped zero-width spaces between letters (a 2 MB file, as
    /// Python's json.dump writes them) parse to the same string as the raw UTF-8, in linear time (28 s before).
    func testAStringOfManyEscapesParsesInLinearTime() throws {
        let count = 300_000
        let escaped = #"["a"# + String(repeating: #"\u200b"#, count: count) + #"\n\u00e9\ud83d\ude00b"]"#
        let expected = "a" + String(repeating: "\u{200B}", count: count) + "\né😀b"
        let clock = ContinuousClock()
        let start = clock.now
        XCTAssertEqual(try JSONParser.parse(Array(escaped.utf8)), .array([.string(expected)]))
        XCTAssertLessThan(clock.now - start, .seconds(10), "quadratic")
        XCTAssertEqual(try JSONParser.parse(Array(("[\"" + expected + "\"]").replacingOccurrences(of: "\n", with: "\\n").utf8)),
            .array([.string(expected)]))
    }

    /// The review screen that ships in fixtures/, checked by what should be where (at 1 px per point, to stay
    /// quick in debug builds; the scene is the same).
    func testReviewScreenHasEverythingWhereItShouldBe() throws {
        let path = Fixtures.path("review-screen.json")
        var file = SceneFile(directory: Fixtures.root + "fixtures", maxPixels: 10_000_000, typesetter: FontTypesetter(), loadImage: loadImageFile)
        var scene = try file.scene(fromJSON: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertEqual(scene.pixelWidth, 1170)
        XCTAssertEqual(scene.pixelHeight, 2532)
        // A real screen is far inside the default limits (36 MB, 4·10⁷ operations when this was written).
        let cost = SceneRenderer().cost(of: scene)
        XCTAssertLessThan(cost.peakBytes, SceneRenderer.Limits().peakBytes / 100)
        XCTAssertLessThan(cost.work, SceneRenderer.Limits().work / 100)
        scene.scale = 1
        let screen = try SceneRenderer().render(scene)
        XCTAssertTrue(screen.isOpaque)
        // The close button's cross at the top right, where its strokes meet.
        XCTAssertEqual(screen[348, 77], Pixel(red: 255, green: 255, blue: 255))
        // The five titles in the centred stack, white on the blur; nothing white left of the stack.
        for (index, row) in (0..<5).map({ 300 + $0 * 51 }).enumerated() {
            var white = 0
            for y in row..<(row + 41) {
                for x in 117..<273 where screen[x, y] == Pixel(red: 255, green: 255, blue: 255) { white += 1 }
            }
            XCTAssertGreaterThan(white, 40, "title \(index)")
        }
        // The backdrop: dark and smooth away from the controls (the photo's detail blurred away).
        var darkest = 255
        var brightest = 0
        for y in stride(from: 600, to: 800, by: 5) {
            let p = screen[60, y]
            darkest = min(darkest, Int(p.green))
            brightest = max(brightest, Int(p.green))
        }
        XCTAssertLessThan(brightest, 100, "dark")
        XCTAssertLessThan(brightest - darkest, 12, "blurred")
    }
}
