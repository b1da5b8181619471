import XCTest

@testable import Compositor
@testable import Motion

#if canImport(Glibc)
    import Glibc
#endif

/// Interpolation by decomposition, as Core Animation and WebKit do it, against what a matrix lerp would do.
final class TransformInterpolationTests: XCTestCase {
    private func assertEqual(
        _ first: AffineTransform2D, _ second: AffineTransform2D, accuracy: Double = 1e-12, line: UInt = #line
    ) {
        for (a, b) in zip(
            [first.a, first.b, first.c, first.d, first.tx, first.ty],
            [second.a, second.b, second.c, second.d, second.tx, second.ty])
        {
            XCTAssertEqual(a, b, accuracy: accuracy, "\(first) vs \(second)", line: line)
        }
    }

    private let degree = Double.pi / 180

    func testEndsAreExactAndDecompositionRecomposes() {
        let transforms = [
            AffineTransform2D.identity, AffineTransform2D(rotationAngle: 30 * degree).scaledBy(x: 2, y: 0.5),
            try! AffineTransform2D(parsing: "translate(600, 10) scale(5) rotate(-120deg) skewX(20deg)"),
            AffineTransform2D(scaleX: -1, y: 2), AffineTransform2D(scaleX: 1, y: -3).rotatedBy(1),
            AffineTransform2D(scaleX: 0, y: 2), AffineTransform2D(scaleX: 0, y: 0),
        ]
        for first in transforms {
            assertEqual(AffineTransform2D(recomposing: first.decomposed()), first)
            for second in transforms {
                XCTAssertEqual(first.interpolated(to: second, progress: 0), first)
                XCTAssertEqual(first.interpolated(to: second, progress: 1), second)
                // Just inside the ends the result is continuous with them.
                assertEqual(first.interpolated(to: second, progress: 1e-9), first, accuracy: 1e-6)
                assertEqual(first.interpolated(to: second, progress: 1 - 1e-9), second, accuracy: 1e-6)
            }
        }
    }

    func testRotationKeepsItsScaleThroughTheMiddle() {
        let turned = AffineTransform2D(rotationAngle: 90 * degree)
        let middle = AffineTransform2D.identity.interpolated(to: turned, progress: 0.5)
        assertEqual(middle, AffineTransform2D(rotationAngle: 45 * degree))
        XCTAssertEqual(hypot(middle.a, middle.b), 1, accuracy: 1e-12)
        // A matrix lerp halves the diagonal: the layer would shrink to 71 % half-way.
        XCTAssertEqual(hypot(0.5 * (1 + turned.a), 0.5 * turned.b), 0.5.squareRoot(), accuracy: 1e-12)
    }

    func testAnglesGoTheShortWayRound() {
        let almostFull = AffineTransform2D(rotationAngle: 350 * degree)
        let quarter = AffineTransform2D.identity.interpolated(to: almostFull, progress: 0.25)
        assertEqual(quarter, AffineTransform2D(rotationAngle: -2.5 * degree))
        // Across ±180°: 170° → −170° turns 20° through 180°, not 340° through 0°.
        let from = AffineTransform2D(rotationAngle: 170 * degree)
        let to = AffineTransform2D(rotationAngle: -170 * degree)
        assertEqual(from.interpolated(to: to, progress: 0.5), AffineTransform2D(rotationAngle: 180 * degree))
    }

    func testAFlipPassesThroughZeroScale() {
        let flipped = AffineTransform2D(scaleX: -1, y: 1)
        let middle = AffineTransform2D.identity.interpolated(to: flipped, progress: 0.5)
        assertEqual(middle, AffineTransform2D(scaleX: 0, y: 1))
        assertEqual(
            AffineTransform2D.identity.interpolated(to: flipped, progress: 0.25), AffineTransform2D(scaleX: 0.5, y: 1))
        // Flipped in x one side and in y the other: a half turn instead of two collapsing axes.
        let other = AffineTransform2D(scaleX: 1, y: -1)
        let halfway = flipped.interpolated(to: other, progress: 0.5)
        XCTAssertEqual(abs(halfway.a * halfway.d - halfway.b * halfway.c), 1, accuracy: 1e-12)
    }

    func testScaleFromZeroGrowsLinearly() {
        let collapsed = AffineTransform2D(scaleX: 0, y: 0)
        assertEqual(collapsed.interpolated(to: .identity, progress: 0.3), AffineTransform2D(scaleX: 0.3, y: 0.3))
    }

    func testTranslationAndScaleInterpolateExactly() {
        // The review screen's slide-in: scale(5) then 600 pt to the right, back to identity.
        let start = AffineTransform2D(scaleX: 5, y: 5).concatenating(AffineTransform2D(translationX: 600, y: 0))
        let middle = start.interpolated(to: .identity, progress: 0.5)
        assertEqual(
            middle, AffineTransform2D(scaleX: 3, y: 3).concatenating(AffineTransform2D(translationX: 300, y: 0)))
        assertEqual(
            AffineTransform2D(translationX: 10, y: -4).interpolated(
                to: AffineTransform2D(translationX: 30, y: 8), progress: 0.75),
            AffineTransform2D(translationX: 25, y: 5))
    }

    func testProgressBeyondTheEndsExtrapolates() {
        let overshoot = AffineTransform2D(scaleX: 0.1, y: 0.1).interpolated(to: .identity, progress: 1.1)
        assertEqual(overshoot, AffineTransform2D(scaleX: 1.09, y: 1.09))
        let before = AffineTransform2D.identity.interpolated(to: AffineTransform2D(rotationAngle: 0.5), progress: -0.2)
        assertEqual(before, AffineTransform2D(rotationAngle: -0.1))
        let nan = AffineTransform2D.identity.interpolated(to: AffineTransform2D(scaleX: 2, y: 2), progress: .nan)
        XCTAssertTrue(nan.a.isNaN)
    }
}
