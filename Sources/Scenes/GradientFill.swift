import Compositor

/// A gradient painting a path, a shape or a backdrop, and where it lies: SVG's `gradientUnits` and
/// `gradientTransform` (CAGradientLayer's `startPoint` and `endPoint` are the bounding-box units).
public struct GradientFill: Equatable, Sendable {
    /// What the gradient's coordinates are measured in.
    public enum Units: String, CaseIterable, Sendable {
        /// 0…1 across the painted thing's box: a path's bounds, a shape's or a backdrop's frame. The gradient
        /// follows the frame as it animates.
        case objectBoundingBox
        /// The painted thing's own units: path coordinates, or points from a shape's or backdrop's frame corner.
        case userSpaceOnUse
    }

    public var gradient: Gradient
    /// The gradient's coordinates to the units' (SVG's `gradientTransform`).
    public var transform: AffineTransform2D
    public var units: Units

    public init(_ gradient: Gradient, transform: AffineTransform2D = .identity, units: Units = .userSpaceOnUse) {
        self.gradient = gradient
        self.transform = transform
        self.units = units
    }

    /// The gradient's coordinates to the coordinates `box` is given in, where user space is mapped by `userSpace`;
    /// nil when the units are the box's and it is empty, which SVG paints nothing for.
    func gradientToBox(_ box: Rect?, userSpace: AffineTransform2D) -> AffineTransform2D? {
        switch units {
        case .userSpaceOnUse: return transform.concatenating(userSpace)
        case .objectBoundingBox:
            guard let box, box.width > 0, box.height > 0 else { return nil }
            return transform.concatenating(
                AffineTransform2D(a: box.width, b: 0, c: 0, d: box.height, tx: box.x, ty: box.y))
        }
    }

    /// The gradient's coordinates to the coordinates a layer's `frame` is given in (its parent's): user space is
    /// points from the frame's corner.
    func gradientToParent(frame: Rect) -> AffineTransform2D? {
        gradientToBox(frame, userSpace: AffineTransform2D(translationX: frame.x, y: frame.y))
    }
}
