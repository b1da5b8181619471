import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// The 3D presets: flips and the true cube begin with exactly the old layer, end with exactly the new one, and
/// show one face at a time (a flip none at 90°).
final class Transition3DTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 40, height: 30)
    private let old = Layer.image(TestImages.photoLike(width: 40, height: 30, seed: 1), frame: Rect(x: 0, y: 0, width: 40, height: 30))
    private let new = Layer.image(TestImages.photoLike(width: 40, height: 30, seed: 2), frame: Rect(x: 0, y: 0, width: 40, height: 30))
    private let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3)

    private func render(_ layers: [Layer], at time: Double? = nil, threads: Int = 1) throws -> Image {
        let scene = Scene(width: 40, height: 30, scale: 2, background: background, layers: layers)
        return try SceneRenderer(threads: threads).render(time.map { scene.snapshot(at: $0) } ?? scene)
    }

    private var styles: [LayerTransition.Style] {
        LayerTransition.FlipEdge.allCases.flatMap { [.flip(from: $0), .cube3D($0)] }
            + [.flipHorizontal(presenting: true), .flipHorizontal(presenting: false)]
    }

    func testFirstAndLastFramesAreTheOldAndNewLayersToTheBit() throws {
        let (first, last) = (try render([old]), try render([new]))
        for style in styles {
            let transition = LayerTransition(style)
            let group = transition.layer(from: old, to: new, in: bounds)
            XCTAssertTrue(try render([group], at: 0).hasSamePixels(as: first), "\(style) at 0")
            XCTAssertTrue(try render([group], at: transition.endTime).hasSamePixels(as: last), "\(style) at the end")
        }
    }

    func testFlipShowsOneFaceAtATimeAndNeitherAtNinetyDegrees() throws {
        for edge in LayerTransition.FlipEdge.allCases {
            let transition = LayerTransition(.flip(from: edge), timing: AnimationTiming(curve: .linear, duration: 1))
            let group = transition.layer(from: old, to: new, in: bounds)
            XCTAssertTrue(try render([group], at: 0.5).hasSamePixels(as: try render([])), "\(edge) at 90°")
            for (time, shown) in [(0.3, 0), (0.7, 1)] {
                guard case .group(let faces) = group.snapshot(at: time).content else { return XCTFail() }
                let alone = try render([faces[shown]])
                XCTAssertTrue(try render([group], at: time).hasSamePixels(as: alone), "\(edge) at \(time)")
                XCTAssertFalse(alone.hasSamePixels(as: try render([])), "\(edge) at \(time) shows a face")
            }
        }
    }

    func testFlipHorizontalIsTheFlipFromTheRightWhenPresenting() throws {
        let timing = AnimationTiming(curve: .linear, duration: 1)
        let modal = LayerTransition(.flipHorizontal(presenting: true), timing: timing).layer(from: old, to: new, in: bounds)
        let right = LayerTransition(.flip(from: .right), timing: timing).layer(from: old, to: new, in: bounds)
        XCTAssertTrue(try render([modal], at: 0.3).hasSamePixels(as: try render([right], at: 0.3)))
        XCTAssertEqual(LayerTransition.defaultTiming(of: .flip(from: .left)).duration, 0.4)
    }

    func testCubeShowsBothFacesMidwayTheNewOneOnItsEdgesSide() throws {
        // Points of the 80 × 60 canvas on the new face's side and on the old one's, half way round.
        let sides: [(LayerTransition.FlipEdge, new: (Int, Int), old: (Int, Int))] = [
            (.right, (60, 30), (20, 30)), (.left, (20, 30), (60, 30)), (.bottom, (40, 45), (40, 15)),
            (.top, (40, 15), (40, 45)),
        ]
        let empty = try render([])
        for (edge, newPoint, oldPoint) in sides {
            let transition = LayerTransition(.cube3D(edge), timing: AnimationTiming(curve: .linear, duration: 1))
            let group = transition.layer(from: old, to: new, in: bounds)
            let middle = try render([group], at: 0.5)
            guard case .group(let faces) = group.snapshot(at: 0.5).content else { return XCTFail() }
            let (oldFace, newFace) = (try render([faces[0]]), try render([faces[1]]))
            XCTAssertNotEqual(oldFace[oldPoint.0, oldPoint.1], empty[oldPoint.0, oldPoint.1], "\(edge)")
            XCTAssertEqual(oldFace[newPoint.0, newPoint.1], empty[newPoint.0, newPoint.1], "\(edge)")
            XCTAssertNotEqual(newFace[newPoint.0, newPoint.1], empty[newPoint.0, newPoint.1], "\(edge)")
            XCTAssertEqual(newFace[oldPoint.0, oldPoint.1], empty[oldPoint.0, oldPoint.1], "\(edge)")
            XCTAssertEqual(middle[oldPoint.0, oldPoint.1], oldFace[oldPoint.0, oldPoint.1], "\(edge)")
            XCTAssertEqual(middle[newPoint.0, newPoint.1], newFace[newPoint.0, newPoint.1], "\(edge)")
            XCTAssertTrue(try render([group], at: 0.5, threads: 3).hasSamePixels(as: middle))
        }
    }
}

/// Frames of a flipping card drawn by the animation renderer (its cache, several frames at once) equal frames
/// drawn alone: the projected box marks the canvas, so the backdrop above reads no stale cached material.
final class Animated3DFrameTests: XCTestCase {
    func testCachedFramesEqualFramesDrawnAlone() throws {
        let card = Rect(x: 20, y: 8, width: 60, height: 36)
        let flip = LayerTransition(.cube3D(.left), timing: AnimationTiming(curve: .easeInOut, duration: 0.4))
            .layer(
                from: .color(RGBAColor(red: 0.9, green: 0.2, blue: 0.1), frame: card),
                to: .image(TestImages.photoLike(width: 60, height: 36, seed: 3), frame: card),
                in: Rect(x: 0, y: 0, width: 100, height: 50))
        let scene = Scene(
            width: 100, height: 50, scale: 2,
            layers: [
                .image(TestImages.photoLike(width: 200, height: 100, seed: 8)), flip,
                .backdrop(.thin, .light, frame: Rect(x: 40, y: 20, width: 50, height: 24)),
            ])
        let renderer = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 2))
        let count = renderer.frameCount(duration: scene.animationDuration)
        let frames = Locked<[Int: Image]>([:])
        try renderer.renderFrames(
            of: scene, count: count, process: { index, frame, _ in frames.withLock { $0[index] = frame.copy() } },
            deliver: { _, _ in })
        let alone = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 1))
        for index in 0..<count {
            let expected = try alone.frame(of: scene, at: alone.time(ofFrame: index))
            XCTAssertTrue(frames.withLock { $0[index]! }.hasSamePixels(as: expected), "frame \(index)")
        }
    }
}
