import Compositor
import Foundation
import ImageCodecs
import OracleSupport
import Scenes
import TestSupport
import XCTest

@testable import BlurToolCLI

/// `blurtool animate`: every output kind read back, `--at` equal to the same frame of the whole, and mistakes
/// one line with the documented status.
final class AnimateCommandTests: XCTestCase {
    private var directory = ""
    private var scene = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-animate-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let photo = try ImageEncoder.encode(TestImages.photoLike(width: 60, height: 40), as: .png)
        try Data(photo).write(to: URL(fileURLWithPath: directory + "photo.png"))
        scene = directory + "scene.json"
        try write(
            ##"{"canvas": {"width": 40, "height": 24, "background": "#000"}, "layers": [{"type": "image", "path": "photo.png"}, {"type": "backdrop", "material": "thin", "effect": 0, "animations": [{"property": "effect", "to": 1, "duration": 0.3}]}, {"type": "shape", "shape": "capsule", "color": "#ffffff", "frame": {"x": 2, "y": 8, "width": 10, "height": 6}, "transform": "translate(30, 0) scale(2)", "animations": [{"property": "transform", "to": "scale(1)", "curve": "spring(damping: 0.4, velocity: 0.5, duration: 0.4)", "delay": 0.05}]}]}"##,
            to: scene)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    private func decodedFrames(_ path: String) throws -> DecodedAnimation {
        try AnimatedPNGDecoder.decode(try FileIO.read(path), maxPixels: 1 << 20)
    }

    /// `--verbose` says how the perspective layers were warped: a turn about the vertical axis and a tilt about the
    /// horizontal one by the two passes, a turn about a slanted axis from the mip levels.
    func testVerboseCountsThePerspectiveWarpsByRoute() throws {
        let turning = directory + "turning.json"
        func layer(axis: String) -> String {
            ##"{"type": "image", "path": "photo.png", "frame": {"x": 4, "y": 2, "width": 30, "height": 20}, "##
                + ##""transform3D": [{"perspective": 300}, {"rotate": 20, "axis": \##(axis)}], "##
                + ##""animations": [{"property": "rotation3D", "axis": \##(axis), "to": 50, "duration": 0.1}]}"##
        }
        let layers = ["[0, 1, 0]", "[1, 0, 0]", "[1, 1, 0]"].map { layer(axis: $0) }.joined(separator: ", ")
        try write(##"{"canvas": {"width": 40, "height": 24}, "layers": [\##(layers)]}"##, to: turning)
        let result = ToolRun.run(["animate", turning, "--fps", "20", "-o", directory + "turning.png", "--verbose"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(
            result.err.contains("blurtool: perspective layers warped 6 by two passes, 3 by mip levels"), result.err)
    }

    /// 0.45 s at 20 fps: 10 frames, each 1/20 s, frame k the same pixels as `--at k/20`.
    func testAnimatedPNGFramesEqualStillFrames() throws {
        let output = directory + "out.png"
        let result = ToolRun.run(["animate", scene, "--fps", "20", "-o", output])
        XCTAssertEqual(result.status, 0, result.err)
        let animation = try decodedFrames(output)
        XCTAssertEqual(animation.frames.count, 10)
        XCTAssertEqual(animation.loopCount, 0)
        for delay in animation.delays { XCTAssertEqual(delay, 0.05, accuracy: 1e-9) }
        for index in [0, 3, 9] {
            let still = directory + "at\(index).png"
            let at = ToolRun.run(["animate", scene, "--at", String(Double(index) / 20), "-o", still])
            XCTAssertEqual(at.status, 0, at.err)
            let image = try ImageDecoder.decode(try FileIO.read(still)).image
            XCTAssertTrue(image.hasSamePixels(as: animation.frames[index]), "frame \(index)")
        }
        XCTAssertFalse(animation.frames[0].hasSamePixels(as: animation.frames[5]))
        let jpeg = ToolRun.run(["animate", scene, "--at", "0.15", "-q", "95", "-o", directory + "at.jpg"])
        XCTAssertEqual(jpeg.status, 0, jpeg.err)
        XCTAssertEqual(try ImageDecoder.inspect(try FileIO.read(directory + "at.jpg")).format, .jpeg)
        XCTAssertTrue(animation.frames[9].isOpaque)
    }

    /// compose draws an animated scene as it shows at 0 s: the same pixels as `animate --at 0`.
    func testComposeDrawsTheFirstFrame() throws {
        let fading = directory + "fading.json"
        try write(
            #"{"canvas": {"width": 20, "height": 10}, "layers": [{"type": "color", "color": "red", "animations": [{"property": "opacity", "from": 0.25, "to": 1, "duration": 1, "delay": 0.5}]}]}"#,
            to: fading)
        XCTAssertEqual(ToolRun.run(["compose", fading, "-o", directory + "c.png"]).status, 0)
        XCTAssertEqual(ToolRun.run(["animate", fading, "--at", "0", "-o", directory + "a.png"]).status, 0)
        let composed = try ImageDecoder.decode(try FileIO.read(directory + "c.png")).image
        XCTAssertTrue(composed.hasSamePixels(as: try ImageDecoder.decode(try FileIO.read(directory + "a.png")).image))
        XCTAssertEqual(composed[3, 3].alpha, 64, "the animation's start during its delay, not the model's 1")
    }

    /// The thread count changes no byte of the file.
    func testThreadCountDoesNotChangeTheFile() throws {
        for threads in ["1", "3"] {
            XCTAssertEqual(
                ToolRun.run(["animate", scene, "--fps", "20", "-j", threads, "-o", directory + "t\(threads).png"]).status, 0)
        }
        XCTAssertEqual(try FileIO.read(directory + "t1.png"), try FileIO.read(directory + "t3.png"))
    }

    func testOtherOutputs() throws {
        let frames = ToolRun.run(["animate", scene, "--fps", "10", "--duration", "0.2", "-o", directory + "frames/"])
        XCTAssertEqual(frames.status, 0, frames.err)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory + "frames").sorted(),
            ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
        let apng = ToolRun.run(["animate", scene, "--fps", "10", "--duration", "0.2", "-o", directory + "a.apng"])
        XCTAssertEqual(apng.status, 0, apng.err)
        let animation = try decodedFrames(directory + "a.apng")
        for index in 0..<3 {
            let frame = try ImageDecoder.decode(try FileIO.read(directory + "frames/frame-000\(index).png")).image
            XCTAssertTrue(frame.hasSamePixels(as: animation.frames[index]), "frame \(index)")
        }

        let webp = ToolRun.run(["animate", scene, "--fps", "10", "--loop", "2", "-o", directory + "a.webp"])
        XCTAssertEqual(webp.status, 0, webp.err)
        let bytes = try FileIO.read(directory + "a.webp")
        XCTAssertEqual(Array(bytes[0..<4]), Array("RIFF".utf8))
        XCTAssertEqual(Array(bytes[8..<12]), Array("WEBP".utf8))
        XCTAssertNotNil(String(decoding: bytes.prefix(64), as: UTF8.self).range(of: "ANIM"))
        let lossy = ToolRun.run(["animate", scene, "--fps", "10", "--lossy", "-q", "60", "-o", directory + "b.webp"])
        XCTAssertEqual(lossy.status, 0, lossy.err)

        let y4m = ToolRun.run(["animate", scene, "--fps", "10", "-o", directory + "a.y4m"])
        XCTAssertEqual(y4m.status, 0, y4m.err)
        let video = try FileIO.read(directory + "a.y4m")
        let header = String(decoding: video.prefix(while: { $0 != 0x0A }), as: UTF8.self)
        XCTAssertTrue(header.hasPrefix("YUV4MPEG2 W40 H24 F10:1"), header)
        let frameBytes = 6 + 40 * 24 + 2 * 20 * 12
        XCTAssertEqual(video.count, header.utf8.count + 1 + 6 * frameBytes, "6 frames of 0.45 s at 10 fps")

        let benchmark = ToolRun.run(["animate", scene, "--fps", "10", "--benchmark"])
        XCTAssertEqual(benchmark.status, 0, benchmark.err)
        XCTAssertTrue(benchmark.out.hasPrefix("render-only: 6 frames in "), benchmark.out)
    }

    /// Standard output cannot be taken back: an animation the renderer refuses before its first frame (here its
    /// layers alone pass the whole animation's work bound) writes nothing there, not a stream header.
    func testARefusedAnimationWritesNothingToStandardOutput() throws {
        let busy = directory + "busy.json"
        let pixels = (0..<9_998).map { #"{"type": "color", "color": "red", "frame": {"x": \#($0 % 10), "y": 0, "width": 1, "height": 1}}"# }
        let fading = #"{"type": "color", "color": "blue", "animations": [{"property": "opacity", "to": 0, "duration": 500}]}"#
        try write(#"{"canvas": {"width": 10, "height": 10}, "layers": [\#((pixels + [fading]).joined(separator: ", "))]}"#, to: busy)
        for format in ["y4m", "apng"] {
            let result = try ToolProcess.run(["animate", busy, "-o", "-", "--format", format])
            XCTAssertEqual(result.status, 65, result.err)
            XCTAssertTrue(result.err.contains("would take more than 200000 million pixel operations"), result.err)
            XCTAssertEqual(result.out.count, 0, "\(format): nothing on standard output")
        }
    }

    /// The encoder counts in the animation's work: 601 frames of a 1000×1000 fade are within the bound as
    /// YUV4MPEG2 or an animated PNG at the default level 5, and refused at once at level 9 (some 11 times level
    /// 5's time a frame on smooth frames), nothing written.
    func testTheAnimatedPNGsLevelCountsInTheWork() throws {
        let fade = directory + "fade.json"
        try write(
            #"{"canvas": {"width": 1000, "height": 1000}, "layers": [{"type": "color", "color": "blue", "#
                + #""animations": [{"property": "opacity", "to": 0, "duration": 10}]}]}"#, to: fade)
        let scene = Scene(width: 1000, height: 1000, layers: [.color(.black)])
        let renderer = AnimationRenderer(framesPerSecond: 60)
        XCTAssertNoThrow(try renderer.check(scene, frames: 601, processingPerPixel: EncodingWork.pngOperationsPerPixel[5]))
        let clock = ContinuousClock()
        let start = clock.now
        let output = directory + "fade.png"
        let result = try ToolProcess.run(["animate", fade, "--png-compression", "9", "-o", output])
        XCTAssertEqual(result.status, 65, result.err)
        XCTAssertTrue(result.err.contains("601 frames would take more than 200000 million pixel operations"), result.err)
        XCTAssertLessThan(clock.now - start, .seconds(3))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testMistakesAreOneLineWithTheirStatus() throws {
        let still = directory + "still.json"
        try write(#"{"canvas": {"width": 4, "height": 4}, "layers": [{"type": "color", "color": "red"}]}"#, to: still)
        let bad = directory + "bad.json"
        try write(
            #"{"canvas": {"width": 4, "height": 4}, "layers": [{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 0, "duration": 1, "curve": "bounce"}]}]}"#,
            to: bad)
        // More frames than an animated PNG's header can count: refused before the output is opened.
        let endless = directory + "endless.json"
        try write(
            #"{"canvas": {"width": 4, "height": 4}, "layers": [{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 0, "duration": 72, "repeatCount": 1000000}]}]}"#,
            to: endless)
        // Snow for ever: an emitter alone has no end to render to.
        let emitters = directory + "emitters.json"
        try write(
            #"{"canvas": {"width": 40, "height": 40}, "layers": [{"type": "emitter", "preset": "snow"}]}"#,
            to: emitters)
        let cases: [([String], Int32, String)] = [
            (["animate", still, "-o", directory + "x.png"], 65, "nothing in the scene is animated"),
            (["animate", endless, "-o", directory + "x.png"], 65, "the animation has 4320000001 frames; the limit is"),
            (["animate", bad, "-o", directory + "x.png"], 65, "layers[0].animations[0].curve: "),
            (["animate", scene, "--lossy", "-o", directory + "x.png", "--format", "apng"], 64, "--lossy applies to"),
            (["animate", scene, "--at", "0.1", "--duration", "1"], 64, "--at renders one frame"),
            (["animate", scene, "--format", "frames"], 64, "numbered frames go to a folder"),
            (["animate", scene, "-o", directory + "x.gif"], 64, "cannot tell the animation's format"),
            (["animate", scene, "--fps", "0"], 64, "--fps expects a number from 1 to 1000"),
            (["animate", scene, "--sigma", "3"], 64, "option '--sigma' does not apply to 'animate'"),
            (["animate", scene, "--duration", "3600", "--fps", "1000"], 65, "the animation has 3600001 frames; the limit is 36000"),
            (["animate", scene, "--benchmark", "-o", directory + "x.png"], 64, "--benchmark writes no output"),
            // Options that would change nothing are mistakes, as the README says of every command.
            (["animate", scene, "--at", "0.1", "--fps", "10"], 64, "--fps does not apply to it"),
            (["animate", scene, "--at", "0.1", "--loop", "2"], 64, "--loop does not apply to it"),
            (["animate", scene, "--at", "0.1", "--lossy"], 64, "--lossy does not apply to it"),
            (["animate", scene, "--loop", "2", "-o", directory + "x.y4m"], 64, "--loop applies to an animated PNG"),
            (["animate", scene, "--loop", "2", "-o", directory + "frames/"], 64, "not to numbered frames"),
            (["animate", scene, "-q", "80", "-o", directory + "x.png"], 64, "-q applies to an animated WebP"),
            (["animate", emitters, "-o", directory + "x.png"], 65, "only emitters move in the scene"),
        ]
        for (arguments, status, message) in cases {
            let result = ToolRun.run(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(result.err.split(separator: "\n").count, status == 64 ? 2 : 1, result.err)
        }
        XCTAssertFalse(try files().contains("x.png"), "no output from a failed run")
        // A usage error shows the usage of the subcommand it was made in.
        let usage = ToolRun.run(["animate", scene, "--at", "0.1", "--fps", "10"]).err
        XCTAssertTrue(usage.contains("Usage: blurtool animate SCENE.json"), usage)
        XCTAssertFalse(usage.contains("blurtool transition"), usage)
        let batchUsage = ToolRun.run(["batch", "x", "-m", "thin"]).err
        XCTAssertTrue(batchUsage.contains("Usage: blurtool batch SOURCE -o DEST"), batchUsage)
        let refused = ToolRun.run(["animate", scene, "--duration", "3600", "--fps", "1000", "-o", directory + "none/"])
        XCTAssertEqual(refused.status, 65)
        XCTAssertFalse(try files().contains("none"), "a refused run makes no folder")
        let stillRun = ToolRun.run(["animate", still, "--duration", "0.1", "--fps", "10", "-o", directory + "s.png"])
        XCTAssertEqual(stillRun.status, 0, "a still scene renders for a given duration: \(stillRun.err)")
        XCTAssertEqual(try decodedFrames(directory + "s.png").frames.count, 2)
    }

    /// Ctrl-C while the frames are drawn: the output's temporary file goes, nothing else is left.
    func testAnInterruptLeavesNoOutput() throws {
        try assertASignalMidWriteLeavesNoOutput(SIGINT)
    }

    /// A fault (a trap's SIGILL or SIGTRAP, SIGSEGV, SIGBUS, an abort) mid-write removes the temporary file too,
    /// and the process still ends by that signal, through the action that was there before (the backtracer's).
    func testAFaultLeavesNoOutputAndStillEndsTheProcessByItsSignal() throws {
        for number in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT] {
            try assertASignalMidWriteLeavesNoOutput(number, environment: ["SWIFT_BACKTRACE": "enable=no"])
        }
    }

    private func assertASignalMidWriteLeavesNoOutput(
        _ number: Int32, environment: [String: String] = [:], line: UInt = #line
    ) throws {
        let long = directory + "long.json"
        try write(
            ##"{"canvas": {"width": 400, "height": 300, "background": "#000"}, "layers": [{"type": "image", "path": "photo.png"}, {"type": "backdrop", "material": "thick", "frame": {"x": 20, "y": 20, "width": 200, "height": 100}, "animations": [{"property": "frame", "to": {"x": 150, "y": 150, "width": 200, "height": 100}, "duration": 60}]}]}"##,
            to: long)
        let output = directory + "long.png"
        let (process, out, err) = try ToolProcess.start(
            ["animate", long, "--fps", "30", "-o", output], environment: environment)
        let temporary = ".long.png.blurtool-\(process.processIdentifier).tmp"
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, !(try files()).contains(temporary), Date() < deadline { usleep(2000) }
        XCTAssertTrue(try files().contains(temporary), "the temporary file was seen", line: line)
        usleep(200_000)
        XCTAssertTrue(process.isRunning, "still drawing", line: line)
        kill(process.processIdentifier, number)
        let result = ToolProcess.finish(process, out, err)
        XCTAssertTrue(result.wasSignalled, "signal \(number): status \(result.status): \(result.err)", line: line)
        XCTAssertEqual(result.status, number, line: line)
        XCTAssertEqual(try files(), ["long.json", "photo.png", "scene.json"], "signal \(number)", line: line)
    }

    /// A square spinner turning a quarter turn a second for ever (so t = 1 looks as t = 0), at 10 fps: a looping file
    /// holds t = 0 … 0.9 (ten frames: the eleventh would be the first again, shown twice in a row at each turn); a
    /// file played once ends on t = 1.
    func testALoopingOutputOfARepeatingSceneLeavesOutTheFrameThatRepeatsTheFirst() throws {
        let spinner = directory + "spinner.json"
        try write(
            ##"{"canvas": {"width": 20, "height": 20, "background": "#000"}, "layers": [{"type": "shape", "shape": "rectangle", "color": "#fff", "frame": {"x": 5, "y": 5, "width": 10, "height": 10}, "animations": [{"property": "transform", "from": "rotate(0deg)", "to": "rotate(90deg)", "duration": 1, "curve": "linear", "repeatCount": "forever"}]}]}"##,
            to: spinner)
        XCTAssertEqual(ToolRun.run(["animate", spinner, "--fps", "10", "-o", directory + "loop.png"]).status, 0)
        let loop = try decodedFrames(directory + "loop.png")
        XCTAssertEqual(loop.frames.count, 10)
        XCTAssertEqual(ToolRun.run(["animate", spinner, "--fps", "10", "--loop", "1", "-o", directory + "once.png"]).status, 0)
        let once = try decodedFrames(directory + "once.png")
        XCTAssertEqual(once.frames.count, 11, "played once, it ends where it started")
        XCTAssertEqual(once.frames[10].withUnsafeBytes { Array($0) }, once.frames[0].withUnsafeBytes { Array($0) })
        XCTAssertNotEqual(loop.frames[9].withUnsafeBytes { Array($0) }, loop.frames[0].withUnsafeBytes { Array($0) })
        // Numbered frames do not loop: the whole turn, both ends.
        XCTAssertEqual(ToolRun.run(["animate", spinner, "--fps", "10", "-o", directory + "frames/"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory + "frames").count, 11)
        // A scene with a finite animation beside the spinner is not a loop: all of it, both ends.
        let mixed = directory + "mixed.json"
        try write(
            ##"{"canvas": {"width": 20, "height": 20}, "layers": [{"type": "color", "color": "#f00", "animations": [{"property": "opacity", "to": 0, "duration": 1}, {"property": "transform", "to": "rotate(90deg)", "duration": 0.5, "repeatCount": "forever"}]}]}"##,
            to: mixed)
        XCTAssertEqual(ToolRun.run(["animate", mixed, "--fps", "10", "-o", directory + "mixed.png"]).status, 0)
        XCTAssertEqual(try decodedFrames(directory + "mixed.png").frames.count, 11)
    }

    /// The README's line to an MP4: the y4m's BT.709 limited-range frames, tagged so in the MP4 (ffprobe reads the
    /// tags), decode back to the frame's colours.
    func testTheReadmesFfmpegLineMakesATaggedMP4() throws {
        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile),
            let ffprobe = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first(where: FileManager.default.isExecutableFile)
        else { throw Oracles.missing("ffmpeg and ffprobe are not installed") }
        XCTAssertEqual(ToolRun.run(["animate", scene, "--fps", "10", "-o", directory + "a.y4m"]).status, 0)
        XCTAssertEqual(ToolRun.run(["animate", scene, "--at", "0", "-o", directory + "first.png"]).status, 0)
        func run(_ tool: String, _ arguments: [String]) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
            return data
        }
        // As the README writes it, with a lossless encode so only the colour handling is measured.
        let mp4 = directory + "a.mp4"
        _ = try run(ffmpeg, [
            "-v", "error", "-i", directory + "a.y4m", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries",
            "bt709", "-color_trc", "iec61966-2-1", "-color_range", "tv", "-c:v", "libx264", "-qp", "0", mp4,
        ])
        let tags = String(decoding: try run(ffprobe, [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=color_space,color_primaries,color_transfer,color_range", "-of", "default=noprint_wrappers=1", mp4,
        ]), as: UTF8.self)
        for tag in ["color_space=bt709", "color_primaries=bt709", "color_transfer=iec61966-2-1", "color_range=tv"] {
            XCTAssertTrue(tags.contains(tag), tags)
        }
        // A player reads the tags: decoded to RGB by them (ffmpeg's default for a tagged stream), the first frame is
        // ours within chroma subsampling's loss.
        let rgb = [UInt8](try run(ffmpeg, [
            "-v", "error", "-i", mp4, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ]))
        let first = try ImageDecoder.decode(try FileIO.read(directory + "first.png")).image
        XCTAssertEqual(rgb.count, first.width * first.height * 3)
        var total = 0
        for y in 0..<first.height {
            for x in 0..<first.width {
                let pixel = first[x, y]
                for (channel, value) in [pixel.red, pixel.green, pixel.blue].enumerated() {
                    total += abs(Int(rgb[(y * first.width + x) * 3 + channel]) - Int(value))
                }
            }
        }
        XCTAssertLessThan(Double(total) / Double(first.width * first.height * 3), 6)
    }

}
