@testable import Compositor
@testable import Scenes
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Every xfade style against a direct, pixel-by-pixel evaluation of vf_xfade.c's formula at P = 1 − progress
/// (unrounded, in Double except where xfade's own Float positions decide which pixel is read): copies must match
/// exactly, mixes within one level (fixed-point weights in 1/256 and rounding).
final class XfadeReferenceTests: XCTestCase {
    let width = 37
    let height = 23

    func testStylesFollowXfadesFormulas() {
        let a = TestImages.randomPremultiplied(width: width, height: height, seed: 21)
        let b = TestImages.randomPremultiplied(width: width, height: height, seed: 22)
        let copies: Set<PhotoTransition.Style> = [
            .wipeleft, .wiperight, .wipeup, .wipedown, .slideleft, .slideright, .slideup, .slidedown,
        ]
        for style in PhotoTransition.Style.allCases where ![.dissolve, .material, .curlup, .curldown].contains(style) {
            for progress in [0.03, 0.2, 0.37, 0.5, 0.61, 0.8, 0.96] {
                let frame = PhotoTransition(style: style, threads: 2).frame(from: a, to: b, progress: progress)
                var worst = 0.0
                for y in 0..<height {
                    for x in 0..<width {
                        let expected = reference(style, a, b, P: 1 - progress, x: x, y: y)
                        let got = frame[x, y]
                        let values = [got.red, got.green, got.blue, got.alpha].map(Double.init)
                        for c in 0..<4 { worst = max(worst, abs(values[c] - expected[c])) }
                    }
                }
                XCTAssertLessThanOrEqual(worst, copies.contains(style) ? 0 : 1, "\(style) at \(progress)")
            }
        }
    }

    func testDissolveSwitchesEachPixelOnceAndItsShareFollowsTheProgress() {
        let a = Image(width: 64, height: 64, fill: Pixel(red: 0, green: 0, blue: 0))
        let b = Image(width: 64, height: 64, fill: Pixel(red: 255, green: 255, blue: 255))
        var previous = a
        for progress in stride(from: 0.1, through: 0.9, by: 0.1) {
            let frame = PhotoTransition(style: .dissolve).frame(from: a, to: b, progress: progress)
            var new = 0
            for y in 0..<64 {
                for x in 0..<64 {
                    XCTAssertTrue(frame[x, y] == a[x, y] || frame[x, y] == b[x, y])
                    if previous[x, y] == b[x, y] { XCTAssertEqual(frame[x, y], b[x, y], "switched back at \(x), \(y)") }
                    if frame[x, y] == b[x, y] { new += 1 }
                }
            }
            XCTAssertEqual(Double(new) / 4096, progress, accuracy: 0.03)
            previous = frame
        }
    }

    /// vf_xfade.c's formula for one pixel, all four channels (xfade's `mix(p, q, m)` is p·m + q·(1 − m)).
    private func reference(
        _ style: PhotoTransition.Style, _ a: Image, _ b: Image, P: Double, x: Int, y: Int
    ) -> [Double] {
        func px(_ image: Image, _ x: Int, _ y: Int) -> [Double] {
            let p = image[x, y]
            return [p.red, p.green, p.blue, p.alpha].map(Double.init)
        }
        func mix(_ p: [Double], _ q: [Double], _ m: Double) -> [Double] { zip(p, q).map { $0 * m + $1 * (1 - m) } }
        func smooth(_ e0: Double, _ e1: Double, _ v: Double) -> Double {
            let t = min(max((v - e0) / (e1 - e0), 0), 1)
            return t * t * (3 - 2 * t)
        }
        let (w, h) = (width, height)
        let (fw, fh, fp) = (Float(width), Float(height), Float(P))
        let A = px(a, x, y)
        let B = px(b, x, y)
        switch style {
        case .fade:
            return mix(A, B, P)
        case .fadeblack, .fadewhite:
            let c: [Double] = style == .fadeblack ? [0, 0, 0, 255] : [255, 255, 255, 255]
            return mix(mix(A, c, smooth(0.8, 1, P)), mix(c, B, smooth(0.2, 1, P)), P)
        case .wipeleft: return x > Int(fw * fp) ? B : A
        case .wiperight: return x > Int(fw * (1 - fp)) ? A : B
        case .wipeup: return y > Int(fh * fp) ? B : A
        case .wipedown: return y > Int(fh * (1 - fp)) ? A : B
        case .slideleft, .slideright:
            let z = style == .slideleft ? Int(-fp * fw) : Int(fp * fw)
            let zx = z + x
            let zz = (zx % w + w) % w
            return zx >= 0 && zx < w ? px(b, zz, y) : px(a, zz, y)
        case .slideup, .slidedown:
            let z = style == .slideup ? Int(-fp * fh) : Int(fp * fh)
            let zy = z + y
            let zz = (zy % h + h) % h
            return zy >= 0 && zy < h ? px(b, x, zz) : px(a, x, zz)
        case .smoothleft:
            return mix(B, A, smooth(0, 1, 1 + Double(x) / Double(w) - P * 2))
        case .smoothright:
            return mix(B, A, smooth(0, 1, 1 + Double(w - 1 - x) / Double(w) - P * 2))
        case .circleopen, .circleclose:
            let z = hypot(Double(w / 2), Double(h / 2))
            let r = hypot(Double(x - w / 2), Double(y - h / 2)) / z
            return style == .circleopen
                ? mix(A, B, smooth(0, 1, r + (P - 0.5) * 3)) : mix(B, A, smooth(0, 1, r + (0.5 - P) * 3))
        case .radial:
            let angle = atan2(Double(x - w / 2), Double(y - h / 2))
            return mix(B, A, smooth(0, 1, angle - (P - 0.5) * (.pi * 2.5)))
        case .pixelize:
            let dist = (min(fp, 1 - fp) * 50).rounded(.up) / 50
            let side = 2 * dist * Float(min(w, h)) / 20
            let sx = Int(min(((Float(x) / side).rounded(.down) + 0.5) * side, Float(w - 1)))
            let sy = Int(min(((Float(y) / side).rounded(.down) + 0.5) * side, Float(h - 1)))
            return mix(px(a, sx, sy), px(b, sx, sy), P)
        case .hblur:
            let prog = fp <= 0.5 ? fp * 2 : (1 - fp) * 2
            let size = 1 + Int(Float(w / 2) * prog)
            let columns = x..<min(x + size, w)
            let meanA = (0..<4).map { c in columns.reduce(0.0) { $0 + px(a, $1, y)[c] } / Double(columns.count) }
            let meanB = (0..<4).map { c in columns.reduce(0.0) { $0 + px(b, $1, y)[c] } / Double(columns.count) }
            return mix(meanA, meanB, P)
        case .zoomin:
            let zoom = Float(smooth(0.5, 1, P))
            let u = 0.5 + (Float(x) / fw - 0.5) * zoom
            let v = 0.5 + (Float(y) / fh - 0.5) * zoom
            let zoomed = px(a, Int((u * (fw - 1)).rounded(.up)), Int((v * (fh - 1)).rounded(.up)))
            return mix(zoomed, B, smooth(0, 0.5, P))
        case .dissolve, .material, .curlup, .curldown:
            preconditionFailure("not an xfade formula")
        }
    }
}
