import Compositor
import Motion
import TestSupport
import XCTest

@testable import Scenes

/// Overlapping animations of one property (`OverlapMode`): each mode against its API's definition written out in
/// closed form here (UIKit's additive offsets, Core Animation's from-the-presentation-value, SwiftUI's retargeted
/// spring integrated from the equation), and no frame that jumps.
final class AnimationOverlapTests: XCTestCase {
    private func timing(_ duration: Double, delay: Double = 0, curve: TimingCurve = .linear) -> AnimationTiming {
        AnimationTiming(curve: curve, duration: duration, delay: delay)
    }

    /// A fade-in over 1 s and, half way, a fade-out over 1 s: the "125 → 255 in one frame".
    private func fadeInThenOut(_ mode: OverlapMode, curve: TimingCurve = .linear) -> Layer {
        var layer = Layer.color(.black, opacity: 0)
        layer.animations = [
            LayerAnimation(.opacity(to: 1), timing: timing(1, curve: curve)),
            LayerAnimation(.opacity(to: 0), timing: timing(1, delay: 0.5, curve: curve), overlap: mode),
        ]
        return layer
    }

    /// UIKit since iOS 8: the model jumps to each new target, and each animation is an offset from
    /// (start − target) to 0 on its own curve; the shown value is the model plus the offsets still running.
    func testAdditiveIsUIKitsSumOfOffsets() {
        let layer = fadeInThenOut(.additive, curve: .easeInOut)
        let ease = { (x: Double) in cssBezier(0.42, 0, 0.58, 1, at: min(max(x, 0), 1)) }
        for time in stride(from: 0.0, through: 2, by: 0.05) {
            let expected: Double
            if time < 0.5 {
                expected = ease(time)
            } else {
                // Model 0 (the second target); the first runs (0 − 1)·(1 − p₁), the second (1 − 0)·(1 − p₂).
                expected = 0 - (1 - ease(time)) + (1 - ease(time - 0.5))
            }
            // Within the library's Bézier solver's precision (about 1e-7), against bisection here.
            XCTAssertEqual(layer.snapshot(at: time).opacity, min(max(expected, 0), 1), accuracy: 1e-6, "t = \(time)")
        }
    }

    /// Core Animation without `fromValue`: from what shows under it at each moment to its target.
    func testPresentationRunsFromTheValueUnderIt() {
        let layer = fadeInThenOut(.presentation)
        for time in stride(from: 0.5, through: 1.6, by: 0.05) {
            let under = min(time, 1)
            let progress = min(time - 0.5, 1)
            XCTAssertEqual(layer.snapshot(at: time).opacity, under + (0 - under) * progress, accuracy: 1e-12)
        }
    }

    /// The angle a layer's `rotation` animations leave (a number, not clamped as opacity is).
    private func angle(of layer: Layer, at time: Double) -> Double {
        let transform = layer.snapshot(at: time).transform
        return atan2(transform.b, transform.a)
    }

    /// SwiftUI's spring merge: a spring beginning at 0.3 s, while a linear turn to 1 rad moves at 1 rad/s, starts
    /// from that angle and that velocity and heads for 0.2 rad, as the spring equation integrated from that state
    /// gives it; adding would instead keep the linear turn's offset running beside the spring.
    func testRetargetKeepsTheVelocity() throws {
        let (mass, stiffness, damping) = (1.0, 120.0, 14.0)
        let spring = try TimingCurve.spring(mass: mass, stiffness: stiffness, damping: damping)
        var layer = Layer.color(.black)
        layer.animations = [
            LayerAnimation(.rotation(Track(to: 1)), timing: timing(1)),
            LayerAnimation(
                .rotation(Track(to: 0.2)), timing: AnimationTiming(curve: spring, delay: 0.3), overlap: .retarget),
        ]
        let settled = try XCTUnwrap(spring.intrinsicDuration)
        for elapsed in stride(from: 0.0, to: settled, by: 0.04) {
            let expected = SpringIntegration.motion(
                mass: mass, stiffness: stiffness, damping: damping, from: 0.3, velocity: 1, target: 0.2,
                over: elapsed, steps: 20_000
            ).position
            // The tolerance is the velocity's central difference (±0.1 ms), exact here for a linear turn.
            XCTAssertEqual(angle(of: layer, at: 0.3 + elapsed), expected, accuracy: 1e-9, "+\(elapsed) s")
        }
        // Where the spring is declared settled it stops at its target, within the settling threshold.
        let last = angle(of: layer, at: 0.3 + settled - 1e-6)
        XCTAssertEqual(last, 0.2, accuracy: 1e-3 * 0.1)
        XCTAssertEqual(angle(of: layer, at: 0.3 + settled), 0.2, accuracy: 1e-12)
        // Adding differs: at 0.4 s the turn's offset (0.3 − 1)·(1 − 0.4) would still be running.
        layer.animations[1].overlap = .additive
        let added = angle(of: layer, at: 0.4)
        layer.animations[1].overlap = .retarget
        XCTAssertGreaterThan(abs(added - angle(of: layer, at: 0.4)), 0.01)
    }

    /// Two animations on the same spring give the same motion added or retargeted: the spring equation is linear,
    /// so the first spring's offset plus the second's is the second started from the first's state.
    func testOnOneSpringAddingEqualsRetargeting() throws {
        let spring = try TimingCurve.spring(mass: 1, stiffness: 120, damping: 14)
        var layer = Layer.color(.black)
        layer.animations = [
            LayerAnimation(.rotation(Track(to: 1)), timing: AnimationTiming(curve: spring)),
            LayerAnimation(
                .rotation(Track(to: 0.2)), timing: AnimationTiming(curve: spring, delay: 0.3), overlap: .retarget),
        ]
        var added = layer
        added.animations[1].overlap = .additive
        for time in stride(from: 0.3, through: 0.9, by: 0.05) {
            XCTAssertEqual(angle(of: layer, at: time), angle(of: added, at: time), accuracy: 1e-6)
        }
    }

    /// A timing-curve animation marked `retarget` adds, as SwiftUI adds non-spring animations.
    func testRetargetOfATimingCurveAdds() {
        let additive = fadeInThenOut(.additive, curve: .easeOut)
        let retarget = fadeInThenOut(.retarget, curve: .easeOut)
        for time in stride(from: 0.0, through: 2, by: 0.1) {
            XCTAssertEqual(retarget.snapshot(at: time).opacity, additive.snapshot(at: time).opacity)
        }
    }

    /// A transform adds by its decomposition: at 0.75 s of a move by 100 pt (0…1 s) overlapped by a scale to 2
    /// (0.5…1.5 s), the model is scale 2, the move's offset −100·(1 − 0.75) and the scale's (1 − 2)·(1 − 0.25).
    func testTransformsAddByDecomposition() {
        var layer = Layer.color(.black)
        layer.animations = [
            LayerAnimation(.transform(to: AffineTransform2D.identity.translatedBy(x: 100, y: 0)), timing: timing(1)),
            LayerAnimation(
                .transform(to: AffineTransform2D.identity.scaledBy(x: 2, y: 2)), timing: timing(1, delay: 0.5)),
        ]
        let shown = layer.snapshot(at: 0.75).transform
        let scale: Double = 2 + (1 - 2) * 0.75
        let moveOffset: Double = (0 - 100) * 0.25
        let translation: Double = moveOffset + (100 - 0) * 0.75
        let expected = AffineTransform2D(a: scale, b: 0, c: 0, d: scale, tx: translation, ty: 0)
        for (value, reference) in zip(entries(shown), entries(expected)) {
            XCTAssertEqual(value, reference, accuracy: 1e-9)
        }
        // A rotation overlapped by its undoing: angle = 0 + (0 − 90°)·(1 − p₁) + (90° − 0)·(1 − p₂).
        layer.animations = [
            LayerAnimation(.transform(to: AffineTransform2D.identity.rotatedBy(.pi / 2)), timing: timing(1)),
            LayerAnimation(.transform(to: .identity), timing: timing(1, delay: 0.6)),
        ]
        let angle = -(Double.pi / 2) * 0.2 + Double.pi / 2 * 0.8
        let turned = layer.snapshot(at: 0.8).transform
        XCTAssertEqual(turned.a, cos(angle), accuracy: 1e-9)
        XCTAssertEqual(turned.b, sin(angle), accuracy: 1e-9)
    }

    private func entries(_ t: AffineTransform2D) -> [Double] { [t.a, t.b, t.c, t.d, t.tx, t.ty] }

    /// A frame adds by component (UIKit animates centre and bounds, each additive).
    func testFramesAddByComponent() {
        var layer = Layer.color(.black, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        layer.animations = [
            LayerAnimation(.frame(to: Rect(x: 200, y: 0, width: 100, height: 100)), timing: timing(1)),
            LayerAnimation(.frame(to: Rect(x: 200, y: 40, width: 50, height: 60)), timing: timing(1, delay: 0.5)),
        ]
        let frame = layer.snapshot(at: 0.6).frame!
        // Offsets: first (0 − 200, 0, 0, 0)·0.4; second (200 − 200, 0 − 40, 100 − 50, 100 − 60)·0.9.
        XCTAssertEqual(frame.x, 200 - 200 * 0.4, accuracy: 1e-9)
        XCTAssertEqual(frame.y, 40 - 40 * 0.9, accuracy: 1e-9)
        XCTAssertEqual(frame.width, 50 + 50 * 0.9, accuracy: 1e-9)
        XCTAssertEqual(frame.height, 60 + 40 * 0.9, accuracy: 1e-9)
    }

    /// A backdrop's effect adds as a number: the blur shown is the material's at the summed effect.
    func testEffectsAdd() throws {
        var layer = Layer.backdrop(Material.thin, .light)
        layer.animations = [
            LayerAnimation(.effect(from: 0, to: 1), timing: timing(1)),
            LayerAnimation(.effect(to: 0), timing: timing(1, delay: 0.5)),
        ]
        guard case .backdrop(let material) = layer.snapshot(at: 0.7).content else { return XCTFail() }
        XCTAssertEqual(material.effect, 0 - (1 - 0.7) + (1 - 0.2), accuracy: 1e-12)
    }

    /// No mode jumps: at 120 frames a second no frame differs from the one before by more than the steepest
    /// slope of the curves allows (the easeInOut fade's 1.5/s plus the overlap's, within 0.03).
    func testNoModeJumpsWhereTheSecondBegins() {
        for mode in OverlapMode.allCases {
            let layer = fadeInThenOut(mode, curve: .easeInOut)
            var previous = layer.snapshot(at: 0).opacity
            for frame in 1...240 {
                let value = layer.snapshot(at: Double(frame) / 120).opacity
                XCTAssertLessThan(abs(value - previous), 0.03, "\(mode) at frame \(frame)")
                previous = value
            }
        }
        // An explicit `from` still starts where it says, as in every API.
        var layer = fadeInThenOut(.additive)
        layer.animations[1] = LayerAnimation(.opacity(from: 1, to: 0), timing: timing(1, delay: 0.5))
        XCTAssertEqual(layer.snapshot(at: 0.5).opacity, 1)
    }

    /// A 3D transform does not add: overlapping, the later one runs from the value under it, as `presentation`.
    func testA3DTransformOverlapsFromThePresentationValue() {
        let lifted = Transform3D.translation(x: 0, y: 0, z: 100)
        var layer = Layer.color(.black)
        layer.animations = [
            LayerAnimation(.transform3D(Track(to: lifted)), timing: timing(1)),
            LayerAnimation(.transform3D(Track(to: .identity)), timing: timing(1, delay: 0.5)),
        ]
        let shown = layer.snapshot(at: 0.75).transform3D!
        let under = Transform3D.identity.interpolated(to: lifted, progress: 0.75)
        let expected = under.interpolated(to: .identity, progress: 0.25)
        XCTAssertEqual(shown, expected)
    }
}
