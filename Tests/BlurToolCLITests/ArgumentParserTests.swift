import BlurToolCLI
import Compositor
import ImageCodecs
import XCTest

final class ArgumentParserTests: XCTestCase {
    private func request(_ arguments: [String]) throws -> RenderRequest {
        guard case .render(let requests) = try ArgumentParser.parse(arguments), requests.count == 1 else {
            throw UsageError("expected one render request")
        }
        return requests[0]
    }

    func testEveryOptionFormGivesTheSameRequest() throws {
        let forms: [[String]] = [
            ["in.jpg", "--material", "thin", "--output", "out.png"],
            ["in.jpg", "--material=thin", "--output=out.png"],
            ["-m", "thin", "in.jpg", "-o", "out.png"],
            ["in.jpg", "-mthin", "-oout.png"],
        ]
        for form in forms {
            let parsed = try request(form)
            XCTAssertEqual(parsed.input, "in.jpg", "\(form)")
            XCTAssertEqual(parsed.materialName, "thin", "\(form)")
            XCTAssertEqual(parsed.output, "out.png", "\(form)")
        }
    }

    func testDoubleDashEndsOptionsSoAFileMayStartWithADash() throws {
        let parsed = try request(["--sigma", "3", "--", "-odd.jpg"])
        XCTAssertEqual(parsed.input, "-odd.jpg")
        XCTAssertEqual(parsed.sigma, 3)
    }

    func testDashMeansStandardInputAndOutput() throws {
        let parsed = try request(["-", "-m", "thin", "-o", "-", "--format", "png"])
        XCTAssertEqual(parsed.input, "-")
        XCTAssertEqual(parsed.output, "-")
        XCTAssertEqual(parsed.format, .png)
    }

    func testAllRenderingOptions() throws {
        let parsed = try request([
            "in.jpg", "-m", "ultra-thin", "-a", "dark", "--dim", "0.6", "--sigma", "12.5", "--saturation", "1.4",
            "--tint", "#ffffff80", "--grain", "0.1", "--pixels-per-point", "3", "--edge", "clamp",
            "--precision", "exact", "-f", "jpeg", "-q", "75", "--chroma", "444", "--progressive", "--optimize",
            "--png-compression", "6", "--no-auto-orient", "--lenient", "--max-pixels", "5000", "-v",
        ])
        XCTAssertEqual(parsed.appearance, .dark)
        XCTAssertEqual(parsed.dim, 0.6)
        XCTAssertEqual(parsed.sigma, 12.5)
        XCTAssertEqual(parsed.saturation, 1.4)
        XCTAssertEqual(parsed.tint, RGBAColor(red8: 255, green8: 255, blue8: 255, alpha: 128.0 / 255))
        XCTAssertEqual(parsed.grain, 0.1)
        XCTAssertEqual(parsed.pixelsPerPoint, 3)
        XCTAssertEqual(parsed.edgeMode, .clamp)
        XCTAssertEqual(parsed.precision, .exact)
        XCTAssertEqual(parsed.format, .jpeg)
        XCTAssertEqual(parsed.quality, 75)
        XCTAssertEqual(parsed.chromaSubsampling, .yuv444)
        XCTAssertTrue(parsed.isProgressive && parsed.optimizesHuffmanTables && parsed.isLenient && parsed.isVerbose)
        XCTAssertFalse(parsed.appliesOrientation)
        XCTAssertEqual(parsed.pngCompressionLevel, 6)
        XCTAssertEqual(parsed.maxPixels, 5000)
    }

    func testFrameOptions() throws {
        let parsed = try request([
            "in.jpg", "-m", "thin", "--size", "1170x2532", "--fit", "fit", "--filter", "mitchell",
            "--background", "#000",
        ])
        XCTAssertEqual(parsed.size, FrameSize(width: 1170, height: 2532))
        XCTAssertEqual(parsed.fit, .fit)
        XCTAssertEqual(parsed.filter, .mitchell)
        XCTAssertEqual(parsed.background, .black)
        XCTAssertEqual(try request(["in.jpg", "-m", "thin"]).fit, .fill, "aspect fill by default, as .scaledToFill()")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "-m", "thin", "--size", "1170*2532"]),
            "--size expects WIDTHxHEIGHT in pixels, 1 to 65500 each, not \"1170*2532\"")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "-m", "thin", "--size", "0x10"]),
            "--size expects WIDTHxHEIGHT in pixels, 1 to 65500 each, not \"0x10\"")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "-m", "thin", "--fit", "cover"]),
            "--fit must be fill, fit or stretch, not \"cover\"")
        XCTAssertEqual(
            try request(["in.jpg", "-m", "thin", "--transform", "translate(600,0) scale(5) rotate(30deg)"]).transform,
            AffineTransform2D(translationX: 600, y: 0).scaledBy(x: 5, y: 5).rotatedBy(.pi / 6))
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "-m", "thin", "--transform", "spin(3)"])?.hasPrefix("--transform: unknown"),
            true)
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "-m", "thin", "--filter", "box"]),
            "--filter must be one of nearest, bilinear, catmull-rom, mitchell, lanczos3, not \"box\"")
    }

    func testSubcommandsHelpAndVersion() throws {
        XCTAssertEqual(try ArgumentParser.parse(["materials"]), .listMaterials)
        XCTAssertEqual(try ArgumentParser.parse(["info", "a.jpg", "b.png"]), .info(paths: ["a.jpg", "b.png"]))
        XCTAssertEqual(try ArgumentParser.parse(["in.jpg", "-m", "thin", "--help"]), .help)
        XCTAssertEqual(try ArgumentParser.parse(["-h"]), .help)
        XCTAssertEqual(try ArgumentParser.parse(["--version"]), .version)
    }

    func testSeveralInputsShareOptionsAndAnOutputDirectory() throws {
        guard case .render(let requests) = try ArgumentParser.parse(["a.jpg", "b.png", "-m", "thin", "-o", "out"])
        else { return XCTFail("expected render") }
        XCTAssertEqual(requests.map(\.input), ["a.jpg", "b.png"])
        XCTAssertEqual(requests.map(\.output), ["out/", "out/"])
        XCTAssertEqual(requests.map(\.materialName), ["thin", "thin"])
    }

    func testMistakesAreUsageErrorsThatSayWhatIsWrong() {
        XCTAssertEqual(ToolRun.usageError([]), "no INPUT given")
        // Options that would change nothing are refused, not ignored.
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--size", "10x10", "--edge", "clamp"]),
            "--edge applies to a blur; give --material NAME or --sigma S")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--sigma", "3", "--pixels-per-point", "2"]),
            "--pixels-per-point applies to a material; give --material NAME")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--transform", "rotate(3deg)", "-a", "dark"]),
            "--appearance applies to a material; give --material NAME")
        XCTAssertNil(ToolRun.usageError(["in.jpg", "--sigma", "3", "--edge", "clamp", "--precision", "exact"]))
        XCTAssertNil(ToolRun.usageError(["in.jpg", "-m", "thin", "-a", "dark", "--pixels-per-point", "3"]))
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg"]), "give --material NAME, --sigma S, --size WxH or --transform"
        )
        XCTAssertEqual(ToolRun.usageError(["in.jpg", "--frobnicate"]), "unknown option \"--frobnicate\"")
        XCTAssertEqual(ToolRun.usageError(["in.jpg", "--material"]), "option '--material' needs a value")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--progressive=yes", "-m", "thin"]), "option '--progressive' takes no value")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--dim", "1.5", "-m", "thin"]),
            "--dim expects a number from 0 to 1, not \"1.5\"")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--quality", "9.5", "-m", "thin"]),
            "--quality expects a whole number from 1 to 100, not \"9.5\"")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--sigma", "nan"]), "--sigma expects a number from 0 to 10000, not \"nan\"")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--sigma", "2", "--edge", "reflect"]),
            "--edge must be one of mirror, clamp, wrap, transparent, not \"reflect\"")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "-m", "thin", "--tint", "blueish"]),
            "--tint expects #rgb, #rgba, #rrggbb or #rrggbbaa, not \"blueish\"")
        XCTAssertEqual(
            ToolRun.usageError(["a.jpg", "-", "-m", "thin"]), "'-' (standard input) cannot be one of several INPUTs")
        XCTAssertEqual(ToolRun.usageError(["materials", "extra"]), "'materials' takes no arguments")
        XCTAssertEqual(ToolRun.usageError(["info"]), "'info' needs at least one INPUT")
    }

    func testUnknownMaterialListsTheKnownOnes() {
        let message = ToolRun.usageError(["in.jpg", "-m", "frosted"]) ?? ""
        XCTAssertTrue(message.hasPrefix("unknown material \"frosted\"; known: "), message)
        for name in ["ultraThin", "thin", "regular", "thick", "ultraThick", "bar", "systemThinMaterial"] {
            XCTAssertTrue(message.contains(name), "\(name) missing from: \(message)")
        }
    }
}
