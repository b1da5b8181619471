import Compositor
import Scenes
import XCTest

@testable import SceneFormat

/// The `text` layer's keys, read into a `TextStyle` for the typesetter (a stand-in here that records what it
/// was asked; the Typesetting module's own tests cover the fonts).
final class SceneFileTextTests: XCTestCase {
    private struct Request: Equatable {
        var text: String
        var style: TextStyle
    }

    private final class RecordingTypesetter: Typesetter, @unchecked Sendable {
        var requests: [Request] = []
        var failure: String?

        struct Failure: Error, CustomStringConvertible { var description: String }

        final class Nothing: TypesetText {
            func inkBounds(frameWidth width: Double, height: Double) -> Rect? { nil }
            func addCoverage(frameWidth: Double, height: Double, through: AffineTransform2D, into mask: Plane) {}
        }

        func typeset(_ text: String, style: TextStyle) throws -> any TypesetText {
            if let failure { throw Failure(description: failure) }
            requests.append(Request(text: text, style: style))
            return Nothing()
        }
    }

    private let typesetter = RecordingTypesetter()

    private func read(_ layer: String, typesetter: (any Typesetter)? = nil) throws -> Scene {
        var file = SceneFile(
            directory: "/scenes", maxPixels: 1_000_000, typesetter: typesetter ?? self.typesetter,
            loadImage: { _ in Image(width: 1, height: 1) })
        return try file.scene(fromJSON: Array(#"{"canvas": {"width": 40, "height": 30}, "layers": [\#(layer)]}"#.utf8))
    }

    private func message(_ layer: String, typesetter: (any Typesetter)? = nil) -> String? {
        do {
            _ = try read(layer, typesetter: typesetter)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testDefaultsAreTheSystemFaceAtBodySize() throws {
        let scene = try read(#"{"type": "text", "text": "Rate it"}"#)
        XCTAssertEqual(typesetter.requests, [Request(text: "Rate it", style: TextStyle())])
        XCTAssertEqual(TextStyle().size, 17)
        guard case .text(_, let color) = scene.layers[0].content else { return XCTFail("not a text layer") }
        XCTAssertEqual(color, RGBAColor(red: 0, green: 0, blue: 0), "black, as .label in the light appearance")
    }

    func testEveryKeyReachesTheStyle() throws {
        _ = try read(
            #"""
            {"type": "text", "text": "Awesome", "font": "DejaVu Serif", "style": "title1", "weight": "bold",
             "italic": true, "color": "white", "alignment": "center", "lineLimit": 2, "lineSpacing": 4,
             "tracking": -0.5, "frame": {"x": 0, "y": 0, "width": 40, "height": 30}, "opacity": 0.5}
            """#)
        let expected = TextStyle(
            font: .family("DejaVu Serif"), size: 28, weight: .bold, italic: true, alignment: .center, lineLimit: 2,
            lineSpacing: 4, tracking: -0.5)
        XCTAssertEqual(typesetter.requests.first?.style, expected)
    }

    func testATextStyleGivesSizeAndWeightThatExplicitKeysOverride() throws {
        _ = try read(#"{"type": "text", "text": "a", "style": "headline"}"#)
        _ = try read(#"{"type": "text", "text": "a", "style": "headline", "size": 20, "weight": "regular"}"#)
        XCTAssertEqual(typesetter.requests.map(\.style.size), [17, 20])
        XCTAssertEqual(typesetter.requests.map(\.style.weight), [.semibold, .regular])
    }

    /// The seed's SwiftUI `.font(.system(.title, design: .rounded))`: SwiftUI's style names and its designs.
    func testSwiftUIStyleNamesAndDesigns() throws {
        _ = try read(#"{"type": "text", "text": "a", "style": "title", "design": "rounded", "weight": "bold"}"#)
        _ = try read(#"{"type": "text", "text": "a", "style": "caption", "design": "monospaced"}"#)
        _ = try read(#"{"type": "text", "text": "a", "style": "largeTitle", "design": "serif"}"#)
        XCTAssertEqual(
            typesetter.requests.map(\.style),
            [
                TextStyle(design: .rounded, size: 28, weight: .bold), TextStyle(design: .monospaced, size: 12),
                TextStyle(design: .serif, size: 34),
            ])
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "font": "Inter", "design": "serif"}"#),
            "layers[0].design: design picks a design of the system face: drop font, or design")
        XCTAssertNotNil(message(#"{"type": "text", "text": "a", "design": "italic"}"#))
    }

    func testFontFilesResolveAgainstTheScenesFolder() throws {
        _ = try read(#"{"type": "text", "text": "a", "font": "fonts/Brand.otf"}"#)
        _ = try read(#"{"type": "text", "text": "a", "font": "Brand.TTF"}"#)
        _ = try read(#"{"type": "text", "text": "a", "font": "/usr/share/fonts/x.ttf"}"#)
        XCTAssertEqual(
            typesetter.requests.map(\.style.font),
            [.file("/scenes/fonts/Brand.otf"), .file("/scenes/Brand.TTF"), .file("/usr/share/fonts/x.ttf")])
    }

    func testBadValuesNameTheirPath() {
        XCTAssertEqual(message(#"{"type": "text"}"#), "layers[0].text: missing")
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "size": 0}"#),
            "layers[0].size: expected a number above 0 and at most 16384, found 0")
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "size": 1e300}"#)?.hasPrefix("layers[0].size: expected"), true)
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "lineLimit": 1.5}"#),
            "layers[0].lineLimit: expected a whole number of lines, found 1.5")
        XCTAssertEqual(message(#"{"type": "text", "text": "a", "weight": "fat"}"#)?.contains("ultraLight"), true)
        XCTAssertEqual(message(#"{"type": "text", "text": "a", "style": "huge"}"#)?.contains("largeTitle"), true)
        XCTAssertEqual(message(#"{"type": "text", "text": "a", "alignment": "left"}"#)?.contains("natural"), true)
        XCTAssertEqual(message(#"{"type": "text", "text": 5}"#), "layers[0].text: expected a string, found 5")
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "fontSize": 5}"#)?.hasPrefix("layers[0].fontSize: unknown key"), true)
    }

    func testTypesetterErrorsComeBackAtTheFontsPath() {
        typesetter.failure = "no font family \"Helvetca\" is installed; close: Helvetica"
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "font": "Helvetca"}"#),
            "layers[0].font: no font family \"Helvetca\" is installed; close: Helvetica")
        XCTAssertEqual(
            message(#"{"type": "group", "layers": [{"type": "text", "text": "a"}]}"#),
            "layers[0].layers[0]: no font family \"Helvetca\" is installed; close: Helvetica")
    }

    func testTextNeedsATypesetter() {
        var file = SceneFile(directory: "", maxPixels: 1_000_000, loadImage: { _ in Image(width: 1, height: 1) })
        let json = #"{"canvas": {"width": 4, "height": 4}, "layers": [{"type": "text", "text": "a"}]}"#
        XCTAssertThrowsError(try file.scene(fromJSON: Array(json.utf8))) { error in
            XCTAssertEqual("\(error)", "layers[0]: text layers need a typesetter, and none was given")
        }
    }

    func testTextColourAnimatesButNotItsCorners() throws {
        let scene = try read(
            ##"{"type": "text", "text": "a", "animations": [{"property": "color", "from": "#000", "to": "#fff", "duration": 1}]}"##)
        XCTAssertEqual(scene.layers[0].animations.count, 1)
        XCTAssertEqual(
            message(#"{"type": "text", "text": "a", "animations": [{"property": "cornerRadius", "to": 4, "duration": 1}]}"#),
            "layers[0].animations[0].property: cornerRadius does not animate a text layer (only image, shape, backdrop, group)")
    }
}
