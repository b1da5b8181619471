import Compositor
import Foundation
import ImageCodecs
import OracleSupport
import Scenes
import TestSupport
import XCTest

@testable import BlurToolCLI

/// `blurtool transition FROM TO`: the ends are the two photos as `--size` places them, the frame count and every
/// output kind are animate's, mistakes are one line with the documented status, and (with ffmpeg installed) the
/// frames match ffmpeg's xfade.
final class TransitionCommandTests: XCTestCase {
    private var directory = ""
    private var from = ""
    private var to = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-transition-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Different sizes and aspects: each is filled to the output on its own.
        from = directory + "from.png"
        to = directory + "to.png"
        try Data(try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40, seed: 1), as: .png))
            .write(to: URL(fileURLWithPath: from))
        try Data(try ImageEncoder.encode(TestImages.photoLike(width: 30, height: 50, seed: 7), as: .png))
            .write(to: URL(fileURLWithPath: to))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    private func image(_ path: String) throws -> Image { try ImageDecoder.decode(try FileIO.read(path)).image }

    /// `photo` as `blurtool PHOTO --size WxH` writes it: the aspect fill the transition starts and ends with.
    private func filled(_ photo: String, _ size: String, name: String) throws -> String {
        let path = directory + name
        let result = ToolRun.run([photo, "--size", size, "-o", path])
        XCTAssertEqual(result.status, 0, result.err)
        return path
    }

    /// 1 s at 10 fps: 11 frames (the end included), the first FROM filled, the last TO filled, in between neither.
    func testTheEndsAreTheFilledPhotos() throws {
        let output = directory + "out.png"
        let result = ToolRun.run(
            ["transition", from, to, "--style", "fade", "--size", "32x24", "--fps", "10", "-o", output])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "", "a named output is not printed")
        let animation = try AnimatedPNGDecoder.decode(try FileIO.read(output), maxPixels: 1 << 20)
        XCTAssertEqual(animation.frames.count, 11)
        for delay in animation.delays { XCTAssertEqual(delay, 0.1, accuracy: 1e-9) }
        let first = try image(try filled(from, "32x24", name: "from-filled.png"))
        let last = try image(try filled(to, "32x24", name: "to-filled.png"))
        XCTAssertTrue(animation.frames[0].hasSamePixels(as: first))
        XCTAssertTrue(animation.frames[10].hasSamePixels(as: last))
        // Half way, a linear fade is the two photos' average, channel by channel (rounded: one level apart at most).
        for y in 0..<24 {
            for x in 0..<32 {
                let (got, a, b) = (animation.frames[5][x, y], first[x, y], last[x, y])
                for (value, one, other) in [(got.red, a.red, b.red), (got.green, a.green, b.green), (got.blue, a.blue, b.blue)] {
                    XCTAssertEqual(Double(value), (Double(one) + Double(other)) / 2, accuracy: 1, "(\(x), \(y))")
                }
            }
        }
        XCTAssertTrue(animation.frames.allSatisfy(\.isOpaque))
    }

    /// The page curls: frame 5 of 10 is the library's curl of the filled photos at progress 0.5, FROM's page half
    /// rolled off TO.
    func testCurlStylesAreTheLibrarysCurls() throws {
        let first = try image(try filled(from, "32x24", name: "from-filled.png"))
        let last = try image(try filled(to, "32x24", name: "to-filled.png"))
        for style in ["curlup", "curldown"] {
            let output = directory + "\(style).png"
            let result = ToolRun.run(
                ["transition", from, to, "--style", style, "--size", "32x24", "--fps", "10", "-o", output])
            XCTAssertEqual(result.status, 0, result.err)
            let animation = try AnimatedPNGDecoder.decode(try FileIO.read(output), maxPixels: 1 << 20)
            let expected = PhotoTransition(style: PhotoTransition.Style(rawValue: style)!).frame(
                from: first, to: last, progress: 0.5)
            XCTAssertTrue(animation.frames[5].hasSamePixels(as: expected), style)
            XCTAssertTrue(animation.frames[10].hasSamePixels(as: last), style)
        }
    }

    /// Without --size the frames are FROM's size; the count is animate's (the first frame at or after the end),
    /// 61 for the default 1 s at 60 fps.
    func testSizeAndFrameCount() throws {
        let output = directory + "out.apng"
        XCTAssertEqual(ToolRun.run(["transition", from, to, "--style", "wipeleft", "-o", output]).status, 0)
        let animation = try AnimatedPNGDecoder.decode(try FileIO.read(output), maxPixels: 1 << 20)
        XCTAssertEqual(animation.frames.count, 61)
        XCTAssertEqual(animation.frames[0].width, 60)
        XCTAssertEqual(animation.frames[0].height, 40)
        XCTAssertTrue(animation.frames[60].hasSamePixels(as: try image(try filled(to, "60x40", name: "t.png"))))
        let short = ToolRun.run(
            ["transition", from, to, "--style", "fade", "--duration", "0.45", "--fps", "20", "--benchmark"])
        XCTAssertEqual(short.status, 0, short.err)
        XCTAssertTrue(short.out.hasPrefix("render-only: 10 frames in "), short.out)
        XCTAssertTrue(short.out.contains(" ms per frame), 60x40, fade, "), short.out)
    }

    /// FROM's EXIF orientation (6: turned a quarter) decides the default size, and it is filled upright.
    func testTheDefaultSizeIsFromUpright() throws {
        // The TIFF block of one IFD entry, Orientation (0x0112) = 6, as a PNG eXIf chunk after IHDR.
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
            + [0, 0, 0, 0]
        let png = try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40, seed: 1), as: .png)
        let chunk = Array("eXIf".utf8) + tiff
        var length = UInt32(tiff.count).bigEndian
        var crc = Self.crc32(chunk).bigEndian
        let oriented = directory + "oriented.png"
        try Data(
            png[..<33] + withUnsafeBytes(of: &length, Array.init) + chunk + withUnsafeBytes(of: &crc, Array.init)
                + png[33...]
        ).write(to: URL(fileURLWithPath: oriented))
        let output = directory + "turned.png"
        let result = ToolRun.run(["transition", oriented, to, "--style", "fade", "--fps", "2", "-o", output])
        XCTAssertEqual(result.status, 0, result.err)
        let animation = try AnimatedPNGDecoder.decode(try FileIO.read(output), maxPixels: 1 << 20)
        XCTAssertEqual(animation.frames[0].width, 40)
        XCTAssertEqual(animation.frames[0].height, 60)
        XCTAssertTrue(animation.frames[0].hasSamePixels(as: try image(try filled(oriented, "40x60", name: "u.png"))))
    }

    /// PNG's chunk CRC (ISO 3309, reflected, polynomial 0xEDB88320).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The curve reaches the transition: `steps(1, jump-end)` holds FROM until the end.
    func testTheCurveShapesProgress() throws {
        let output = directory + "frames/"
        let result = ToolRun.run(
            ["transition", from, to, "--style", "fade", "--fps", "4", "--curve", "steps(1, jump-end)", "-o", output])
        XCTAssertEqual(result.status, 0, result.err)
        let frames = try (0..<5).map { try image(output + "frame-000\($0).png") }
        for index in 1..<4 { XCTAssertTrue(frames[index].hasSamePixels(as: frames[0]), "frame \(index)") }
        XCTAssertFalse(frames[4].hasSamePixels(as: frames[0]))
    }

    /// Numbered PNGs equal the animated PNG's frames; WebP and y4m are animate's files.
    func testEveryOutputKind() throws {
        let arguments = ["transition", from, to, "--style", "circleopen", "--fps", "10", "--duration", "0.2"]
        XCTAssertEqual(ToolRun.run(arguments + ["-o", directory + "frames/"]).status, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory + "frames").sorted(),
            ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
        XCTAssertEqual(ToolRun.run(arguments + ["-o", directory + "a.png"]).status, 0)
        let animation = try AnimatedPNGDecoder.decode(try FileIO.read(directory + "a.png"), maxPixels: 1 << 20)
        for index in 0..<3 {
            XCTAssertTrue(
                try image(directory + "frames/frame-000\(index).png").hasSamePixels(as: animation.frames[index]))
        }
        // WebP read back by libwebp's own decoder: lossless is the APNG's frames exactly, lossy close to them,
        // with the loop count and 100 ms a frame.
        for extra in [[], ["--lossy", "-q", "60", "--loop", "2"]] {
            let webp = ToolRun.run(arguments + extra + ["-o", directory + "a.webp"])
            XCTAssertEqual(webp.status, 0, webp.err)
            let decoded = try XCTUnwrap(WebPAnimationReader(try FileIO.read(directory + "a.webp")))
            XCTAssertEqual(decoded.frames.count, 3)
            XCTAssertEqual(decoded.endTimestamps, [100, 200, 300])
            XCTAssertEqual(decoded.loopCount, extra.isEmpty ? 0 : 2)
            for (index, frame) in decoded.frames.enumerated() {
                if extra.isEmpty {
                    XCTAssertTrue(frame.hasSamePixels(as: animation.frames[index]), "frame \(index)")
                } else {
                    XCTAssertGreaterThan(ImageDifference(frame, animation.frames[index]).psnr, 25, "frame \(index)")
                }
            }
        }
        XCTAssertEqual(ToolRun.run(arguments + ["-o", directory + "a.y4m"]).status, 0)
        let video = try FileIO.read(directory + "a.y4m")
        let header = String(decoding: video.prefix(while: { $0 != 0x0A }), as: UTF8.self)
        XCTAssertTrue(header.hasPrefix("YUV4MPEG2 W60 H40 F10:1"), header)
        XCTAssertEqual(video.count, header.utf8.count + 1 + 3 * (6 + 60 * 40 * 3 / 2))
        // The default name: FROM's stem and the style, beside FROM, printed.
        let named = ToolRun.run(["transition", from, to, "--style", "fade", "--fps", "2"])
        XCTAssertEqual(named.status, 0, named.err)
        XCTAssertEqual(named.out, directory + "from-fade.png")
    }

    /// The thread count changes no byte of the file (the material style's blur included).
    func testThreadCountDoesNotChangeTheFile() throws {
        for threads in ["1", "3"] {
            let result = ToolRun.run(
                ["transition", from, to, "--style", "material", "--fps", "10", "-j", threads, "-o",
                 directory + "t\(threads).png"])
            XCTAssertEqual(result.status, 0, result.err)
        }
        XCTAssertEqual(try FileIO.read(directory + "t1.png"), try FileIO.read(directory + "t3.png"))
    }

    /// Ctrl-C while the frames are drawn: the output's temporary file goes, nothing else is left.
    func testAnInterruptLeavesNoOutput() throws {
        let output = directory + "long.png"
        let (process, out, err) = try ToolProcess.start(
            ["transition", from, to, "--style", "fade", "--size", "800x600", "--duration", "30", "-o", output])
        let temporary = ".long.png.blurtool-\(process.processIdentifier).tmp"
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, !(try files()).contains(temporary), Date() < deadline { usleep(2000) }
        XCTAssertTrue(try files().contains(temporary), "the temporary file was seen")
        usleep(200_000)
        XCTAssertTrue(process.isRunning, "still drawing")
        kill(process.processIdentifier, SIGINT)
        let result = ToolProcess.finish(process, out, err)
        XCTAssertTrue(result.wasSignalled, "status \(result.status): \(result.err)")
        XCTAssertEqual(try files(), ["from.png", "to.png"])
    }

    func testMistakesAreOneLineWithTheirStatus() throws {
        let output = directory + "x.png"
        let text = directory + "text.png"
        try "not an image".write(toFile: text, atomically: true, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["transition", from, to, "--style", "spin", "-o", output], 64, "unknown style \"spin\"; known: fade, "),
            (["transition", from, to, "-o", output], 64, "'transition' needs --style NAME; known: fade"),
            (["transition", from, "--style", "fade", "-o", output], 64, "needs two images: FROM and TO"),
            (["transition", from, to, "--style", "fade", "--curve", "bounce", "-o", output], 64, "--curve: "),
            (["transition", from, to, "--style", "fade", "--duration", "0", "-o", output], 64, "must be above 0"),
            (["transition", from, to, "--style", "fade", "--at", "0.5", "-o", output], 64, "'--at' does not apply"),
            (["transition", from, to, "--style", "fade", "--sigma", "3"], 64, "'--sigma' does not apply to 'transi"),
            (["transition", from, to, "--style", "fade", "--size", "0x4"], 64, "--size expects WIDTHxHEIGHT"),
            (["transition", from, to, "--style", "fade", "-o", directory + "x.gif"], 64, "cannot tell the animation's"),
            (["transition", from, to, "--style", "fade", "--lossy", "-o", output], 64, "--lossy applies to"),
            (["transition", "-", "-", "--style", "fade", "-o", output], 64, "standard input can be FROM or TO"),
            (["transition", from, to, "--style", "fade", "--fps", "1000", "--duration", "3600"], 64, "3600001 frames"),
            (["transition", from, directory + "missing.png", "--style", "fade", "-o", output], 66, "missing.png"),
            (["transition", text, to, "--style", "fade", "-o", output], 65, "not a JPEG or PNG image"),
            (["transition", from, to, "--style", "fade", "--max-pixels", "2000", "-o", output], 65, "from.png"),
            (["transition", from, to, "--style", "fade", "-o", to], 73, "is the input file; refusing to overwrite"),
        ]
        for (arguments, status, message) in cases {
            let result = ToolRun.run(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(result.err.split(separator: "\n").count, status == 64 ? 2 : 1, result.err)
        }
        XCTAssertEqual(try files(), ["from.png", "text.png", "to.png"], "no output from a failed run")
        let original = try ImageEncoder.encode(TestImages.photoLike(width: 30, height: 50, seed: 7), as: .png)
        XCTAssertEqual(try FileIO.read(to), original, "TO untouched")
    }

    /// fade, wipeleft and circleopen against ffmpeg's xfade of the same aspect-filled PNGs (looped 1-s inputs at
    /// 10 fps, `xfade=transition=NAME:duration=1:offset=0`, rgba frames out). xfade works on planar samples
    /// (gbrp) and truncates its float mixes where PhotoTransition rounds in fixed point, so a sample may differ
    /// by one level and no more: PSNR at least 48.1 dB (one level everywhere). Measured on these frames: fade
    /// 51.1-52.6 dB, circleopen 51.1-71.8 dB, wipeleft identical.
    func testFramesMatchFFmpegXfade() throws {
        guard let ffmpeg = Self.onPath("ffmpeg") else { throw Oracles.missing("ffmpeg is not on PATH") }
        let fromFilled = try filled(from, "64x48", name: "from-filled.png")
        let toFilled = try filled(to, "64x48", name: "to-filled.png")
        for style in ["fade", "wipeleft", "circleopen"] {
            let ours = directory + "ours-\(style)/"
            let result = ToolRun.run(
                ["transition", from, to, "--style", style, "--size", "64x48", "--fps", "10", "-o", ours])
            XCTAssertEqual(result.status, 0, result.err)
            let theirs = directory + "ffmpeg-\(style)/"
            try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ffmpeg)
            process.arguments = [
                "-v", "error", "-nostdin", "-loop", "1", "-framerate", "10", "-t", "1", "-i", fromFilled,
                "-loop", "1", "-framerate", "10", "-t", "1", "-i", toFilled, "-filter_complex",
                "[0][1]xfade=transition=\(style):duration=1:offset=0,format=rgba", "-start_number", "0",
                theirs + "frame-%04d.png",
            ]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "ffmpeg \(style)")
            for index in [2, 4, 5, 7] {
                let name = "frame-000\(index).png"
                let (largest, psnr) = Self.difference(try image(ours + name), try image(theirs + name))
                XCTAssertLessThanOrEqual(largest, 1, "\(style) frame \(index)")
                XCTAssertGreaterThanOrEqual(psnr, 48.1, "\(style) frame \(index)")
            }
        }
    }

    private static func onPath(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The largest difference of a colour sample and the PSNR over red, green and blue (infinite when equal).
    private static func difference(_ a: Image, _ b: Image) -> (largest: Int, psnr: Double) {
        precondition(a.width == b.width && a.height == b.height)
        var largest = 0
        var squares = 0.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let (p, q) = (a[x, y], b[x, y])
                for (s, t) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue)] {
                    let d = abs(Int(s) - Int(t))
                    largest = max(largest, d)
                    squares += Double(d * d)
                }
            }
        }
        let mean = squares / Double(a.width * a.height * 3)
        return (largest, mean == 0 ? .infinity : 10 * log10(255 * 255 / mean))
    }

    /// A transition's frames × pixels × what each pixel costs to draw and encode is bounded as an animation's work
    /// is: 61 frames of 10000×10000 to an animated PNG (some 20 minutes) are refused at once, before the photos
    /// are decoded, naming the figures; the same frames drawn only (`--benchmark`) or far fewer are not.
    func testATransitionsWholeWorkIsBoundedAtOnce() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let output = directory + "big.png"
        let refused = ToolRun.run(["transition", from, to, "--style", "fade", "--size", "10000x10000", "-o", output])
        XCTAssertEqual(refused.status, 65, refused.err)
        // 61 × 10⁸ pixels × (3 to draw a mix + 100 to encode an APNG at level 5).
        XCTAssertEqual(
            refused.err,
            "blurtool: error: the transition's 61 frames of 10000x10000 would take 628300 million pixel operations "
                + "to draw and encode; the limit is 200000 million (give a smaller --size, a shorter --duration, "
                + "fewer --fps or a lower --png-compression)")
        XCTAssertLessThan(clock.now - start, .seconds(2))
        XCTAssertEqual(try files(), ["from.png", "to.png"], "nothing written")
        // Lossless WebP costs seven times what lossy does to encode: 15 frames of 4000×4000 are over the bound
        // lossless (refused, as quickly), within it lossy.
        let webp = ["transition", from, to, "--style", "fade", "--size", "4000x4000", "--fps", "14", "-o", directory + "a.webp"]
        XCTAssertEqual(ToolRun.run(webp).status, 65)
        XCTAssertNoThrow(
            try TransitionWork.check(
                frames: 15, width: 4000, height: 4000, style: .fade,
                encodingPerPixel: EncodingWork.operationsPerPixel(output: .webp, lossy: true, pngLevel: 5)))
        XCTAssertNoThrow(
            try TransitionWork.check(
                frames: 15, width: 4000, height: 4000, style: .curlup,
                encodingPerPixel: EncodingWork.operationsPerPixel(output: nil, lossy: false, pngLevel: 9)),
            "drawing alone, nothing encoded")
    }

    /// The level decides most of an animated PNG's cost (level 9 took 11 times level 5's time a frame on smooth
    /// frames): 61 frames of 3000×3000 are within the bound at the default level 5 and refused at once at 9.
    func testTheAnimatedPNGsLevelCountsInTheTransitionsWork() throws {
        XCTAssertNoThrow(
            try TransitionWork.check(
                frames: 61, width: 3000, height: 3000, style: .fade,
                encodingPerPixel: EncodingWork.operationsPerPixel(output: .apng, lossy: false, pngLevel: 5)))
        let clock = ContinuousClock()
        let start = clock.now
        let refused = ToolRun.run([
            "transition", from, to, "--style", "fade", "--size", "3000x3000", "--png-compression", "9",
            "-o", directory + "level9.png",
        ])
        XCTAssertEqual(refused.status, 65, refused.err)
        XCTAssertTrue(refused.err.contains("would take 594567 million pixel operations"), refused.err)
        XCTAssertLessThan(clock.now - start, .seconds(2))
        XCTAssertEqual(try files(), ["from.png", "to.png"], "nothing written")
    }
}
