import CFreeType
import Compositor
import Dispatch
import Foundation
import Scenes
import XCTest

@testable import Typesetting

/// Coverage as FreeType rasterises it through the glyph cache: positions, transforms, threads and the cache.
final class RasterTests: XCTestCase {
    private let label = "Awesome, Good, Okay"
    private let style = TextStyle(size: 17)

    func testAWholePixelShiftGivesTheSamePixelsShifted() throws {
        let text = try TextFixtures.typeset(label, style, cache: GlyphCache(byteLimit: 1 << 20))
        let scale = AffineTransform2D(scaleX: 3, y: 3)
        let first = TextFixtures.render(
            text, frame: (200, 30), transform: scale.concatenating(.init(translationX: 4.3, y: 2.6)), mask: (640, 110))
        let second = TextFixtures.render(
            text, frame: (200, 30), transform: scale.concatenating(.init(translationX: 11.3, y: 7.6)), mask: (640, 110))
        var differing = 0
        var inked = 0
        for y in 0..<100 {
            for x in 0..<620 {
                if first[x, y] != second[x + 7, y + 5] { differing += 1 }
                if first[x, y] > 0 { inked += 1 }
            }
        }
        XCTAssertGreaterThan(inked, 1000)
        XCTAssertEqual(differing, 0)
        // A fraction of a pixel does change them: the phase is not rounded away.
        let shifted = TextFixtures.render(
            text, frame: (200, 30), transform: scale.concatenating(.init(translationX: 4.55, y: 2.6)), mask: (640, 110))
        XCTAssertNotEqual(TextFixtures.bytes(first), TextFixtures.bytes(shifted))
    }

    func testUprightTextSnapsBaselinesToWholePixelsButRotatedTextDoesNot() throws {
        let cache = GlyphCache(byteLimit: 4 << 20)
        let text = try TextFixtures.typeset(label, style, cache: cache)
        let scale = AffineTransform2D(scaleX: 3, y: 3)
        func render(_ transform: AffineTransform2D) -> [UInt8] {
            TextFixtures.bytes(TextFixtures.render(text, frame: (200, 30), transform: transform, mask: (640, 110)))
        }
        // Baselines a quarter and two fifths of a pixel lower round to the same whole pixel: the same pixels.
        let upright = render(scale.concatenating(.init(translationX: 4.3, y: 2.0)))
        let bytes = cache.byteCount
        XCTAssertEqual(upright, render(scale.concatenating(.init(translationX: 4.3, y: 2.25))))
        XCTAssertEqual(upright, render(scale.concatenating(.init(translationX: 4.3, y: 2.4))))
        XCTAssertEqual(cache.byteCount, bytes, "no vertical variants of the glyphs were rasterised")
        // Rotated a little, the same quarter pixel down is a new phase of every glyph.
        let turned = AffineTransform2D(rotationAngle: 0.2).concatenating(scale)
        XCTAssertNotEqual(
            render(turned.concatenating(.init(translationX: 4.3, y: 2.0))),
            render(turned.concatenating(.init(translationX: 4.3, y: 2.25))))
    }

    /// The mean gradient magnitude over the pixels where coverage changes: high for crisp edges, lower for a
    /// blurred (resampled) rendering.
    private func sharpness(_ plane: Plane) -> Double {
        var total = 0.0
        var count = 0
        for y in 1..<(plane.height - 1) {
            for x in 1..<(plane.width - 1) {
                let gx = Double(plane[x + 1, y]) - Double(plane[x - 1, y])
                let gy = Double(plane[x, y + 1]) - Double(plane[x, y - 1])
                let magnitude = (gx * gx + gy * gy).squareRoot() / 2
                if magnitude > 0 {
                    total += magnitude
                    count += 1
                }
            }
        }
        return total / Double(max(count, 1))
    }

    /// The plane turned by `angle` about its centre with bilinear interpolation: what resampling a bitmap does.
    private func resampled(_ plane: Plane, by angle: Double) -> Plane {
        let result = Plane(width: plane.width, height: plane.height)
        let (cx, cy) = (Double(plane.width) / 2, Double(plane.height) / 2)
        let (c, s) = (cos(angle), sin(angle))
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                let (dx, dy) = (Double(x) + 0.5 - cx, Double(y) + 0.5 - cy)
                let (sx, sy) = (c * dx + s * dy + cx - 0.5, -s * dx + c * dy + cy - 0.5)
                let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
                guard x0 >= 0, y0 >= 0, x0 + 1 < plane.width, y0 + 1 < plane.height else { continue }
                let (fx, fy) = (sx - Double(x0), sy - Double(y0))
                let top = Double(plane[x0, y0]) * (1 - fx) + Double(plane[x0 + 1, y0]) * fx
                let bottom = Double(plane[x0, y0 + 1]) * (1 - fx) + Double(plane[x0 + 1, y0 + 1]) * fx
                result[x, y] = UInt8((top * (1 - fy) + bottom * fy).rounded())
            }
        }
        return result
    }

    func testARotatedLabelIsAsSharpAsAnUprightOne() throws {
        let text = try TextFixtures.typeset("Rate it", TextStyle(size: 34, weight: .semibold))
        let (width, height) = (140.0, 50.0)
        func transform(_ angle: Double) -> AffineTransform2D {
            AffineTransform2D(translationX: -width / 2, y: -height / 2).concatenating(.init(rotationAngle: angle))
                .concatenating(.init(scaleX: 3, y: 3)).concatenating(.init(translationX: 300, y: 300))
        }
        let upright = TextFixtures.render(text, frame: (width, height), transform: transform(0), mask: (600, 600))
        let angle = 30 * Double.pi / 180
        let rotated = TextFixtures.render(text, frame: (width, height), transform: transform(angle), mask: (600, 600))
        let resampledUpright = resampled(upright, by: angle)
        let (crisp, turned, blurred) = (sharpness(upright), sharpness(rotated), sharpness(resampledUpright))
        // Measured: upright 86.5, outline rotated 86.3, the upright bitmap resampled 65.4 (0.76 of upright). The
        // bound, 0.9, sits between the two ways of rotating.
        XCTAssertGreaterThan(turned, 0.9 * crisp, "upright \(crisp), rotated \(turned)")
        XCTAssertLessThan(blurred, 0.9 * crisp, "the measure tells resampling apart: \(blurred)")
        let ink = { (plane: Plane) in TextFixtures.bytes(plane).reduce(0) { $0 + Int($1) } }
        XCTAssertEqual(Double(ink(rotated)), Double(ink(upright)), accuracy: Double(ink(upright)) * 0.01, "same area")
    }

    func testThreadsAndACachedGlyphGiveTheSamePixels() throws {
        let cache = GlyphCache(byteLimit: 8 << 20)
        let paragraph = String(repeating: "Shaping and rasterising a paragraph, again and again. ", count: 12)
        let text = try TextFixtures.typeset(paragraph, TextStyle(size: 15), cache: cache)
        let transform = AffineTransform2D(scaleX: 3, y: 3).concatenating(.init(translationX: 0.37, y: 0.81))
        let cold = TextFixtures.render(text, frame: (390, 300), transform: transform, mask: (1170, 900))
        XCTAssertGreaterThan(cache.byteCount, 0)
        let warm = TextFixtures.render(text, frame: (390, 300), transform: transform, mask: (1170, 900))
        XCTAssertEqual(TextFixtures.bytes(cold), TextFixtures.bytes(warm), "warm cache")
        cache.removeAll()
        XCTAssertEqual(cache.byteCount, 0)
        // Four threads, each drawing the whole text into its own band of the mask (a view of the rows).
        let threaded = Plane(width: 1170, height: 900)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let band = Plane(
                borrowing: threaded.row(index * 225), width: 1170, height: 225, bytesPerRow: threaded.bytesPerRow)
            let shifted = transform.concatenating(.init(translationX: 0, y: -Double(index * 225)))
            text.addCoverage(frameWidth: 390, height: 300, through: shifted, into: band)
        }
        XCTAssertEqual(TextFixtures.bytes(cold), TextFixtures.bytes(threaded), "four threads, cold cache")
    }

    func testOneLoadShiftedByEachPhaseEqualsFreeTypeLoadingAtEachPhase() throws {
        let library = FontLibrary.shared.freeType
        for (family, transform) in [
            ("Inter", AffineTransform2D(scaleX: 3, y: 3)),
            ("DejaVu Sans", AffineTransform2D(rotationAngle: 0.5).concatenating(.init(scaleX: 2, y: 2))),
        ] {
            let face = try TextFixtures.face(family)
            let rendering = try XCTUnwrap(GlyphRendering(size: 17, transform: transform))
            let phases = [(0, 0), (1, 0), (2, 0), (3, 0), (1, 3), (2, 2)]
            for character in ["a", "W", "g", "é"] as [Unicode.Scalar] {
                let glyph = try TextFixtures.glyph(face, character)
                let together = rendering.bitmaps(face, glyph, phases: phases, library: library)
                for (phase, bitmap) in zip(phases, together) {
                    let alone = try XCTUnwrap(
                        freeTypeBitmap(face, glyph, rendering, phaseX: phase.0, phaseY: phase.1), "\(character)")
                    let bitmap = try XCTUnwrap(bitmap)
                    XCTAssertEqual(
                        [bitmap.left, bitmap.top, bitmap.width, bitmap.height],
                        [alone.left, alone.top, alone.width, alone.height], "\(family) \(character) \(phase)")
                    XCTAssertEqual(bitmap.pixels, alone.pixels, "\(family) \(character) \(phase)")
                }
            }
        }
    }

    /// The glyph as FreeType loads it with the phase as its own transform delta, rendered into a box of its
    /// control box: what the cache held before one load served every phase.
    private func freeTypeBitmap(
        _ face: FontFace, _ glyph: UInt32, _ rendering: GlyphRendering, phaseX: Int, phaseY: Int
    ) -> (left: Int, top: Int, width: Int, height: Int, pixels: [UInt8])? {
        face.withFreeType { ftFace in
            guard FT_Set_Char_Size(ftFace, 0, FT_F26Dot6(rendering.charSize), 72, 72) == 0 else { return nil }
            var matrix = FT_Matrix(
                xx: FT_Fixed(rendering.xx), xy: FT_Fixed(rendering.xy), yx: FT_Fixed(rendering.yx),
                yy: FT_Fixed(rendering.yy))
            var delta = FT_Vector(x: FT_Pos(phaseX * 16), y: FT_Pos(-phaseY * 16))
            FT_Set_Transform(ftFace, &matrix, &delta)
            guard FT_Load_Glyph(ftFace, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                let slot = ftFace.pointee.glyph
            else { return nil }
            return withUnsafeMutablePointer(to: &slot.pointee.outline) { outline in
                var box = FT_BBox()
                FT_Outline_Get_CBox(outline, &box)
                let (x0, y0) = (Int(box.xMin >> 6), Int(box.yMin >> 6))
                let (x1, y1) = (Int((box.xMax + 63) >> 6), Int((box.yMax + 63) >> 6))
                FT_Outline_Translate(outline, FT_Pos(-x0 * 64), FT_Pos(-y0 * 64))
                let stride = GlyphBitmap.stride(forWidth: x1 - x0)
                var pixels = [UInt8](repeating: 0, count: stride * (y1 - y0))
                pixels.withUnsafeMutableBufferPointer { buffer in
                    var target = FT_Bitmap()
                    (target.rows, target.width, target.pitch) = (UInt32(y1 - y0), UInt32(x1 - x0), Int32(stride))
                    target.buffer = buffer.baseAddress
                    target.num_grays = 256
                    target.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                    _ = FT_Outline_Get_Bitmap(FontLibrary.shared.freeType, outline, &target)
                }
                return (x0, y1, x1 - x0, y1 - y0, pixels)
            }
        }
    }

    func testTheCacheStaysUnderItsLimit() throws {
        let cache = GlyphCache(byteLimit: 40_000)
        let text = try TextFixtures.typeset(
            "The quick brown fox jumps over the lazy dog", TextStyle(size: 20), cache: cache)
        var peak = 0
        for step in 0..<24 {
            let scale = 1 + Double(step) / 8
            _ = TextFixtures.render(
                text, frame: (600, 40), transform: AffineTransform2D(scaleX: scale, y: scale), mask: (400, 100))
            peak = max(peak, cache.byteCount)
            XCTAssertLessThanOrEqual(cache.byteCount, cache.byteLimit)
        }
        XCTAssertGreaterThan(peak, cache.byteLimit / 2, "the test fills the cache")
        // Pixels are the same whether a glyph was evicted or not.
        let transform = AffineTransform2D(scaleX: 2, y: 2)
        let small = TextFixtures.render(text, frame: (600, 40), transform: transform, mask: (400, 100))
        let roomy = try TextFixtures.typeset("The quick brown fox jumps over the lazy dog", TextStyle(size: 20))
        XCTAssertEqual(
            TextFixtures.bytes(small),
            TextFixtures.bytes(TextFixtures.render(roomy, frame: (600, 40), transform: transform, mask: (400, 100))))
    }

    func testAGlyphTooLargeToCacheIsDrawnClippedWithTheSamePixels() throws {
        let face = try TextFixtures.face("DejaVu Sans")
        let glyph = try TextFixtures.glyph(face, "O")
        let rendering = try XCTUnwrap(GlyphRendering(size: 400, transform: .identity))
        let library = FontLibrary.shared.freeType
        let bitmap = try XCTUnwrap(rendering.bitmaps(face, glyph, phases: [(1, 3)], library: library)[0])
        XCTAssertGreaterThan(bitmap.width, 200)
        // The same glyph drawn the clipped way into a mask that holds only part of it.
        let viaCache = Plane(width: 150, height: 120)
        CoverageBlit.add(bitmap, atX: -40, y: 200, into: viaCache)
        let clipped = Plane(width: 150, height: 120)
        rendering.drawClipped(
            face, glyph, phaseX: 1, phaseY: 3, originX: -40, originY: 200, into: clipped, library: library)
        XCTAssertEqual(TextFixtures.bytes(viaCache), TextFixtures.bytes(clipped))
        XCTAssertTrue(TextFixtures.bytes(clipped).contains(255))
    }

    func testInkBoundsHoldEveryCoveredPixel() throws {
        let text = try TextFixtures.typeset("Terrible, Awesome; fjord Qy", TextStyle(size: 22, italic: true))
        for (angle, dx) in [(0.0, 0.3), (0.4, 0.75), (-1.2, 0.1)] {
            let transform = AffineTransform2D(rotationAngle: angle).concatenating(.init(scaleX: 3, y: 3))
                .concatenating(.init(translationX: 450 + dx, y: 450))
            let plane = TextFixtures.render(text, frame: (280, 40), transform: transform, mask: (900, 900))
            let bounds = try XCTUnwrap(text.inkBounds(frameWidth: 280, height: 40))
            let box = transform.apply(toRect: (bounds.x, bounds.y, bounds.width, bounds.height))
            var outside = 0
            var inked = 0
            for y in 0..<900 {
                for x in 0..<900 where plane[x, y] > 0 {
                    inked += 1
                    // Pixel x covers [x, x + 1): it must touch the box.
                    if Double(x + 1) <= box.x || Double(x) >= box.x + box.width || Double(y + 1) <= box.y
                        || Double(y) >= box.y + box.height
                    {
                        outside += 1
                    }
                }
            }
            XCTAssertGreaterThan(inked, 2000)
            XCTAssertEqual(outside, 0, "rotated \(angle)")
        }
    }

    func testGlyphsOutsideTheMaskAreNotRasterised() throws {
        let cache = GlyphCache(byteLimit: 8 << 20)
        let text = try TextFixtures.typeset("abcdefghijklmnopqrstuvwxyz", TextStyle(size: 17), cache: cache)
        let scale = AffineTransform2D(scaleX: 3, y: 3)
        _ = TextFixtures.render(text, frame: (400, 30), transform: scale, mask: (1200, 90))
        let everything = cache.byteCount
        cache.removeAll()
        // A mask over the first few letters only.
        _ = TextFixtures.render(text, frame: (400, 30), transform: scale, mask: (100, 90))
        XCTAssertGreaterThan(cache.byteCount, 0)
        XCTAssertLessThan(cache.byteCount, everything / 4)
    }

    func testCoverageCombinesAsSourceOver() {
        // 37 columns: two whole vectors and a tail, at offsets that leave the mask's edge a vector or not; three
        // rows: a pair of rows a step, then one alone (or, with the top row cut off, only the pair).
        let (width, height) = (37, 3)
        let stride = GlyphBitmap.stride(forWidth: width)
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * stride + x] = UInt8((x * 7 + y * 101) % 256) }
        }
        pixels[stride + 3] = 255
        let bitmap = GlyphBitmap(left: 0, top: height, width: width, height: height, pixels: pixels)
        for (maskWidth, offset) in [(40, 0), (40, 3), (64, 5), (37, 0), (30, -4)] {
            for originY in [3, 2] {
                let mask = Plane(width: maskWidth, height: 3)
                for y in 0..<3 { for x in 0..<maskWidth { mask[x, y] = UInt8((x * 31 + y * 17) % 256) } }
                let before = TextFixtures.bytes(mask)
                CoverageBlit.add(bitmap, atX: offset, y: originY, into: mask)
                for y in 0..<3 {
                    for x in 0..<maskWidth {
                        let a = Double(before[y * maskWidth + x])
                        let (column, row) = (x - offset, y + height - originY)
                        let inside = column >= 0 && column < width && row < height
                        let b = inside ? Double(pixels[row * stride + column]) : 0
                        XCTAssertEqual(
                            Double(mask[x, y]), a + b - (a * b / 255).rounded(),
                            "(\(x), \(y)) in \(maskWidth), origin y \(originY)")
                    }
                }
            }
        }
    }
}
