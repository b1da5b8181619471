/// Why SVG path data could not be read: where, and what was expected there.
public struct SVGPathDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending character's offset from the start of the data, from 0, in bytes of its UTF-8 (path data is
    /// ASCII, and reading stops at the first byte that is not, so this is also its offset in characters).
    public let offset: Int
    /// The message, e.g. `expected a number at offset 12, found "x"`.
    public let description: String
}

/// The lexical level of SVG path data (SVG 1.1 § 8.3.9's grammar, which SVG 2 keeps): numbers, flags and the
/// whitespace and commas between them, read from the bytes of the text.
///
/// Numbers are read as that grammar writes them: an optional sign, digits with an optional fraction (`1`,
/// `1.5`, `.5`, and `1.`, which the grammar allows though some browsers refuse it), an optional exponent (`1e-3`,
/// `1.e2`); a number ends where the next character cannot continue it, so `1.5.5` is 1.5 then .5 and `-1-2` is
/// −1 then −2. An `e` not followed by digits is not an exponent: the number ends before it.
struct SVGPathDataScanner {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The next byte, or nil at the end.
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Steps over the current byte.
    mutating func advance() { index += 1 }

    /// Skips SVG's whitespace: space, tab, line feed, carriage return and (SVG 2) form feed.
    mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// Skips the grammar's `comma-wsp?` (whitespace, at most one comma, whitespace); true when it held a comma,
    /// after which another argument must follow.
    mutating func skipSeparator() -> Bool {
        skipWhitespace()
        guard current == UInt8(ascii: ",") else { return false }
        index += 1
        skipWhitespace()
        return true
    }

    /// Whether a number may begin here: a digit, a sign or a point.
    var isAtNumber: Bool {
        guard let byte = current else { return false }
        return Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// Reads a number; refuses one too large for a Double (`1e400`).
    mutating func number() throws(SVGPathDataError) -> Double {
        let start = index
        var negative = false
        if let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            index += 1
        }
        // The first 19 significant digits, exactly, and the power of ten that scales them.
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var mantissaDigits = 0
        var moreDigitsThanKept = false
        func take(_ digit: UInt64, fraction: Bool) {
            mantissaDigits += 1
            if significand == 0, digit == 0 {
                if fraction { exponent -= 1 }
            } else if significantDigits < 19 {
                significand = significand * 10 + digit
                significantDigits += 1
                if fraction { exponent -= 1 }
            } else {
                if !fraction { exponent += 1 }
                if digit != 0 { moreDigitsThanKept = true }
            }
        }
        while let byte = current, Self.isDigit(byte) {
            take(UInt64(byte - UInt8(ascii: "0")), fraction: false)
            index += 1
        }
        if current == UInt8(ascii: ".") {
            index += 1
            while let byte = current, Self.isDigit(byte) {
                take(UInt64(byte - UInt8(ascii: "0")), fraction: true)
                index += 1
            }
        }
        guard mantissaDigits > 0 else {
            index = start
            throw error(expected: "a number")
        }
        if let e = current, e == UInt8(ascii: "e") || e == UInt8(ascii: "E"), exponentFollows(index + 1) {
            index += 1
            var exponentSign = 1
            if let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentSign = sign == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            var written = 0
            while let byte = current, Self.isDigit(byte) {
                // Beyond ±10⁶ every significand overflows or vanishes: saturate rather than wrap.
                written = min(written * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            exponent += exponentSign * written
        }
        var value: Double
        if !moreDigitsThanKept, significand < 1 << 53, abs(exponent) <= 22 {
            // Clinger's fast path: both operands are exact Doubles, so one rounding gives the nearest Double.
            value = Double(significand)
            value = exponent >= 0 ? value * Self.powersOfTen[exponent] : value / Self.powersOfTen[-exponent]
        } else {
            // The rare long or far number: the text is a subset of what Double's own parser reads correctly.
            value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .nan
            value = abs(value)
        }
        guard value.isFinite else {
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            throw SVGPathDataError(
                offset: start,
                description: "number \(text.quotedForMessage(limit: 40)) out of range at offset \(start)")
        }
        return negative ? -value : value
    }

    /// Reads an arc flag: a single `0` or `1`, which needs nothing after it to end it (`a1 1 0 00.5.5`).
    mutating func flag() throws(SVGPathDataError) -> Bool {
        guard let byte = current, byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else {
            throw error(expected: "a flag (0 or 1)")
        }
        index += 1
        return byte == UInt8(ascii: "1")
    }

    /// The error "expected … at offset N, found …" for the current position.
    func error(expected: String) -> SVGPathDataError {
        error(expected: expected, at: index)
    }

    /// The error "expected … at offset N, found …" for `offset`.
    func error(expected: String, at offset: Int) -> SVGPathDataError {
        let found: String
        if offset >= bytes.count {
            found = "the end of the data"
        } else if bytes[offset] < 0x80 {
            found = String(UnicodeScalar(bytes[offset])).quotedForMessage()
        } else {
            found = "a character that is not ASCII"
        }
        return SVGPathDataError(offset: offset, description: "expected \(expected) at offset \(offset), found \(found)")
    }

    /// Whether an exponent's digits (after an optional sign) begin at `offset`.
    private func exponentFollows(_ offset: Int) -> Bool {
        var offset = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
            offset += 1
        }
        return offset < bytes.count && Self.isDigit(bytes[offset])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// 10⁰ … 10²², every one exact in a Double.
    private static let powersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }
}
