import Compositor

/// Numbers from user text, in ASCII decimal only: `Double(_:)` and `Int(_:)` also take hex floats (`0x1p3`), `nan`,
/// `inf` and a leading `+`, none of which a user means as `--quality` or `--size`.
extension ArgumentParser {
    /// A decimal number as `12`, `-0.5`, `.5` or `2.5e3` write it, within `range`; a whole number (digits only)
    /// when `integer` is set.
    static func number(
        _ text: String, _ name: String, in range: ClosedRange<Double>,
        integer: Bool = false
    ) throws(UsageError) -> Double {
        guard let value = integer ? wholeNumber(text).map(Double.init) : Double(decimalText: text), value.isFinite,
            range.contains(value)
        else {
            let kind = integer ? "a whole number" : "a number"
            throw UsageError(
                "\(name) expects \(kind) from \(range.lowerBound.plainDescription) to "
                    + "\(range.upperBound.plainDescription), not \(text.quotedForMessage())")
        }
        return value
    }

    /// ASCII digits only (at most 18, so the value fits an Int); nil for anything else.
    static func wholeNumber(_ text: some StringProtocol) -> Int? {
        let bytes = Array(text.utf8)
        guard (1...18).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
