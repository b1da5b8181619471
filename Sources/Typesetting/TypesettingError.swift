import Compositor

/// Why a string could not be typeset in a style; each description is one line a user can act on.
public enum TypesettingError: Error, Equatable, CustomStringConvertible {
    /// No installed font has this family name; `close` lists up to five installed families nearest by name.
    case familyNotInstalled(String, close: [String])
    /// The file exists and was read but holds no scalable font FreeType knows.
    case notAFont(path: String)
    /// The file could not be opened or read.
    case unreadableFile(path: String)
    /// The size is not finite and positive, or is above `FontTypesetter.maximumSize`.
    case invalidSize(Double)
    /// The string is longer than `FontTypesetter.maximumUTF8Count` bytes of UTF-8.
    case textTooLong(utf8Count: Int)

    public var description: String {
        switch self {
        case .familyNotInstalled(let family, let close):
            let suggestion = close.isEmpty ? "" : "; close: " + close.joined(separator: ", ")
            return "no font family \(family.quotedForMessage(limit: 60)) is installed\(suggestion)"
        case .notAFont(let path):
            return "\(path.quotedForMessage(limit: 200)) is not a font file (TrueType, OpenType or a collection)"
        case .unreadableFile(let path):
            return "cannot read the font file \(path.quotedForMessage(limit: 200))"
        case .invalidSize(let size):
            return "font size \(size) is not a number of points above 0 and at most \(Int(FontTypesetter.maximumSize))"
        case .textTooLong(let count):
            return "the text is \(count) bytes of UTF-8, more than the \(FontTypesetter.maximumUTF8Count) a layer may hold"
        }
    }
}
