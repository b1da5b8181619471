import CKernels

/// Which points a path's outline encloses, by the number of times it winds round them (SVG's `fill-rule`).
public enum FillRule: String, CaseIterable, Sendable {
    /// Inside where the outline winds round a point any number of times but zero (SVG's default).
    case nonZero = "nonzero"
    /// Inside where it winds round an odd number of times: overlaps and a shape's inner rings are holes.
    case evenOdd = "evenodd"
}

/// Anti-aliased coverage of polygons by exact area: signed-area cells in the manner of FreeType's smooth
/// rasteriser and font-rs, made exact where the outline meets itself.
///
/// Each edge adds, in every cell (pixel) it crosses, the signed area between itself and the cell's right side,
/// and the rest of its height to the next cell, so that a prefix sum along the row gives at each pixel the
/// integral of the winding number over the pixel's square. That is the exact covered area wherever the winding
/// inside the pixel takes two consecutive values only (both rules are linear between consecutive integers),
/// which holds in every pixel that one y-monotone chain of the outline touches. Where two chains meet in a pixel
/// (a self-intersection, a star's crossing, overlapping subpaths, a vertex where the outline turns in y) the
/// integral may mix windings, and FreeType, font-rs and tiny-skia's mapping of it (min(|a|, 1), or a triangle
/// wave for even-odd) was up to 146 levels off at a pentagram's inner corners: those cells are listed as the
/// edges are deposited and resolved exactly, by trapezoids (`exactCoverage`), so every pixel is the exact area
/// of the polygons by the rule, to rounding (`PathFillTests`, `PathCrossingCoverageTests`).
///
/// Edges are cut to the box first: parts above, below or right of it dropped, parts left of it pushed onto
/// its left side (they add the same winding to the row). Rows are done in bands of 16 (a small box in one), each
/// from the edges that reach it in path order, and a cell's value depends only on its row: the bytes are the same
/// for every thread count.
enum PathRasterizer {
    /// Rows per band: the unit of threading and of each worker's cell buffer.
    static let bandHeight = 16
    /// A box drawn on one thread (under 2¹⁷ pixels) and at most this tall is one band: an icon's edges need no
    /// listing by band, and its rows one pass of the band's set-up.
    static let largestBand = 64
    /// The most row chains (`RowChain`, 80 bytes each) a band records: past it (a hostile outline of millions of
    /// edges through one band; the 10,000-segment outline records a few hundred a band) each cell the rest touch
    /// is resolved exactly instead, so memory stays bounded (10.5 MB a worker).
    static let maximumRowChains = 1 << 17

    /// One edge, cut to the box, in the box's pixels (`bt_path_edge`, made by `Scratch.clipEdges`): y0 < y1, `winding`
    /// +1 going down and −1 going up; or a horizontal one (y0 = y1, `winding` 0) from x0 to x1 in the outline's
    /// order. `chain` is the y-monotone chain of its polygon the edge belongs to (consecutive edges going the same
    /// way, the horizontal ones between them skipped): a chain cannot cross itself, so a cell touched by one chain
    /// only holds two windings, one either side, and its summed area maps exactly (see `Band`).
    typealias Edge = bt_path_edge

    /// Where a band's rows of coverage go: into a plane the box's size, or painted at once onto an image (the
    /// box in its pixels) through a row of the worker's own.
    enum CoverageSink {
        case plane(Plane)
        case painted(Image, RowPainter)

        var paints: Bool {
            if case .painted = self { return true }
            return false
        }
    }

    /// The coverage of `polygons` (pixels) over `box` with `rule`, on up to `threads` threads.
    /// `rowChainLimit` (tests only) lowers `maximumRowChains`.
    static func coverage(
        of polygons: FlattenedPath, rule: FillRule, over box: PixelBox, threads: Int,
        rowChainLimit: Int = maximumRowChains
    ) -> Plane {
        let plane = Plane(width: box.width, height: box.height)
        rasterize(
            polygons, rule: rule, over: box, threads: threads, into: .plane(plane),
            rowChainLimit: min(rowChainLimit, maximumRowChains))
        return plane
    }

    /// Paints `polygons`' coverage over `box` (of `image`'s pixels) with `painter`, each row as soon as it is
    /// made: the bytes `image.fill(_:mask:…)` would give from `coverage`'s plane, without the plane, and pixels
    /// a row leaves uncovered untouched.
    static func paint(
        _ polygons: FlattenedPath, rule: FillRule, over box: PixelBox, threads: Int, with painter: RowPainter,
        onto image: Image
    ) {
        rasterize(
            polygons, rule: rule, over: box, threads: threads, into: .painted(image, painter),
            rowChainLimit: maximumRowChains)
    }

    private static func rasterize(
        _ polygons: FlattenedPath, rule: FillRule, over box: PixelBox, threads: Int, into sink: CoverageSink,
        rowChainLimit: Int
    ) {
        guard !box.isEmpty else { return }
        withScratch { scratch in
            scratch.clipEdges(polygons, to: box)
            guard scratch.edges.count > 0 else { return }
            // Threads pay for themselves on large boxes only; the result is the same either way (a cell's value
            // depends on its row alone, wherever the bands' boundaries fall).
            let threaded = box.width * box.height >= 1 << 17
            let bandRows = !threaded && box.height <= largestBand ? box.height : bandHeight
            let bands = (box.height + bandRows - 1) / bandRows
            listBandMembers(scratch, bands: bands, bandRows: bandRows)
            let workers = Parallel.workers(bands, threads: threaded ? threads : 1)
            let stride = box.width + 2
            scratch.reserve(
                cells: workers * bandRows * stride, rows: workers * bandRows, bands: bands, workers: workers)
            let stampBase = scratch.stampBase
            let (cells, extents, owners, shared) = (scratch.cells, scratch.extents, scratch.owners, scratch.sharedCells)
            let partners = scratch.partners
            let rowBuffers = scratch.rowBuffers
            let offsets = scratch.offsets
            let exactCells = scratch.exactCells
            let edges = scratch.edges
            scratch.members.withUnsafeBufferPointer { members in
                Parallel.forEach(bands, threads: workers) { index, worker in
                    var band = Band(
                        stamp: stampBase + Int64(index), top: index * bandRows,
                        rows: min(bandRows, box.height - index * bandRows), width: box.width,
                        cells: cells + worker * bandRows * stride, extents: extents + worker * bandRows * 2,
                        owners: owners + worker * bandRows * stride,
                        partners: partners + worker * bandRows * stride,
                        sharedCells: shared + worker * bandRows * stride, exactCells: exactCells[worker],
                        rowBuffer: rowBuffers + worker * stride, rowChainLimit: rowChainLimit)
                    let bandMembers = members[offsets[index]..<offsets[index + 1]]
                    band.accumulate(edges, bandMembers)
                    band.resolve(into: sink, at: box, rule: rule, edges: edges, members: bandMembers)
                }
            }
            scratch.advanceStamps(by: bands)
        }
    }

    /// Each band's edges in path order, as indices into `scratch.edges`: band b's are
    /// `scratch.members[scratch.offsets[b]..<scratch.offsets[b + 1]]`. Bands are `bandRows` rows.
    private static func listBandMembers(_ scratch: Scratch, bands: Int, bandRows: Int) {
        scratch.offsets.removeAll(keepingCapacity: true)
        if bands == 1 {
            // Every edge, in path order.
            scratch.members.removeAll(keepingCapacity: true)
            scratch.members.append(contentsOf: 0..<Int32(scratch.edges.count))
            scratch.offsets.append(contentsOf: [0, scratch.edges.count])
            return
        }
        scratch.offsets.append(contentsOf: repeatElement(0, count: bands + 1))
        let edges = scratch.edges
        scratch.offsets.withUnsafeMutableBufferPointer { offsets in
            for edge in edges {
                let range = bandRange(of: edge, bands: bands, bandRows: bandRows)
                for band in range { offsets[band + 1] += 1 }
            }
            for band in 0..<bands { offsets[band + 1] += offsets[band] }
            scratch.members.removeAll(keepingCapacity: true)
            scratch.members.append(contentsOf: repeatElement(0, count: offsets[bands]))
            scratch.members.withUnsafeMutableBufferPointer { members in
                // Filled from each band's end backwards, edges in reverse: each band's list in path order,
                // and `offsets` ends as each band's start.
                for index in edges.indices.reversed() {
                    for band in bandRange(of: edges[index], bands: bands, bandRows: bandRows) {
                        offsets[band + 1] -= 1
                        members[offsets[band + 1]] = Int32(index)
                    }
                }
            }
        }
        // offsets[b + 1] now holds band b's start; shifted back so that offsets[b]..<offsets[b + 1] is band b.
        scratch.offsets.removeFirst()
        scratch.offsets.append(scratch.members.count)
    }

    /// The bands an edge's rows fall in.
    @inline(__always)
    private static func bandRange(of edge: Edge, bands: Int, bandRows: Int) -> ClosedRange<Int> {
        let first = Int(edge.y0) / bandRows
        let last = (Int(edge.y1.rounded(.up)) - 1) / bandRows
        return min(first, bands - 1)...min(max(last, first), bands - 1)
    }
}

extension PathRasterizer.Edge {
    /// x at height y along the edge, from its own end points, so every row it crosses agrees wherever the band
    /// boundaries fall.
    @inline(__always)
    func x(at y: Double) -> Double {
        y <= y0 ? x0 : y >= y1 ? x1 : x0 + (y - y0) / (y1 - y0) * (x1 - x0)
    }
}
