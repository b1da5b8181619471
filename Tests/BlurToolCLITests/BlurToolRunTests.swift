import BlurToolCLI
import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// Whole runs of the tool, as a user or a script sees them: exit status, stdout, stderr and files.
final class BlurToolRunTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-tests-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        ToolRun.run(arguments)
    }

    private func writePhoto(
        _ name: String, width: Int = 96, height: Int = 64, format: ImageFormat = .jpeg
    ) throws -> String {
        let path = directory + name
        let bytes = try ImageEncoder.encode(TestImages.photoLike(width: width, height: height), as: format)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private func decodedSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let image = try ImageDecoder.decode(bytes).image
        return (image.width, image.height)
    }

    func testMaterialWritesBesideTheInputAndPrintsThePath() throws {
        let input = try writePhoto("photo.jpg")
        let result = run([input, "--material", "thin"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, directory + "photo-thin.jpg")
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(try decodedSize(directory + "photo-thin.jpg").0, 96)
        XCTAssertEqual(files(), ["photo-thin.jpg", "photo.jpg"], "no temporary file is left")
    }

    /// Figures from a `-target-cpu` build and a default one differ several-fold, so a verbose run says which
    /// kernels ran and what they were compiled for.
    func testVerboseNamesTheKernelsAndTheBuild() throws {
        let input = try writePhoto("photo.jpg")
        let result = run([input, "--material", "thin", "-o", directory + "out.png", "--verbose"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("\(Kernels.name) kernels, build \(Kernels.build), "), result.err)
        XCTAssertTrue(Kernels.build.contains("-target-cpu") || Kernels.build.hasPrefix("default"), Kernels.build)
    }

    /// A forced kernel set that cannot run is refused before any work (EX_CONFIG), not swapped for another:
    /// a check against the twins or a timing would otherwise measure other kernels than it asked for.
    func testKernelsTheEnvironmentCannotHaveStopTheRun() throws {
        let input = try writePhoto("photo.jpg")
        let output = directory + "out.png"
        let unknown = try ToolProcess.run(
            [input, "--sigma", "2", "-o", output], environment: ["BLURTOOL_KERNELS": "sse9"])
        XCTAssertEqual(unknown.status, 78)
        XCTAssertEqual(
            unknown.err,
            "blurtool: error: BLURTOOL_KERNELS=sse9 names no kernel set (reference, swift, baseline, avx2, avx512)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let forced = try ToolProcess.run(
            [input, "--sigma", "2", "-o", output, "--verbose"], environment: ["BLURTOOL_KERNELS": "reference"])
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertTrue(forced.err.contains("scalar reference kernels"), forced.err)
    }

    func testEveryMaterialInBothAppearancesRenders() throws {
        let input = try writePhoto("photo.png", width: 40, height: 30, format: .png)
        for name in MaterialCatalog.knownNames {
            for appearance in ["light", "dark"] {
                let output = directory + "out-\(name)-\(appearance).png"
                let result = run([input, "-m", name, "-a", appearance, "--dim", "0.2", "-o", output])
                XCTAssertEqual(result.status, 0, "\(name) \(appearance): \(result.err)")
                XCTAssertEqual(try decodedSize(output).1, 30)
            }
        }
    }

    func testOutputFormatFollowsTheOutputNameOrTheFormatOption() throws {
        let input = try writePhoto("photo.jpg")
        XCTAssertEqual(run([input, "--sigma", "2", "-o", directory + "a.png"]).status, 0)
        XCTAssertEqual(ImageFormat(sniffing: try Data(contentsOf: URL(fileURLWithPath: directory + "a.png"))), .png)
        let unnamed = run([input, "--sigma", "2", "-o", directory + "b.out"])
        XCTAssertEqual(unnamed.status, 64)
        XCTAssertTrue(unnamed.err.contains("cannot tell the output format"), unnamed.err)
        XCTAssertEqual(run([input, "--sigma", "2", "-f", "jpeg", "-o", directory + "b.out"]).status, 0)
    }

    func testMissingInputExits66WithOneLine() {
        let result = run([directory + "nothing.jpg", "-m", "thin"])
        XCTAssertEqual(result.status, 66)
        XCTAssertEqual(result.err, "blurtool: error: \"\(directory)nothing.jpg\": No such file or directory")
    }

    func testBadDataExits65AndLeavesNoOutput() throws {
        let path = directory + "notes.jpg"
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: path))
        let result = run([path, "-m", "thin", "-o", directory + "out.png"])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.err, "blurtool: error: \"\(path)\": not a JPEG or PNG image")
        XCTAssertEqual(files(), ["notes.jpg"])
    }

    func testTruncatedInputFailsUnlessLenient() throws {
        let input = try writePhoto("photo.jpg", width: 160, height: 120)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
        let cut = directory + "cut.jpg"
        try Data(bytes.prefix(bytes.count * 6 / 10)).write(to: URL(fileURLWithPath: cut))
        let strict = run([cut, "-m", "thin", "-o", directory + "strict.png"])
        XCTAssertEqual(strict.status, 65)
        XCTAssertTrue(strict.err.contains("corrupt or truncated"), strict.err)
        XCTAssertFalse(files().contains("strict.png"))
        let lenient = run([cut, "-m", "thin", "--lenient", "-o", directory + "lenient.png"])
        XCTAssertEqual(lenient.status, 0, lenient.err)
        XCTAssertTrue(lenient.err.hasPrefix("blurtool: warning: \"\(cut)\": "), lenient.err)
        XCTAssertEqual(lenient.err.split(separator: "\n").count, 1)
    }

    func testPixelLimitIsAnError() throws {
        let input = try writePhoto("photo.jpg")
        let result = run([input, "-m", "thin", "--max-pixels", "1000", "-o", directory + "out.png"])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.err.hasSuffix("96x64 is 6144 pixels, more than the limit of 1000"), result.err)
    }

    func testTheInputIsNeverOverwritten() throws {
        let input = try writePhoto("photo.png", format: .png)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = run([input, "-m", "thin", "-o", input])
        XCTAssertEqual(result.status, 73)
        XCTAssertTrue(result.err.contains("is the input file"), result.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: input)), before)
    }

    func testUnwritableOutputExits73() throws {
        let input = try writePhoto("photo.jpg")
        let result = run([input, "-m", "thin", "-o", directory + "no/such/dir/out.png"])
        XCTAssertEqual(result.status, 73)
        XCTAssertTrue(result.err.hasPrefix("blurtool: error: \"\(directory)no/such/dir/out.png\": "), result.err)
    }

    func testSeveralInputsGoOnPastAFailureAndReportIt() throws {
        let first = try writePhoto("a.jpg")
        let second = try writePhoto("b.png", format: .png)
        try FileManager.default.createDirectory(atPath: directory + "out", withIntermediateDirectories: false)
        let result = run([first, directory + "missing.jpg", second, "-m", "regular", "-o", directory + "out"])
        XCTAssertEqual(result.status, 66)
        XCTAssertEqual(
            result.out.split(separator: "\n"), ["\(directory)out/a-regular.jpg", "\(directory)out/b-regular.png"])
        XCTAssertEqual(result.err.split(separator: "\n").count, 1)
    }

    func testUsageErrorsExit64AndPointToHelp() {
        let result = run(["photo.jpg", "--material", "frosted"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.err.hasPrefix("blurtool: error: unknown material \"frosted\""), result.err)
        XCTAssertTrue(result.err.contains("--help"))
    }

    func testHelpHasTheUsualSectionsAndVersionPrints() {
        let help = run(["--help"])
        XCTAssertEqual(help.status, 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "EXAMPLES:", "EXIT STATUS:"] {
            XCTAssertTrue(help.out.contains(section), section)
        }
        let version = run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.out.hasPrefix("blurtool "))
    }

    func testMaterialsListsEveryMaterialWithItsSources() {
        let result = run(["materials"])
        XCTAssertEqual(result.status, 0)
        for material in MaterialCatalog.all {
            XCTAssertTrue(result.out.contains("\(material.name)"), material.name)
        }
        XCTAssertTrue(result.out.contains("chrisbanes/haze"))
        XCTAssertTrue(result.out.contains("blur 25 pt"))
    }

    func testInfoDescribesAnImageWithoutDecodingIt() throws {
        let input = try writePhoto("photo.jpg")
        let result = run(["info", input])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.out.contains("format:      JPEG"), result.out)
        XCTAssertTrue(result.out.contains("size:        96x64 upright (stored 96x64)"), result.out)
        XCTAssertEqual(run(["info", directory + "none.png"]).status, 66)
    }

    func testVerboseReportsTheRouteAndStageTimes() throws {
        let input = try writePhoto("photo.jpg")
        let result = run([input, "-m", "thin", "-v", "-o", directory + "out.jpg"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.err.contains("96x64, σ"), result.err)
        XCTAssertTrue(result.err.contains("decode"), result.err)
    }

    func testBlurOnlyMatchesTheLibraryBlur() throws {
        let input = try writePhoto("photo.png", format: .png)
        XCTAssertEqual(run([input, "--sigma", "3", "--edge", "wrap", "-o", directory + "out.png"]).status, 0)
        let output = try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "out.png"))))
        let original = try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))).image
        let expected = GaussianBlur(sigma: 3, edgeMode: .wrap).apply(to: original)
        XCTAssertLessThanOrEqual(ImageDifference(output.image, expected).maxError, 1)
    }
}
