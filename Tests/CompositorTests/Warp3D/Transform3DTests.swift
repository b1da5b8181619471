import XCTest

@_spi(Benchmarks) @testable import Compositor
@testable import Motion

final class Transform3DTests: XCTestCase {
    private func assertClose(_ t: Transform3D, _ expected: [[Double]], file: StaticString = #filePath, line: UInt = #line) {
        for (row, values) in zip(t.rows, expected) {
            for (value, wanted) in zip(row, values) {
                XCTAssertEqual(value, wanted, accuracy: 1e-12, "\(t)", file: file, line: line)
            }
        }
    }

    func testRotationsMatchCoreAnimationsMatrices() {
        // CATransform3DMakeRotation(π/6, 0, 1, 0): m11 = cos, m13 = −sin, m31 = sin, m33 = cos.
        let (s, c) = (0.5, 3.0.squareRoot() / 2)
        assertClose(
            .rotation(angle: .pi / 6, x: 0, y: 1, z: 0), [[c, 0, -s, 0], [0, 1, 0, 0], [s, 0, c, 0], [0, 0, 0, 1]])
        // About x: m22 = cos, m23 = sin, m32 = −sin.
        assertClose(
            .rotation(angle: .pi / 6, x: 2, y: 0, z: 0), [[1, 0, 0, 0], [0, c, s, 0], [0, -s, c, 0], [0, 0, 0, 1]])
        // About z it is the affine rotation.
        let z = Transform3D.rotation(angle: 0.3, x: 0, y: 0, z: 1)
        let affine = AffineTransform2D(rotationAngle: 0.3)
        assertClose(z, Transform3D(affine).rows)
        XCTAssertEqual(Transform3D.rotation(angle: 1, x: 0, y: 0, z: 0), .identity)
    }

    func testConcatenationAppliesTheLeftFirstAndPerspectiveDividesByW() {
        // (100, 0, 0) turned 30° about y goes to (86.6, 0, −50); m34 = −1/1000 makes w = 1.05.
        let t = Transform3D.rotation(angle: .pi / 6, x: 0, y: 1, z: 0)
            .concatenating(.perspective(eyeDistance: 1000))
        XCTAssertEqual(t.m34, -1 / 1000 * (3.0.squareRoot() / 2), accuracy: 1e-15)
        XCTAssertEqual(t.m14, 0.5 / 1000, accuracy: 1e-15)
        let landed = t.homography.apply(to: (100, 0))!
        XCTAssertEqual(landed.x, 100 * 3.0.squareRoot() / 2 / 1.05, accuracy: 1e-9)
        XCTAssertEqual(landed.y, 0, accuracy: 1e-12)
        let moved = Transform3D.translation(x: 5, y: 6, z: 7).concatenating(.scale(x: 2, y: 3, z: 4))
        assertClose(moved, [[2, 0, 0, 0], [0, 3, 0, 0], [0, 0, 4, 0], [10, 18, 28, 1]])
    }

    func testAffineIsExactlyThePlanarCase() {
        let affine = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        XCTAssertEqual(Transform3D(affine).affine, affine)
        XCTAssertEqual(Transform3D.identity.affine, .identity)
        // Seen straight on, a tilt only squashes: affine. With perspective it is not.
        let tilt = Transform3D.rotation(angle: 0.5, x: 1, y: 0, z: 0)
        XCTAssertEqual(tilt.affine!.d, cos(0.5), accuracy: 1e-15)
        XCTAssertNil(tilt.concatenating(.perspective(eyeDistance: 500)).affine)
        // Perspective alone leaves the plane z = 0 where it was.
        XCTAssertEqual(Transform3D.perspective(eyeDistance: 500).affine, .identity)
        XCTAssertNil(Transform3D.rotation(angle: .pi / 2, x: 0, y: 1, z: 0).concatenating(
            .perspective(eyeDistance: 500)).homography.inverted(), "edge on")
    }

    func testHomographyInverseKeepsTheSignOfW() {
        let h = Transform3D.rotation(angle: 0.4, x: 0, y: 1, z: 0).concatenating(.perspective(eyeDistance: 300))
            .homography
        let inverse = h.inverted()!
        let point = (x: 120.0, y: -40.0)
        let seen = h.apply(to: point)!
        let back = inverse.homogeneous(seen)
        XCTAssertGreaterThan(back.w, 0)
        XCTAssertEqual(back.x / back.w, point.x, accuracy: 1e-9)
        XCTAssertEqual(back.y / back.w, point.y, accuracy: 1e-9)
        // Far enough along +x the plane passes behind the eye.
        XCTAssertNil(h.apply(to: (-2000, 0)))
    }

    func testDecompositionRecomposesTheMatrix() {
        let matrices: [Transform3D] = [
            .identity, .rotation(angle: 0.7, x: 1, y: 2, z: -0.5), .rotation(angle: .pi, x: 1, y: 1, z: 0),
            Transform3D.scale(x: -2, y: 0.5, z: 3).concatenating(.rotation(angle: 2.5, x: 0, y: 1, z: 0))
                .concatenating(.translation(x: 10, y: -4, z: 7)).concatenating(.perspective(eyeDistance: 800)),
            Transform3D(AffineTransform2D(a: 1, b: 0.3, c: -0.4, d: 2, tx: 5, ty: 6)),
        ]
        for m in matrices {
            // Normalised to m44 = 1, as CSS decomposes: the same drawing.
            let back = Transform3D(recomposing: m.decomposed()!)
            assertClose(back, m.rows.map { $0.map { $0 / m.m44 } })
        }
        XCTAssertNil(Transform3D.scale(x: 1, y: 0, z: 1).decomposed())
    }

    func testInterpolationTurnsAboutTheAxisKeepingTheCamera() {
        let camera = Transform3D.perspective(eyeDistance: 1200)
        let from = camera
        let to = Transform3D.rotation(angle: .pi / 2, x: 0, y: 1, z: 0).concatenating(camera)
        let middle = from.interpolated(to: to, progress: 0.5)
        assertClose(middle, Transform3D.rotation(angle: .pi / 4, x: 0, y: 1, z: 0).concatenating(camera).rows)
        XCTAssertEqual(from.interpolated(to: to, progress: 0), from)
        XCTAssertEqual(from.interpolated(to: to, progress: 1), to)
        let moved = Transform3D.translation(x: 0, y: 0, z: 0).interpolated(
            to: .translation(x: 10, y: 20, z: -30), progress: 0.25)
        assertClose(moved, Transform3D.translation(x: 2.5, y: 5, z: -7.5).rows)
    }
}
