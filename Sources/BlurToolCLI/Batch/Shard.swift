/// A stable share of a photo set: photo p belongs to shard `hash(p's relative path) mod count`, so shards are
/// disjoint and cover the set whatever order the photos are listed or found in, on every machine.
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    /// 0-based, below `count`.
    public let index: Int
    public let count: Int

    public static let whole = Shard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "a shard's index is 0 ..< count")
        self.index = index
        self.count = count
    }

    /// `K/N`, K from 0 to N − 1.
    init(parsing text: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = ArgumentParser.wholeNumber(parts[0]),
            let count = ArgumentParser.wholeNumber(parts[1]), (1...1_000_000).contains(count), index < count
        else {
            throw UsageError(
                "--shard expects K/N with 0 ≤ K < N ≤ 1000000 (K counts from 0), not \(text.quotedForMessage())")
        }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    public func owns(_ relativePath: String) -> Bool {
        count == 1 || Int(Shard.hash(relativePath) % UInt64(count)) == index
    }

    /// FNV-1a over the path's UTF-8, then SplitMix64's finaliser so that paths differing in their last
    /// characters (photo-0001 … photo-9999) spread evenly over any count.
    static func hash(_ relativePath: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in relativePath.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    /// The shard an array job's task is: Slurm's `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN` among
    /// `SLURM_ARRAY_TASK_COUNT` (or MAX − MIN + 1) tasks; with `count` (`--shards N`), the task id itself among N,
    /// so one task resubmitted alone (`sbatch --array=2 … --shards 4`) is still shard 2 of 4; or Kubernetes'
    /// `JOB_COMPLETION_INDEX` among `count`. Nil outside an array job without `count`: the whole set.
    static func fromEnvironment(_ environment: [String: String], count: Int?) throws(UsageError) -> Shard? {
        func number(_ name: String) throws(UsageError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = ArgumentParser.wholeNumber(text) else {
                throw UsageError("\(name) is \(text.quotedForMessage()), not a whole number")
            }
            return value
        }
        let index: Int
        var total = count
        let source: String
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            let minimum = total == nil ? try number("SLURM_ARRAY_TASK_MIN") ?? 0 : 0
            index = task - minimum
            source = "SLURM_ARRAY_TASK_ID \(task)" + (minimum == 0 ? "" : " − SLURM_ARRAY_TASK_MIN \(minimum)")
            if total == nil {
                if let tasks = try number("SLURM_ARRAY_TASK_COUNT") {
                    total = tasks
                } else if let maximum = try number("SLURM_ARRAY_TASK_MAX") {
                    total = maximum - minimum + 1
                }
            }
        } else if let completion = try number("JOB_COMPLETION_INDEX") {
            index = completion
            source = "JOB_COMPLETION_INDEX \(completion)"
            guard total != nil else {
                throw UsageError("JOB_COMPLETION_INDEX is set: give the job's completion count with --shards N")
            }
        } else {
            guard let total else { return nil }
            throw UsageError(
                "--shards \(total) needs an index: SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX is not set "
                    + "(give --shard K/N to choose one by hand)")
        }
        guard let total else {
            throw UsageError("\(source): the array's size is unknown; give it with --shards N")
        }
        guard total >= 1, (0..<total).contains(index) else {
            throw UsageError("\(source) is not a shard of \(total) (from 0 to \(total - 1))")
        }
        return Shard(index: index, count: total)
    }
}
