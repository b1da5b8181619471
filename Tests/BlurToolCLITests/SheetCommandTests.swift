import Compositor
import Foundation
import ImageCodecs
import OracleSupport
import TestSupport
import XCTest

@testable import BlurToolCLI

/// `blurtool sheet` and `batch --sheet`, looked at in a real browser: headless Chromium's screenshot of the page
/// shows every tile, each where the layout puts it and each its own picture.
final class SheetCommandTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-sheet-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw Oracles.missing("chromium (Debian package chromium) for the contact sheet's screenshot")
    }

    private func screenshot(_ page: String, width: Int, height: Int) throws -> Image {
        let shot = directory + "shot.png"
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: try chromium())
        browser.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--window-size=\(width),\(height)", "--screenshot=\(shot)", "file://" + page,
        ]
        browser.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        browser.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try browser.run()
        browser.waitUntilExit()
        XCTAssertEqual(browser.terminationStatus, 0)
        return try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: shot)))).image
    }

    /// The mean absolute difference of two images' channels over a rectangle.
    private func difference(
        _ a: Image, _ ax: Int, _ ay: Int, _ b: Image, _ bx: Int, _ by: Int, _ w: Int, _ h: Int
    )
        -> Double
    {
        var total = 0
        for y in 0..<h {
            let rowA = a.row(ay + y)
            let rowB = b.row(by + y)
            for x in 0..<w {
                for channel in 0..<3 {
                    total += abs(Int(rowA[(ax + x) * 4 + channel]) - Int(rowB[(bx + x) * 4 + channel]))
                }
            }
        }
        return Double(total) / Double(w * h * 3)
    }

    func testEveryTileShowsItsOwnPictureWhereTheLayoutPutsIt() throws {
        let page = directory + "sheet.html"
        let (tileWidth, tileHeight) = (100, 216)
        let run = ToolRun.run(
            [Fixtures.path("coffee.jpg"), "-o", page, "--size", "\(tileWidth)x\(tileHeight)"]
                .with(command: "sheet"))
        XCTAssertEqual(run.status, 0, run.err)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let sources = html.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        // Every material in light and dark, the ones fixed to an appearance once.
        let expectedCount = MaterialCatalog.all.reduce(0) { $0 + ($1.fixedAppearance == nil ? 2 : 1) }
        XCTAssertEqual(sources.count, expectedCount)
        XCTAssertEqual(sources.first, "sheet_files/ultraThin-light.jpg")
        let pictures = try sources.map {
            try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + $0)))).image
        }
        // The layout the page documents: 16 px margin and gap, a 64 px header, 64 px labels, six columns.
        let columns = 6
        let rows = (sources.count + columns - 1) / columns
        let (pageWidth, pageHeight) = (32 + columns * tileWidth + (columns - 1) * 16, 64 + rows * (tileHeight + 80))
        let shot = try screenshot(page, width: pageWidth, height: pageHeight)
        let inset = 20  // inside the rounded corners
        let (w, h) = (tileWidth - 2 * inset, tileHeight - 2 * inset)
        for (index, picture) in pictures.enumerated() {
            XCTAssertEqual([picture.width, picture.height], [tileWidth, tileHeight])
            let x = 16 + (index % columns) * (tileWidth + 16)
            let y = 64 + (index / columns) * (tileHeight + 80)
            let own = difference(shot, x + inset, y + inset, picture, inset, inset, w, h)
            XCTAssertLessThan(own, 0.5, "tile \(index) (\(sources[index])) is its picture, at (\(x), \(y))")
            for (other, otherPicture) in pictures.enumerated() where other != index {
                // Thick and ultra-thick differ least (both under a 0.97 grey): 0.4 of a level on this photo.
                let pictures = difference(picture, inset, inset, otherPicture, inset, inset, w, h)
                XCTAssertGreaterThan(pictures, 0.2, "\(sources[index]) and \(sources[other]) are distinct")
                let elsewhere = difference(shot, x + inset, y + inset, otherPicture, inset, inset, w, h)
                XCTAssertGreaterThan(elsewhere, own, "tile \(index) shows \(sources[index]), not \(sources[other])")
            }
        }
        // The page's background around the tiles: nothing is drawn in the gaps.
        XCTAssertLessThan(
            difference(
                shot, 16 + tileWidth + 2, 70,
                Image(width: 8, height: 8, fill: Pixel(red: 242, green: 242, blue: 247, alpha: 255)), 0, 0, 8, 8), 2)
    }

    func testABatchIndexPageHasATilePerPhotoAndMarksFailures() throws {
        let source = directory + "photos"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        for index in 0..<3 {
            try Data(
                try ImageEncoder.encode(TestImages.photoLike(width: 64, height: 48, seed: UInt64(index + 1)), as: .jpeg)
            )
            .write(to: URL(fileURLWithPath: source + "/photo \(index).jpg"))
        }
        try Data("broken".utf8).write(to: URL(fileURLWithPath: source + "/broken.jpg"))
        let run = ToolRun.run(["batch", source, "-o", directory + "out", "-m", "thin", "--sheet"])
        XCTAssertEqual(run.status, ExitCode.dataError.rawValue)
        let html = try String(contentsOfFile: directory + "out/index.html", encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "<img ").count - 1, 3)
        XCTAssertTrue(html.contains("src=\"photo%200-thin.jpg\""), "paths are URLs")
        XCTAssertEqual(html.components(separatedBy: "class=\"screen failed\"").count - 1, 1)
        XCTAssertTrue(html.contains("broken.jpg"))
        let shot = try screenshot(directory + "out/index.html", width: 1200, height: 600)
        // The failed tile (first by name) is drawn red.
        let row = shot.row(64 + 200)
        let x = 16 + 90
        XCTAssertGreaterThan(Int(row[x * 4]), 200)
        XCTAssertLessThan(Int(row[x * 4 + 1]), 100)
    }
}

extension Array where Element == String {
    fileprivate func with(command: String) -> [String] { [command] + self }
}
