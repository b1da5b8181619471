import XCTest

@testable import Compositor

/// Strokes the fuzzer found slow, kept as regressions: each must finish promptly and draw within the image.
final class PathHostileStrokeTests: XCTestCase {
    /// `make fuzz TARGET=path`'s first timeout: a small cubic stroked 1e300 wide with round joins, through a
    /// transform that scales x by 10⁶ and y by 10⁻⁶.
    func testAHugeWidthThroughAnExtremeScaleIsBounded() throws {
        let path = try Path(svgPathData: "M0,0 c1,2 3,4 2,6")
        let image = Image(width: 64, height: 48)
        let transforms = [
            AffineTransform2D.identity, AffineTransform2D(scaleX: 1e6, y: 1e-6),
            AffineTransform2D.identity.rotatedBy(0.7).translatedBy(x: 30, y: -5),
        ]
        for join in StrokeStyle.LineJoin.allCases {
            for transform in transforms {
                let start = ContinuousClock.now
                let style = StrokeStyle(width: 1e300, cap: .butt, join: join, miterLimit: 1e6)
                image.stroke(path, style: style, color: RGBAColor(red: 0, green: 0, blue: 1), transform: transform, threads: 1)
                XCTAssertLessThan(ContinuousClock.now - start, .seconds(2), "\(join) \(transform)")
            }
        }
    }
}
