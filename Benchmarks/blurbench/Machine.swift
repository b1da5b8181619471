import Compositor

#if canImport(Glibc)
    import Glibc
#endif

/// What the figures were measured on, printed with every run so that numbers from different machines or builds
/// are never compared by accident: the CPU's model and vector extensions, and whether this binary was built for
/// this CPU (`make release`'s `-target-cpu`) or for the architecture's baseline (a plain `swift build -c release`,
/// what a package depending on the library gets).
struct Machine {
    var cpuModel: String
    var vectorExtensions: [String]
    var build: String

    /// The extensions the kernels can use, in the order they were added to x86-64 (and NEON, SVE on arm64).
    static let listed = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "asimd", "sve"]

    static func current() -> Machine {
        var fields: [String: String] = [:]
        for line in readFile("/proc/cpuinfo").split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon]).trimmed
            if fields[key] == nil { fields[key] = String(line[line.index(after: colon)...]).trimmed }
        }
        let flags = Set((fields["flags"] ?? fields["Features"] ?? "").split(separator: " ").map(String.init))
        return Machine(
            cpuModel: fields["model name"] ?? fields["CPU part"].map { "CPU part \($0)" } ?? "unknown CPU",
            vectorExtensions: listed.filter(flags.contains), build: Kernels.build)
    }

    var summary: String {
        let extensions = vectorExtensions.isEmpty ? "none of \(Machine.listed.joined(separator: " "))" : vectorExtensions.joined(separator: " ")
        return "\(cpuModel), \(extensions); build \(build)"
    }

    var json: String {
        "\"cpu\": \"\(cpuModel)\", \"vector_extensions\": ["
            + vectorExtensions.map { "\"\($0)\"" }.joined(separator: ", ") + "], \"build\": \"\(build)\", "
            + "\"kernels\": \"\(Kernels.name)\""
    }

    private static func readFile(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate var trimmed: String {
        let isBlank = { (c: Character) in c == " " || c == "\t" }
        return String(drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
