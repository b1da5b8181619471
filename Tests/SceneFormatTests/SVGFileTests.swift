import Compositor
import Foundation
import ImageCodecs
import OracleSupport
import Scenes
import XCTest

@testable import SceneFormat

/// SVG files as image layers: the XML read safely, the subset drawn as path layers (against rsvg-convert), the rest
/// refused by name.
final class SVGFileTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("svg-\(getpid())-\(name.count)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func scene(_ svg: String, frame: String = #"{"x": 0, "y": 0, "width": 120, "height": 120}"#) throws -> Scene
    {
        try Data(svg.utf8).write(to: URL(fileURLWithPath: directory + "/icon.svg"))
        var file = SceneFile(directory: directory, maxPixels: 1_000_000, loadImage: { _ in Image(width: 1, height: 1) })
        return try file.scene(
            fromJSON: Array(
                ##"{"canvas": {"width": 120, "height": 120, "background": "#fff"}, "layers": [{"type": "image", "path": "icon.svg", "frame": \##(frame)}]}"##
                    .utf8))
    }

    private func message(_ svg: String) -> String? {
        do {
            _ = try scene(svg)
            return nil
        } catch { return "\(error)" }
    }

    /// An icon in the subset: a group's transform, fills by attribute and by style, fill-opacity, every basic
    /// shape, strokes (caps, joins, dashes, a width scaled by a transform); drawn as rsvg-convert draws it, within
    /// cairo's sampling (see `PathRsvgOracleTests`).
    func testAnIconDrawsAsCairoDrawsIt() throws {
        let svg = ##"""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- an icon -->
            <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
              <title>test &amp; icon</title>
              <rect width="24" height="24" fill="#ffffff"/>
              <g transform="translate(12 12) rotate(15) translate(-12,-12)" style="fill: #1dd1a1">
                <circle cx="12" cy="12" r="10"/>
                <path d="M8 9.5a1.5 1.5 0 1 0 0.01 0zM16 9.5a1.5 1.5 0 1 0 0.01 0z" fill="#2d3436"/>
                <ellipse cx="12" cy="16" rx="4" ry="2" fill="#2d3436" fill-opacity="0.5"/>
              </g>
              <polygon points="2,2 6,2 4,5" fill="red" fill-rule="evenodd"/>
              <rect x="18" y="1" width="5" height="4" rx="1" fill="rgb(0, 0, 255)" style="fill:#00f"/>
              <line x1="3" y1="21" x2="21" y2="19" stroke="#ff5a5f" stroke-width="1.5" stroke-linecap="round"/>
              <polyline points="2,12 5,8 8,12" fill="none" stroke="#000" stroke-linejoin="round" stroke-dasharray="2 1"/>
              <g transform="scale(0.5)"><path d="M36 4 h8 v8" fill="none" stroke="#a3d977" stroke-width="2"/></g>
            </svg>
            """##
        let ours = try SceneRenderer(threads: 2).render(try scene(svg))
        guard
            let rsvg = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first(
                where: FileManager.default.isExecutableFile)
        else { throw Oracles.missing("rsvg-convert (librsvg2-bin) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rsvg)
        process.arguments = ["-w", "120", "-h", "120", directory + "/icon.svg", "-o", directory + "/cairo.png"]
        try process.run()
        process.waitUntilExit()
        let cairo = try ImageDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/cairo.png"))))
            .image
        var (sum, count, largest, inside) = (0, 0, 0, 0)
        for y in 0..<120 {
            for x in 0..<120 {
                let (a, b) = (ours[x, y], cairo[x, y])
                let difference = [a.red, a.green, a.blue].indices.map {
                    abs(Int([a.red, a.green, a.blue][$0]) - Int([b.red, b.green, b.blue][$0]))
                }.max()!
                if difference == 0 { inside += 1 }
                sum += difference
                count += difference > 0 ? 1 : 0
                largest = max(largest, difference)
            }
        }
        XCTAssertGreaterThan(inside, 120 * 120 * 8 / 10, "all but the edges are the same colour")
        XCTAssertLessThanOrEqual(Double(sum) / Double(max(count, 1)), 8, "mean over differing pixels")
        XCTAssertLessThanOrEqual(largest, 48)
    }

    /// A 24-unit view box drawn into a wide frame is centred at its height: a full square equals a 40-point colour
    /// square in the middle.
    func testTheViewBoxIsCentredInTheFrame() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24"/></svg>"#
        let drawn = try SceneRenderer(threads: 1).render(
            try scene(svg, frame: #"{"x": 0, "y": 40, "width": 120, "height": 40}"#))
        XCTAssertEqual(drawn[40, 60], Pixel(red: 0, green: 0, blue: 0))
        XCTAssertEqual(drawn[39, 60], Pixel(red: 255, green: 255, blue: 255))
        XCTAssertEqual(drawn[79, 60], Pixel(red: 0, green: 0, blue: 0))
        XCTAssertEqual(drawn[80, 60], Pixel(red: 255, green: 255, blue: 255))
    }

    /// What is not read is refused with its name; hostile XML is refused before it can cost anything.
    func testRefusals() {
        let head = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">"#
        func refused(_ body: String, _ expected: String, line: UInt = #line) {
            let text = message(head + body + "</svg>") ?? "read without an error"
            XCTAssertTrue(text.contains(expected), text, line: line)
        }
        refused(##"<path d="M0 0h9v9z" stroke="#000" stroke-linecap="pointy"/>"##, "stroke-linecap \"pointy\"")
        refused(#"<text x="1" y="9">A</text>"#, "<text> is not drawn by this reader")
        refused(##"<path d="M0 0h9v9z" fill="url(#g)"/>"##, "is not a colour this reader draws")
        refused(##"<g clip-path="url(#c)"><path d="M0 0h9v9z"/></g>"##, "has clip-path, which is not drawn")
        refused(#"<path d="M0 0h9v9z"></rect>"#, "mismatched end tag")
        refused(#"<path d="M0 0h9v9z" fill="&ent;"/>"#, "unknown reference &ent;")
        XCTAssertTrue(
            message(#"<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg/>"#)?.contains(
                "declarations (DOCTYPE, ENTITY) are not read")
                ?? false)
        XCTAssertTrue(
            message(head + String(repeating: "<g>", count: 70) + String(repeating: "</g>", count: 70) + "</svg>")?
                .contains("nested deeper than 64") ?? false)
        XCTAssertTrue(
            message(#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1"/></svg>"#)?
                .contains("neither a viewBox nor a width and height") ?? false)
        XCTAssertTrue(message("not xml")?.contains("expected the root element") ?? false)
        // Path data with an error draws up to it, as SVG renderers do.
        XCTAssertNil(message(head + #"<path d="M0 0 h9 v9 z L x"/>"# + "</svg>"))
    }
}
