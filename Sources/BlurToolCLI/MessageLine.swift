extension String {
    /// This text made safe for one line of stderr: control, format and line-separator characters escaped as
    /// `quotedForMessage` escapes them, and the whole cut once it reaches `limit` bytes (counted after escaping,
    /// which makes a control character up to 10 bytes long).
    ///
    /// For messages other modules compose (a transform's or a scene's parse error, a codec's), which may carry user
    /// text; the CLI quotes its own pieces with `quotedForMessage`, and on those this changes nothing.
    func escapedForMessageLine(limit: Int = 1000) -> String {
        var result = ""
        for scalar in unicodeScalars {
            if result.utf8.count >= limit { return result + "… (message cut at \(limit) bytes)" }
            String.appendEscaping(scalar, to: &result)
        }
        return result
    }
}
