import Compositor
import Foundation
import OracleSupport
import Scenes
import TestSupport
import XCTest

/// Our frames against ffmpeg's own xfade on the same opaque inputs, when ffmpeg is installed: 10 fps, a
/// 1 s transition starting at 0.5 s, so output frame 5 + k is xfade at P = 1 − k/10, our progress k/10.
///
/// xfade works on planar samples (gbrp here) and truncates its float mixes where we round in fixed point: a mixed
/// sample may be one level apart (ffmpeg 5.1 measured 49.3–69.6 dB, max error 1, over these styles and frames;
/// the bound is 48 dB, every sample one level off), and hard edges (wipes, slides) match exactly.
final class XfadeFFmpegTests: XCTestCase {
    let width = 64
    let height = 48
    let ffmpeg = "/usr/bin/ffmpeg"

    func testFramesMatchFFmpegsXfade() throws {
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { throw Oracles.missing("ffmpeg is not installed") }
        let a = TestImages.photoLike(width: width, height: height, seed: 31)
        let b = TestImages.photoLike(width: width, height: height, seed: 32)
        let styles: [PhotoTransition.Style] = [
            .fade, .fadeblack, .fadewhite, .wipeleft, .wiperight, .wipeup, .wipedown, .slideleft, .slideright,
            .slideup, .slidedown, .smoothleft, .smoothright, .circleopen, .circleclose, .radial, .pixelize, .hblur,
            .zoomin,
        ]
        for style in styles {
            let frames = try xfadeFrames(a, b, transition: style.rawValue, count: 20)
            for k in [2, 5, 8] {
                let ours = PhotoTransition(style: style, threads: 2).frame(from: a, to: b, progress: Double(k) / 10)
                let difference = ImageDifference(ours, frames[5 + k], channels: 3)
                let copies = style.rawValue.hasPrefix("wipe") || style.rawValue.hasPrefix("slide")
                let context = "\(style) at \(Double(k) / 10): \(difference)"
                XCTAssertLessThanOrEqual(difference.maxError, copies ? 0 : 1, context)
                XCTAssertGreaterThan(difference.psnr, 48, context)
            }
        }
    }

    /// ffmpeg's output frames for inputs that repeat `a` and `b` for `count` frames each.
    private func xfadeFrames(_ a: Image, _ b: Image, transition: String, count: Int) throws -> [Image] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xfade-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func repeated(_ image: Image) -> Data {
            var bytes = Data()
            for _ in 0..<count {
                for y in 0..<image.height { bytes.append(image.row(y), count: image.width * 4) }
            }
            return bytes
        }
        let first = directory.appendingPathComponent("a.rgba")
        let second = directory.appendingPathComponent("b.rgba")
        let output = directory.appendingPathComponent("out.rgba")
        try repeated(a).write(to: first)
        try repeated(b).write(to: second)
        let input = ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-framerate", "10", "-i"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments =
            ["-v", "error", "-nostdin", "-y"] + input + [first.path] + input + [second.path] + [
                "-filter_complex",
                "[0]format=gbrp[a];[1]format=gbrp[b];[a][b]xfade=transition=\(transition):duration=1:offset=0.5,"
                    + "format=rgba",
                "-f", "rawvideo", "-pix_fmt", "rgba", output.path,
            ]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ffmpeg failed for \(transition)")
        let bytes = [UInt8](try Data(contentsOf: output))
        let frameBytes = width * height * 4
        return (0..<(bytes.count / frameBytes)).map { index in
            let frame = Image(width: width, height: height)
            for y in 0..<height {
                let start = index * frameBytes + y * width * 4
                frame.row(y).update(from: Array(bytes[start..<(start + width * 4)]), count: width * 4)
            }
            return frame
        }
    }
}
