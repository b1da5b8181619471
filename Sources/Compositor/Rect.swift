/// A point in points, y down, as `CGPoint` on iOS.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x, y: Double

    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}

/// A width and height in points, as `CGSize`.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width, height: Double

    public init(width: Double, height: Double) { (self.width, self.height) = (width, height) }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// A rectangle in points: origin at the top left, y down, as `CGRect` on iOS.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    var tuple: (x: Double, y: Double, width: Double, height: Double) { (x, y, width, height) }

    /// The overlap of two rectangles (zero-sized when they do not meet).
    package func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(x + width, other.x + other.width)
        let bottom = min(y + height, other.y + other.height)
        return Rect(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
    }

    public var description: String { "(\(x), \(y), \(width), \(height))" }
}
