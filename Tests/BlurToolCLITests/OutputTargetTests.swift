import Foundation
import ImageCodecs
import TestSupport
import XCTest

@testable import BlurToolCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Where the image goes: standard output carries nothing else, special files are written through and never
/// replaced, and an interrupted write leaves no temporary file.
final class OutputTargetTests: XCTestCase {
    private var directory = ""
    private var input = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-output-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        input = directory + "photo.jpg"
        try Data(try ImageEncoder.encode(TestImages.photoLike(width: 96, height: 64), as: .jpeg))
            .write(to: URL(fileURLWithPath: input))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    private func decodedSize(_ bytes: Data) throws -> [Int] {
        let image = try ImageDecoder.decode([UInt8](bytes)).image
        return [image.width, image.height]
    }

    func testStandardOutputCarriesOnlyTheImage() throws {
        let piped = try ToolProcess.run(["-", "-m", "thin"], input: input)
        XCTAssertEqual(piped.status, 0, piped.err)
        XCTAssertEqual(piped.err, "")
        XCTAssertEqual(Array(piped.out.suffix(2)), [0xFF, 0xD9], "the JPEG's end is the last thing written")
        XCTAssertEqual(try decodedSize(piped.out), [96, 64])

        let named = try ToolProcess.run([input, "-m", "thin", "-o", "-", "-f", "png"])
        XCTAssertEqual(named.status, 0, named.err)
        XCTAssertEqual(Array(named.out.suffix(8)), [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82], "IEND last")

        let device = try ToolProcess.run([input, "-m", "thin", "-o", "/dev/stdout", "-f", "png"])
        XCTAssertEqual(device.status, 0, device.err)
        XCTAssertEqual(device.out, named.out, "/dev/stdout (a link to a pipe here) is written through")

        let scene = directory + "scene.json"
        try #"{"canvas": {"width": 8, "height": 6}, "layers": [{"type": "color", "color": "red"}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let composed = try ToolProcess.run(["compose", "-"], input: scene)
        XCTAssertEqual(composed.status, 0, composed.err)
        XCTAssertEqual(Array(composed.out.suffix(8)), [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        XCTAssertEqual(try decodedSize(composed.out), [8, 6])
    }

    /// Standard input has no name to give a file in an -o directory; the image used to go to stdout instead.
    func testADirectoryOutputForStandardInputIsAUsageError() {
        for arguments in [["-", "-m", "thin", "-o", directory], ["compose", "-", "-o", directory]] {
            let result = ToolRun.run(arguments)
            XCTAssertEqual(result.status, 64, result.err)
            XCTAssertTrue(result.err.contains("standard input has no name"), result.err)
            XCTAssertEqual(result.out, "")
        }
    }

    func testEndlessStandardInputIsRefusedAtItsStart() throws {
        let result = try ToolProcess.run(["-", "-m", "thin"], input: "/dev/zero")
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.err, "blurtool: error: <stdin>: not a JPEG or PNG image\n")
        XCTAssertEqual(result.out.count, 0)
    }

    func testACharacterDeviceIsWrittenNotReplaced() throws {
        let result = ToolRun.run([input, "-m", "thin", "-o", "/dev/null"])
        XCTAssertEqual(result.status, 0, result.err)
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
        XCTAssertEqual(try files(), ["photo.jpg"], "no temporary file beside the input either")
    }

    /// An input that is the process's own standard output or error (a pipe here, as under a script) would wait for
    /// its own end for ever: refused at once, naming it (the CLI fuzzer's seed 5, case 3806, hung 300 s).
    func testAnInputThatIsTheProcesssOwnOutputIsRefused() throws {
        for (path, name) in [("/proc/self/fd/1", "standard output"), ("/proc/self/fd/2", "standard error")] {
            let (process, out, err) = try ToolProcess.start([path, "--sigma", "3", "-o", directory + "out.png"])
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { process.terminate() }
            let result = ToolProcess.finish(process, out, err)
            XCTAssertEqual(result.status, 66, "\(path): \(result.err)")
            XCTAssertEqual(
                result.err, "blurtool: error: \"\(path)\": is this process's own \(name); it would never end\n")
        }
    }

    func testAFIFOIsWrittenThrough() throws {
        let fifo = directory + "pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        let result = ToolRun.run([input, "-m", "thin", "-o", fifo, "-f", "png"])
        XCTAssertEqual(result.status, 0, result.err)
        while !reader.isFinished { usleep(1000) }
        XCTAssertEqual(try decodedSize(received), [96, 64])
        var status = stat()
        XCTAssertEqual(lstat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
    }

    func testASymbolicLinkIsWrittenThroughToItsTarget() throws {
        try FileManager.default.createDirectory(atPath: directory + "real", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: directory + "real/target.png"))
        XCTAssertEqual(chmod(directory + "real/target.png", 0o600), 0)
        XCTAssertEqual(symlink("real/target.png", directory + "link.png"), 0)
        XCTAssertEqual(symlink("real/new.png", directory + "dangling.png"), 0)
        for link in ["link.png", "dangling.png"] {
            let result = ToolRun.run([input, "-m", "thin", "-o", directory + link])
            XCTAssertEqual(result.status, 0, result.err)
            XCTAssertNotNil(
                try? FileManager.default.destinationOfSymbolicLink(atPath: directory + link), "\(link) is still a link")
        }
        XCTAssertEqual(
            try decodedSize(try Data(contentsOf: URL(fileURLWithPath: directory + "real/target.png"))), [96, 64])
        XCTAssertEqual(
            try decodedSize(try Data(contentsOf: URL(fileURLWithPath: directory + "real/new.png"))), [96, 64])
        var status = stat()
        XCTAssertEqual(stat(directory + "real/target.png", &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600, "the replaced file keeps its permissions")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory + "real").sorted(), ["new.png", "target.png"])
        XCTAssertEqual(symlink("loop.png", directory + "loop.png"), 0)
        XCTAssertEqual(ToolRun.run([input, "-m", "thin", "-o", directory + "loop.png"]).status, 73)
    }

    /// SIGTERM or SIGINT while the output is being encoded and written: the temporary file goes, the exit is the
    /// signal's. The input is large noise at zlib level 9, so the encode lasts long enough to be caught.
    /// A file already bearing this run's temporary name (another host's process with the same id, on a shared
    /// folder) is left alone: the run takes the next name.
    func testAnotherProcesssTemporaryFileIsNeverRemoved() throws {
        let output = directory + "kept.png"
        let taken = OutputFile.temporaryPath(beside: output)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: taken))
        let result = ToolRun.run([input, "--sigma", "2", "-o", output])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try String(contentsOfFile: taken, encoding: .utf8), "someone else's")
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
        XCTAssertEqual(
            OutputFile.temporaryPath(beside: output, attempt: 2), taken.replacingOccurrences(of: ".tmp", with: "-2.tmp")
        )
    }

    /// An output that cannot be created is reported before the decode and the blur: here the input is broken
    /// past its first bytes, and the run stops at the output (73), never reaching the decoder's error (65).
    func testAnUncreatableOutputFailsBeforeTheWork() throws {
        let broken = directory + "broken.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 100)).write(to: URL(fileURLWithPath: broken))
        XCTAssertEqual(ToolRun.run([broken, "-m", "thin", "-o", directory + "no/such/folder/o.png"]).status, 73)
        XCTAssertEqual(ToolRun.run([broken, "-m", "thin", "-o", directory + "o.png"]).status, 65)
        XCTAssertFalse(try files().contains { $0.hasPrefix(".o.png") || $0 == "o.png" }, "nothing left behind")
    }

    func testASignalDuringTheWriteRemovesTheTemporaryFile() throws {
        let noise = directory + "noise.png"
        try Data(try ImageEncoder.encode(TestImages.randomPremultiplied(width: 2500, height: 2500), as: .png))
            .write(to: URL(fileURLWithPath: noise))
        for signal in [SIGTERM, SIGINT] {
            let output = directory + "out.png"
            let (process, out, err) = try ToolProcess.start([
                noise, "--sigma", "0", "--png-compression", "9", "-o", output,
            ])
            let temporary = ".out.png.blurtool-\(process.processIdentifier).tmp"
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, !(try files()).contains(temporary), Date() < deadline { usleep(2000) }
            XCTAssertTrue(try files().contains(temporary), "the temporary file was seen")
            XCTAssertTrue(process.isRunning, "while blurtool ran")
            kill(process.processIdentifier, signal)
            let result = ToolProcess.finish(process, out, err)
            XCTAssertTrue(result.wasSignalled, "status \(result.status): \(result.err)")
            XCTAssertEqual(result.status, signal)
            XCTAssertEqual(try files(), ["noise.png", "photo.jpg"], "signal \(signal) left a file")
        }
    }
}
