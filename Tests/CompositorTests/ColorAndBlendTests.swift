import Compositor
import XCTest

final class ColorAndBlendTests: XCTestCase {
    func testCSSHexForms() {
        XCTAssertEqual(RGBAColor(css: "#ff8000"), RGBAColor(red8: 255, green8: 128, blue8: 0))
        XCTAssertEqual(RGBAColor(css: "F80"), RGBAColor(red8: 255, green8: 136, blue8: 0))
        XCTAssertEqual(RGBAColor(css: "#00000080")?.alpha ?? 0, 128.0 / 255, accuracy: 1e-12)
        XCTAssertEqual(RGBAColor(css: "#0008")?.alpha ?? 0, 136.0 / 255, accuracy: 1e-12)
        XCTAssertEqual(RGBAColor(css: "white"), .white)
        for bad in ["", "#", "#12", "#12345", "#gg0000", "red-ish", "#1234567"] {
            XCTAssertNil(RGBAColor(css: bad), bad)
        }
        XCTAssertEqual(RGBAColor(css: "#336699cc")?.description, "#336699cc")
    }

    func testARGBLiteralAsFlutterWritesIt() {
        let color = RGBAColor(argbHex: 0xCCF8_F8F8)
        XCTAssertEqual(color.alpha, 0.8, accuracy: 1e-12)
        XCTAssertEqual(color.red, 248.0 / 255, accuracy: 1e-12)
    }

    func testPremultipliedPixel() {
        XCTAssertEqual(
            RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5).premultipliedPixel,
            Pixel(red: 128, green: 64, blue: 0, alpha: 128))
    }

    /// Spot values from the W3C Compositing Level 1 formulas.
    func testSeparableBlendModes() {
        let cases: [(BlendMode, Float, Float, Float)] = [
            (.normal, 0.2, 0.7, 0.7), (.multiply, 0.5, 0.5, 0.25), (.screen, 0.5, 0.5, 0.75),
            (.overlay, 0.25, 0.5, 0.25), (.overlay, 0.75, 0.5, 0.75), (.darken, 0.3, 0.6, 0.3),
            (.lighten, 0.3, 0.6, 0.6), (.colorDodge, 0.5, 0.5, 1), (.colorDodge, 0, 1, 0), (.colorDodge, 0.2, 0.5, 0.4),
            (.colorBurn, 1, 0, 1), (.colorBurn, 0.5, 0.5, 0), (.colorBurn, 0.8, 0.5, 0.6),
            (.hardLight, 0.5, 0.25, 0.25), (.hardLight, 0.5, 0.75, 0.75), (.softLight, 0.5, 0.5, 0.5),
            (.softLight, 0.25, 1, 0.5), (.difference, 0.2, 0.9, 0.7), (.exclusion, 0.5, 0.5, 0.5),
        ]
        for (mode, backdrop, source, expected) in cases {
            XCTAssertEqual(
                mode.blend(backdrop: backdrop, source: source), expected, accuracy: 1e-6,
                "\(mode)(\(backdrop), \(source))")
        }
    }

    func testEdgeModeIndices() {
        XCTAssertEqual((-3...6).map { EdgeMode.mirror.sourceIndex($0, count: 4) }, [2, 1, 0, 0, 1, 2, 3, 3, 2, 1])
        XCTAssertEqual((-3...6).map { EdgeMode.clamp.sourceIndex($0, count: 4) }, [0, 0, 0, 0, 1, 2, 3, 3, 3, 3])
        XCTAssertEqual((-3...6).map { EdgeMode.wrap.sourceIndex($0, count: 4) }, [1, 2, 3, 0, 1, 2, 3, 0, 1, 2])
        XCTAssertEqual(EdgeMode.transparent.sourceIndex(-1, count: 4), -1)
        XCTAssertEqual((-5...5).map { EdgeMode.mirror.sourceIndex($0, count: 1) }, Array(repeating: 0, count: 11))
    }
}
