import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// Frames of a whole animation equal frames drawn alone, whatever the cache serves and however many threads.
final class AnimationRendererTests: XCTestCase {
    /// A photo, a full-screen backdrop and a dim that never move (the cache's base and a backdrop over it), a
    /// frosted panel sliding over them (the whole-canvas material cropped), a static isolated group fading (its
    /// picture cached), a shape that moves and recolours above, and a static panel far enough from all that
    /// moves to be served from the cache in every frame, and one over the moving shape's path.
    private func scene() -> Scene {
        let linear = AnimationTiming(curve: .linear, duration: 0.5)
        var panel = Layer.backdrop(.thin, .dark, cornerRadius: 3, frame: Rect(x: 2, y: 4, width: 20, height: 12))
        panel.animations = [
            LayerAnimation(.frame(to: Rect(x: 30, y: 9, width: 20, height: 12)), timing: linear)
        ]
        var badge = Layer.group(
            [
                .shape(.capsule, color: .white, frame: Rect(x: 0, y: 0, width: 10, height: 6)),
                .color(RGBAColor(red: 1, green: 0, blue: 0), frame: Rect(x: 2, y: 2, width: 3, height: 2)),
            ], frame: Rect(x: 40, y: 2, width: 10, height: 6), opacity: 0.9)
        badge.animations = [LayerAnimation(.opacity(from: 0, to: 1), timing: linear)]
        var dot = Layer.shape(.capsule, color: .black, frame: Rect(x: 4, y: 20, width: 6, height: 6))
        dot.animations = [
            LayerAnimation(
                .transform(to: AffineTransform2D(translationX: 40, y: -10).rotatedBy(1)),
                timing: AnimationTiming(curve: .easeInOut, duration: 0.5, delay: 0.1)),
            LayerAnimation(
                .color(Track(to: RGBAColor(red: 0, green: 0.5, blue: 1))), timing: AnimationTiming(duration: 0.3)),
        ]
        let far = Layer.backdrop(
            MaterialRecipe(blurPoints: 2, saturation: 1.4, tints: [TintLayer(.white.opacity(0.3))]), cornerRadius: 2,
            frame: Rect(x: 80, y: 4, width: 16, height: 20))
        // Static too, but over where the dot passes: drawn afresh in the frames the dot is within its reach.
        let near = Layer.backdrop(
            MaterialRecipe(blurPoints: 2, saturation: 0.5), frame: Rect(x: 30, y: 14, width: 14, height: 10))
        return Scene(
            width: 100, height: 32, scale: 1, background: .black,
            layers: [
                .image(TestImages.photoLike(width: 150, height: 48, seed: 9)),
                .backdrop(.ultraThin, .light),
                .color(.black, opacity: 0.2),
                panel, badge, dot, far, near,
            ])
    }

    private func collectFrames(_ scene: Scene, threads: Int, fps: Double = 20) throws -> [Image] {
        let renderer = AnimationRenderer(framesPerSecond: fps, renderer: SceneRenderer(threads: threads))
        let count = renderer.frameCount(duration: scene.animationDuration)
        let frames = Locked<[Int: Image]>([:])
        var order: [Int] = []
        try renderer.renderFrames(
            of: scene, count: count,
            process: { index, frame, previous in
                XCTAssertEqual(previous == nil, index == 0)
                frames.withLock { $0[index] = frame.copy() }
                return index
            },
            deliver: { index, result in
                XCTAssertEqual(index, result)
                order.append(index)
            })
        XCTAssertEqual(order, Array(0..<count), "delivered in frame order")
        return frames.withLock { frames in (0..<count).map { frames[$0]! } }
    }

    func testEveryFrameEqualsTheFrameDrawnAlone() throws {
        let scene = scene()
        let renderer = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 1))
        let frames = try collectFrames(scene, threads: 2)
        XCTAssertEqual(frames.count, 13, "0.6 s at 20 fps, the end included")
        for (index, frame) in frames.enumerated() {
            let alone = try renderer.frame(of: scene, at: renderer.time(ofFrame: index))
            XCTAssertTrue(frame.hasSamePixels(as: alone), "frame \(index)")
        }
        XCTAssertFalse(frames[0].hasSamePixels(as: frames[6]), "the scene moves")
    }

    func testThreadCountDoesNotChangeAFrame() throws {
        let scene = scene()
        let one = try collectFrames(scene, threads: 1)
        let two = try collectFrames(scene, threads: 2)
        let four = try collectFrames(scene, threads: 4)
        for index in one.indices {
            XCTAssertTrue(one[index].hasSamePixels(as: two[index]), "frame \(index)")
            XCTAssertTrue(one[index].hasSamePixels(as: four[index]), "frame \(index)")
        }
    }

    /// The cache keeps the static bottom layers and the material over them; a panel's material is cropped
    /// from the whole canvas once it has moved.
    func testCacheKeepsWhatDoesNotMove() throws {
        let scene = scene()
        let renderer = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 1))
        let cache = try renderer.makeCache(for: scene)
        XCTAssertEqual(cache.staticPrefix, 3)
        XCTAssertEqual(cache.staticGroups, [[4]])
        var still = scene
        still.layers = Array(scene.layers.prefix(3))
        XCTAssertTrue(cache.base.hasSamePixels(as: try SceneRenderer(threads: 1).render(still)))
    }

    func testFrameTimes() {
        let renderer = AnimationRenderer(framesPerSecond: 60)
        XCTAssertEqual(renderer.frameCount(duration: 1), 61)
        XCTAssertEqual(renderer.frameCount(duration: 0), 1)
        XCTAssertEqual(renderer.frameCount(duration: 0.1), 7)
        XCTAssertEqual(renderer.frameTimes(duration: 0.05), [0, 1.0 / 60, 2.0 / 60, 3.0 / 60])
        XCTAssertEqual(AnimationRenderer(framesPerSecond: 30).frameCount(duration: 1e9), 30_000_000_001)
        XCTAssertEqual(renderer.frameCount(duration: .nan), 1)
        XCTAssertEqual(renderer.frameCount(duration: -1), 1)
        XCTAssertEqual(renderer.frameCount(duration: .infinity), 1)
        XCTAssertEqual(AnimationRenderer(framesPerSecond: 1e300).frameCount(duration: 1e300), 1_000_000_000_000_000)
        XCTAssertThrowsError(try renderer.check(scene(), frames: AnimationRenderer.maximumFrames + 1)) { error in
            XCTAssertEqual(error as? SceneRenderError, .tooManyFrames(count: 36_001, limit: 36_000))
        }
    }

    /// A failure in the middle stops the run: later frames are not delivered, the error comes back.
    func testProcessingErrorStopsTheAnimation() {
        struct Stop: Error {}
        let renderer = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 2))
        var delivered: [Int] = []
        XCTAssertThrowsError(
            try renderer.renderFrames(
                of: scene(), count: 13,
                process: { index, _, _ in
                    if index == 5 { throw Stop() }
                    return index
                },
                deliver: { index, _ in delivered.append(index) })
        ) { XCTAssertTrue($0 is Stop) }
        XCTAssertFalse(delivered.contains(5))
        XCTAssertEqual(delivered, Array(0..<delivered.count))
    }

    /// Every frame within the scene limits, and all of them within `workFactor` times one scene's work.
    func testAnimationWorkIsBoundedBeforeDrawing() throws {
        let scene = scene()
        let oneFrame = SceneRenderer(threads: 1).cost(of: scene.snapshot(at: 0)).work
        var limits = SceneRenderer.Limits()
        limits.work = oneFrame * 2
        let renderer = AnimationRenderer(framesPerSecond: 1000, renderer: SceneRenderer(threads: 1, limits: limits))
        XCTAssertNoThrow(try renderer.check(scene, frames: 30))
        XCTAssertThrowsError(try renderer.check(scene, frames: 600)) { error in
            XCTAssertEqual(
                error as? SceneRenderError,
                .tooMuchAnimationWork(frames: 600, limit: oneFrame * 2 * AnimationRenderer.workFactor))
        }
    }
}
