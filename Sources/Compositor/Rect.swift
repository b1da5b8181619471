/// A rectangle in points: origin at the top left, y down, as `CGRect` on iOS.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var center: (x: Double, y: Double) { (x + width / 2, y + height / 2) }

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
