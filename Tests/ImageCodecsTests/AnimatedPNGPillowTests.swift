import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// Our APNGs as another reader sees them: Pillow (from the peer benchmarks' venv at the package root, when it
/// has been set up: `make peers-setup`), else the project's own reader. Frame count, delays, loop count and
/// every frame's pixels, composed by the reader from the cropped rectangles.
final class AnimatedPNGPillowTests: XCTestCase {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Pillow's view of an APNG file: frames as straight RGBA, delays in seconds, the loop count.
    private func readWithPillow(
        _ png: [UInt8], python: String
    ) throws -> (frames: [[UInt8]], delays: [Double], loop: Int) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apng-pillow-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.png")
        let frames = directory.appendingPathComponent("frames.rgba")
        try Data(png).write(to: input)
        let script = """
            import json, sys
            from PIL import Image
            image = Image.open(sys.argv[1])
            delays = []
            with open(sys.argv[2], "wb") as out:
                for index in range(image.n_frames):
                    image.seek(index)
                    delays.append(image.info["duration"] / 1000)
                    out.write(image.convert("RGBA").tobytes())
            print(json.dumps({"delays": delays, "loop": image.info.get("loop", 0)}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, input.path, frames.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let json = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "Pillow could not read the file")
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: json) as? [String: Any])
        let delays = try XCTUnwrap(summary["delays"] as? [Double])
        let bytes = [UInt8](try Data(contentsOf: frames))
        let frameBytes = bytes.count / max(delays.count, 1)
        return (
            (0..<delays.count).map { Array(bytes[($0 * frameBytes)..<(($0 + 1) * frameBytes)]) }, delays,
            try XCTUnwrap(summary["loop"] as? Int)
        )
    }

    private func check(_ frames: [Image], opaque: Bool) throws {
        let encoder = AnimatedPNGEncoder(
            width: frames[0].width, height: frames[0].height, frameDelay: FrameDelay(1, 20), loopCount: 4, opaque: opaque,
            threads: 2)
        let png = encoder.assemble(
            try frames.indices.map { try encoder.encodeFrame(frames[$0], previous: $0 == 0 ? nil : frames[$0 - 1]) })
        let python = AnimatedPNGPillowTests.packageRoot.appendingPathComponent(".venv-peers/bin/python").path
        if FileManager.default.isExecutableFile(atPath: python) {
            let read = try readWithPillow(png, python: python)
            XCTAssertEqual(read.frames.count, frames.count, "Pillow merges no frames here: each one differs")
            XCTAssertEqual(read.delays, Array(repeating: 0.05, count: frames.count))
            XCTAssertEqual(read.loop, 4)
            for (index, frame) in frames.enumerated() where index < read.frames.count {
                XCTAssertTrue(read.frames[index] == frame.straightRGBABytes(), "frame \(index) as Pillow composes it")
            }
        } else {
            let decoded = try AnimatedPNGDecoder.decode(png, maxPixels: 1 << 24)
            XCTAssertEqual(decoded.frames.count, frames.count)
            XCTAssertEqual(decoded.delays, Array(repeating: 0.05, count: frames.count))
            XCTAssertEqual(decoded.loopCount, 4)
            for (index, frame) in frames.enumerated() {
                XCTAssertTrue(decoded.frames[index].hasSamePixels(as: frame), "frame \(index)")
            }
        }
    }

    func testOpaqueAnimation() throws {
        // Tall enough for several deflate bands in the first frame.
        try check(AnimationFrames.sliding(count: 6, width: 120, height: 800, step: 7), opaque: true)
    }

    func testTranslucentAnimation() throws {
        try check(AnimationFrames.sliding(count: 4, width: 50, height: 40, translucent: true), opaque: false)
    }
}
