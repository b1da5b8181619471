extension String {
    /// This text as an error message may show it: in double quotes, with quotes, backslashes and every control,
    /// format or line-separator character escaped (`\n`, `\u{1B}`), and cut after `limit` characters.
    ///
    /// User text reaches messages from names, paths and options; raw, a newline would split a one-line error,
    /// an escape sequence would reach the terminal and a 4 MiB name would make a 4 MiB line.
    public func quotedForMessage(limit: Int = 80) -> String {
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
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned,
                    .privateUse:
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
