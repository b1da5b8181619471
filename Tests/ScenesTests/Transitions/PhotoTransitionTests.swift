@testable import Compositor
import Motion
@testable import Scenes
import TestSupport
import XCTest

/// Properties every style has: exact ends, hostile progress, thread invariance, opacity and premultiplication.
final class PhotoTransitionTests: XCTestCase {
    // Odd sizes, so SIMD tails and xfade's integer halves are exercised.
    let from = TestImages.photoLike(width: 41, height: 27, seed: 11)
    let to = TestImages.photoLike(width: 41, height: 27, seed: 12)
    let progresses = [0.05, 0.25, 0.4, 0.5, 0.55, 0.75, 0.97]

    func testEndsAreTheInputsToTheBitForEveryStyleAndCurve() {
        let translucentFrom = TestImages.randomPremultiplied(width: 41, height: 27, seed: 3)
        let translucentTo = TestImages.randomPremultiplied(width: 41, height: 27, seed: 4)
        let curves: [TimingCurve] = [.linear, .easeInOut, TimingCurve(shape: .steps(count: 3, position: .jumpBoth))]
        for style in PhotoTransition.Style.allCases {
            for curve in curves {
                let transition = PhotoTransition(style: style, curve: curve, threads: 2)
                for (a, b) in [(from, to), (translucentFrom, translucentTo)] {
                    for start: Double in [0, -1, -.infinity, .nan] {
                        XCTAssertTrue(
                            transition.frame(from: a, to: b, progress: start).hasSamePixels(as: a), "\(style) \(start)")
                    }
                    for end: Double in [1, 1.5, .infinity] {
                        XCTAssertTrue(
                            transition.frame(from: a, to: b, progress: end).hasSamePixels(as: b), "\(style) \(end)")
                    }
                }
            }
        }
    }

    func testStyleProgressIsClampedAndTheCurveApplied() {
        let transition = PhotoTransition(style: .fade, curve: .easeIn)
        XCTAssertEqual(transition.styleProgress(at: .nan), 0)
        XCTAssertEqual(transition.styleProgress(at: -3), 0)
        XCTAssertEqual(transition.styleProgress(at: 7), 1)
        XCTAssertEqual(transition.styleProgress(at: 0.5), TimingCurve.easeIn.value(atFraction: 0.5), accuracy: 1e-12)
        XCTAssertLessThan(transition.styleProgress(at: 0.5), 0.4)  // easeIn lags behind linear
        // An overshooting spring holds the end instead of extrapolating past the new photo.
        let spring = try! TimingCurve(parsing: "spring(damping: 0.3, velocity: 0, duration: 1)")
        let springy = PhotoTransition(style: .fade, curve: spring)
        for t in stride(from: 0.0, through: 1, by: 0.01) {
            XCTAssertTrue((0...1).contains(springy.styleProgress(at: t)))
        }
    }

    func testTheCurveMapsTimeToTheStylesProgress() {
        for style in [PhotoTransition.Style.fade, .wipeleft, .circleopen, .pixelize] {
            let eased = PhotoTransition(style: style, curve: .easeIn, threads: 0)  // 0 threads: the calling one
            for t in [0.2, 0.5, 0.9] {
                let linear = PhotoTransition(style: style).frame(
                    from: from, to: to, progress: TimingCurve.easeIn.value(atFraction: t))
                XCTAssertTrue(eased.frame(from: from, to: to, progress: t).hasSamePixels(as: linear), "\(style) \(t)")
            }
        }
    }

    func testOneAndTwoThreadsDrawTheSamePixels() {
        let tall = TestImages.photoLike(width: 19, height: 64, seed: 5)
        let tallTo = TestImages.randomPremultiplied(width: 19, height: 64, seed: 6)
        for style in PhotoTransition.Style.allCases {
            for progress in progresses {
                let one = PhotoTransition(style: style, threads: 1).frame(from: tall, to: tallTo, progress: progress)
                let two = PhotoTransition(style: style, threads: 2).frame(from: tall, to: tallTo, progress: progress)
                XCTAssertTrue(one.hasSamePixels(as: two), "\(style) at \(progress)")
            }
        }
    }

    func testOpaquePairsStayOpaqueAndTranslucentOnesStayPremultiplied() {
        let a = TestImages.randomPremultiplied(width: 41, height: 27, seed: 7)
        let b = TestImages.randomPremultiplied(width: 41, height: 27, seed: 8)
        for style in PhotoTransition.Style.allCases {
            for progress in progresses {
                let transition = PhotoTransition(style: style, threads: 2)
                XCTAssertTrue(transition.frame(from: from, to: to, progress: progress).isOpaque, "\(style) \(progress)")
                let mixed = transition.frame(from: a, to: b, progress: progress)
                for y in 0..<mixed.height {
                    for x in 0..<mixed.width {
                        let pixel = mixed[x, y]
                        XCTAssertLessThanOrEqual(
                            max(pixel.red, pixel.green, pixel.blue), pixel.alpha, "\(style) \(progress) at \(x), \(y)")
                    }
                }
            }
        }
    }

    func testEveryStyleChangesTheFrameBetweenTheEnds() {
        // Not a copy of either photo in the middle: guards against a style falling through to a copy.
        for style in PhotoTransition.Style.allCases {
            let middle = PhotoTransition(style: style).frame(from: from, to: to, progress: 0.5)
            XCTAssertFalse(middle.hasSamePixels(as: from), "\(style)")
            XCTAssertFalse(middle.hasSamePixels(as: to), "\(style)")
        }
    }

    func testDrawWritesIntoATargetRegionWithItsOwnStride() {
        let canvas = Image(width: 50, height: 30, fill: Pixel(red: 1, green: 2, blue: 3))
        let region = canvas.region(x: 4, y: 2, width: 41, height: 27)
        for style in PhotoTransition.Style.allCases {
            let transition = PhotoTransition(style: style)
            transition.draw(from: from, to: to, progress: 0.3, into: region)
            XCTAssertTrue(region.hasSamePixels(as: transition.frame(from: from, to: to, progress: 0.3)), "\(style)")
            XCTAssertEqual(canvas[3, 2], Pixel(red: 1, green: 2, blue: 3))
            XCTAssertEqual(canvas[45, 29], Pixel(red: 1, green: 2, blue: 3))
        }
    }

    func testEmptyAndSinglePixelImagesAreDrawn() {
        for style in PhotoTransition.Style.allCases {
            let empty = Image(width: 0, height: 5)
            XCTAssertEqual(PhotoTransition(style: style).frame(from: empty, to: empty, progress: 0.5).width, 0)
            let a = Image(width: 1, height: 1, fill: Pixel(red: 200, green: 10, blue: 10))
            let b = Image(width: 1, height: 1, fill: Pixel(red: 10, green: 10, blue: 200))
            let pixel = PhotoTransition(style: style).frame(from: a, to: b, progress: 0.5)[0, 0]
            XCTAssertEqual(pixel.alpha, 255, "\(style)")
        }
    }
}

/// `material`'s schedule: the old photo alone through the material at effect 2p until 0.4, the new one alone at
/// effect 2(1 − p) from 0.6, the two full materials half and half at 0.5.
final class MaterialTransitionTests: XCTestCase {
    let from = TestImages.photoLike(width: 60, height: 90, seed: 41)
    let to = TestImages.photoLike(width: 60, height: 90, seed: 42)

    private func seen(_ image: Image, effect: Double) -> Image {
        let recipe = BackdropMaterial(recipe: Material.thin.recipe(for: .dark), effect: effect).effectiveRecipe
        return MaterialEffect(recipe: recipe, pixelsPerPoint: MaterialEffect.pixelsPerPoint(fillingScreenWith: 60, 90))
            .apply(to: image)
    }

    func testTheOldPhotoBlursInAndTheNewOneSharpensOut() {
        let transition = PhotoTransition(style: .material, threads: 2)
        XCTAssertTrue(transition.frame(from: from, to: to, progress: 0.3).hasSamePixels(as: seen(from, effect: 0.6)))
        XCTAssertTrue(transition.frame(from: from, to: to, progress: 0.8).hasSamePixels(as: seen(to, effect: 0.4)))
        let middle = transition.frame(from: from, to: to, progress: 0.5)
        let half = PhotoTransition(style: .fade).frame(
            from: seen(from, effect: 1), to: seen(to, effect: 1), progress: 0.5)
        XCTAssertTrue(middle.hasSamePixels(as: half))
    }

    func testNeighbouringFramesAroundTheCrossFadeAreClose() {
        // No jump: frames 1 % of progress apart differ little, through the cross-fade and either side of it.
        let transition = PhotoTransition(style: .material, threads: 2)
        let small = from.region(x: 0, y: 0, width: 30, height: 45)
        let smallTo = to.region(x: 0, y: 0, width: 30, height: 45)
        var previous = transition.frame(from: small, to: smallTo, progress: 0.35)
        for step in 36...64 {
            let frame = transition.frame(from: small, to: smallTo, progress: Double(step) / 100)
            XCTAssertGreaterThan(ImageDifference(previous, frame).psnr, 30, "at \(Double(step) / 100)")
            previous = frame
        }
    }
}
