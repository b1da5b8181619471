import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// Curled layers (`Layer.Content.curled`): the page is the frame's picture, curled before it is composited; the
/// curl's progress animates; the curl transitions begin and end exactly at their states.
final class CurledLayerTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 40, height: 30)
    private let old = Layer.image(TestImages.photoLike(width: 40, height: 30, seed: 1))
    private let new = Layer.image(TestImages.photoLike(width: 40, height: 30, seed: 2))
    private let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3)

    private func render(_ layers: [Layer], at time: Double? = nil, threads: Int = 1) throws -> Image {
        let scene = Scene(width: 40, height: 30, scale: 2, background: background, layers: layers)
        return try SceneRenderer(threads: threads).render(time.map { scene.snapshot(at: $0) } ?? scene)
    }

    func testTheFramesPictureIsCurledThenComposited() throws {
        let card = Rect(x: 6, y: 4, width: 28, height: 20)
        let photo = TestImages.photoLike(width: 20, height: 20, seed: 3)
        let content: [Layer] = [.color(.white), .image(photo, frame: Rect(x: 4, y: 2, width: 20, height: 16))]
        let curl = PageCurl(progress: 0.4, direction: .down, angle: 0.2)
        let drawn = try render([new, .curled(content, curl: curl, frame: card)])
        // By hand: the content alone on a transparent picture of the card's 56 × 40 pixels, curled, drawn over.
        let picture = try SceneRenderer(threads: 1).render(Scene(width: 28, height: 20, scale: 2, layers: content))
        let expected = try render([new])
        expected.region(x: 12, y: 8, width: 56, height: 40).draw(curl.curled(picture), threads: 1)
        XCTAssertTrue(drawn.hasSamePixels(as: expected))
        XCTAssertTrue(try render([new, .curled(content, curl: curl, frame: card)], threads: 3).hasSamePixels(as: drawn))
    }

    /// A page partly below the canvas curls up from its own bottom edge: what shows equals the same page curled
    /// wholly on a canvas tall enough to hold it, cut to this canvas.
    func testAPagePartlyOffTheCanvasCurlsAsAWholePage() throws {
        let photo = TestImages.photoLike(width: 30, height: 24, seed: 4)
        let curl = PageCurl(progress: 0.35, direction: .up, angle: 0.25)
        let frame = Rect(x: 6, y: 16, width: 30, height: 24)
        let shown = try render([new, .curled([.image(photo)], curl: curl, frame: frame)])
        let tall = Scene(
            width: 40, height: 40, scale: 2, background: background,
            layers: [
                .image(TestImages.photoLike(width: 40, height: 30, seed: 2), frame: bounds),
                .curled([.image(photo)], curl: curl, frame: frame),
            ])
        let whole = try SceneRenderer(threads: 1).render(tall)
        XCTAssertTrue(shown.hasSamePixels(as: whole.region(x: 0, y: 0, width: 80, height: 60).copy()))
        // Curling only the part on the canvas (the old behaviour) differs: the curl starts at the canvas's edge.
        let clipped = Layer.curled(
            [.image(photo, frame: Rect(x: 0, y: 0, width: 30, height: 24))], curl: curl,
            frame: Rect(x: 6, y: 16, width: 30, height: 14))
        XCTAssertFalse(try render([new, clipped]).hasSamePixels(as: shown))
        // Wholly off the canvas: nothing drawn.
        let away = Layer.curled([.image(photo)], curl: curl, frame: Rect(x: 6, y: 31, width: 30, height: 24))
        XCTAssertTrue(try render([new, away]).hasSamePixels(as: try render([new])))
    }

    func testFlatIsTheLayersAndGoneIsNothing() throws {
        XCTAssertTrue(try render([new, .curled([old], curl: PageCurl())]).hasSamePixels(as: try render([new, old])))
        let gone = Layer.curled([old], curl: PageCurl(progress: 1))
        XCTAssertTrue(try render([new, gone]).hasSamePixels(as: try render([new])))
    }

    func testTheCurlsProgressAnimates() throws {
        var page = Layer.curled([old], curl: PageCurl(direction: .down))
        page.animations = [
            LayerAnimation(.curl(Track(from: 0, to: 0.8)), timing: AnimationTiming(curve: .linear, duration: 2))
        ]
        let half = Layer.curled([old], curl: PageCurl(progress: 0.4, direction: .down))
        XCTAssertTrue(try render([new, page], at: 1).hasSamePixels(as: try render([new, half])))
        guard case .curled(_, let end) = page.snapshot(at: 5).content else { return XCTFail("not curled any more") }
        XCTAssertEqual(end.progress, 0.8)
        XCTAssertEqual(Scene(width: 1, height: 1, layers: [.group([page])]).animationDuration, 2)
    }

    func testAnimatedFramesEqualTheFramesDrawnAlone() throws {
        // The page's content is static: its picture comes from the cache, curled afresh each frame.
        let transition = LayerTransition(.curl(.up), timing: AnimationTiming(curve: .linear, duration: 0.3))
        let scene = Scene(
            width: 40, height: 30, background: background, layers: [transition.layer(from: old, to: new, in: bounds)])
        let renderer = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 2))
        var frames: [Image] = []
        try renderer.renderFrames(
            of: scene, count: renderer.frameCount(duration: scene.animationDuration),
            process: { _, frame, _ in frame.copy() }, deliver: { _, frame in frames.append(frame) })
        XCTAssertEqual(frames.count, 7)
        for (index, frame) in frames.enumerated() {
            let alone = try renderer.frame(of: scene, at: renderer.time(ofFrame: index))
            XCTAssertTrue(frame.hasSamePixels(as: alone), "frame \(index)")
        }
        XCTAssertFalse(frames[2].hasSamePixels(as: frames[4]), "the page curls")
    }

    func testCurlTransitionsBeginWithTheOldLayerAndEndWithTheNew() throws {
        for direction in PageCurl.Direction.allCases {
            let transition = LayerTransition(.curl(direction))
            XCTAssertEqual(transition.timing.duration, 1)
            let group = transition.layer(from: old, to: new, in: bounds)
            XCTAssertTrue(try render([group], at: 0).hasSamePixels(as: try render([old])), "\(direction)")
            XCTAssertTrue(try render([group], at: 1).hasSamePixels(as: try render([new])), "\(direction)")
            let middle = try render([group], at: 0.5)
            let (before, after) = (try render([old]), try render([new]))
            XCTAssertFalse(middle.hasSamePixels(as: before) || middle.hasSamePixels(as: after), "\(direction)")
        }
    }

    func testPartialCurlStopsAThirdOfTheWayAndUncurlsBack() throws {
        let presenting = LayerTransition(.partialCurl(presenting: true))
        XCTAssertEqual(presenting.timing.duration, 0.4)
        let curled = PageCurl(progress: LayerTransition.partialCurlProgress)
        let present = presenting.layer(from: old, to: new, in: bounds)
        XCTAssertTrue(try render([present], at: 0).hasSamePixels(as: try render([old])))
        let stopped = try render([new, .curled([old], curl: curled)])
        XCTAssertTrue(try render([present], at: 0.4).hasSamePixels(as: stopped))
        XCTAssertTrue(try render([present], at: 3).hasSamePixels(as: stopped))
        // Dismissing: the presenting screen (now `to`) uncurls from there back over the modal one.
        let dismiss = LayerTransition(.partialCurl(presenting: false)).layer(from: new, to: old, in: bounds)
        XCTAssertTrue(try render([dismiss], at: 0).hasSamePixels(as: stopped))
        XCTAssertTrue(try render([dismiss], at: 0.4).hasSamePixels(as: try render([old])))
    }

    func testCostCountsThePageAndItsCopies() {
        let scene = Scene(width: 40, height: 30, scale: 2, layers: [.curled([old], curl: PageCurl(progress: 0.5))])
        let cost = SceneRenderer().cost(of: scene)
        // The canvas, and the page three times over (the picture, its padded copy, the curled page), the image's
        // resample inside it.
        XCTAssertGreaterThanOrEqual(cost.peakBytes, 80 * 60 * 4 * 4)
        XCTAssertGreaterThan(cost.work, 80 * 60 * 12)
    }
}
