/// How long an animated PNG frame shows: `numerator / denominator` seconds, as fcTL stores it (16 bits each; a
/// denominator of 0 means 1/100, as the format says).
public struct FrameDelay: Hashable, Sendable, Codable, CustomStringConvertible {
    public var numerator: UInt16
    public var denominator: UInt16

    public init(_ numerator: UInt16, _ denominator: UInt16) {
        (self.numerator, self.denominator) = (numerator, denominator)
    }

    public var description: String { "\(numerator)/\(denominator) s" }
}

/// Frames per second as a ratio, as video streams state it (30/1, 30000/1001).
public struct FrameRate: Hashable, Sendable, Codable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
        (self.numerator, self.denominator) = (numerator, denominator)
    }

    public var description: String { "\(numerator)/\(denominator) fps" }
}
