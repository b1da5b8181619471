import Compositor
import Motion

/// What an animation without `from` does when it begins while an earlier animation of the same property is still
/// running. The three APIs this format imitates each answer differently; all three keep the motion continuous, so
/// no frame jumps where the second animation begins. Without an overlap (the earlier one has ended) all three
/// start from where the earlier one ended. An animation with `from` (or a keyframe at time 0) starts there
/// whatever the mode, as it does in every API.
public enum OverlapMode: String, CaseIterable, Sendable {
    /// UIKit's `UIView.animate` since iOS 8: the property's model value jumps to the new target and each
    /// animation runs as an offset, from (its start − its target) to zero on its own curve, added to the others
    /// still running. Numbers, frames (centre and size) and colours add by component, a 2D transform by its
    /// decomposition; a 3D transform does not add and overlaps as `presentation` does.
    case additive
    /// Core Animation's `CABasicAnimation` with no `fromValue`: it runs from the value the property shows under it
    /// (what the earlier animations give at each moment) to its target, and replaces that value.
    case presentation
    /// SwiftUI's spring: a spring that begins while the value is moving takes the value and the velocity it has
    /// then and heads for the new target (`Animation.shouldMerge`); other curves add, as SwiftUI adds timing-curve
    /// animations, like `additive`.
    case retarget
}

/// A value whose overlapping animations can be added: the change between two values as numbers, and a value moved
/// by such a change. Nil offset: the type does not add (a 3D transform), and overlaps fall back to `presentation`.
protocol Combinable: Interpolatable, Equatable, Sendable {
    func offset(from start: Self) -> [Double]?
    func adding(_ offset: [Double]) -> Self
}

extension Double: Combinable {
    func offset(from start: Double) -> [Double]? { [self - start] }
    func adding(_ offset: [Double]) -> Double { self + offset[0] }
}

extension Rect: Combinable {
    func offset(from start: Rect) -> [Double]? {
        [x - start.x, y - start.y, width - start.width, height - start.height]
    }

    func adding(_ offset: [Double]) -> Rect {
        Rect(x: x + offset[0], y: y + offset[1], width: width + offset[2], height: height + offset[3])
    }
}

extension RGBAColor: Combinable {
    func offset(from start: RGBAColor) -> [Double]? {
        [red - start.red, green - start.green, blue - start.blue, alpha - start.alpha]
    }

    func adding(_ offset: [Double]) -> RGBAColor {
        func unit(_ value: Double) -> Double { min(max(value, 0), 1) }
        return RGBAColor(
            red: unit(red + offset[0]), green: unit(green + offset[1]), blue: unit(blue + offset[2]),
            alpha: unit(alpha + offset[3]))
    }
}

extension AffineTransform2D: Combinable {
    func offset(from start: AffineTransform2D) -> [Double]? { decompositionOffset(from: start) }
    func adding(_ offset: [Double]) -> AffineTransform2D { addingDecompositionOffset(offset) }
}

extension Transform3D: Combinable {
    func offset(from start: Transform3D) -> [Double]? { nil }
    func adding(_ offset: [Double]) -> Transform3D { self }
}

/// One animation of a property in a layer's chain, with the model value it starts from (the end of the one
/// before it in the list, or the layer's own value).
struct ChainLink<Value: Combinable> {
    let animation: LayerAnimation
    let track: Track<Value>
    let start: Value

    /// A single spring pass to one target: what SwiftUI retargets (anything else adds).
    var isRetargetable: Bool {
        let timing = animation.timing
        return timing.curve.isSpring && timing.endTime.isFinite && timing.repeatCount <= 1 && !timing.autoreverses
            && track.keyframes.count == 1
    }
}

extension Array {
    /// The value a chain of animations of one property (in list order) shows at `time`: each animation that has
    /// begun (and the first one, in its delay, as Core Animation's backwards fill shows it) is applied in order
    /// onto what the ones before it give. When they have left exactly the model value an animation starts from,
    /// it shows its own value; otherwise they overlap and its `OverlapMode` combines them.
    func chainValue<Value>(at time: Double) -> Value where Element == ChainLink<Value> {
        var value = self[0].start
        for (index, link) in enumerated() {
            let timing = link.animation.timing
            guard index == 0 || timing.startTime <= time else { continue }
            let progress = Progress(link.animation, at: time)
            let own = progress.value(of: link.track, from: link.start)
            // A retargeted spring keeps the state it took over for its whole run, even once the earlier ones end.
            if link.animation.overlap == .retarget, link.isRetargetable, !link.track.startsExplicitly,
                prefix(index).contains(where: { $0.animation.timing.endTime > timing.startTime }),
                let retargeted = Array(prefix(index)).retargeted(link, at: time)
            {
                value = retargeted
                continue
            }
            if link.track.startsExplicitly || value == link.start {
                value = own
                continue
            }
            let change = own.offset(from: link.start)
            switch (link.animation.overlap, change) {
            case (.additive, .some(let change)), (.retarget, .some(let change)):
                value = value.adding(change)
            case (.presentation, _), (_, nil):
                value = progress.value(of: link.track, from: value)
            }
        }
        return value
    }

    /// `link`'s spring taking over from the chain before it (this array) at the moment it begins: from the value
    /// and velocity the chain has then, to the link's target. Nil when the value does not add by parts.
    private func retargeted<Value>(_ link: ChainLink<Value>, at time: Double) -> Value?
    where Element == ChainLink<Value> {
        let timing = link.animation.timing
        let begin = timing.startTime
        let target = link.track.keyframes[0].value
        guard let spring = timing.curve.spring else { return nil }
        if time - begin >= timing.passDuration { return target }
        // The velocity by a central difference over ±0.1 ms: far below a frame, far above rounding.
        let step = 1e-4
        guard let displacement = chainValue(at: begin).offset(from: target),
            let change = chainValue(at: begin + step).offset(from: chainValue(at: begin - step))
        else { return nil }
        // A spring fitted into a slot other than its own duration runs on its own clock (see `ownClock`), where
        // a velocity per second of the slot is slower by the same factor.
        let (ownTime, _) = timing.curve.ownClock(atTime: time - begin, filling: timing.passDuration)
        let scale = time - begin > 0 ? ownTime / (time - begin) : 1
        let offset = zip(displacement, change).map { displacement, change in
            spring.offset(at: ownTime, displacement: displacement, velocity: change / (2 * step) / scale)
        }
        return target.adding(offset)
    }
}
