import Compositor
import XCTest

/// CGAffineTransform's conventions, checked on points whose images are known by hand.
final class AffineTransform2DTests: XCTestCase {
    private func assertPoint(
        _ point: (x: Double, y: Double), _ x: Double, _ y: Double, _ message: String = "",
        line: UInt = #line
    ) {
        XCTAssertEqual(point.x, x, accuracy: 1e-9, message, line: line)
        XCTAssertEqual(point.y, y, accuracy: 1e-9, message, line: line)
    }

    private func assertEqual(_ first: AffineTransform2D, _ second: AffineTransform2D, line: UInt = #line) {
        for (a, b) in zip(
            [first.a, first.b, first.c, first.d, first.tx, first.ty],
            [second.a, second.b, second.c, second.d, second.tx, second.ty])
        {
            XCTAssertEqual(a, b, accuracy: 1e-9, "\(first) vs \(second)", line: line)
        }
    }

    func testConcatenatingAppliesTheReceiverFirst() {
        let translate = AffineTransform2D(translationX: 10, y: 0)
        let scale = AffineTransform2D(scaleX: 2, y: 3)
        assertPoint(translate.concatenating(scale).apply(to: (1, 1)), 22, 3)  // (11, 1), then scaled
        assertPoint(scale.concatenating(translate).apply(to: (1, 1)), 12, 3)  // (2, 3), then translated
    }

    func testChainedMethodsApplyTheirOperationBeforeTheReceiver() {
        // As CGAffineTransform: t.translatedBy(x:y:) translates first, then applies t.
        assertPoint(AffineTransform2D(scaleX: 2, y: 2).translatedBy(x: 10, y: 0).apply(to: (0, 0)), 20, 0)
        assertPoint(AffineTransform2D(translationX: 5, y: 0).scaledBy(x: 3, y: 3).apply(to: (1, 0)), 8, 0)
        assertPoint(AffineTransform2D(translationX: 5, y: 0).rotatedBy(.pi / 2).apply(to: (1, 0)), 5, 1)
    }

    func testRotationTurnsXTowardsY() {
        assertPoint(AffineTransform2D(rotationAngle: .pi / 2).apply(to: (1, 0)), 0, 1)
        assertPoint(AffineTransform2D(rotationAngle: .pi).apply(to: (2, 1)), -2, -1)
    }

    func testInverseUndoesTheTransformAndSingularHasNone() {
        let t = AffineTransform2D(translationX: 600, y: -20).scaledBy(x: 5, y: 2).rotatedBy(0.5)
        let inverse = t.inverted()!
        assertEqual(t.concatenating(inverse), .identity)
        assertEqual(inverse.concatenating(t), .identity)
        XCTAssertNil(AffineTransform2D(scaleX: 0, y: 1).inverted())
        XCTAssertNil(AffineTransform2D(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted())
        XCTAssertTrue(AffineTransform2D.identity.isIdentity)
        XCTAssertFalse(t.isIdentity)
    }

    func testRectangleBecomesItsBoundingBox() {
        let box = AffineTransform2D(rotationAngle: .pi / 4).apply(toRect: (0, 0, 2, 2))
        XCTAssertEqual(box.x, -2.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(box.y, 0, accuracy: 1e-9)
        XCTAssertEqual(box.width, 2 * 2.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(box.height, 2 * 2.squareRoot(), accuracy: 1e-9)
    }

    func testTextFormComposesAsCSSAndCGChaining() throws {
        let parsed = try AffineTransform2D(parsing: "translate(600,0) scale(5) rotate(30deg)")
        let chained = AffineTransform2D(translationX: 600, y: 0).scaledBy(x: 5, y: 5).rotatedBy(.pi / 6)
        assertEqual(parsed, chained)
        assertEqual(try AffineTransform2D(parsing: "rotate(0.25turn)"), AffineTransform2D(rotationAngle: .pi / 2))
        assertEqual(try AffineTransform2D(parsing: "rotate(90)"), AffineTransform2D(rotationAngle: .pi / 2))
        assertEqual(
            try AffineTransform2D(parsing: " scale( 2 3 )translateX(4px) "),
            AffineTransform2D(scaleX: 2, y: 3).translatedBy(x: 4, y: 0))
        assertEqual(
            try AffineTransform2D(parsing: "matrix(1, 0, 0, 1, 7, 8)"), AffineTransform2D(translationX: 7, y: 8))
        assertPoint(try AffineTransform2D(parsing: "skewX(45deg)").apply(to: (0, 1)), 1, 1)
    }

    func testTextFormErrorsSayWhatIsWrong() {
        func message(_ text: String) -> String {
            do {
                _ = try AffineTransform2D(parsing: text)
                return "no error"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message(""), "empty transform")
        XCTAssertEqual(
            message("spin(3)"),
            #"unknown transform function "spin"; known: translate, translateX, "#
                + "translateY, scale, scaleX, scaleY, rotate, skewX, skewY, matrix")
        XCTAssertEqual(message("translate(1, 2, 3)"), "translate() takes 1 or 2 arguments, got 3")
        XCTAssertEqual(message("scale(big)"), #"scale(): "big" is not a number"#)
        XCTAssertEqual(message("rotate(3 apples)"), "rotate() takes 1 angle")
        XCTAssertEqual(message("rotate(xdeg)"), #"rotate(): "xdeg" is not an angle"#)
        XCTAssertEqual(message("translate(1"), #"expected name(arguments) at "translate(1""#)
        XCTAssertEqual(message("matrix(1,0,0,1,0)"), "matrix() takes 6 arguments, got 5")
    }

    /// Numbers in transforms are ASCII decimals, and what failed is quoted with controls escaped and cut short.
    func testParsingTakesOnlyDecimalsAndQuotesWhatFailed() {
        for text in ["scale(0x1p3)", "scale(+2)", "scale(nan)", "scale(inf)", "scale(\u{FF11})", "rotate(1e400deg)"] {
            XCTAssertThrowsError(try AffineTransform2D(parsing: text), text)
        }
        XCTAssertEqual(try AffineTransform2D(parsing: "scale(.5, 2e0) translate(-1.5px, 3)").a, 0.5)
        XCTAssertThrowsError(try AffineTransform2D(parsing: "scale(\u{1B}[31m)")) { error in
            XCTAssertEqual("\(error)", #"scale(): "\u{1B}[31m" is not a number"#)
        }
        XCTAssertThrowsError(try AffineTransform2D(parsing: String(repeating: "\u{1B}", count: 1000) + "(1)")) {
            error in
            XCTAssertLessThan("\(error)".utf8.count, 400)
            XCTAssertFalse("\(error)".contains("\u{1B}"))
        }
        XCTAssertNil(AffineTransform2D(scaleX: 1e308, y: 1e308).inverted(), "the determinant overflows")
    }
}
