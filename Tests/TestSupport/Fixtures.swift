/// Paths of files in the repository, found from this source file's location.
public enum Fixtures {
    /// The repository's root directory, with a trailing slash.
    public static let root: String = {
        var path = #filePath
        for _ in 0..<3 {  // Tests/TestSupport/Fixtures.swift
            path = String(path[..<path.lastIndex(of: "/")!])
        }
        return path + "/"
    }()

    public static func path(_ name: String) -> String {
        root + "fixtures/" + name
    }

    /// The shared robustness corpus beside the repository, when present (CI and developers have it).
    public static let corpus = root + "../shared/corpus/"
}
