import Compositor
import ImageCodecs

/// `blurtool batch SOURCE -o DEST …`: every photo under SOURCE (a folder, a list file or `-`) to DEST, in one
/// output per material × appearance × size, the photos in parallel, resumable and shardable.
public struct BatchRequest: Equatable, Sendable {
    /// One output of each photo: the render options (input and output left to the batch) and what its file
    /// name adds to the photo's stem.
    public struct Variant: Equatable, Sendable {
        public var request: RenderRequest
        public var suffix: String
    }

    /// A folder walked recursively, a file listing one path per line, or `-` for such a list on stdin.
    public var source: String
    /// The folder the outputs go to, mirroring the source's tree.
    public var destination: String
    public var variants: [Variant]
    /// Photos in flight at once; nil for one per core.
    public var jobs: Int?
    /// `--threads T`: the threads each photo may use; nil for the cores shared among the photos in flight.
    public var threadsPerPhoto: Int?
    /// `--shard K/N`; nil: from the environment (Slurm's array variables, Kubernetes' completion index) or
    /// the whole set.
    public var shard: Shard?
    /// `--shards N`: the count that goes with an index from the environment.
    public var shardCount: Int?
    /// `--report FILE`: one JSON line per photo of this run.
    public var reportPath: String?
    public var isQuiet = false
    /// `--list`: print the photos this shard owns and do nothing else.
    public var listsOnly = false
    /// `--sheet`: write DEST/index.html, a thumbnail per photo.
    public var writesSheet = false

    public init(source: String, destination: String, variants: [Variant]) {
        self.source = source
        self.destination = destination
        self.variants = variants
    }
}

extension ArgumentParser {
    /// The options only `batch` takes; every other option is a render option shared by all outputs.
    private static let batchOptions: Set = [
        "--output", "--jobs", "--shard", "--shards", "--report", "--quiet", "--list", "--sheet",
    ]
    /// Render options that may list several values (comma-separated or repeated), one output each.
    private static let listedOptions = ["--material", "--appearance", "--size"]

    static func batchRequest(
        positionals: [String], options: [(name: String, value: String?)]
    ) throws(UsageError) -> BatchRequest {
        guard positionals.count == 1 else {
            throw UsageError("'batch' needs exactly one SOURCE (a folder, a list file or '-' for a list on stdin)")
        }
        var destination: String?
        var listed: [String: [String]] = [:]
        var shared: [(name: String, value: String?)] = []
        var request = BatchRequest(source: positionals[0], destination: "", variants: [])
        for (name, value) in options {
            let text = value ?? ""
            if listedOptions.contains(name) {
                let values = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                listed[name, default: []].append(contentsOf: values)
                continue
            }
            guard batchOptions.contains(name) else {
                if name == "--transform" { throw UsageError("option '--transform' does not apply to 'batch'") }
                shared.append((name, value))
                continue
            }
            switch name {
            case "--output": destination = text
            case "--jobs": request.jobs = Int(try number(text, name, in: 1...Double(Batch.maximumJobs), integer: true))
            case "--shard": request.shard = try Shard(parsing: text)
            case "--shards": request.shardCount = Int(try number(text, name, in: 1...1_000_000, integer: true))
            case "--report": request.reportPath = text
            case "--quiet": request.isQuiet = true
            case "--list": request.listsOnly = true
            case "--sheet": request.writesSheet = true
            default: break
            }
        }
        guard let destination, !destination.isEmpty, destination != "-" else {
            throw UsageError("'batch' needs -o DEST, the folder the outputs go to")
        }
        if request.shard != nil, request.shardCount != nil {
            throw UsageError("give --shard K/N or --shards N (with an index from the environment), not both")
        }
        request.destination = destination
        request.variants = try variants(listed: listed, shared: shared)
        if shared.contains(where: { $0.name == "--threads" }) {
            request.threadsPerPhoto = request.variants[0].request.threads
        }
        return request
    }

    /// Every combination of the listed materials, appearances and sizes, each parsed as a render request.
    private static func variants(
        listed: [String: [String]], shared: [(name: String, value: String?)]
    ) throws(UsageError) -> [BatchRequest.Variant] {
        func values(_ name: String) throws(UsageError) -> [String?] {
            guard let given = listed[name] else { return [nil] }
            if given.contains("") { throw UsageError("\(name) has an empty value in its list") }
            var unique: [String] = []
            for value in given where !unique.contains(value) { unique.append(value) }
            return unique
        }
        let materials = try values("--material")
        let appearances = try values("--appearance")
        let sizes = try values("--size")
        var variants: [BatchRequest.Variant] = []
        for material in materials {
            for appearance in appearances {
                for size in sizes {
                    var options = shared
                    if let material { options.append(("--material", material)) }
                    if let appearance { options.append(("--appearance", appearance)) }
                    if let size { options.append(("--size", size)) }
                    let request = try renderRequest(input: "", options: options)
                    var suffix = Renderer(request: request, console: .standard).defaultSuffix
                    // The appearance is named when it is not the default or when several are made; the size
                    // when several are made (a material's name already says the rest).
                    if appearances.count > 1 || (request.appearance != .light && request.materialName != nil) {
                        suffix += "-" + request.appearance.rawValue
                    }
                    if sizes.count > 1, let size = request.size, request.materialName != nil || request.sigma != nil {
                        suffix += "-\(size.width)x\(size.height)"
                    }
                    variants.append(BatchRequest.Variant(request: request, suffix: suffix))
                }
            }
        }
        let suffixes = variants.map(\.suffix)
        if Set(suffixes).count != suffixes.count {
            throw UsageError("two outputs of each photo would have the same name; list each value once")
        }
        return variants
    }
}
