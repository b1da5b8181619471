/// A parsed JSON value (RFC 8259). Objects keep their keys in order; a repeated key is an error, since a scene
/// that says `"opacity"` twice is a mistake, not a choice.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// What a value is, for messages: "a number", "an object".
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A syntax error in a JSON text, with its line and column (1-based, in characters).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A small recursive-descent JSON parser over UTF-8 bytes, strict as RFC 8259 is: invalid UTF-8 and
/// malformed escapes are errors, not replaced. A nesting limit keeps hostile input from exhausting the stack,
/// and the work is linear in the input (keys are checked for repeats through a set).
struct JSONParser {
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }  // a UTF-8 byte-order mark
        parser.index = start
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { (p: inout JSONParser) throws(JSONSyntaxError) in try p.object() }
        case UInt8(ascii: "["): return try nested { (p: inout JSONParser) throws(JSONSyntaxError) in try p.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(describeByte(at: index))")
        }
    }

    private mutating func nested(
        _ body: (inout JSONParser) throws(JSONSyntaxError) -> JSONValue
    ) throws(JSONSyntaxError) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONParser.maximumDepth else {
            throw error("nested more than \(JSONParser.maximumDepth) levels deep")
        }
        return try body(&self)
    }

    private mutating func literal(_ word: String, _ result: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw error("unknown word (expected \(word)?)") }
        index += expected.count
        return result
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        index += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        var keys = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes")
            }
            let keyStart = index
            let key = try string()
            guard keys.insert(key).inserted else {
                index = keyStart
                throw error("key \(key.quotedForMessage()) appears twice")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
            }
            return parser.index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits(&self) > 0 else { throw error("a number needs digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw error("numbers do not start with 0")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw error("number out of range")
        }
        return value
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        // The string's UTF-8, made into a String once at the end: appending to a UnicodeScalarView after every
        // escape copied it each time (300,000 escaped zero-width spaces took 28 s).
        var utf8: [UInt8] = []
        var run: [UInt8] = []
        var runStart = index  // where `run` began, for the error's column
        func flush() throws(JSONSyntaxError) {
            guard !run.isEmpty else { return }
            guard String(validating: run, as: UTF8.self) != nil else {
                index = runStart
                throw error("invalid UTF-8 in a string")
            }
            utf8 += run
            run.removeAll(keepingCapacity: true)
        }
        func append(_ scalar: Unicode.Scalar) { UTF8.encode(scalar) { utf8.append($0) } }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                try flush()
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try flush()
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): append("\u{8}")
                case UInt8(ascii: "f"): append("\u{C}")
                case UInt8(ascii: "n"): append("\n")
                case UInt8(ascii: "r"): append("\r")
                case UInt8(ascii: "t"): append("\t")
                case UInt8(ascii: "u"): append(try unicodeEscape())
                default:
                    index -= 2
                    throw error("unknown escape: backslash then \(describeByte(at: index + 1))")
                }
            case 0..<0x20:
                throw error("control character in a string (write it as an escape)")
            default:
                if run.isEmpty { runStart = index - 1 }
                run.append(byte)
            }
        }
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        func hex4(_ parser: inout JSONParser) throws(JSONSyntaxError) -> UInt32 {
            // Digit by digit: UInt32(_:radix:) would also take a sign, as in "\u+041".
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard parser.index < parser.bytes.count, let digit = hexDigitValue(parser.bytes[parser.index]) else {
                    throw parser.error("expected four hex digits after \\u")
                }
                value = value << 4 | digit
                parser.index += 1
            }
            return value
        }
        let first = try hex4(&self)
        if (0xD800..<0xDC00).contains(first) {
            guard bytes[index...].starts(with: Array("\\u".utf8)) else { throw error("unpaired surrogate") }
            index += 2
            let second = try hex4(&self)
            guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate") }
        return scalar
    }

    /// A byte for a message: an ASCII character in quotes, anything else by its hex value.
    private func describeByte(at position: Int) -> String {
        let byte = bytes[position]
        if (0x21..<0x7F).contains(byte) { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}

/// The value of an ASCII hex digit (never a full-width or other Unicode digit).
private func hexDigitValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}
