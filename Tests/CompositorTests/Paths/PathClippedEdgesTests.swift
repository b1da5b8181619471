import TestSupport
import XCTest

@testable import Compositor

/// `bt_path_clip_edges` (through `PathRasterizer.Scratch.clipEdges`) against its Swift twin `ReferenceClippedEdges`,
/// bit for bit: seeded polygons reaching past every side of the box, on a quarter-pixel grid (horizontal edges,
/// vertices on pixel rows and on the box's sides) and anywhere, one polygon to several, with a box offset from
/// the origin; and a polygon of one vertex, a path of none.
final class PathClippedEdgesTests: XCTestCase {
    func testMatchesTheSwiftTwin() {
        var random = SeededGenerator(seed: 71)
        let box = PixelBox(x: 5, y: 3, width: 20, height: 14)
        for trial in 0..<800 {
            var polygons = FlattenedPath()
            let quarterGrid = trial % 2 == 0
            for _ in 0..<(1 + trial % 4) {
                for _ in 0..<(1 + Int(random.next() % 12)) {
                    // −5…35 × −5…25 about a box at 5…25 × 3…17.
                    var x = Double(random.next() % 1_000_001) / 1_000_000 * 40 - 5
                    var y = Double(random.next() % 1_000_001) / 1_000_000 * 30 - 5
                    if quarterGrid { (x, y) = ((x * 4).rounded() / 4, (y * 4).rounded() / 4) }
                    polygons.xs.append(x)
                    polygons.ys.append(y)
                }
                polygons.ends.append(polygons.xs.count)
            }
            let expected = ReferenceClippedEdges.clippedEdges(polygons, to: box)
            let actual = PathRasterizer.withScratch { scratch in
                scratch.clipEdges(polygons, to: box)
                return Array(scratch.edges)
            }
            XCTAssertEqual(actual.map(Self.bits), expected.map(Self.bits), "trial \(trial)")
            if actual.map(Self.bits) != expected.map(Self.bits) { return }
        }
        let empty = PathRasterizer.withScratch { scratch in
            scratch.clipEdges(FlattenedPath(), to: box)
            return scratch.edges.count
        }
        XCTAssertEqual(empty, 0)
    }

    /// A zigzag across both sides of the box makes two edges a vertex (a part pushed onto the left side, the part
    /// inside), past a new scratch's first guess (an edge and a quarter a vertex): the buffer grows and the edges are
    /// the twin's.
    func testBufferGrowsForEdgesCutThreeWays() {
        var polygons = FlattenedPath()
        for index in 0..<400 {
            polygons.xs.append(index % 2 == 0 ? -3.5 : 27.25)
            polygons.ys.append(Double(index) * 0.03 + 0.4)
        }
        polygons.ends.append(polygons.xs.count)
        let box = PixelBox(x: 0, y: 0, width: 20, height: 14)
        let scratch = PathRasterizer.Scratch()
        scratch.clipEdges(polygons, to: box)
        let expected = ReferenceClippedEdges.clippedEdges(polygons, to: box)
        XCTAssertGreaterThan(expected.count, polygons.xs.count * 5 / 4 + 16)
        XCTAssertEqual(Array(scratch.edges).map(Self.bits), expected.map(Self.bits))
    }

    /// An edge's fields as bits, so that −0 and 0 differ.
    private static func bits(_ edge: PathRasterizer.Edge) -> [UInt64] {
        [edge.x0, edge.y0, edge.x1, edge.y1, edge.winding].map(\.bitPattern) + [UInt64(UInt32(bitPattern: edge.chain))]
    }
}
