import Compositor
import Foundation
import ImageCodecs
import Motion
import XCTest

@testable import BlurToolCLI

/// `blurtool curve`: the samples it prints, the plot it draws, and its usage errors.
final class CurveCommandTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-curve-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func lines(_ arguments: [String], line: UInt = #line) -> [(Double, Double)] {
        let result = ToolRun.run(["curve"] + arguments)
        XCTAssertEqual(result.status, 0, result.err, line: line)
        XCTAssertEqual(result.err, "", line: line)
        return result.out.split(separator: "\n").map { text in
            let parts = text.split(separator: ",")
            XCTAssertEqual(parts.count, 2, String(text), line: line)
            return (Double(parts[0]) ?? .nan, Double(parts.last!) ?? .nan)
        }
    }

    func testElevenSamplesOverASecondByDefault() {
        let samples = lines(["easeInOut"])
        XCTAssertEqual(samples.count, 11)
        XCTAssertEqual(samples.map(\.0), (0...10).map { Double($0) / 10 })
        XCTAssertEqual(samples.first?.1, 0)
        XCTAssertEqual(samples.last?.1, 1)
        XCTAssertEqual(samples[5].1, 0.5, accuracy: 1e-7)  // ease-in-out is symmetric
        XCTAssertEqual(ToolRun.run(["curve", "linear", "--samples", "3"]).out, "0,0\n0.5,0.5\n1,1")
    }

    func testSpringsRunOverTheirOwnDuration() {
        let uiKit = lines(["spring(damping: 0.2, velocity: 0.3, duration: 0.8)", "--samples", "5"])
        XCTAssertEqual(uiKit.map(\.0), [0, 0.2, 0.4, 0.6, 0.8])
        XCTAssertEqual(uiKit.last?.1, 1)
        XCTAssertGreaterThan(uiKit[1].1, 1)  // overshooting at 0.2 s
        let physical = lines(["spring(mass: 1, stiffness: 100, damping: 10, velocity: 0)", "--samples=2"])
        XCTAssertEqual(physical.last?.0 ?? 0, Spring().settlingDuration(), accuracy: 1e-12)
        XCTAssertEqual(physical.last?.1, 1)
        // A duration that is not a multiple of the step still prints whole times, taken where printed.
        let odd = lines(["spring(damping: 0.5, duration: 0.8)", "--samples", "11"])
        XCTAssertEqual(odd[3].0, 0.24)
        let curve = try! TimingCurve(parsing: "spring(damping: 0.5, duration: 0.8)")
        XCTAssertEqual(odd[3].1, curve.progress(atTime: 0.24, duration: 0.8))
    }

    func testBadSpecsAndOptionsAreUsageErrors() {
        let bad = ToolRun.run(["curve", "cubic-bezier(1.5, 0, 1, 1)"])
        XCTAssertEqual(bad.status, 64)
        let errorLines = bad.err.split(separator: "\n")
        XCTAssertEqual(errorLines.count, 2, "one error line, then the usage line")
        XCTAssertEqual(errorLines.first, "blurtool: error: curve: cubic-bezier(): x1 must be between 0 and 1, got 1.5")
        let unknown = ToolRun.run(["curve", "wobbly\u{1B}[31m"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("unknown timing curve \"wobbly\\u{1B}[31m\""), unknown.err)
        let cases: [([String], String)] = [
            (["curve"], "exactly one SPEC"), (["curve", "linear", "ease"], "exactly one SPEC"),
            (["curve", "linear", "--samples", "1"], "--samples expects a whole number from 2 to 100000"),
            (["curve", "linear", "--samples", "1e3"], "--samples expects a whole number"),
            (["curve", "linear", "--samples", "100001"], "--samples"),
            (["curve", "linear", "--format", "gif", "-o", "x"], "must be csv or png"),
            (["curve", "linear", "--format", "png"], "needs -o OUT"),
            (["curve", "linear", "--sigma", "3"], "'--sigma' does not apply to 'curve'"),
        ]
        for (arguments, expected) in cases {
            let message = ToolRun.usageError(arguments)
            XCTAssertTrue(message?.contains(expected) == true, "\(arguments): \(message ?? "parsed")")
        }
    }

    func testParsedRequest() throws {
        var expected = CurveRequest(curve: .easeOut)
        expected.samples = 30
        expected.format = .png
        expected.output = "plot.png"
        XCTAssertEqual(
            try ArgumentParser.parse(["curve", "ease-out", "--samples", "30", "-o", "plot.png"]),
            .curve(expected))
        expected.format = .csv
        XCTAssertEqual(
            try ArgumentParser.parse([
                "curve", "ease-out", "--samples", "30", "-o", "plot.png",
                "--format", "csv",
            ]), .curve(expected))
    }

    func testCSVFileEndsWithANewline() throws {
        let path = directory + "curve.csv"
        let result = ToolRun.run(["curve", "step-end", "--samples", "2", "-o", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "0,0\n1,1\n")
    }

    func testPlotDrawsTheCurveOnItsGrid() throws {
        let path = directory + "linear.png"
        let result = ToolRun.run(["curve", "linear", "-o", path])
        XCTAssertEqual(result.status, 0, result.err)
        let image = try ImageDecoder.decode(try FileIO.read(path)).image
        XCTAssertEqual([image.width, image.height], [480, 320])
        XCTAssertEqual(image[2, 2], Pixel(red: 255, green: 255, blue: 255))
        // The value axis spans −0.05…1.05 over 272 px from y = 24: value 0.5 at t = 0.5 s is the pixel (240, 160).
        let middle = image[240, 160]
        XCTAssertLessThan(middle.red, 40, "\(middle)")
        XCTAssertGreaterThan(middle.blue, 200, "\(middle)")
        // The diagonal passes nowhere near (240, 80), which stays background or grid.
        XCTAssertGreaterThan(image[240 + 3, 80].red, 200)
        // The 0 level is a grey line at y = 24 + 1.05/1.1 × 272.
        let zeroLevel = image[400, Int((24 + 1.05 / 1.1 * 272).rounded(.down))]
        XCTAssertEqual(Int(zeroLevel.red), 0x8E, accuracy: 8, "\(zeroLevel)")
        XCTAssertEqual(Int(zeroLevel.blue), 0x93, accuracy: 8, "\(zeroLevel)")
    }

    func testPlotGoesToStandardOutputWhenAsked() throws {
        let piped = try ToolProcess.run(["curve", "bouncy", "--format", "png", "-o", "-"])
        XCTAssertEqual(piped.status, 0, piped.err)
        XCTAssertEqual(Array(piped.out.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(Array(piped.out.suffix(8)), [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82], "IEND last")
    }
}
