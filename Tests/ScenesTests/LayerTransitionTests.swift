import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// The seeds' transitions as presets: each begins with the old layer (and the seed's auxiliary copy where it
/// starts in view) and ends with exactly the new one, with the seeds' transforms and timings in between.
final class LayerTransitionTests: XCTestCase {
    private let bounds = Rect(x: 0, y: 0, width: 40, height: 30)
    private let old = Layer.image(TestImages.photoLike(width: 40, height: 30, seed: 1))
    private let new = Layer.image(TestImages.photoLike(width: 40, height: 30, seed: 2))
    private let background = RGBAColor(red: 0.1, green: 0.2, blue: 0.3)

    private func render(_ layers: [Layer], at time: Double? = nil) throws -> Image {
        let scene = Scene(width: 40, height: 30, background: background, layers: layers)
        return try SceneRenderer(threads: 1).render(time.map { scene.snapshot(at: $0) } ?? scene)
    }

    private let everyStyle: [LayerTransition.Style] = [
        .crossDissolve, .cube(.up), .cube(.down), .fadeAndBounce(x: -80, y: 0), .grow(fromX: 5, y: 5),
        .shrink(toX: 35, y: 25), .coverVertical(presenting: true), .coverVertical(presenting: false),
        .swiftUI(insertion: [.move(.bottom), .opacity], removal: [.opacity]),
        .swiftUI(insertion: [.slide], removal: [.slide]), .swiftUI(insertion: [.scale(0)], removal: [.scale(0)]),
    ]

    func testEveryStyleEndsWithExactlyTheNewLayer() throws {
        let expected = try render([new])
        for style in everyStyle {
            let transition = LayerTransition(style, timing: nil)
            let group = transition.layer(from: old, to: new, in: bounds)
            for time in [transition.endTime, transition.endTime + 1] {
                XCTAssertTrue(try render([group], at: time).hasSamePixels(as: expected), "\(style) at \(time) s")
            }
        }
    }

    func testStylesThatStartOutOfSightBeginWithExactlyTheOldLayer() throws {
        let expected = try render([old])
        let starting: [LayerTransition.Style] = [
            .crossDissolve, .fadeAndBounce(x: -80, y: 0), .coverVertical(presenting: true),
            .coverVertical(presenting: false), .shrink(toX: 35, y: 25),
            .swiftUI(insertion: [.move(.bottom), .opacity], removal: [.opacity]),
            .swiftUI(insertion: [.move(.trailing)], removal: [.move(.leading)]),
        ]
        for style in starting {
            let group = LayerTransition(style).layer(from: old, to: new, in: bounds)
            XCTAssertTrue(try render([group], at: 0).hasSamePixels(as: expected), "\(style)")
        }
    }

    func testCrossDissolveMiddleIsTheHalfMixAndStaysOpaque() throws {
        let transition = LayerTransition(.crossDissolve, timing: AnimationTiming(curve: .linear, duration: 1))
        let middle = try render([transition.layer(from: old, to: new, in: bounds)], at: 0.5)
        let (a, b) = (try render([old]), try render([new]))
        for y in 0..<30 {
            for x in 0..<40 {
                XCTAssertEqual(middle[x, y].alpha, 255)
                XCTAssertLessThanOrEqual(abs(Int(middle[x, y].red) - (Int(a[x, y].red) + Int(b[x, y].red) + 1) / 2), 1)
                XCTAssertLessThanOrEqual(
                    abs(Int(middle[x, y].green) - (Int(a[x, y].green) + Int(b[x, y].green) + 1) / 2), 1)
            }
        }
    }

    /// The seed's cube: the auxiliary (new) label starts half its height below, squashed to a tenth, and the
    /// old leaves upwards the same way, over 0.5 s ease-out.
    func testCubeHasTheSeedsTransforms() throws {
        let label = Rect(x: 10, y: 10, width: 20, height: 8)
        let oldLabel = Layer.shape(.rectangle(cornerRadius: 0), color: .white, frame: label)
        let newLabel = Layer.shape(.rectangle(cornerRadius: 0), color: .black, frame: label)
        for direction in LayerTransition.CubeDirection.allCases {
            let transition = LayerTransition(.cube(direction))
            XCTAssertEqual(transition.timing.duration, 0.5)
            XCTAssertEqual(transition.timing.curve, .easeOut)
            let group = transition.layer(from: oldLabel, to: newLabel, in: bounds)
            let start = Scene(width: 40, height: 30, layers: [group]).snapshot(at: 0)
            guard case .group(let pair) = start.layers[0].content else { return XCTFail("a group") }
            let sign = direction == .up ? 1.0 : -1.0
            XCTAssertEqual(pair[1].transform, AffineTransform2D(a: 1, b: 0, c: 0, d: 0.1, tx: 0, ty: sign * 4))
            XCTAssertEqual(pair[0].transform, .identity)
            let end = Scene(width: 40, height: 30, layers: [group]).snapshot(at: 0.5 - 1e-9)
            guard case .group(let ended) = end.layers[0].content else { return XCTFail("a group") }
            let leaving = ended[0].transform
            XCTAssertEqual(leaving.d, 0.1, accuracy: 1e-6)
            XCTAssertEqual(leaving.ty, -sign * 4, accuracy: 1e-6)
            XCTAssertEqual(ended[0].opacity, 1, "the old label shows until the end")
        }
    }

    /// The ghosting: at 0.2 s the old label is still half there and the new one already part way in.
    func testFadeAndBounceOverlapsAsGhosts() throws {
        let transition = LayerTransition(.fadeAndBounce(x: 80, y: 0))
        XCTAssertEqual(transition.endTime, 0.5, accuracy: 1e-12)
        let group = transition.layer(from: old, to: new, in: bounds)
        let at = Scene(width: 40, height: 30, layers: [group]).snapshot(at: 0.2)
        guard case .group(let pair) = at.layers[0].content else { return XCTFail("a group") }
        XCTAssertGreaterThan(pair[0].opacity, 0.5)
        XCTAssertGreaterThan(pair[1].opacity, 0.1)
        XCTAssertLessThan(pair[1].opacity, 1)
        XCTAssertGreaterThan(pair[0].transform.tx, 0)
        XCTAssertLessThan(pair[1].transform.tx, 80)
    }

    /// The segue: the new screen's centre starts on the tapped point at 5 % of its size.
    func testGrowStartsAtThePoint() throws {
        let group = LayerTransition(.grow(fromX: 5, y: 7)).layer(from: old, to: new, in: bounds)
        let start = Scene(width: 40, height: 30, layers: [group]).snapshot(at: 0)
        guard case .group(let pair) = start.layers[0].content else { return XCTFail("a group") }
        let t = pair[1].transform
        XCTAssertEqual(t.a, 0.05, accuracy: 1e-12)
        // About the frame's centre (20, 15): the centre lands on (5, 7).
        XCTAssertEqual(t.tx, 5 - 20, accuracy: 1e-12)
        XCTAssertEqual(t.ty, 7 - 15, accuracy: 1e-12)
    }
}
