// `swift build` builds every target, tests' helpers too; a release build with the static standard library has no
// XCTest to import, and only the tests use this.
#if canImport(XCTest)
import XCTest

/// What a test compares with that the package does not build (ffmpeg, an installed font, Pillow): missing, the
/// test is skipped with a message that starts "oracle missing:", and `make test` names every such skip in its
/// summary; with `BLURTOOL_REQUIRE_ORACLES=1` (as `.ci/run` sets it), a missing oracle fails the test instead, so
/// a machine without one cannot pass without checking.
public enum Oracles {
    public static var areRequired: Bool {
        ProcessInfo.processInfo.environment["BLURTOOL_REQUIRE_ORACLES"] == "1"
    }

    /// The error to throw when `what` is not there: a skip, or a failure where oracles are required.
    public static func missing(_ what: String) -> any Error {
        areRequired ? Missing(description: "oracle missing: \(what) (BLURTOOL_REQUIRE_ORACLES=1)") : XCTSkip(
            "oracle missing: \(what)")
    }

    private struct Missing: Error, CustomStringConvertible {
        var description: String
    }
}
#endif
