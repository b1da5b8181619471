import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A batch's progress on a terminal (photos done, photos/s, failures, time left, redrawn at most ten times a
/// second), one line per failure, and a summary at the end.
final class BatchProgress: Sendable {
    private struct Tally {
        var done = 0
        var skipped = 0
        var failed = 0
        var lastDrawn: ContinuousClock.Instant?
    }

    let total: Int
    let shard: Shard
    /// A bar only on a terminal and without --quiet; failure lines and the summary go to the console always.
    let showsBar: Bool
    private let console: BlurTool.Console
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let tally = Mutex(Tally())

    init(total: Int, shard: Shard, showsBar: Bool, console: BlurTool.Console) {
        self.total = total
        self.shard = shard
        self.showsBar = showsBar
        self.console = console
        start = clock.now
    }

    func record(_ photo: BatchPhoto, _ outcome: PhotoOutcome) {
        tally.withLock { tally in
            switch outcome.status {
            case .done: tally.done += 1
            case .skipped: tally.skipped += 1
            case .failed: tally.failed += 1
            }
            if let failure = outcome.failure {
                if showsBar { writeToStandardError("\r\u{1B}[K") }
                console.err(failure.line)
            }
            let now = clock.now
            guard showsBar, outcome.failure != nil || tally.lastDrawn.map({ now - $0 > .milliseconds(100) }) ?? true
            else { return }
            tally.lastDrawn = now
            writeToStandardError("\r\u{1B}[K" + bar(tally, at: now))
        }
    }

    /// The summary; `left` is the photos not started when a signal stopped the run.
    func finish(left: Int?, quiet: Bool) {
        let tally = tally.withLock { $0 }
        if showsBar { writeToStandardError("\r\u{1B}[K") }
        guard !quiet else { return }
        let seconds = elapsedSeconds(clock.now)
        let handled = tally.done + tally.skipped + tally.failed
        let rate = seconds > 0 ? Double(handled) / seconds : 0
        var line =
            "blurtool: batch: \(total) photos" + (shard.count > 1 ? " in shard \(shard)" : "")
            + ": \(tally.done) done, \(tally.skipped) already done, \(tally.failed) failed; "
            + "\(String(format2: seconds)) s, \(String(format2: rate)) photos/s"
        if let left {
            line += "; stopped by a signal with \(left) left: run the same command again to finish"
        }
        console.err(line)
    }

    private func bar(_ tally: Tally, at now: ContinuousClock.Instant) -> String {
        let finished = tally.done + tally.skipped + tally.failed
        let seconds = elapsedSeconds(now)
        let rate = seconds > 0 ? Double(finished) / seconds : 0
        let width = 24
        let filled = total > 0 ? width * finished / total : width
        let left = rate > 0 ? Int((Double(total - finished) / rate).rounded()) : nil
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + "\(finished)/\(total) photos, \(String(format2: rate))/s"
            + (tally.failed > 0 ? ", \(tally.failed) failed" : "")
            + (left.map { ", \($0 / 60):" + ($0 % 60 < 10 ? "0" : "") + "\($0 % 60) left" } ?? "")
    }

    private func elapsedSeconds(_ now: ContinuousClock.Instant) -> Double { (now - start).seconds }
}

/// `--report FILE`: one JSON line per photo (input, outputs, status, milliseconds, error), each appended with one
/// `write` as its photo finishes. A report is a log, not an output: a run killed outright (SIGKILL, a lost node)
/// leaves the lines of the photos it finished, which say what it did, where a report renamed into place at the end
/// would leave nothing but a stray temporary file. Shards write theirs side by side.
final class BatchReport: Sendable {
    private struct State {
        let descriptor: Int32
        let path: String
        /// The first write that failed: the report is then incomplete, and `commit` says so.
        var failure: ToolFailure?
    }

    private let state: Mutex<State>

    /// Starts the report afresh (a file of that name is replaced: the user named it for this run).
    init(_ path: String) throws(ToolFailure) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw ToolFailure(.cannotCreate, path, "is a directory")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ToolFailure(.cannotCreate, path, FileIO.errorText(errno)) }
        state = Mutex(State(descriptor: descriptor, path: path))
    }

    deinit {
        state.withLock { _ = close($0.descriptor) }
    }

    func record(_ photo: BatchPhoto, _ outcome: PhotoOutcome) {
        var line = "{\"input\":" + photo.path.quotedForJSON
        line += ",\"outputs\":[" + outcome.outputs.map(\.quotedForJSON).joined(separator: ",") + "]"
        line += ",\"status\":\"\(outcome.status.rawValue)\",\"ms\":\(outcome.milliseconds)"
        if let failure = outcome.failure {
            line += ",\"error\":" + failure.reason.quotedForJSON + ",\"exit\":\(failure.code.rawValue)"
        }
        line += "}\n"
        let bytes = Array(line.utf8)
        state.withLock { state in
            guard state.failure == nil else { return }
            let written = bytes.withUnsafeBytes { write(state.descriptor, $0.baseAddress, $0.count) }
            if written != bytes.count {
                state.failure = ToolFailure(.ioError, state.path, written < 0 ? FileIO.errorText(errno) : "short write")
            }
        }
    }

    /// Fails with the first write that failed, if any: the report is then incomplete.
    func commit() throws(ToolFailure) {
        try state.withLock { state throws(ToolFailure) in
            if let failure = state.failure { throw failure }
        }
    }
}
