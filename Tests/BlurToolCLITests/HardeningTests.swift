import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import BlurToolCLI

/// Hostile arguments (issue 10): sizes past the pixel limit, numbers and colours in odd notations, user text
/// with control characters, long paths. Each run ends with one stderr line and a documented status.
final class HardeningTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-hardening-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func writePhoto(_ name: String = "photo.jpg", width: Int = 96, height: Int = 64) throws -> String {
        let format: ImageFormat = name.hasSuffix(".png") ? .png : .jpeg
        let bytes = try ImageEncoder.encode(TestImages.photoLike(width: width, height: height), as: format)
        try Data(bytes).write(to: URL(fileURLWithPath: directory + name))
        return directory + name
    }

    func testSizesPastThePixelLimitAreUsageErrorsBeforeAnyWork() throws {
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--sigma", "0", "--size", "60000x60000"]),
            "--size 60000x60000 is 3600000000 pixels, more than the limit of 100000000 (--max-pixels)")
        XCTAssertEqual(
            ToolRun.usageError(["in.jpg", "--size", "20000x20000", "--max-pixels", "1000000"]),
            "--size 20000x20000 is 400000000 pixels, more than the limit of 1000000 (--max-pixels)")
        // The limit given after --size counts too, and a run that breaks it writes nothing.
        let input = try writePhoto()
        let result = ToolRun.run([input, "--size", "2000x2000", "--max-pixels", "1000000", "-o", directory + "o.png"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.err.contains("more than the limit of 1000000 (--max-pixels)"), result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "o.png"))
    }

    /// A frame within a raised --max-pixels but past the memory the process may use is refused before it is
    /// allocated (the allocation would trap: exit 132), for --size, a decoded image and a scene's canvas.
    func testFramesPastTheAddressSpaceLimitAreRefusedBeforeAllocation() throws {
        let input = try writePhoto()
        let scene = directory + "scene.json"
        try #"{"canvas": {"width": 40000, "height": 40000}, "layers": []}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (
                [input, "--size", "45000x45000", "--max-pixels", "2100000000", "-o", directory + "o.png"],
                "--size 45000x45000"
            ),
            (["compose", scene, "--max-pixels", "2000000000", "-o", directory + "o.png"], "the canvas 40000x40000"),
        ]
        for (arguments, what) in cases {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            // 2 GiB of address space: the frames need 6 GiB and more.
            process.arguments =
                ["-c", "ulimit -v 2097152 && exec \"$0\" \"$@\"", try ToolProcess.executable().path]
                + arguments
            let err = Pipe()
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 73, message)
            XCTAssertTrue(message.contains("\(what) needs at least"), message)
            XCTAssertTrue(message.contains("more than the 2048 MiB this process may use"), message)
        }
    }

    func testAResizeAloneIsAWholeJobDecodedSmall() throws {
        let input = try writePhoto(width: 192, height: 128)
        let result = ToolRun.run([input, "--size", "48x32", "-f", "png", "-v"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, directory + "photo-48x32.png", "the default name says the size")
        XCTAssertTrue(result.err.contains("decode at 1/4"), "the DCT-scaled decode: \(result.err)")
        XCTAssertTrue(result.err.contains("no blur"), result.err)
        let image = try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: result.out)))).image
        XCTAssertEqual([image.width, image.height], [48, 32])
        // No blur: the resize of the quarter-size decode, nothing more.
        let decoded = try ImageDecoder.decode(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: input))), options: DecodeOptions(scaleDenominator: 4))
        let expected = Resampler().resize(decoded.image, width: 48, height: 32)
        XCTAssertLessThanOrEqual(ImageDifference(image, expected).maxError, 1)
    }

    func testATransformAloneIsAWholeJob() throws {
        let input = try writePhoto("photo.png")
        let result = ToolRun.run([input, "--transform", "translate(10,0)", "--filter", "nearest"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, directory + "photo-transformed.png")
        let image = try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: result.out)))).image
        let original = TestImages.photoLike(width: 96, height: 64)
        XCTAssertEqual(image[5, 20].alpha, 0, "uncovered columns are transparent")
        XCTAssertEqual(image[40, 20], original[30, 20], "moved 10 pixels right, no blur")
    }

    func testFullWidthDigitsAreNotColours() throws {
        XCTAssertNil(RGBAColor(css: "#ＦＦＦ"))
        XCTAssertNil(RGBAColor(css: "#１２３"))
        XCTAssertNil(RGBAColor(css: "ａｂｃ"))
        XCTAssertEqual(RGBAColor(css: "#AbC"), RGBAColor(red8: 0xAA, green8: 0xBB, blue8: 0xCC))
        for option in ["--tint", "--background"] {
            XCTAssertEqual(
                ToolRun.usageError(["in.jpg", "-m", "thin", option, "#ＦＦＦ"]),
                "\(option) expects #rgb, #rgba, #rrggbb or #rrggbbaa, not \"#ＦＦＦ\"")
        }
        let scene = directory + "scene.json"
        try ##"{"canvas": {"width": 4, "height": 4, "background": "#ＦＦＦ"}, "layers": []}"##
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let result = ToolRun.run(["compose", scene, "-o", directory + "out.png"])
        XCTAssertEqual(result.status, 65, result.err)
        XCTAssertTrue(result.err.contains("canvas.background"), result.err)
    }

    func testNumbersAreASCIIDecimalOnly() {
        let refused: [(String, String)] = [
            ("--sigma", "0x1p3"), ("--sigma", "nan"), ("--sigma", "inf"), ("--sigma", "-inf"), ("--sigma", "1e400"),
            ("--sigma", "５"), ("--sigma", " 5"), ("--sigma", "5 "), ("--sigma", "+5"), ("--sigma", "."),
            ("--sigma", "1e"), ("--sigma", "1e+"), ("--sigma", ""), ("--dim", "٠.٥"), ("--quality", "1e2"),
            ("--quality", "+5"), ("--quality", "0x10"), ("--quality", "９０"), ("--threads", "100000"),
            ("--threads", "0"), ("--max-pixels", "-1"), ("--max-pixels", "1e6"),
            ("--max-pixels", "99999999999999999999"), ("--png-compression", "-0"), ("--size", "1e9x1"),
            ("--size", "+10x10"), ("--size", "１０x１０"), ("--size", "10x"), ("--size", "x10"), ("--size", "10x10x10"),
            ("--size", "0x10"), ("--size", "65501x1"), ("--size", "99999999999999999999x1"),
        ]
        for (option, value) in refused {
            let message = ToolRun.usageError(["in.jpg", "-m", "thin", option, value])
            XCTAssertEqual(
                message?.hasSuffix("not \(value.quotedForMessage())"), true, "\(option) \(value): \(message ?? "nil")")
        }
        let accepted: [(String, String)] = [
            ("--sigma", ".5"), ("--sigma", "5."), ("--sigma", "2.5e1"), ("--sigma", "25E-1"), ("--dim", "-0"),
            ("--quality", "075"), ("--size", "10X20"),
        ]
        for (option, value) in accepted {
            XCTAssertNil(ToolRun.usageError(["in.jpg", "-m", "thin", option, value]), "\(option) \(value)")
        }
    }

    func testUserTextInMessagesIsQuotedEscapedAndCut() throws {
        let hostile = "a\nb\r\u{1B}[31m\u{7}\0z"
        let material = ToolRun.run(["in.jpg", "-m", hostile])
        XCTAssertEqual(material.status, 64)
        XCTAssertTrue(
            material.err.hasPrefix(#"blurtool: error: unknown material "a\nb\r\u{1B}[31m\u{7}\u{0}z"; known: "#),
            material.err)
        XCTAssertEqual(material.err.split(separator: "\n").count, 2, "the error and the usage line")
        let tint = ToolRun.run(["in.jpg", "-m", "thin", "--tint", "#fff\nEVIL"])
        XCTAssertTrue(tint.err.hasPrefix(#"blurtool: error: --tint expects "#), tint.err)
        XCTAssertEqual(tint.err.split(separator: "\n").count, 2)
        let huge = ToolRun.run(["in.jpg", "-m", String(repeating: "x", count: 4 << 20)])
        XCTAssertLessThan(huge.err.utf8.count, 1000, "a 4 MiB name gives a short line")
        XCTAssertTrue(huge.err.contains("(4194304 characters)"), String(huge.err.prefix(300)))
        let transform = ToolRun.run([
            "in.jpg", "--transform", "rotate(1)\n\u{1B}[2J" + String(repeating: "y", count: 1 << 20),
        ])
        XCTAssertEqual(transform.status, 64)
        let lines = transform.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "one error line, then the usage line")
        XCTAssertTrue(lines.last?.hasPrefix("Usage: blurtool") == true, transform.err)
        XCTAssertFalse(transform.err.contains("\u{1B}"))
        XCTAssertLessThan(transform.err.utf8.count, 1200)

        // Escaping makes each control character several bytes: the cut counts what is printed.
        let controls = ToolRun.run(["in.jpg", "--transform", String(repeating: "\u{1B}", count: 5000)])
        XCTAssertLessThan(controls.err.utf8.count, 1200, String(controls.err.prefix(200)))

        let path = directory + "no\nsuch\u{1B}.jpg"
        let missing = ToolRun.run([path, "-m", "thin"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.err, "blurtool: error: \(path.quotedForMessage(limit: 240)): No such file or directory")

        let scene = directory + "scene.json"
        try
            #"{"canvas": {"width": 4, "height": 4}, "layers": [{"type": "color", "color": "red", "blend": "x\ny\u001b"}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let blend = ToolRun.run(["compose", scene, "-o", directory + "out.png"])
        XCTAssertEqual(blend.status, 65, blend.err)
        XCTAssertEqual(blend.err.split(separator: "\n").count, 1, blend.err)
        XCTAssertFalse(blend.err.contains("\u{1B}"), blend.err)
    }

    func testPathsTooLongForTheSystemAreUnreadableInputsOrUncreatableOutputs() throws {
        let input = try writePhoto()
        let long = directory + String(repeating: "d/", count: 2100) + "x.jpg"
        XCTAssertEqual(ToolRun.run([long, "-m", "thin", "-o", directory + "o.jpg"]).status, 66)
        XCTAssertEqual(ToolRun.run([directory + String(repeating: "n", count: 300), "-m", "thin"]).status, 66)
        XCTAssertEqual(ToolRun.run([input, "-m", "thin", "-o", long]).status, 73)
        XCTAssertEqual(
            ToolRun.run([input, "-m", "thin", "-o", directory + String(repeating: "n", count: 300) + ".png"]).status, 73
        )
        // A name the system allows (255 bytes) is written, though the temporary file's name would be longer.
        let longest = String(repeating: "é", count: 125) + ".jpg"  // 254 bytes
        let result = ToolRun.run([input, "-m", "thin", "-o", directory + longest])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory)), [longest, "photo.jpg"])
    }

    /// An endless input of the wrong bytes is refused at its first 8 (it was read to the 1 GiB limit, 3 s and
    /// 1.6 GB); one that keeps going is refused one byte past the limit, holding no more than that.
    func testEndlessInputIsRefusedAtItsStartOrAtTheByteLimit() throws {
        let result = ToolRun.run(["/dev/zero", "-m", "thin", "-o", directory + "o.png"])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.err, "blurtool: error: \"/dev/zero\": not a JPEG or PNG image")
        XCTAssertThrowsError(try FileIO.read("/dev/zero", upTo: 1 << 20)) { error in
            XCTAssertEqual((error as? ToolFailure)?.reason, "larger than 1 MiB; not an image")
        }
        let input = try writePhoto()
        XCTAssertEqual(try FileIO.readImage(input).count, try FileIO.read(input).count)
    }
}
