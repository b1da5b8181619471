import Foundation
import ImageCodecs
import Synchronization
import TestSupport
import XCTest

@testable import BlurToolCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `blurtool batch`: every photo done once into the mirrored tree, resumable, shardable, failures reported.
final class BatchCommandTests: XCTestCase {
    private var directory = ""
    private var source: String { directory + "photos" }
    private var destination: String { directory + "out" }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "blurtool-batch-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: source + "/b/c", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `count` seeded JPEGs spread over three folders, named so that their order by name is not their order made.
    @discardableResult
    private func makePhotos(_ count: Int, width: Int = 64, height: Int = 48) throws -> [String] {
        var relative: [String] = []
        for index in 0..<count {
            let folder = ["", "b/", "b/c/"][index % 3]
            let name = folder + "photo-\((index * 7919) % 1000).jpg"
            let image = TestImages.photoLike(width: width, height: height, seed: UInt64(index + 1))
            try Data(try ImageEncoder.encode(image, as: .jpeg)).write(to: URL(fileURLWithPath: source + "/" + name))
            relative.append(name)
        }
        return relative.sorted()
    }

    private func reportLines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// Every file under the destination, relative, the journal folder left out.
    private func writtenFiles() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: destination)!
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.hasPrefix(".blurtool-batch") { continue }
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: destination + "/" + path, isDirectory: &isFolder)
            if !isFolder.boolValue { files.append(path) }
        }
        return files.sorted()
    }

    func testEveryPhotoIsDoneOnceIntoTheMirroredTreeAndARerunOnlyChecks() throws {
        let photos = try makePhotos(7)
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: source + "/notes.txt"))
        let report = directory + "report.jsonl"
        let first = ToolRun.run([
            "batch", source, "-o", destination, "-m", "thin,thick", "-a", "dark", "--size", "40x30",
            "--report", report,
        ])
        XCTAssertEqual(first.status, 0, first.err)
        let expected = photos.flatMap { photo in
            ["thin", "thick"].map { String(photo.dropLast(4)) + "-\($0)-dark.jpg" }
        }.sorted()
        XCTAssertEqual(try writtenFiles(), expected, "one output per photo and material, nothing else")
        let lines = try reportLines(report)
        XCTAssertEqual(lines.count, 7, "one report line per photo")
        XCTAssertEqual(Set(lines.map { $0["status"] as? String }), ["done"])
        for output in expected {
            let image = try ImageDecoder.decode(
                [UInt8](try Data(contentsOf: URL(fileURLWithPath: destination + "/" + output))))
            XCTAssertEqual([image.image.width, image.image.height], [40, 30])
        }

        let again = ToolRun.run([
            "batch", source, "-o", destination, "-m", "thin,thick", "-a", "dark", "--size", "40x30",
            "--report", report,
        ])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(Set(try reportLines(report).map { $0["status"] as? String }), ["skipped"])
        XCTAssertTrue(again.err.contains("0 done, 7 already done"), again.err)

        // Other options (a dim) change the pixels but not the names: everything is done again.
        let dimmed = ToolRun.run([
            "batch", source, "-o", destination, "-m", "thin,thick", "-a", "dark", "--size", "40x30", "--dim", "0.3",
        ])
        XCTAssertTrue(dimmed.err.contains("7 done, 0 already done"), dimmed.err)
    }

    func testABatchOutputIsTheSingleRendersOutputByteForByte() throws {
        try makePhotos(1, width: 120, height: 90)
        let photo = source + "/photo-0.jpg"
        let batch = ToolRun.run(["batch", source, "-o", destination, "-m", "regular", "--size", "60x80", "-j", "1"])
        XCTAssertEqual(batch.status, 0, batch.err)
        let single = ToolRun.run([photo, "-m", "regular", "--size", "60x80", "-o", directory + "single.jpg"])
        XCTAssertEqual(single.status, 0, single.err)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: destination + "/photo-0-regular.jpg")),
            try Data(contentsOf: URL(fileURLWithPath: directory + "single.jpg")))
    }

    func testAChangedPhotoIsDoneAgainAndTheOthersAreNot() throws {
        let photos = try makePhotos(4)
        let report = directory + "report.jsonl"
        XCTAssertEqual(ToolRun.run(["batch", source, "-o", destination, "-m", "thin"]).status, 0)
        let changed = source + "/" + photos[2]
        try Data(try ImageEncoder.encode(TestImages.photoLike(width: 50, height: 40, seed: 99), as: .jpeg))
            .write(to: URL(fileURLWithPath: changed))
        let rerun = ToolRun.run(["batch", source, "-o", destination, "-m", "thin", "--report", report])
        XCTAssertEqual(rerun.status, 0, rerun.err)
        let statuses = Dictionary(
            uniqueKeysWithValues: try reportLines(report).map { ($0["input"] as! String, $0["status"] as! String) })
        XCTAssertEqual(statuses[changed], "done")
        XCTAssertEqual(statuses.values.filter { $0 == "skipped" }.count, 3)
        let output = try ImageDecoder.decode(
            [UInt8](
                try Data(
                    contentsOf: URL(fileURLWithPath: destination + "/" + String(photos[2].dropLast(4)) + "-thin.jpg"))))
        XCTAssertEqual([output.image.width, output.image.height], [50, 40], "the output is the changed photo's")
    }

    func testACorruptPhotoIsReportedAndTheOthersAreDone() throws {
        try makePhotos(3)
        let full = try Data(contentsOf: URL(fileURLWithPath: source + "/photo-0.jpg"))
        try full.prefix(full.count / 3).write(to: URL(fileURLWithPath: source + "/b/cut.jpg"))
        try Data("<html>".utf8).write(to: URL(fileURLWithPath: source + "/b/c/fake.png"))
        let report = directory + "report.jsonl"
        let run = ToolRun.run(["batch", source, "-o", destination, "-m", "thin", "--report", report])
        XCTAssertEqual(run.status, ExitCode.dataError.rawValue)
        XCTAssertTrue(run.err.contains("cut.jpg") && run.err.contains("fake.png"), run.err)
        XCTAssertTrue(run.err.contains("3 done, 0 already done, 2 failed"), run.err)
        let lines = try reportLines(report)
        XCTAssertEqual(lines.count, 5)
        let failed = lines.filter { $0["status"] as? String == "failed" }
        XCTAssertEqual(
            Set(failed.map { ($0["input"] as! String).split(separator: "/").last! }), ["cut.jpg", "fake.png"])
        XCTAssertTrue(
            failed.allSatisfy {
                ($0["error"] as? String)?.isEmpty == false && ($0["outputs"] as? [Any])?.isEmpty == true
            })
        XCTAssertEqual(try writtenFiles().count, 3)
    }

    func testShardsAreDisjointAndCoverTheSetWhateverTheListingOrder() throws {
        let paths = (0..<500).map { "restaurant-\($0 / 50)/photo \($0).jpg" }
        for count in [1, 2, 3, 4, 7, 16] {
            var owners = [Int](repeating: 0, count: paths.count)
            var sizes: [Int] = []
            for index in 0..<count {
                let shard = Shard(index: index, count: count)
                let owned = paths.indices.filter { shard.owns(paths[$0]) }
                for path in owned { owners[path] += 1 }
                sizes.append(owned.count)
            }
            XCTAssertEqual(Set(owners), [1], "every photo in exactly one of \(count) shards")
            // A hash spreads 500 photos about evenly: no shard more than twice its share.
            XCTAssertLessThan(sizes.max()!, 2 * paths.count / count + 8, "\(sizes)")
        }
        // Through the command: a list in two orders gives each shard the same photos.
        let relative = try makePhotos(12)
        let forward = directory + "forward.txt"
        let backward = directory + "backward.txt"
        let previousFolder = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(source)
        defer { FileManager.default.changeCurrentDirectoryPath(previousFolder) }
        try relative.joined(separator: "\n").write(toFile: forward, atomically: true, encoding: .utf8)
        try relative.reversed().joined(separator: "\n").write(toFile: backward, atomically: true, encoding: .utf8)
        var union: [String] = []
        for index in 0..<3 {
            let one = ToolRun.run([
                "batch", forward, "-o", destination, "-m", "thin", "--shard", "\(index)/3", "--list",
            ])
            let other = ToolRun.run([
                "batch", backward, "-o", destination, "-m", "thin", "--shard", "\(index)/3", "--list",
            ])
            XCTAssertEqual(one.status, 0, one.err)
            XCTAssertEqual(one.out, other.out)
            union += one.out.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(union.sorted(), relative)
        // A folder walk and a list give the same relative paths, so the same shards.
        let walked = ToolRun.run(["batch", source, "-o", destination, "-m", "thin", "--shard", "1/3", "--list"])
        let listed = ToolRun.run(["batch", forward, "-o", destination, "-m", "thin", "--shard", "1/3", "--list"])
        XCTAssertEqual(walked.out, listed.out)
    }

    func testArrayJobIndicesSelectTheSameShardsAsShard() throws {
        let slurm = try Shard.fromEnvironment(
            ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "8"], count: nil)
        XCTAssertEqual(slurm, Shard(index: 2, count: 4))
        let counted = try Shard.fromEnvironment(
            ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil)
        XCTAssertEqual(counted, Shard(index: 3, count: 4))
        // One task resubmitted alone keeps its place among --shards.
        let alone = try Shard.fromEnvironment(
            ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_COUNT": "1"], count: 4)
        XCTAssertEqual(alone, Shard(index: 2, count: 4))
        XCTAssertEqual(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "5"], count: 8), Shard(index: 5, count: 8))
        XCTAssertNil(try Shard.fromEnvironment([:], count: nil))
        XCTAssertThrowsError(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "5"], count: nil))
        XCTAssertThrowsError(
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil))
        XCTAssertThrowsError(try Shard.fromEnvironment([:], count: 4))
    }

    /// The Kubernetes manifest's Indexed Job runs the same shards `--shard` names: its completion count and
    /// command line, read from the file, with each JOB_COMPLETION_INDEX.
    func testTheKubernetesIndexedJobSelectsTheShardsOfShard() throws {
        let manifest = try String(
            contentsOfFile: Fixtures.root + "contrib/kubernetes/blurtool-batch-job.yaml", encoding: .utf8)
        func value(_ key: String) -> String? {
            manifest.split(separator: "\n").lazy.compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix(key + ":") else { return nil }
                return trimmed.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            }.first
        }
        let completions = try XCTUnwrap(value("completions").flatMap { Int($0) })
        XCTAssertEqual(value("completionMode"), "Indexed")
        let arguments = try XCTUnwrap(value("args"))
        XCTAssertTrue(arguments.contains("\"--shards\", \"\(completions)\""), "the job passes its count: \(arguments)")
        try makePhotos(20)
        var union: [String] = []
        for index in 0..<completions {
            let indexed = try ToolProcess.run(
                ["batch", source, "-o", destination, "-m", "thin", "--shards", "\(completions)", "--list"],
                environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            let named = ToolRun.run(
                ["batch", source, "-o", destination, "-m", "thin", "--shard", "\(index)/\(completions)", "--list"])
            XCTAssertEqual(indexed.status, 0, indexed.err)
            XCTAssertEqual(String(decoding: indexed.out, as: UTF8.self), named.out + "\n")
            union += named.out.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(union.count, 20)
        XCTAssertEqual(Set(union).count, 20)
    }

    /// SIGTERM mid-run: the photos in flight finish, nothing half-written is left, the status says the run is
    /// incomplete, and the same command again does exactly the rest.
    func testARunStoppedBySIGTERMLeavesNoPartialFileAndTheRerunDoesTheRest() throws {
        let photos = try makePhotos(16, width: 400, height: 300)
        let report = directory + "first.jsonl"
        let arguments = [
            "batch", source, "-o", destination, "-m", "thin,regular", "--size", "585x1266", "-j", "1",
            "--threads", "1",
        ]
        let (process, out, err) = try ToolProcess.start(arguments + ["--report", report])
        let journal = destination + "/.blurtool-batch/journal-0-of-1.tsv"
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let lines = (try? String(contentsOfFile: journal, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if lines >= 2 { break }
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGTERM)
        let stopped = ToolProcess.finish(process, out, err)
        XCTAssertFalse(stopped.wasSignalled, stopped.err)
        XCTAssertEqual(stopped.status, ExitCode.incomplete.rawValue, stopped.err)
        XCTAssertTrue(stopped.err.contains("stopped by a signal"), stopped.err)

        let everything = try FileManager.default.subpathsOfDirectory(atPath: destination)
        XCTAssertEqual(everything.filter { $0.hasSuffix(".tmp") }, [], "no temporary file left")
        let written = try writtenFiles()
        let first = try reportLines(report)
        let done = first.filter { $0["status"] as? String == "done" }.map { $0["input"] as! String }
        XCTAssertGreaterThanOrEqual(done.count, 2)
        XCTAssertLessThan(done.count, photos.count, "stopped before the end")
        XCTAssertEqual(written.count, 2 * done.count, "both outputs of every photo done, nothing of the others")
        for output in written {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: destination + "/" + output)))
            XCTAssertEqual(try ImageDecoder.decode(bytes).image.width, 585, "\(output) is whole")
        }

        let rest = directory + "rest.jsonl"
        let rerun = try ToolProcess.run(arguments + ["-j", "2", "--report", rest])
        XCTAssertEqual(rerun.status, 0, rerun.err)
        let second = try reportLines(rest)
        XCTAssertEqual(second.count, photos.count)
        XCTAssertEqual(
            Set(second.filter { $0["status"] as? String == "skipped" }.map { $0["input"] as! String }), Set(done),
            "what the first run finished is skipped")
        XCTAssertEqual(second.filter { $0["status"] as? String == "done" }.count, photos.count - done.count)
        XCTAssertEqual(try writtenFiles().count, 2 * photos.count)
    }

    /// The progress bar is for people: a pipe gets only the failures and the summary, a terminal gets the bar.
    func testTheProgressBarShowsOnATerminalOnly() throws {
        try makePhotos(4)
        let piped = try ToolProcess.run(["batch", source, "-o", destination, "-m", "thin", "--report", directory + "r"])
        XCTAssertEqual(piped.status, 0, piped.err)
        XCTAssertFalse(piped.err.contains("\r") || piped.err.contains("["), piped.err)
        XCTAssertTrue(piped.err.hasPrefix("blurtool: batch: 4 photos: 4 done"), piped.err)
        let quiet = try ToolProcess.run(["batch", source, "-o", destination + "2", "-m", "thin", "--quiet"])
        XCTAssertEqual(quiet.err, "")
        // util-linux's `script` gives the tool a terminal for its stderr.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("no /usr/bin/script to give blurtool a terminal")
        }
        let tool = try ToolProcess.executable().path
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-qfec", "\(tool) batch \(source) -o \(destination)3 -m thin", "/dev/null"]
        let output = Pipe()
        script.standardOutput = output
        script.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        XCTAssertEqual(script.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("] 4/4 photos") || text.contains("photos, "), text)
        XCTAssertTrue(text.contains("\r\u{1B}[K"), "the bar is redrawn in place: \(text.debugDescription)")
    }

    func testTheMemoryGateNeverAdmitsMoreThanItsCapacityButAlwaysAdmitsOnePhoto() {
        let gate = MemoryGate(capacity: 100)
        let state = Mutex((held: 0, peak: 0, alone: true))
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let need = index == 5 ? 250 : 10 + (index * 37) % 60  // one photo larger than the whole capacity
            gate.acquire(need)
            state.withLock { state in
                state.held += need
                state.peak = max(state.peak, state.held)
                if need > 100, state.held != need { state.alone = false }
            }
            usleep(2_000)
            state.withLock { $0.held -= need }
            gate.release(need)
        }
        state.withLock { state in
            XCTAssertLessThanOrEqual(state.peak, 250)
            XCTAssertTrue(state.alone, "the photo larger than the capacity ran alone")
            XCTAssertEqual(state.held, 0)
        }
    }

    func testBatchArguments() throws {
        guard
            case .batch(let request) = try ArgumentParser.parse([
                "batch", "in", "-o", "out", "-m", "thin,thick", "--material", "regular", "-a", "light,dark", "-j", "3",
                "--size", "100x200", "--threads", "2",
            ])
        else { return XCTFail("not a batch") }
        XCTAssertEqual(request.jobs, 3, "-j counts photos in flight in a batch")
        XCTAssertEqual(request.threadsPerPhoto, 2)
        XCTAssertEqual(
            request.variants.map(\.suffix),
            ["thin-light", "thin-dark", "thick-light", "thick-dark", "regular-light", "regular-dark"])
        XCTAssertEqual(
            request.variants.map { $0.request.size }, Array(repeating: FrameSize(width: 100, height: 200), count: 6))
        XCTAssertNotNil(ToolRun.usageError(["batch", "in", "-m", "thin"]), "no -o")
        XCTAssertNotNil(ToolRun.usageError(["batch", "in", "-o", "out"]), "no effect")
        XCTAssertNotNil(ToolRun.usageError(["batch", "in", "-o", "out", "-m", "thin", "--shard", "3/3"]))
        XCTAssertNotNil(ToolRun.usageError(["batch", "in", "-o", "out", "-m", "thin", "--transform", "scale(2)"]))
        XCTAssertNotNil(ToolRun.usageError(["batch", "in", "-o", "out", "-m", "thin,,thick"]))
        guard
            case .batch(let sized) = try ArgumentParser.parse([
                "batch", "in", "-o", "out", "-m", "thin", "--size", "10x20,30x40",
            ])
        else { return XCTFail("not a batch") }
        XCTAssertEqual(sized.variants.map(\.suffix), ["thin-10x20", "thin-30x40"])
    }
}
