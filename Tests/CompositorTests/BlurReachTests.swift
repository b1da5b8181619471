import TestSupport
import XCTest

@testable import Compositor

/// `reach` is what lets an animation reuse a backdrop's material when something moved elsewhere: pixels
/// changed beyond it must leave the region's result as it was, on either route.
final class BlurReachTests: XCTestCase {
    func testPixelsBeyondTheReachDoNotChangeARegion() throws {
        let size = 640
        for (sigma, precision) in [(1.5, BlurPrecision.auto), (6.0, .exact), (12.0, .auto), (40.0, .auto)] {
            let effect = MaterialEffect(
                recipe: MaterialRecipe(blurPoints: sigma, saturation: 1.5, tints: [TintLayer(.black.opacity(0.2))]),
                pixelsPerPoint: 1, precision: precision, threads: 1)
            let reach = try XCTUnwrap(effect.reach)
            let box = PixelBox(x: 300, y: 290, width: 30, height: 20)
            let kept = box.expanded(by: reach)
            let source = TestImages.photoLike(width: size, height: size, seed: 5)
            let changed = source.copy()
            let noise = TestImages.randomPremultiplied(width: size, height: size, seed: 6)
            for y in 0..<size {
                // Every pixel outside `kept` replaced, a row's outside runs at a time.
                let inRows = (kept.y..<(kept.y + kept.height)).contains(y)
                let runs = inRows ? [0..<max(kept.x, 0), min(kept.x + kept.width, size)..<size] : [0..<size]
                for run in runs where !run.isEmpty {
                    (changed.row(y) + run.lowerBound * 4).update(from: noise.row(y) + run.lowerBound * 4, count: run.count * 4)
                }
            }
            let before = effect.apply(to: source, regionX: box.x, y: box.y, width: box.width, height: box.height)
            let after = effect.apply(to: changed, regionX: box.x, y: box.y, width: box.width, height: box.height)
            XCTAssertTrue(before.hasSamePixels(as: after), "σ \(sigma), reach \(reach)")
            // And the reach is not vacuous: a change just inside it does show.
            let inside = source.copy()
            XCTAssertGreaterThan(kept.x, 0, "some pixels lie beyond the reach")
            for y in kept.y..<(kept.y + kept.height) { inside[box.x - reach / 4 - 1, y] = noise[0, y] }
            let near = effect.apply(to: inside, regionX: box.x, y: box.y, width: box.width, height: box.height)
            XCTAssertFalse(before.hasSamePixels(as: near), "σ \(sigma)")
        }
        XCTAssertNil(MaterialEffect(recipe: MaterialRecipe(blurPoints: 4), pixelsPerPoint: 1, edgeMode: .wrap).reach)
    }
}
