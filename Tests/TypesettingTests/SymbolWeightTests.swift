import Compositor
import Scenes
import XCTest

@testable import Typesetting

/// Symbol weights: the icon font's one outline grown or thinned by FreeType as `SymbolCatalog.outlineGrowth(for:)`
/// says, regular left as it was.
final class SymbolWeightTests: XCTestCase {
    /// One cache for a test's weights, as every symbol shares `GlyphCache.shared`.
    private let cache = GlyphCache(byteLimit: 16 << 20)

    /// The xmark at 17 points, `scale` pixels a point, in a 24-point frame (room for black's wider strokes).
    private func xmark(_ weight: FontWeight, scale: Double = 3, rotation: Double = 0) throws -> Plane {
        try xmark(growth: SymbolCatalog.outlineGrowth(for: weight), scale: scale, rotation: rotation)
    }

    private func xmark(growth: Double, scale: Double = 3, rotation: Double = 0) throws -> Plane {
        _ = try TextFixtures.face(SymbolCatalog.family)
        var style = TextStyle(font: .family(SymbolCatalog.family), size: 17, alignment: .center, lineLimit: 1)
        style.outlineGrowth = growth
        let text = try TextFixtures.typeset("close", style, cache: cache)
        let side = Int(24 * scale)
        let transform = AffineTransform2D(translationX: -12, y: -12).concatenating(
            AffineTransform2D(rotationAngle: rotation)
        ).concatenating(AffineTransform2D(translationX: 12, y: 12)).concatenating(
            AffineTransform2D(scaleX: scale, y: scale))
        return TextFixtures.render(text, frame: (24, 24), transform: transform, mask: (side, side))
    }

    private func ink(_ plane: Plane) -> Double {
        Double(TextFixtures.bytes(plane).reduce(0) { $0 + Int($1) }) / 255
    }

    /// FNV-1a over the coverage bytes.
    private func fingerprint(_ plane: Plane) -> UInt64 {
        TextFixtures.bytes(plane).reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// Regular is no emboldening at all: the same bytes as before weights existed (recorded from the commit
    /// before them, with Debian's fonts-material-design-icons-iconfont 6.7.0 and its FreeType).
    func testRegularIsTheFontsOwnOutline() throws {
        XCTAssertEqual(SymbolCatalog.outlineGrowth(for: .regular), 0)
        let plane = try xmark(.regular)
        XCTAssertEqual(Int(ink(plane) * 255), 76739)
        XCTAssertEqual(fingerprint(plane), 11_818_219_548_650_850_906)
    }

    /// A growth that is not a number draws the outline as is; a huge one is held to a quarter em.
    func testHostileGrowthIsBounded() throws {
        let regular = TextFixtures.bytes(try xmark(.regular))
        XCTAssertEqual(TextFixtures.bytes(try xmark(growth: .nan)), regular)
        let limit = TextFixtures.bytes(try xmark(growth: FontTypesetter.maximumOutlineGrowth))
        XCTAssertEqual(TextFixtures.bytes(try xmark(growth: 1e300)), limit)
        XCTAssertNotEqual(limit, regular)
    }

    /// Ink grows with every step from ultraLight to black, upright and turned, and each weight is its own bitmap in a
    /// shared cache (a cache keyed without the weight would hand back the first weight drawn).
    func testInkGrowsWithEveryWeight() throws {
        for rotation in [0, 0.3] {
            let inks = try FontWeight.allCases.map { ink(try xmark($0, rotation: rotation)) }
            for (lighter, heavier) in zip(inks, inks.dropFirst()) {
                XCTAssertGreaterThan(heavier, lighter * 1.05, "rotation \(rotation): \(inks)")
            }
        }
    }

    /// Semibold is regular dilated by the growth: both drawn at 12 pixels a point, thresholded at half coverage,
    /// regular dilated by a disc of the growth's radius (exactly, by each row's distance to ink), then both boxed
    /// into 3×'s pixels. They differ only where FreeType mitres a corner that a disc rounds (the arms' cut ends and
    /// the centre's notches): a mean of 0.10 levels and at most 32 measured; a dilation a fifth narrower or wider
    /// is over ten times further off (1.48 and 1.35), so the growth is the semibold's and no other.
    func testSemiboldIsRegularDilatedByTheGrowth() throws {
        let (scale, factor) = (12.0, 4)
        let growthPixels = SymbolCatalog.outlineGrowth(for: .semibold) * 17 * scale
        let regular = try xmark(.regular, scale: scale)
        let semibold = boxed(threshold(try xmark(.semibold, scale: scale)), factor: factor)
        // Half a pixel more than the growth: the thresholded centres lie inside the true edge, and a disc of whole
        // offsets reaches short of its radius across the X's diagonal arms (without it the best fit is the growth
        // plus 0.42 pixels, at 12 and at 24 pixels a point alike: the sampling's bias, not the weight's).
        func error(_ radius: Double) -> (mean: Double, max: Int) {
            let dilated = boxed(dilate(threshold(regular), radius: radius + 0.5), factor: factor)
            let differences = zip(semibold, dilated).map { abs($0 - $1) }
            return (Double(differences.reduce(0, +)) / Double(differences.count), differences.max()!)
        }
        let expected = error(growthPixels)
        XCTAssertLessThan(expected.mean, 0.2)
        XCTAssertLessThanOrEqual(expected.max, 40)
        XCTAssertGreaterThan(error(growthPixels * 0.8).mean, expected.mean * 5)
        XCTAssertGreaterThan(error(growthPixels * 1.2).mean, expected.mean * 5)
    }

    private func threshold(_ plane: Plane) -> [[Bool]] {
        (0..<plane.height).map { y in (0..<plane.width).map { plane[$0, y] >= 128 } }
    }

    /// The pixels within `radius` of an inked one: each row's horizontal distance to ink, then the disc's rows.
    private func dilate(_ ink: [[Bool]], radius: Double) -> [[Bool]] {
        let (height, width) = (ink.count, ink[0].count)
        let horizontal = ink.map { row -> [Int] in
            var distances = [Int](repeating: Int.max / 2, count: width)
            var last = -Int.max / 2
            for x in 0..<width {
                if row[x] { last = x }
                distances[x] = x - last
            }
            last = Int.max / 2
            for x in (0..<width).reversed() {
                if row[x] { last = x }
                distances[x] = min(distances[x], last - x)
            }
            return distances
        }
        let reach = Int(radius.rounded(.down))
        return (0..<height).map { y in
            (0..<width).map { x in
                (max(y - reach, 0)...min(y + reach, height - 1)).contains { row in
                    let dy = Double(row - y)
                    let dx = Double(horizontal[row][x])
                    return dx * dx + dy * dy <= radius * radius
                }
            }
        }
    }

    /// Coverage in levels (0…255) of `factor` × `factor` boxes of a binary picture.
    private func boxed(_ ink: [[Bool]], factor: Int) -> [Int] {
        let side = ink.count / factor
        return (0..<side * side).map { index in
            let (bx, by) = (index % side, index / side)
            var count = 0
            for y in by * factor..<(by + 1) * factor {
                for x in bx * factor..<(bx + 1) * factor where ink[y][x] { count += 1 }
            }
            return (count * 255 + factor * factor / 2) / (factor * factor)
        }
    }
}
