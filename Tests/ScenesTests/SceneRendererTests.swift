import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

final class SceneRendererTests: XCTestCase {
    private let photo = TestImages.photoLike(width: 96, height: 64, seed: 9)
    private let thin = Material.thin.recipe(for: .light)

    private func render(_ layers: [Layer], width: Double = 96, height: Double = 64, threads: Int = 2) -> Image {
        try! SceneRenderer(threads: threads).render(Scene(width: width, height: height, layers: layers))
    }

    private func photoLayer() -> Layer {
        Layer(.image(photo, fit: .fill, filter: .lanczos3, cornerRadius: 0))
    }

    /// The panel blurs what lies beneath it reading the pixels around it: inside its frame it equals the
    /// material over the whole canvas, so there is no seam; outside it the picture is untouched.
    func testBackdropEqualsTheWholeCanvasMaterialCroppedToItsFrame() {
        let whole = render([photoLayer(), Layer(.backdrop(BackdropMaterial(recipe: thin)))])
        let panelFrame = Rect(x: 20, y: 10, width: 40, height: 30)
        let panel = render([photoLayer(), Layer(.backdrop(BackdropMaterial(recipe: thin)), frame: panelFrame)])
        let plain = render([photoLayer()])
        XCTAssertTrue(plain.hasSamePixels(as: photo), "a fill into the same size is the photo itself")
        XCTAssertTrue(
            panel.region(x: 20, y: 10, width: 40, height: 30).hasSamePixels(
                as: whole.region(x: 20, y: 10, width: 40, height: 30)))
        XCTAssertTrue(
            panel.region(x: 0, y: 0, width: 96, height: 10).hasSamePixels(
                as: photo.region(x: 0, y: 0, width: 96, height: 10)))
        XCTAssertTrue(
            panel.region(x: 60, y: 10, width: 36, height: 54).hasSamePixels(
                as: photo.region(x: 60, y: 10, width: 36, height: 54)))
    }

    func testBackdropCornersAreRoundedAndItsOpacityMixes() {
        let frame = Rect(x: 10, y: 10, width: 60, height: 40)
        let rounded = render([
            photoLayer(), Layer(.backdrop(BackdropMaterial(recipe: thin, cornerRadius: 12)), frame: frame),
        ])
        let square = render([photoLayer(), Layer(.backdrop(BackdropMaterial(recipe: thin)), frame: frame)])
        XCTAssertEqual(rounded[10, 10], photo[10, 10], "the corner pixel lies outside the arc")
        XCTAssertEqual(rounded[40, 30], square[40, 30], "the middle is the material")
        let half = render([
            photoLayer(), Layer(.backdrop(BackdropMaterial(recipe: thin)), frame: frame, opacity: 0.5),
        ])
        let mid = half[40, 30]
        let (a, b) = (photo[40, 30], square[40, 30])
        XCTAssertLessThanOrEqual(abs(Int(mid.green) - (Int(a.green) + Int(b.green)) / 2), 1)
    }

    func testShapesAreAntialiasedCoverage() {
        let red = RGBAColor(red: 1, green: 0, blue: 0)
        let canvas = render(
            [Layer(.shape(.capsule, color: red), frame: Rect(x: 10.5, y: 10, width: 40, height: 40))],
            width: 60, height: 60)
        XCTAssertEqual(canvas[30, 30], Pixel(red: 255, green: 0, blue: 0))
        XCTAssertEqual(canvas[12, 11], .transparent, "outside the circle, inside its box")
        XCTAssertEqual(canvas[5, 30], .transparent)
        let edge = canvas[10, 30]  // the circle's leftmost point is this pixel's centre: half covered
        XCTAssertTrue((110...145).contains(Int(edge.alpha)), "\(edge)")
        // A rectangle half a pixel off the grid: its edge columns are half covered, exactly.
        let offset = render(
            [Layer(.shape(.rectangle(cornerRadius: 0), color: .white), frame: Rect(x: 2.5, y: 0, width: 4, height: 4))],
            width: 8, height: 4)
        XCTAssertEqual(offset[2, 1].alpha, 128)
        XCTAssertEqual(offset[3, 1].alpha, 255)
        XCTAssertEqual(offset[6, 1].alpha, 128)
        XCTAssertEqual(offset[7, 1].alpha, 0)
    }

    func testTransformsActAboutTheFrameCentre() {
        // A 20×4 bar turned a quarter about its centre (30, 30) stands 4 wide and 20 tall.
        let bar = Layer(
            .shape(.rectangle(cornerRadius: 0), color: .white), frame: Rect(x: 20, y: 28, width: 20, height: 4),
            transform: AffineTransform2D(rotationAngle: .pi / 2))
        let canvas = render([bar], width: 60, height: 60)
        XCTAssertEqual(canvas[30, 21].alpha, 255)
        XCTAssertEqual(canvas[30, 38].alpha, 255)
        XCTAssertEqual(canvas[21, 30].alpha, 0)
        XCTAssertEqual(canvas[27, 30].alpha, 0)
        // Scaling doubles it about the centre too: 40 wide, from 10 to 50.
        let wide = render(
            [
                Layer(
                    .shape(.rectangle(cornerRadius: 0), color: .white),
                    frame: Rect(x: 20, y: 28, width: 20, height: 4), transform: AffineTransform2D(scaleX: 2, y: 1))
            ], width: 60, height: 60)
        XCTAssertEqual(wide[10, 30].alpha, 255)
        XCTAssertEqual(wide[9, 30].alpha, 0)
        XCTAssertEqual(wide[49, 30].alpha, 255)
    }

    /// Overlapping shapes in a group at opacity 0.5 show 50% once, not 75% where they overlap.
    func testGroupOpacityIsolatesItsLayers() {
        let square = { (x: Double) in
            Layer(.shape(.rectangle(cornerRadius: 0), color: .white), frame: Rect(x: x, y: 0, width: 20, height: 10))
        }
        let canvas = render(
            [
                Layer(.shape(.rectangle(cornerRadius: 0), color: .black)),
                Layer(.group([square(0), square(10)]), opacity: 0.5),
            ], width: 40, height: 10)
        XCTAssertEqual(canvas[5, 5], canvas[15, 5])
        XCTAssertEqual(canvas[15, 5].red, 128)
        XCTAssertEqual(canvas[35, 5], Pixel(red: 0, green: 0, blue: 0))
    }

    func testImagesFillTheirFrameWithoutFringes() {
        let grey = Image(width: 30, height: 20, fill: Pixel(red: 90, green: 90, blue: 90))
        for fit in FitMode.allCases {
            for filter in ResampleFilter.allCases {
                let canvas = render(
                    [
                        Layer(
                            .image(grey, fit: fit, filter: filter, cornerRadius: 0),
                            frame: Rect(x: 5, y: 5, width: 40, height: 40))
                    ], width: 50, height: 50)
                let top = fit == .fit ? 5 + (40 - 40 * 20 / 30) / 2 : 5
                XCTAssertEqual(canvas[5, top], Pixel(red: 90, green: 90, blue: 90), "\(fit) \(filter)")
                XCTAssertEqual(canvas[44, 44 - (top - 5)], Pixel(red: 90, green: 90, blue: 90), "\(fit) \(filter)")
                XCTAssertEqual(canvas[4, 25], .transparent, "\(fit) \(filter)")
            }
        }
        // Rotated, it keeps its colour inside and fades only at its outline.
        let turned = render(
            [
                Layer(
                    .image(grey, fit: .stretch, filter: .bilinear, cornerRadius: 0),
                    frame: Rect(x: 10, y: 10, width: 30, height: 30), transform: AffineTransform2D(rotationAngle: 0.3))
            ], width: 50, height: 50)
        XCTAssertEqual(turned[25, 25], Pixel(red: 90, green: 90, blue: 90))
    }

    /// The code form of a scene builds the same layers as the explicit initialiser.
    func testLayerShorthandsMatchTheirLongForm() {
        let frame = Rect(x: 8, y: 8, width: 40, height: 30)
        let short = render([
            .image(photo), .backdrop(thin, cornerRadius: 6, frame: frame), .color(.black, opacity: 0.3),
            .group([.shape(.capsule, color: .white, frame: Rect(x: 0, y: 0, width: 20, height: 8))], frame: frame),
        ])
        let long = render([
            photoLayer(), Layer(.backdrop(BackdropMaterial(recipe: thin, cornerRadius: 6)), frame: frame),
            Layer(.shape(.rectangle(cornerRadius: 0), color: .black), opacity: 0.3),
            Layer(
                .group([Layer(.shape(.capsule, color: .white), frame: Rect(x: 0, y: 0, width: 20, height: 8))]),
                frame: frame),
        ])
        XCTAssertTrue(short.hasSamePixels(as: long))
    }

    func testThreadCountsGiveTheSamePixels() {
        let layers = [
            photoLayer(),
            Layer(
                .backdrop(BackdropMaterial(recipe: thin, cornerRadius: 8)),
                frame: Rect(x: 8, y: 8, width: 70, height: 40)),
            Layer(
                .group([Layer(.shape(.capsule, color: .white), frame: Rect(x: 0, y: 0, width: 30, height: 12))]),
                frame: Rect(x: 30, y: 20, width: 30, height: 12), opacity: 0.7,
                transform: AffineTransform2D(rotationAngle: 0.4)),
        ]
        XCTAssertTrue(render(layers, threads: 1).hasSamePixels(as: render(layers, threads: 3)))
    }
}

/// Scenes are costed before drawing, and refused at once when over the renderer's limits.
final class SceneCostTests: XCTestCase {
    private func nestedGroups(_ depth: Int) -> Layer {
        var layer = Layer(.shape(.rectangle(cornerRadius: 0), color: .white))
        for _ in 0..<depth { layer = Layer(.group([layer]), opacity: 0.5) }
        return layer
    }

    func testCostCountsTheCanvasTheLayersAndTheIsolationPictures() {
        let renderer = SceneRenderer()
        let fill = Layer(.shape(.rectangle(cornerRadius: 0), color: .white))
        XCTAssertEqual(
            renderer.cost(of: Scene(width: 100, height: 50, layers: [fill])),
            SceneRenderer.Cost(peakBytes: 100 * 50 * 4, work: 2 * 5000 + 1_000))
        // A half-opaque group isolates a picture just the size of its child (a 20×10 shape at scale 2). Each
        // layer adds 1,000 besides its pixels.
        let small = Layer(
            .shape(.rectangle(cornerRadius: 0), color: .white), frame: Rect(x: 5, y: 5, width: 20, height: 10))
        let group = Layer(.group([small]), opacity: 0.5)
        XCTAssertEqual(
            renderer.cost(of: Scene(width: 100, height: 50, scale: 2, layers: [group])),
            SceneRenderer.Cost(peakBytes: (200 * 100 + 40 * 20) * 4, work: 20_000 + 1_600 + 800 + 2 * 1_000))
        // Nested isolated groups hold one picture each at once; siblings do not add up.
        let cost = renderer.cost(of: Scene(width: 100, height: 50, layers: [nestedGroups(3), nestedGroups(2)]))
        XCTAssertEqual(cost.peakBytes, 5000 * 4 * 4)
        let expectedWork: Double = 5000 + (5000 * 2 * 3 + 5000) + (5000 * 2 * 2 + 5000) + 7 * 1_000
        XCTAssertEqual(cost.work, expectedWork)
        // Invisible and empty layers cost only their own charge.
        let hidden = Layer(
            .backdrop(BackdropMaterial(recipe: Material.thin.recipe(for: .dark))), opacity: 0)
        XCTAssertEqual(renderer.cost(of: Scene(width: 100, height: 50, layers: [hidden])).work, 5000 + 1_000)
    }

    /// Past the limits the renderer's own allocations throw instead of trapping: a 10⁷ × 10⁷ canvas is 400 TB,
    /// past any process's address space.
    func testACanvasTheSystemRefusesIsAnError() {
        let renderer = SceneRenderer(limits: .unlimited)
        XCTAssertThrowsError(try renderer.render(Scene(width: 10_000_000, height: 10_000_000))) { error in
            guard case .outOfMemory = error as? SceneRenderError else { return XCTFail("\(error)") }
        }
    }

    /// Image layers cost by how they are resampled: 30 magnified Lanczos rotations of a photo over a phone
    /// screen took 40 s to draw (480 ns a pixel each) and are refused; a separable resize is cheap.
    func testImageLayersCostByHowTheyAreResampled() {
        let rotation = AffineTransform2D(rotationAngle: 10 * .pi / 180)
        XCTAssertEqual(
            SceneRenderer.operationsPerPixel(resampling: AffineTransform2D(scaleX: 3, y: 2), filter: .lanczos3), 4)
        XCTAssertEqual(SceneRenderer.operationsPerPixel(resampling: rotation, filter: .bilinear), 6)
        XCTAssertEqual(SceneRenderer.operationsPerPixel(resampling: rotation, filter: .lanczos3), 8 * 8 * 5)
        let photo = TestImages.photoLike(width: 60, height: 40)
        let rotated = Layer.image(photo, transform: AffineTransform2D(rotationAngle: 10 * .pi / 180))
        let scene = Scene(width: 390, height: 844, scale: 3, layers: Array(repeating: rotated, count: 30))
        XCTAssertThrowsError(try SceneRenderer().render(scene))
        XCTAssertNoThrow(try SceneRenderer().render(Scene(width: 39, height: 84, layers: [rotated])))
    }

    /// 29 nested half-opaque groups on a 390×844 canvas at scale 16 would hold 30 pictures of 84 MP (9.8 GB):
    /// refused before anything is allocated, as is a scene of 9,999 full-screen dims (82 s to draw before).
    func testOverLimitScenesAreRefusedBeforeDrawing() {
        let renderer = SceneRenderer()
        let deep = Scene(width: 390, height: 844, scale: 16, layers: [nestedGroups(29)])
        let clock = ContinuousClock()
        let start = clock.now
        XCTAssertThrowsError(try renderer.render(deep)) { error in
            guard case .tooMuchMemory(let needed, let limit) = error as? SceneRenderError else {
                return XCTFail("\(error)")
            }
            let pictures = 30 * 6240 * 13504
            XCTAssertEqual(needed, pictures * 4)
            XCTAssertEqual(limit, 4 << 30)
        }
        let dims = Scene(
            width: 390, height: 844, scale: 3,
            layers: Array(
                repeating: Layer(.shape(.rectangle(cornerRadius: 0), color: .black), opacity: 0.01), count: 9_999))
        XCTAssertThrowsError(try renderer.render(dims)) { error in
            XCTAssertEqual(
                "\(error)",
                "the scene would take 29634 million pixel operations to draw (its layers' areas weighted by what "
                    + "each costs, its layers and particles); the limit is 10000 million")
        }
        XCTAssertLessThan(clock.now - start, .seconds(2), "refused from the geometry, not drawn")
        // Within raised limits the same deep scene (at scale 1) draws.
        var generous = SceneRenderer(limits: .unlimited)
        generous.threads = 1
        let small = Scene(width: 39, height: 84, layers: [nestedGroups(29)])
        XCTAssertEqual(try generous.render(small)[5, 5].alpha, UInt8((255 * pow(0.5, 29.0)).rounded()))
    }

    /// Work that is not pixels is charged too: 1,000 fill pixels a layer, drawn or not, and 2,000 a particle
    /// evaluated, on the canvas or off it. 9,999 one-pixel layers cost what 10 million pixels do, and 2,000
    /// emitters whose 10,001 particles each fall past a 10×10 canvas (minutes to evaluate) are refused at once,
    /// from their numbers.
    func testLayersAndParticlesAreChargedAndRefusedAtOnce() {
        let pixels = (0..<9_999).map {
            Layer.color(.white, frame: Rect(x: Double($0 % 10), y: Double($0 / 10 % 10), width: 1, height: 1))
        }
        let tiny = Scene(width: 10, height: 10, layers: pixels)
        // The canvas, each layer's one pixel and each layer's own charge, added up by hand.
        XCTAssertEqual(SceneRenderer(threads: 1).cost(of: tiny).work, 100 + 9_999 + 9_999 * 1_000)

        var cell = EmitterCell(contents: .circle(diameter: 4, color: .white))
        (cell.birthRate, cell.lifetime, cell.velocity, cell.emissionLongitude) = (1_000, 10, -50, .pi / 2)
        var falling = ParticleEmitter(cells: [cell])
        (falling.emitterPosition, falling.timeOffset) = (Point(x: 5, y: -1_000), 20)
        // Births 10,000 to 20,000 are within a lifetime of t = 20 s.
        XCTAssertEqual(falling.particlesEvaluated, 10_001)
        XCTAssertEqual(falling.particles().count, 10_000, "birth 10,000 is exactly its lifetime old: gone")
        let emitters = Scene(width: 10, height: 10, layers: Array(repeating: .emitter(falling), count: 2_000))
        let clock = ContinuousClock()
        let start = clock.now
        XCTAssertThrowsError(try SceneRenderer(threads: 1).render(emitters)) { error in
            XCTAssertEqual(
                error as? SceneRenderError, .tooMuchWork(needed: 2_000 * 1_000 + 2_000 * 10_001 * 2_000, limit: 1e10))
        }
        XCTAssertLessThan(clock.now - start, .seconds(2), "refused from the numbers, no particle evaluated")
    }
}
