extension String {
    /// This text as a JSON string: in double quotes, with quotes, backslashes and control characters escaped
    /// (`\n`, `\r`, `\t`, else `\u00XX`), anything else as it is. For what the tools write as JSON (a batch's
    /// report, the scene fuzzer's mutated scenes).
    package var quotedForJSON: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// This text as an error message may show it: in double quotes, with quotes, backslashes and every control,
    /// format or line-separator character escaped (`\n`, `\u{1B}`), and cut after `limit` characters.
    ///
    /// User text reaches messages from names, paths and options; raw, a newline would split a one-line error,
    /// an escape sequence would reach the terminal and a 4 MiB name would make a 4 MiB line.
    package func quotedForMessage(limit: Int = 80) -> String {
        var result = "\""
        var count = 0
        for scalar in unicodeScalars {
            if count == limit {
                result += "…\" (\(unicodeScalars.count) characters)"
                return result
            }
            count += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: String.appendEscaping(scalar, to: &result)
            }
        }
        return result + "\""
    }

    /// Appends `scalar`, or its escape when it is a control, format or line-separator character (`\n`,
    /// `\u{1B}`): the one rule every message in the project escapes by.
    package static func appendEscaping(_ scalar: Unicode.Scalar, to result: inout String) {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
    }
}

extension Double {
    /// The number as a message shows it: whole numbers without a decimal point (`1`, not `1.0`), others as
    /// Swift prints them.
    package var plainDescription: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }

    /// A decimal number as a person writes one (`12`, `-0.5`, `.5`, `2.5e3`), in ASCII only; nil for anything
    /// else. `Double(_:)` also reads hex floats (`0x1p3`), `nan`, `inf` and a leading `+`, none of which a user
    /// means as a size or an angle. A huge exponent gives ±infinity or 0, for the caller's range check.
    package init?(decimalText text: some StringProtocol) {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        var mantissaDigits = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard digits() > 0 else { return nil }
        }
        // The grammar is a subset of what Double(_:) reads, so this cannot fail.
        guard index == bytes.count, let value = Double(String(text)) else { return nil }
        self = value
    }
}

extension String {
    /// The Levenshtein distance to `other`, ignoring case (one row at a time): how far a mistyped name is from a
    /// known one, to suggest the closest (font families, symbol names).
    package func editDistance(to other: String) -> Int {
        let a = Array(lowercased().unicodeScalars)
        let b = Array(other.lowercased().unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The names in `known` closest to this one by `editDistance(to:)`, nearest first (ties by name), at most
    /// `count`.
    package func closest(in known: some Sequence<String>, count: Int = 5) -> [String] {
        known.map { ($0, editDistance(to: $0)) }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(count).map(\.0)
    }
}
