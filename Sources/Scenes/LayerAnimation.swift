import Compositor
import Motion

/// One property of a layer changing over time, as one line inside `UIView.animate { … }` changes one:
/// `view.alpha = 1` becomes `LayerAnimation(.opacity(to: 1), timing: AnimationTiming(duration: 0.4, delay: 0.1))`.
///
/// A layer's own properties are its model values: what it shows with no animation, and where an animation
/// without an explicit `from` starts. Animations of the same property form a chain in list order: each starts from
/// where the one before it ends (its target, the property's next model value). One that begins while the one
/// before it is still running overlaps it as its `overlap` mode says (UIKit adds them by default); before the
/// first has begun, the value is the first one's start, as Core Animation's backwards fill shows it during a
/// delay. After its end an animation holds its final value (the start again when it autoreverses an even number
/// of times).
public struct LayerAnimation: Equatable, Sendable {
    public var property: AnimatedProperty
    public var timing: AnimationTiming
    /// A spring's initial velocity as `UISpringTimingParameters(dampingRatio:initialVelocity: CGVector(dx:, dy:))`
    /// gives it: as Apple documents it, dx and dy drive a frame's centre along x and y, and every other part (the
    /// frame's size, opacity, a transform, a colour) takes the vector's magnitude, which the curve then carries.
    /// Nil: every part follows the curve's own velocity.
    public var positionVelocity: PositionVelocity?
    /// How it combines with an earlier animation of the property still running when it begins.
    public var overlap: OverlapMode

    public init(
        _ property: AnimatedProperty, timing: AnimationTiming, positionVelocity: PositionVelocity? = nil,
        overlap: OverlapMode = .additive
    ) {
        self.property = property
        self.timing = timing
        self.positionVelocity = positionVelocity
        self.overlap = overlap
    }
}

/// The two components of UIKit's `initialVelocity` vector, each relative to its axis' distance per second.
public struct PositionVelocity: Equatable, Sendable {
    public var dx: Double
    public var dy: Double

    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// What UIKit gives every property that is not a position.
    public var magnitude: Double { (dx * dx + dy * dy).squareRoot() }
}

/// The animatable properties of a layer, each with its path of values.
public enum AnimatedProperty: Sendable {
    /// `alpha` / `opacity`, clamped to 0...1 when drawn (a spring may overshoot).
    case opacity(Track<Double>)
    /// The layer's transform, interpolated by decomposition as Core Animation does (`transform` key path).
    case transform(Track<AffineTransform2D>)
    /// An extra rotation in radians before the transform, interpolated as a number (`transform.rotation.z`): the
    /// way to turn 350° the long way, which a transform animation takes the short way.
    case rotation(Track<Double>)
    /// The layer's 3D transform (a CALayer's `transform`), interpolated by decomposition (see
    /// `Transform3D.interpolated(to:progress:)`); a missing model value is the identity. A spring's vertical
    /// velocity does not apply.
    case transform3D(Track<Transform3D>)
    /// An extra rotation in radians about `axis` through the frame's centre, before the 3D transform (so a
    /// perspective in it stays the camera), interpolated as a number (`transform.rotation.y`): the way to
    /// express a flip's half turn, which a decomposed transform cannot tell from its mirror image.
    case rotation3D(axis: RotationAxis, Track<Double>)
    /// The frame in the parent's coordinates (`frame`, or `bounds` and `center` together).
    case frame(Track<Rect>)
    /// A shape's fill (`backgroundColor`), a text's or symbol's colour, a path's fill colour (`fillColor`; a path
    /// with no fill: its stroke's), interpolated in straight sRGB components. A gradient fill does not animate.
    case color(Track<RGBAColor>)
    /// A shape's, an image's or a backdrop's corner radius in points.
    case cornerRadius(Track<Double>)
    /// How much of a backdrop's material shows, 0 (`effect = nil`) to 1 (the material): the blur, saturation,
    /// tints and grain all move from identity along the curve, as `UIVisualEffectView` animates `effect`.
    case effect(Track<Double>)
    /// A backdrop's blur radius in points.
    case blur(Track<Double>)
    /// A backdrop's black dim, 0...1.
    case dim(Track<Double>)
    /// An image layer's picture changing to another by a cross-dissolve (`UIView.transition(with:duration:
    /// options: .transitionCrossDissolve)`): the old fades out as the new fades in, added (plus-lighter), so an
    /// opaque pair stays opaque throughout.
    case image(to: Image)
    /// A curled layer's `PageCurl.progress`: 0 flat, 1 gone.
    case curl(Track<Double>)
    /// A path layer's `VectorShape.strokeEnd`, 0…1 (`CAShapeLayer`'s `strokeEnd`): a checkmark drawn on.
    case strokeEnd(Track<Double>)
    /// A path layer's stroke colour (`CAShapeLayer.strokeColor`) on its own, the fill left as it is: an outline
    /// changing colour over a fill that stays. Interpolated as `color`.
    case strokeColor(Track<RGBAColor>)
}

/// An axis through the origin for `AnimatedProperty.rotation3D`.
public struct RotationAxis: Equatable, Hashable, Sendable {
    public var x, y, z: Double
    /// Where the axis crosses the line through the frame's centre, in points along z (negative: behind the
    /// layer, as a cube's faces turn about its centre half a side behind them).
    public var depth: Double

    public init(x: Double, y: Double, z: Double, depth: Double = 0) {
        (self.x, self.y, self.z, self.depth) = (x, y, z, depth)
    }

    /// The rotation by `angle` about this axis, as a transform of the layer's plane about its centre.
    func rotation(by angle: Double) -> Transform3D {
        let turn = Transform3D.rotation(angle: angle, x: x, y: y, z: z)
        guard depth != 0 else { return turn }
        return Transform3D.translation(x: 0, y: 0, z: -depth).concatenating(turn)
            .concatenating(.translation(x: 0, y: 0, z: depth))
    }

    /// The horizontal axis (a flip from the top or bottom), the vertical one (from the left or right), and the
    /// one out of the screen (an ordinary rotation).
    public static let x = RotationAxis(x: 1, y: 0, z: 0)
    public static let y = RotationAxis(x: 0, y: 1, z: 0)
    public static let z = RotationAxis(x: 0, y: 0, z: 1)
}

/// The values an animation moves through: from a start (nil: where the property was) through keyframes.
public struct Track<Value: Sendable>: Sendable {
    /// The start value; nil: the property's model value (the end of the animation before it in the chain), with
    /// an overlap combined as `LayerAnimation.overlap` says.
    public var from: Value?
    /// At least one; the last is the final value. A plain `from → to` animation has one keyframe at time 1.
    public var keyframes: [Keyframe<Value>]

    /// A plain animation to `to`, along the animation's curve.
    public init(from: Value? = nil, to: Value) {
        self.from = from
        self.keyframes = [Keyframe(time: 1, value: to)]
    }

    /// Keyframes in time order (a first one at time 0 replaces `from`).
    public init(from: Value? = nil, keyframes: [Keyframe<Value>]) {
        precondition(!keyframes.isEmpty, "a track needs at least one keyframe")
        self.from = from
        self.keyframes = keyframes
    }
}

/// A value reached at a fraction of an animation's pass, through its own curve from the keyframe before it
/// (SwiftUI's `CubicKeyframe`, Core Animation's `keyTimes` and `timingFunctions`).
public struct Keyframe<Value: Sendable>: Sendable {
    /// 0...1 of the pass, increasing along a track.
    public var time: Double
    public var value: Value
    /// The curve of the segment that ends here; nil: the animation's curve when it is the only segment, else
    /// linear (Core Animation's keyframe default).
    public var curve: TimingCurve?

    public init(time: Double, value: Value, curve: TimingCurve? = nil) {
        self.time = time
        self.value = value
        self.curve = curve
    }
}

extension AnimatedProperty {
    public static func opacity(from: Double? = nil, to: Double) -> AnimatedProperty {
        .opacity(Track(from: from, to: to))
    }

    public static func transform(from: AffineTransform2D? = nil, to: AffineTransform2D) -> AnimatedProperty {
        .transform(Track(from: from, to: to))
    }

    public static func frame(from: Rect? = nil, to: Rect) -> AnimatedProperty { .frame(Track(from: from, to: to)) }

    public static func effect(from: Double? = nil, to: Double) -> AnimatedProperty {
        .effect(Track(from: from, to: to))
    }
}

extension Track: Equatable where Value: Equatable {}
extension Keyframe: Equatable where Value: Equatable {}

extension Track {
    /// Whether the track says where it starts (`from`, or a keyframe at time 0), so that it starts there whatever
    /// runs before it and no `OverlapMode` applies.
    public var startsExplicitly: Bool { from != nil || keyframes[0].time <= 0 }
}

extension AnimatedProperty {
    /// Whether the animation says where it starts (see `Track.startsExplicitly`); a cross-dissolve never does.
    public var startsExplicitly: Bool {
        switch self {
        case .opacity(let t), .rotation(let t), .cornerRadius(let t), .effect(let t), .blur(let t), .dim(let t),
            .curl(let t), .rotation3D(_, let t), .strokeEnd(let t):
            return t.startsExplicitly
        case .transform(let t): return t.startsExplicitly
        case .transform3D(let t): return t.startsExplicitly
        case .frame(let t): return t.startsExplicitly
        case .color(let t), .strokeColor(let t): return t.startsExplicitly
        case .image: return false
        }
    }
}
