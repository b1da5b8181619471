import Compositor
import Foundation
import ImageCodecs
import OracleSupport
import Scenes
import XCTest

@testable import SceneFormat

/// Path layers against cairo through `rsvg-convert` (Debian's librsvg2-bin): the same path data and fill rule
/// drawn black on white at 200 × 200, compared over the edge pixels (where either is neither black nor white).
///
/// cairo samples coverage on a grid where ours is the exact area, so the two differ by a few levels at every edge:
/// measured (rsvg-convert 2.54.7), mean 1.9–5.0 and at most 27 levels on these shapes, where skia-python's SVG
/// renderer differs from cairo by 2.5–14.5 mean and 12–70 at most (README › Paths). The bounds below hold those
/// figures with a margin, so a shifted, mirrored or wrongly ruled fill (tens of levels everywhere) fails.
final class PathRsvgOracleTests: XCTestCase {
    private let shapes: [(name: String, d: String, rule: String)] = [
        ("star", "M100 10 L123 80 L197 80 L137 123 L160 193 L100 150 L40 193 L63 123 L3 80 L77 80 Z", "nonzero"),
        ("circle", "M100 20 A80 80 0 1 1 99.99 20 Z", "nonzero"),
        ("ring", "M100 20 A80 80 0 1 1 99.99 20 Z M100 50 A50 50 0 1 0 100.01 50 Z", "evenodd"),
        ("blob", "M20 100 C20 10 180 10 180 100 S100 190 60 150 Q20 120 20 100 Z", "nonzero"),
        ("sliver", "M10 10 L190 12.3 L190 12.9 L10 10.4 Z M10 50 L190 150 L189.5 150 Z", "nonzero"),
        ("holes", "M30 30 h140 v140 h-140 z M60 60 q40 -30 80 0 t0 80 q-40 30 -80 0 t0 -80 z", "evenodd"),
        ("pentagram", "M100 10 L159 190 L5 78 L195 78 L41 190 Z", "evenodd"),
        ("pentagram-nonzero", "M100 10 L159 190 L5 78 L195 78 L41 190 Z", "nonzero"),
    ]

    func testFillsAgreeWithCairoWithinItsSampling() throws {
        guard
            let rsvg = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first(
                where: FileManager.default.isExecutableFile)
        else { throw Oracles.missing("rsvg-convert (librsvg2-bin) is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rsvg-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for shape in shapes {
            let svg = directory + "/\(shape.name).svg"
            let png = directory + "/\(shape.name).png"
            try Data(
                (#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" "#
                    + ##"fill="#fff"/><path d="\##(shape.d)" fill="#000" fill-rule="\##(shape.rule)"/></svg>"##).utf8
            ).write(to: URL(fileURLWithPath: svg))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: rsvg)
            process.arguments = [svg, "-o", png]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            let cairo = try ImageDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: png)))).image
            var file = SceneFile(
                directory: directory, maxPixels: 1_000_000, loadImage: { _ in Image(width: 1, height: 1) })
            let scene = try file.scene(
                fromJSON: Array(
                    ##"{"canvas": {"width": 200, "height": 200, "background": "#fff"}, "layers": [{"type": "path", "d": "\##(shape.d)", "fillRule": "\##(shape.rule)"}]}"##
                        .utf8))
            let ours = try SceneRenderer(threads: 2).render(scene)
            var (sum, count, largest) = (0, 0, 0)
            for y in 0..<200 {
                for x in 0..<200 {
                    let (a, b) = (Int(ours[x, y].green), Int(cairo[x, y].green))
                    guard (a > 0 && a < 255) || (b > 0 && b < 255) else { continue }
                    sum += abs(a - b)
                    count += 1
                    largest = max(largest, abs(a - b))
                }
            }
            let mean = Double(sum) / Double(max(count, 1))
            XCTAssertGreaterThan(count, 100, shape.name)
            XCTAssertLessThanOrEqual(mean, 6, "\(shape.name): mean \(mean)")
            XCTAssertLessThanOrEqual(largest, 32, "\(shape.name): max \(largest)")
        }
    }
}
