import Compositor
import ImageCodecs
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every photo of a batch shares: the outputs asked for, where they go, the journal and the memory gate.
final class BatchPlan: Sendable {
    let destination: String
    /// Each with the threads one photo may use.
    let variants: [BatchRequest.Variant]
    /// The options that decide the outputs' pixels, hashed: a journal line counts only for the same ones.
    let fingerprint: String
    let journal: BatchJournal
    let memory: MemoryGate

    init(destination: String, variants: [BatchRequest.Variant], journal: BatchJournal, memory: MemoryGate) {
        self.destination = destination
        self.variants = variants
        self.journal = journal
        self.memory = memory
        var described = ""
        for variant in variants {
            var request = variant.request
            // What cannot change a pixel or a byte of the output is left out.
            (request.input, request.output, request.threads, request.isVerbose) = ("", nil, 1, false)
            described += "\(variant.suffix)|\(request)\n"
        }
        fingerprint = String(Shard.hash(described), radix: 16)
    }

    /// The bytes a photo is expected to hold at its peak: the file, the decoded picture and, for its largest
    /// output, three frames (the result, what it is made from, the encoder's buffer).
    func memoryNeed(header: ImageInfo, fileBytes: Int, scale: Int) -> Int {
        let decoded = ((header.storedWidth + scale - 1) / scale) * ((header.storedHeight + scale - 1) / scale) * 4
        let largest =
            variants.map { variant in
                variant.request.size.map { $0.width * $0.height } ?? header.storedWidth * header.storedHeight
            }.max() ?? 0
        return fileBytes + decoded + 3 * 4 * largest
    }
}

/// `blurtool batch`: every photo of the source (this shard's share) to its outputs, photos in parallel.
struct Batch {
    /// The most photos in flight `--jobs` allows.
    static let maximumJobs = 64
    /// The memory a batch's photos hold together, at most: a quarter of what the process may use, at most 2 GiB.
    static var memoryCapacity: Int { min(2 << 30, MemoryBudget.limit / 4) }

    let request: BatchRequest
    let console: BlurTool.Console
    var environment: [String: String] = Batch.processEnvironment()

    func run() throws -> ExitCode {
        let shard = try request.shard ?? Shard.fromEnvironment(environment, count: request.shardCount) ?? .whole
        let destination =
            request.destination.count > 1 && request.destination.hasSuffix("/")
            ? String(request.destination.dropLast()) : request.destination
        var status = stat()
        if stat(destination, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            throw ToolFailure(.cannotCreate, destination, "is not a folder")
        }
        let (photos, _) = try PhotoSource.photos(from: request.source, excluding: destination)
        let owned = photos.filter { shard.owns($0.relativePath) }
        if request.listsOnly {
            console.out(owned.map(\.relativePath).joined(separator: "\n"))
            return .success
        }
        try FileIO.makeFolder(destination)
        let jobs = min(request.jobs ?? Parallel.processorCount, max(owned.count, 1))
        let threads = request.threadsPerPhoto ?? max(1, Parallel.processorCount / jobs)
        let variants = request.variants.map { variant in
            var variant = variant
            variant.request.threads = threads
            return variant
        }
        let plan = BatchPlan(
            destination: destination, variants: variants,
            journal: try BatchJournal(destination: destination, shard: shard),
            memory: MemoryGate(capacity: Batch.memoryCapacity))
        let report = try request.reportPath.map { path throws(ToolFailure) in try BatchReport(path) }
        let progress = BatchProgress(
            total: owned.count, shard: shard, showsBar: !request.isQuiet && isatty(STDERR_FILENO) == 1,
            console: console)
        TemporaryFileCleanup.defersTermination()

        let next = Atomic<Int>(0)
        let outcomes = Mutex([PhotoOutcome?](repeating: nil, count: owned.count))
        runOnThreads(jobs) { _ in
            while TemporaryFileCleanup.terminationSignal == nil {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < owned.count else { return }
                let photo = owned[index]
                let outcome = PhotoJob(photo: photo, plan: plan).run(console: console)
                outcomes.withLock { $0[index] = outcome }
                report?.record(photo, outcome)
                progress.record(photo, outcome)
            }
        }
        let finished = outcomes.withLock { $0.compactMap { $0 } }
        try report?.commit()
        if request.writesSheet {
            try BatchIndexPage(destination: destination, photos: owned, outcomes: outcomes.withLock { $0 }).write()
        }
        let interrupted = TemporaryFileCleanup.terminationSignal.map { _ in owned.count - finished.count }
        progress.finish(left: interrupted, quiet: request.isQuiet)
        if interrupted != nil { return .incomplete }
        let failures = finished.compactMap(\.failure)
        guard !failures.isEmpty else { return .success }
        // A photo's own fault (unreadable, corrupt) is a data error; a fault of the destination is its own.
        return failures.first { ![.dataError, .noInput].contains($0.code) }?.code ?? .dataError
    }

    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in [
            "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
            "JOB_COMPLETION_INDEX",
        ] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
