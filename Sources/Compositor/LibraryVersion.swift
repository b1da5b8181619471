/// The library's version: what `blurtool --version` and the C interface's `blurtool_version()` report.
public enum LibraryVersion {
    public static let string = "0.1.0"
}
