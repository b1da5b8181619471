/// The element tree of a small XML document, read without anything an SVG icon does not need: no DTD (a
/// `<!DOCTYPE` or `<!ENTITY` is refused, so no entity can expand), no external references, only the five
/// predefined entities and numeric character references, text ignored. Bounded: at most `maximumElements`
/// elements, `maximumDepth` deep. Errors name the byte offset.
struct XMLElement: Equatable {
    var name: String
    var attributes: [String: String]
    var children: [XMLElement]

    static let maximumElements = 100_000
    static let maximumDepth = 64

    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    /// The document's root element.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLElement {
        var reader = Reader(bytes: bytes)
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var elements = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func failure(_ message: String) -> Failure { Failure(offset: position, message: message) }

        /// Whether `text` is next, compared in place (`skip(past:)` asks at every byte of a comment).
        func starts(with text: String) -> Bool {
            let count = text.utf8.count
            return bytes.count - position >= count && bytes[position..<position + count].elementsEqual(text.utf8)
        }

        mutating func skip(past text: String) throws(Failure) {
            let count = text.utf8.count
            while position + count <= bytes.count {
                if starts(with: text) {
                    position += count
                    return
                }
                position += 1
            }
            throw failure("unterminated, expected \(text)")
        }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        /// Comments, processing instructions and the prolog before, between and after elements.
        mutating func skipMisc() throws(Failure) {
            while true {
                skipSpace()
                if starts(with: "<!--") {
                    try skip(past: "-->")
                } else if starts(with: "<?") {
                    try skip(past: "?>")
                } else if starts(with: "<!") {
                    throw failure("declarations (DOCTYPE, ENTITY) are not read")
                } else {
                    return
                }
            }
        }

        mutating func document() throws(Failure) -> XMLElement {
            if starts(with: "\u{FEFF}") { position += 3 }
            try skipMisc()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
                throw failure("expected the root element")
            }
            let root = try element(depth: 1)
            try skipMisc()
            guard position == bytes.count else { throw failure("content after the root element") }
            return root
        }

        mutating func name() throws(Failure) -> String {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                let isNameByte =
                    byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A) || [0x2D, 0x2E, 0x3A, 0x5F].contains(byte)
                guard isNameByte else { break }
                position += 1
            }
            guard position > start else { throw failure("expected a name") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// An element at `<`, its attributes and children, to its end tag.
        mutating func element(depth: Int) throws(Failure) -> XMLElement {
            guard depth <= XMLElement.maximumDepth else { throw failure("elements nested deeper than 64") }
            elements += 1
            guard elements <= XMLElement.maximumElements else { throw failure("more than 100,000 elements") }
            position += 1
            var result = XMLElement(name: try name(), attributes: [:], children: [])
            while true {
                skipSpace()
                guard position < bytes.count else { throw failure("unterminated tag <\(result.name)>") }
                if starts(with: "/>") {
                    position += 2
                    return result
                }
                if bytes[position] == UInt8(ascii: ">") {
                    position += 1
                    break
                }
                let key = try name()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { throw failure("expected =") }
                position += 1
                skipSpace()
                guard result.attributes[key] == nil else { throw failure("attribute \(key) given twice") }
                result.attributes[key] = try quoted()
            }
            while true {
                // Text (and CDATA) between elements is not drawn.
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
                guard position < bytes.count else { throw failure("missing </\(result.name)>") }
                if starts(with: "</") {
                    position += 2
                    guard try name() == result.name else { throw failure("mismatched end tag for <\(result.name)>") }
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                        throw failure("expected >")
                    }
                    position += 1
                    return result
                }
                if starts(with: "<![CDATA[") {
                    try skip(past: "]]>")
                } else if starts(with: "<!--") || starts(with: "<?") || starts(with: "<!") {
                    try skipMisc()
                } else {
                    result.children.append(try element(depth: depth + 1))
                }
            }
        }

        /// A quoted attribute value, its references resolved.
        mutating func quoted() throws(Failure) -> String {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
            else { throw failure("expected a quoted value") }
            let quote = bytes[position]
            position += 1
            var value = ""
            var start = position
            while position < bytes.count, bytes[position] != quote {
                if bytes[position] == UInt8(ascii: "&") {
                    value += String(decoding: bytes[start..<position], as: UTF8.self)
                    value.unicodeScalars.append(try reference())
                    start = position
                } else if bytes[position] == UInt8(ascii: "<") {
                    throw failure("< in an attribute value")
                } else {
                    position += 1
                }
            }
            guard position < bytes.count else { throw failure("unterminated attribute value") }
            value += String(decoding: bytes[start..<position], as: UTF8.self)
            position += 1
            return value
        }

        /// `&amp;` and the other four, or `&#N;` / `&#xN;`; anything else is refused (no entity is defined).
        mutating func reference() throws(Failure) -> Unicode.Scalar {
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: ";"), position - start < 12 { position += 1 }
            guard position < bytes.count, bytes[position] == UInt8(ascii: ";") else {
                throw failure("unterminated character reference")
            }
            let text = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
            position += 1
            switch text {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let number: UInt32? =
                    text.hasPrefix("#x")
                    ? UInt32(text.dropFirst(2), radix: 16)
                    : text.hasPrefix("#") ? UInt32(text.dropFirst(), radix: 10) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw Failure(offset: start, message: "unknown reference &\(text);")
                }
                return scalar
            }
        }
    }
}
