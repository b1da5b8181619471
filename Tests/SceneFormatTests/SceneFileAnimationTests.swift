@testable import Compositor
import Foundation
import ImageCodecs
import Motion
import Scenes
import TestSupport
import Typesetting
import XCTest

@testable import SceneFormat

/// A layer's `animations` as scene files write them: the seeds' fixtures, and every mistake a JSON path.
final class SceneFileAnimationTests: XCTestCase {
    private func scene(_ text: String) throws -> Scene {
        var file = SceneFile(directory: Fixtures.root + "fixtures/", maxPixels: 1_000_000, typesetter: FontTypesetter(), loadImage: loadImageFile)
        return try file.scene(fromJSON: Array(text.utf8))
    }

    private func error(_ text: String) -> String? {
        var file = SceneFile(directory: Fixtures.root + "fixtures/", maxPixels: 1_000_000, typesetter: FontTypesetter(), loadImage: loadImageFile)
        do {
            _ = try file.scene(fromJSON: Array(text.utf8))
            return nil
        } catch {
            return error.description
        }
    }

    private func fixture(_ name: String) throws -> Scene {
        var file = SceneFile(directory: Fixtures.root + "fixtures/", maxPixels: 4_000_000, typesetter: FontTypesetter(), loadImage: loadImageFile)
        return try file.scene(fromJSON: Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name)))))
    }

    private func layer(_ json: String) -> String {
        #"{"canvas": {"width": 40, "height": 30}, "layers": [\#(json)]}"#
    }

    func testEveryFixtureAnimates() throws {
        for name in ["review-entrance.json", "review-entrance-swiftui.json", "blur-animator.json", "rating-pop.json"] {
            let scene = try fixture(name)
            XCTAssertTrue(scene.isAnimated, name)
            XCTAssertGreaterThan(scene.animationDuration, 0.3, name)
            XCTAssertLessThanOrEqual(scene.animationDuration, 1.1 + 1e-9, name)
        }
        // The transitions: the flight summary's labels and photo change in a second; the segue grows the summary
        // out of the "Rate it" button (0.5 s) and, from 1.2 s, shrinks it back (0.5 s).
        let flight = try fixture("flight-transitions.json")
        XCTAssertEqual(flight.animationDuration, 1, accuracy: 1e-12)
        // Snow fades in over the photo's cross-dissolve, beneath the card.
        guard case .emitter(let snow) = flight.layers[2].content else { return XCTFail("the snow") }
        XCTAssertEqual(snow.particles(), ParticleEmitter.snow(width: 390, height: 844).particles())
        XCTAssertEqual(flight.snapshot(at: 0).layers[2].opacity, 0)
        XCTAssertEqual(flight.snapshot(at: 1).layers[2].opacity, 1)
        XCTAssertEqual(try fixture("segue.json").animationDuration, 1.7, accuracy: 1e-12)
        // The partial curl: the flight summary curls up a third of the way over the review screen from 0.2 s.
        let curl = try fixture("curl.json")
        XCTAssertEqual(curl.animationDuration, 0.6, accuracy: 1e-12)
        guard case .group(let pair) = curl.snapshot(at: 1).layers[0].content,
            case .curled(_, let page) = pair[1].content
        else { return XCTFail("the curled summary") }
        XCTAssertEqual(page.progress, LayerTransition.partialCurlProgress)
        // The blur animator: the blur view above the table view, as the seed's screen stacks them.
        let animator = try fixture("blur-animator.json")
        guard case .backdrop(let blur) = animator.layers[2].content else { return XCTFail("the blur view") }
        XCTAssertEqual(blur.effect, 0)
        guard case .backdrop(let full) = animator.snapshot(at: 0.55).layers[2].content else { return XCTFail() }
        XCTAssertEqual(full.effect, 1)
        XCTAssertEqual(animator.snapshot(at: 0.55).layers[1].opacity, 0.33, accuracy: 1e-12)
        XCTAssertEqual(animator.snapshot(at: 0.55).layers[1].transform, AffineTransform2D(scaleX: 0.75, y: 0.75))
    }

    /// The entrance with its labels: frames drawn in parallel through the frame cache (the title from the
    /// static base, the rating labels inside their groups' cached pictures) equal each frame drawn alone, both
    /// when the caller copies each frame (released canvases are then drawn on again for later frames) and when
    /// it keeps the frames themselves (which must then never be drawn on again).
    func testEntranceFramesWithTextEqualFramesDrawnAlone() throws {
        var scene = try fixture("review-entrance.json")
        scene.scale = 0.5  // a debug build's seconds; the labels are still a few pixels tall
        let renderer = AnimationRenderer(framesPerSecond: 5, renderer: SceneRenderer(threads: 2))
        let count = renderer.frameCount(duration: scene.animationDuration)
        let copied = Locked<[Int: Image]>([:])
        try renderer.renderFrames(
            of: scene, count: count, process: { index, frame, _ in copied.withLock { $0[index] = frame.copy() } },
            deliver: { _, _ in })
        let kept = Locked<[Int: Image]>([:])
        try renderer.renderFrames(
            of: scene, count: count, process: { index, frame, _ in kept.withLock { $0[index] = frame } },
            deliver: { _, _ in })
        let alone = AnimationRenderer(framesPerSecond: 5, renderer: SceneRenderer(threads: 1))
        for index in 0..<count {
            let expected = try alone.frame(of: scene, at: alone.time(ofFrame: index))
            XCTAssertTrue(try XCTUnwrap(copied.withLock { $0[index] }).hasSamePixels(as: expected), "frame \(index)")
            XCTAssertTrue(try XCTUnwrap(kept.withLock { $0[index] }).hasSamePixels(as: expected), "kept \(index)")
        }
    }

    /// The animation renderer hands each frame on with the box outside which it equals the frame before (what it
    /// and its predecessor drew over the cache's base), and the animated PNG encoder compares the two there
    /// alone: for every animated fixture, each frame encodes to the same rectangle and bytes as with a comparison
    /// of the whole canvas. And each frame, drawn on a released frame's canvas where one was free (only its
    /// touched box copied back from the base), equals the frame drawn alone.
    func testEveryFixtureFrameChangesOnlyInsideItsChangeBound() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "fixtures").filter {
            $0.hasSuffix(".json")
        }
        var animated = 0
        for name in names.sorted() {
            var scene = try fixture(name)
            guard scene.isAnimated else { continue }
            animated += 1
            scene.scale = 0.25  // a debug build's seconds; every layer still draws
            let renderer = AnimationRenderer(framesPerSecond: 6, renderer: SceneRenderer(threads: 2))
            let alone = AnimationRenderer(framesPerSecond: 6, renderer: SceneRenderer(threads: 1))
            let encoder = AnimatedPNGEncoder(
                width: scene.pixelWidth, height: scene.pixelHeight, frameDelay: FrameDelay(1, 6),
                opaque: scene.staysOpaque, compressionLevel: 2)
            let mismatches = Locked<[String]>([])
            let drawn = scene
            try renderer.renderFrames(
                of: scene, count: renderer.frameCount(duration: scene.animationDuration),
                processFrame: { frame in
                    let bounded = try encoder.encodeFrame(
                        frame.image, previous: frame.previous, changesWithin: frame.changeBound)
                    let whole = try encoder.encodeFrame(frame.image, previous: frame.previous)
                    if (bounded.x, bounded.y, bounded.width, bounded.height, bounded.data)
                        != (whole.x, whole.y, whole.width, whole.height, whole.data)
                    {
                        mismatches.withLock { $0.append("\(name) frame \(frame.index)") }
                    }
                    let expected = try alone.frame(of: drawn, at: alone.time(ofFrame: frame.index))
                    if !frame.image.hasSamePixels(as: expected) {
                        mismatches.withLock { $0.append("\(name) frame \(frame.index) drawn alone") }
                    }
                }, deliver: { _, _ in })
            XCTAssertEqual(mismatches.withLock { $0 }, [])
        }
        XCTAssertGreaterThan(animated, 10)
    }

    func testKeyframesVelocityRepeatAndImage() throws {
        let scene = try scene(
            layer(
                #"{"type": "image", "path": "coffee.jpg", "animations": [{"property": "image", "to": "coffee.jpg", "duration": 1}, {"property": "opacity", "keyframes": [{"time": 0.5, "value": 0.2, "curve": "easeOut"}, {"time": 1, "value": 1}], "duration": 2, "repeatCount": "forever", "autoreverses": true}, {"property": "frame", "from": {"x": 0, "y": 0, "width": 3, "height": 4}, "to": {"x": 1, "y": 2, "width": 3, "height": 4}, "curve": "spring(mass: 1, stiffness: 100, damping: 10)", "velocity": [1, 0.2]}]}"#
            ))
        let animations = scene.layers[0].animations
        XCTAssertEqual(animations.count, 3)
        XCTAssertEqual(animations[1].timing.repeatCount, .infinity)
        XCTAssertTrue(animations[1].timing.autoreverses)
        guard case .opacity(let track) = animations[1].property else { return XCTFail() }
        XCTAssertEqual(track.keyframes.map(\.time), [0.5, 1])
        XCTAssertEqual(track.keyframes[0].curve, .easeOut)
        XCTAssertEqual(animations[2].positionVelocity, PositionVelocity(dx: 1, dy: 0.2))
        XCTAssertEqual(
            animations[2].timing.curve,
            try TimingCurve(parsing: "spring(mass: 1, stiffness: 100, damping: 10, velocity: \((1.04 as Double).squareRoot()))"),
            "everything but the centre takes the vector's magnitude")
        XCTAssertEqual(animations[2].timing.duration, animations[2].timing.curve.intrinsicDuration)
    }

    func testMistakesNameTheirPath() {
        let cases: [(String, String)] = [
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "alpha", "to": 1, "duration": 1}]}"#,
                "layers[0].animations[0].property: expected one of blur, color, cornerRadius, curl, dim, effect, "
                    + "frame, image, opacity, rotation, rotation3D, strokeColor, strokeEnd, transform, transform3D, "
                    + "found \"alpha\""
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "effect", "to": 1, "duration": 1}]}"#,
                "layers[0].animations[0].property: effect does not animate a color layer (only backdrop)"
            ),
            (
                // A physical spring settles in its own time: a duration cannot cut it short.
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "duration": 0.2, "curve": "spring(mass: 1, stiffness: 100, damping: 10)"}]}"#,
                "layers[0].animations[0].duration: this spring settles in its own time ("
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "duration": 0.5, "curve": "spring"}]}"#,
                "layers[0].animations[0].duration: this spring settles in its own time ("
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "curve": "spring(dampingRatio: 0.3)"}]}"#,
                "layers[0].animations[0].curve: spring(dampingRatio:) is UIKit's spring and lasts its animation's duration"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 2, "duration": 1}]}"#,
                "layers[0].animations[0].to: expected a number from 0 to 1, found 2"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "duration": 1}]}"#,
                "layers[0].animations[0]: missing to (or keyframes)"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "keyframes": [], "duration": 1}]}"#,
                "layers[0].animations[0]: give either to or keyframes, not both"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "keyframes": [{"time": 0.5, "value": 1}, {"time": 0.2, "value": 0}], "duration": 1}]}"#,
                "layers[0].animations[0].keyframes[1].time: expected a number from 0.5 to 1, found 0.2"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "duration": 1, "velocity": 2}]}"#,
                "layers[0].animations[0].velocity: an initial velocity needs a spring curve"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "transform", "to": 5, "duration": 1}]}"#,
                #"layers[0].animations[0].to: expected a transform such as "scale(5) translate(600, 0)", found 5"#
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "duration": 1, "repeatCount": 0}]}"#,
                "layers[0].animations[0].repeatCount: expected a number above 0 and at most 1000000, found 0"
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "duration": 1, "autoreverses": 1}]}"#,
                "layers[0].animations[0].autoreverses: expected true or false, found 1"
            ),
            (
                #"{"type": "image", "path": "coffee.jpg", "animations": [{"property": "image", "to": "missing.png", "duration": 1}]}"#,
                "layers[0].animations[0].to: "
            ),
            (
                #"{"type": "color", "color": "red", "animations": [{"property": "frame", "to": {"x": 1, "y": 2, "width": 3, "height": 4}, "duration": 1}]}"#,
                "layers[0].animations[0]: a layer without a frame needs from (where the frame starts)"
            ),
            (
                #"{"type": "color", "color": "red", "animations": {"property": "opacity"}}"#,
                "layers[0].animations: expected an array of animations, found an object"
            ),
        ]
        for (json, expected) in cases {
            let message = error(layer(json))
            XCTAssertTrue(message?.hasPrefix(expected) ?? false, "\(message ?? "loaded") for \(json)")
            XCTAssertFalse(message?.contains("\n") ?? true)
        }
        let badCurve = error(
            layer(#"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 1, "duration": 1, "curve": "cubic-bezier(2, 0, 1, 1)"}]}"#))
        XCTAssertTrue(badCurve?.hasPrefix("layers[0].animations[0].curve: ") ?? false, badCurve ?? "loaded")
    }

    /// Ten thousand animations and keyframes in all; one more is refused before it is read.
    func testAnimationCountIsBounded() {
        let keyframes = (0..<SceneFile.maximumAnimations).map { #"{"time": 1, "value": \#($0 % 2)}"# }
        let json = layer(
            #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "keyframes": [\#(keyframes.joined(separator: ","))], "duration": 1}]}"#
        )
        XCTAssertEqual(
            error(json), "layers[0].animations[0].keyframes[9999]: more than 10000 animations and keyframes")
    }

    /// The seed's `UIViewPropertyAnimator(duration: 2, timingParameters: UISpringTimingParameters(dampingRatio: 0.2))`
    /// written as users write it: UIKit's spring solved to settle in the animation's 2 s; and SwiftUI's 0.35 s for a
    /// named curve left without a duration (MOTION.md), where Core Animation's would be 0.25 s.
    func testADampingRatioSpringLastsTheAnimationsDurationAndCurvesDefaultToSwiftUIs() throws {
        let scene = try scene(
            layer(
                #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 0, "duration": 2, "curve": "spring(dampingRatio: 0.2)"}, {"property": "opacity", "to": 1, "curve": "easeOut", "delay": 2}]}"#
            ))
        let animations = scene.layers[0].animations
        XCTAssertEqual(animations[0].timing.duration, 2)
        XCTAssertEqual(animations[0].timing.curve.spring, Spring(dampingRatio: 0.2, initialVelocity: 0, duration: 2))
        XCTAssertEqual(animations[1].timing.duration, 0.35)
    }

    /// `overlap` names one of the three APIs' behaviours; UIKit's additive is the default; an animation that says
    /// where it starts has no overlap to choose.
    func testOverlapModes() throws {
        func animation(_ extra: String) throws -> LayerAnimation {
            try scene(
                layer(#"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 0\#(extra)}]}"#)
            ).layers[0].animations[0]
        }
        XCTAssertEqual(try animation("").overlap, .additive)
        XCTAssertEqual(try animation(#", "overlap": "presentation""#).overlap, .presentation)
        XCTAssertEqual(try animation(#", "overlap": "retarget""#).overlap, .retarget)
        XCTAssertEqual(
            error(layer(#"{"type": "color", "color": "red", "animations": [{"property": "opacity", "to": 0, "overlap": "blend"}]}"#)),
            "layers[0].animations[0].overlap: expected one of additive, presentation, retarget, found \"blend\"")
        XCTAssertEqual(
            error(
                layer(
                    #"{"type": "color", "color": "red", "animations": [{"property": "opacity", "from": 1, "to": 0, "overlap": "additive"}]}"#
                )),
            "layers[0].animations[0].overlap: an animation with from (or a keyframe at time 0) starts there: overlap "
                + "does not apply")
    }
}
