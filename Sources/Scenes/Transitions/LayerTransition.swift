import Compositor
import Motion

/// A change from one layer to another animated as the seeds' screens do it: the pair becomes one group whose
/// layers carry the animations (no new drawing code: frames are snapshots of the group, as for any animation).
///
///     let flip = LayerTransition(.cube(.up)).layer(from: oldLabel, to: newLabel, in: card)   // 0.5 s ease-out
///
/// Each style has the seeds' numbers as defaults (`defaultTiming`); `timing` overrides the curve, duration and
/// delay (for two-part styles the second part keeps its offsets relative to the first). At the transition's
/// start the group shows `from` (with the auxiliary copy where the seed starts one in view, as the cube's
/// squashed new label); at its end exactly `to`, the old layer hidden.
public struct LayerTransition: Sendable {
    public enum Style: Equatable, Sendable {
        /// `UIView.transition(with:duration: 1.0, options: .transitionCrossDissolve)`: the old faded out and the
        /// new faded in, added with plus-lighter in an isolated group, so an opaque pair stays opaque.
        case crossDissolve
        /// The faux-3D cube of a label: the new copy starts `direction` half a height away squashed to a tenth,
        /// the old one leaves the other way squashed, 0.5 s ease-out.
        case cube(CubeDirection)
        /// The old layer moves by `offset` points and fades out (0.5 s, ease-in) while the new one comes back
        /// from the offset and fades in (0.25 s after 0.1 s, ease-in): for a moment both show, as ghosts.
        case fadeAndBounce(x: Double, y: Double)
        /// The new layer grows out of a point (the tapped button's centre, in the parent's coordinates): scale
        /// 0.05 → 1 while its centre moves from the point to its own, 0.5 s, over the old one.
        case grow(fromX: Double, y: Double)
        /// The unwind: the old layer shrinks into the point, revealing the new one beneath it.
        case shrink(toX: Double, y: Double)
        /// A modal screen sliding up from the bottom (`.coverVertical`, presenting) or back down (dismissing).
        case coverVertical(presenting: Bool)
        /// `UIView.transition(with:duration:options: .transitionFlipFromLeft)` and its siblings: a half turn about
        /// the vertical (left, right) or horizontal (top, bottom) axis through the centre, the named edge swinging
        /// towards the viewer, seen from 1200 points away, with the new layer on the back: the old shows for the
        /// first quarter turn, the new for the second, neither edge on at exactly 90°, back faces hidden.
        case flip(from: FlipEdge)
        /// The modal `.flipHorizontal`: presenting flips from the right (right to left, the new screen on the
        /// back), dismissing from the left.
        case flipHorizontal(presenting: Bool)
        /// A true cube: the old and new layers are two faces of a cube turning a quarter about the axis of their
        /// shared edge (through the cube's centre, half a side behind them), the new face coming in from `edge`,
        /// seen from 1200 points away.
        case cube3D(FlipEdge)
        /// SwiftUI's `.transition(…)`: the new layer inserted with `insertion`, the old removed with `removal`,
        /// each a combination (`.move(edge: .bottom).combined(with: .opacity)`); by default with
        /// `Animation.default`.
        case swiftUI(insertion: [SwiftUITransition], removal: [SwiftUITransition])
        /// `UIView.transition(with:duration:options: .transitionCurlUp)` (or `.transitionCurlDown`): the old layer
        /// curls away as a page (`PageCurl`, from its bottom edge up or its top edge down), revealing the new one.
        case curl(PageCurl.Direction)
        /// The modal `.partialCurl`: presenting, the old screen curls up part way (`partialCurlProgress`) and stays
        /// curled over the new one; dismissing, the new screen (the presenting one, returning) uncurls over the old.
        case partialCurl(presenting: Bool)
        /// The iOS 13 card sheet (`.pageSheet`, `.formSheet` on a phone): presenting, the new screen slides up as a
        /// card with rounded top corners while the old one shrinks behind it under a dim (`Sheet`); dismissing,
        /// the reverse.
        case pageSheet(presenting: Bool)
        /// `pushViewController(_:animated:)`: the new screen slides in from the right over the old one, which moves
        /// a third of the way left and dims (`Push`); `forward` false is the pop.
        case navigationPush(forward: Bool)
    }

    public enum CubeDirection: String, CaseIterable, Sendable {
        /// The new label comes up from below (the seed's `.positive`).
        case up
        /// The new label comes down from above (`.negative`).
        case down

        var sign: Double { self == .up ? 1 : -1 }
    }

    /// One of SwiftUI's basic transitions; a list of them is their `.combined(with:)`.
    public enum SwiftUITransition: Equatable, Sendable {
        /// `.move(edge:)`: off by the layer's own extent past that edge of its frame.
        case move(Edge)
        case opacity
        /// `.scale(scale:)` about the centre (`.scale` is `.scale(0)`: the layer is absent at the far end).
        case scale(Double)
        /// `.slide`: inserted from the leading edge, removed to the trailing edge.
        case slide
    }

    public enum Edge: String, CaseIterable, Sendable { case top, bottom, leading, trailing }

    /// The edge a flip starts from, or a cube's new face comes in from.
    public enum FlipEdge: String, CaseIterable, Sendable {
        case left, right, top, bottom

        /// The axis of the turn and the sign of the angle that swings this edge towards the viewer (a positive turn
        /// about y takes +x away; about x it brings +y, the bottom, nearer).
        var turn: (axis: RotationAxis, sign: Double) {
            switch self {
            case .left: (.y, 1)
            case .right: (.y, -1)
            case .top: (.x, -1)
            case .bottom: (.x, 1)
            }
        }
    }

    /// The camera of the 3D styles, in points: MOTION.md's reconstruction of UIKit's flip ("a camera about 1200 pt
    /// away").
    public static let eyeDistance = 1200.0

    public var style: Style
    public var timing: AnimationTiming

    /// - Parameter timing: nil takes the style's `defaultTiming`.
    public init(_ style: Style, timing: AnimationTiming? = nil) {
        self.style = style
        self.timing = timing ?? LayerTransition.defaultTiming(of: style)
    }

    /// The seeds' durations and curves: 1 s ease-in-out for the cross-dissolve (UIView.transition), 0.5 s
    /// ease-out for the cube and ease-in for the fade-and-bounce's first part, 0.5 s ease-in-out for the segue's
    /// grow and shrink, 0.4 s ease-in-out for a modal cover (UIKit's built-in transitions, reconstructed), and
    /// SwiftUI's `Animation.default` for its transitions (a spring of response 0.55 s and damping fraction 1 since
    /// iOS 17, MOTION.md). The flips take 0.4 s, MOTION.md's "built-in
    /// transitions default to about 0.4 s" (a `UIView.transition` caller gives its own duration); MOTION.md says
    /// nothing of their curve, so they ease in and out as the modal cover does. It says nothing of a 3D cube
    /// either: `cube3D` keeps the seed's faux cube's 0.5 s ease-out.
    public static func defaultTiming(of style: Style) -> AnimationTiming {
        switch style {
        case .crossDissolve: AnimationTiming(curve: .easeInOut, duration: 1)
        case .cube: AnimationTiming(curve: .easeOut, duration: 0.5)
        case .fadeAndBounce: AnimationTiming(curve: .easeIn, duration: 0.5)
        case .grow, .shrink: AnimationTiming(curve: .easeInOut, duration: 0.5)
        case .coverVertical: AnimationTiming(curve: .easeInOut, duration: 0.4)
        case .flip, .flipHorizontal: AnimationTiming(curve: .easeInOut, duration: 0.4)
        case .cube3D: AnimationTiming(curve: .easeOut, duration: 0.5)
        case .swiftUI: AnimationTiming(curve: .animationDefault)
        case .curl: AnimationTiming(curve: .easeInOut, duration: 1)
        case .partialCurl: AnimationTiming(curve: .easeInOut, duration: 0.4)
        case .pageSheet: Sheet.timing()
        case .navigationPush: Push.timing
        }
    }

    /// When the transition has ended (its delay included).
    public var endTime: Double {
        if case .fadeAndBounce = style {
            return max(timing.startTime + timing.passDuration, timing.startTime + 0.1 + timing.passDuration / 2)
        }
        // A delay factor's share of the duration is spent waiting: the transition ends with its animator.
        return timing.startTime + timing.passDuration
    }

    /// The group that draws the change from `old` to `new` (both in the same parent's coordinates, whose bounds
    /// a layer without a frame fills). The group has no frame of its own; it is isolated for the cross-dissolve.
    public func layer(from old: Layer, to new: Layer, in bounds: Rect) -> Layer {
        var old = old
        var new = new
        // Frames made explicit: the distances and centres below are the frames'.
        old.frame = old.frame ?? bounds
        new.frame = new.frame ?? bounds
        switch style {
        case .crossDissolve:
            old.animations.append(fade(from: old.opacity, to: 0, timing))
            new.animations.append(fade(from: 0, to: new.opacity, timing))
            new.opacity = 0
            new.blend = .plusLighter
            var group = Layer.group([old, new])
            group.isolated = true
            return group
        case .cube(let direction):
            let height = new.frame!.height
            let squash = AffineTransform2D(scaleX: 1, y: 0.1)
            let arriving = squash.concatenating(AffineTransform2D(translationX: 0, y: direction.sign * height / 2))
            let leaving = squash.concatenating(AffineTransform2D(translationX: 0, y: -direction.sign * height / 2))
            old.animations.append(move(from: old.transform, to: leaving.concatenating(old.transform), timing))
            new.animations.append(move(from: arriving.concatenating(new.transform), to: new.transform, timing))
            new.transform = arriving.concatenating(new.transform)
            hideAtEnd(&old)
            return .group([old, new])
        case .fadeAndBounce(let x, let y):
            let offset = AffineTransform2D(translationX: x, y: y)
            old.animations.append(move(from: old.transform, to: old.transform.concatenating(offset), timing))
            old.animations.append(fade(from: old.opacity, to: 0, timing))
            var arrival = timing
            arrival.duration = timing.passDuration / 2
            (arrival.delay, arrival.delayFactor) = (timing.startTime + 0.1, 0)
            new.animations.append(move(from: new.transform.concatenating(offset), to: new.transform, arrival))
            new.animations.append(fade(from: 0, to: new.opacity, arrival))
            (new.transform, new.opacity) = (new.transform.concatenating(offset), 0)
            return .group([old, new])
        case .grow(let x, let y):
            let start = pointTransform(for: new, at: (x, y))
            new.animations.append(move(from: start.concatenating(new.transform), to: new.transform, timing))
            new.transform = start.concatenating(new.transform)
            return .group([old, new])
        case .shrink(let x, let y):
            let end = pointTransform(for: old, at: (x, y))
            old.animations.append(move(from: old.transform, to: end.concatenating(old.transform), timing))
            hideAtEnd(&old)
            return .group([new, old])
        case .coverVertical(let presenting):
            if presenting {
                let below = AffineTransform2D(translationX: 0, y: coverDistance(new))
                new.animations.append(move(from: below.concatenating(new.transform), to: new.transform, timing))
                new.transform = below.concatenating(new.transform)
                return .group([old, new])
            }
            let below = AffineTransform2D(translationX: 0, y: coverDistance(old))
            old.animations.append(move(from: old.transform, to: below.concatenating(old.transform), timing))
            hideAtEnd(&old)
            return .group([new, old])
        case .flip(let edge):
            return flip(old, new, from: edge)
        case .flipHorizontal(let presenting):
            return flip(old, new, from: presenting ? .right : .left)
        case .cube3D(let edge):
            let (axis, sign) = edge.turn
            let side = axis == .y ? new.frame!.width : new.frame!.height
            let pivot = RotationAxis(x: axis.x, y: axis.y, z: axis.z, depth: -side / 2)
            // The new face starts a quarter turn round the cube, on the side of `edge` (seen from inside, so
            // hidden), and the old one leaves to the opposite side.
            turn(&old, about: pivot, from: 0, to: sign * .pi / 2)
            turn(&new, about: pivot, from: -sign * .pi / 2, to: 0)
            hideAtEnd(&old)
            return .group([old, new])
        case .swiftUI(let insertion, let removal):
            apply(insertion, to: &new, inserting: true)
            apply(removal, to: &old, inserting: false)
            // A removed view is gone at the end even where its transition leaves it in sight (a short move).
            if !removal.contains(.opacity) { hideAtEnd(&old) }
            return .group([old, new])
        case .curl(let direction):
            var page = curling(old, direction: direction, from: 0, to: 1)
            hideAtEnd(&page)
            return .group([new, page])
        case .pageSheet(let presenting):
            return pageSheet(old, new, presenting: presenting, in: bounds)
        case .navigationPush(let forward):
            return navigationPush(old, new, forward: forward)
        case .partialCurl(let presenting):
            let part = LayerTransition.partialCurlProgress
            guard presenting else {
                hideAtEnd(&old)
                return .group([old, curling(new, direction: .up, from: part, to: 0)])
            }
            return .group([new, curling(old, direction: .up, from: 0, to: part)])
        }
    }

    /// The old layer turning half way round from `edge` with the new one on its back.
    private func flip(_ old: Layer, _ new: Layer, from edge: FlipEdge) -> Layer {
        var (old, new) = (old, new)
        let (axis, sign) = edge.turn
        turn(&old, about: axis, from: 0, to: sign * .pi)
        turn(&new, about: axis, from: -sign * .pi, to: 0)
        hideAtEnd(&old)
        return .group([old, new])
    }

    /// A single-sided layer seen through the 3D styles' camera, turning about `axis` (the angle as a number, so a
    /// half turn goes the way it says). At angle 0 the turn is exactly the identity and the camera alone leaves
    /// the plane where it was, so the layer draws as it did.
    private func turn(_ layer: inout Layer, about axis: RotationAxis, from start: Double, to end: Double) {
        layer.transform3D = (layer.transform3D ?? .identity)
            .concatenating(.perspective(eyeDistance: LayerTransition.eyeDistance))
        layer.isDoubleSided = false
        layer.animations.append(LayerAnimation(.rotation3D(axis: axis, Track(from: start, to: end)), timing: timing))
    }

    func fade(from: Double, to: Double, _ timing: AnimationTiming) -> LayerAnimation {
        LayerAnimation(.opacity(Track(from: from, to: to)), timing: timing)
    }

    func move(from: AffineTransform2D, to: AffineTransform2D, _ timing: AnimationTiming) -> LayerAnimation {
        LayerAnimation(.transform(Track(from: from, to: to)), timing: timing)
    }

    /// The old layer vanishes as the transition ends (UIKit removes the auxiliary view or resets the label in
    /// the completion handler): a step of its opacity to 0 at the end.
    func hideAtEnd(_ layer: inout Layer) {
        var step = timing
        step.curve = TimingCurve(shape: .steps(count: 1, position: .jumpEnd))
        (step.delay, step.delayFactor, step.duration) = (timing.startTime, 0, endTime - timing.startTime)
        layer.animations.append(fade(from: layer.opacity, to: 0, step))
    }

    /// Scaled to 0.05 about the frame's centre with the centre moved onto the point.
    private func pointTransform(for layer: Layer, at point: (x: Double, y: Double)) -> AffineTransform2D {
        let centre = layer.frame!.center
        return AffineTransform2D(scaleX: 0.05, y: 0.05)
            .concatenating(AffineTransform2D(translationX: point.x - centre.x, y: point.y - centre.y))
    }

    /// Far enough down that the layer's top reaches its frame's bottom edge.
    private func coverDistance(_ layer: Layer) -> Double { layer.frame!.height }

    /// SwiftUI's transition as the layer's far state: the inserted layer starts there, the removed one ends
    /// there.
    private func apply(_ transitions: [SwiftUITransition], to layer: inout Layer, inserting: Bool) {
        var far = AffineTransform2D.identity
        var farOpacity = layer.opacity
        let size = (width: layer.frame!.width, height: layer.frame!.height)
        for transition in transitions {
            switch transition {
            case .opacity: farOpacity = 0
            case .scale(let amount):
                // A scale of exactly 0 cannot be drawn or inverted; a millionth shows nothing either.
                let factor = max(amount, 1e-6)
                far = far.concatenating(AffineTransform2D(scaleX: factor, y: factor))
            case .move(let edge): far = far.concatenating(offset(to: edge, size))
            case .slide: far = far.concatenating(offset(to: inserting ? .leading : .trailing, size))
            }
        }
        let farTransform = far.concatenating(layer.transform)
        if inserting {
            layer.animations.append(move(from: farTransform, to: layer.transform, timing))
            layer.animations.append(fade(from: farOpacity, to: layer.opacity, timing))
            (layer.transform, layer.opacity) = (farTransform, farOpacity)
        } else {
            layer.animations.append(move(from: layer.transform, to: farTransform, timing))
            if farOpacity != layer.opacity { layer.animations.append(fade(from: layer.opacity, to: farOpacity, timing)) }
        }
    }

    private func offset(to edge: Edge, _ size: (width: Double, height: Double)) -> AffineTransform2D {
        switch edge {
        case .top: AffineTransform2D(translationX: 0, y: -size.height)
        case .bottom: AffineTransform2D(translationX: 0, y: size.height)
        case .leading: AffineTransform2D(translationX: -size.width, y: 0)
        case .trailing: AffineTransform2D(translationX: size.width, y: 0)
        }
    }
}
