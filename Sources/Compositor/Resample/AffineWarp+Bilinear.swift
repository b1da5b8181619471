/// Bilinear warps without minification, in fixed point (see `BilinearKernelSet`).
///
/// Canvas pixel (x, y) samples the source at column term x + row term y, both 16.16 numbers rounded once
/// from Double, so a pixel's position depends on (x, y) alone and every tiling and thread count gives the
/// same output. Along a row positions are monotone, so the pixels whose whole 2×2 neighbourhood lies inside
/// the source form one run: the kernel does it. Around it, pixels read their corners through the edge mode
/// with the same arithmetic, and in transparent mode pixels no corner of which is inside are cleared.
extension AffineWarp {
    /// Whether every position fits the 16.16 numbers: the canvas maps into ±16,000 source pixels (so column
    /// terms, taken from the middle column, and row terms stay under 2¹⁵ pixels too).
    static func fixedPointFits(_ inverse: AffineTransform2D, width: Int, height: Int) -> Bool {
        let corners = [(0.0, 0.0), (Double(width), 0), (0, Double(height)), (Double(width), Double(height))]
        return width <= 30_000
            && corners.allSatisfy { corner in
                let (u, v) = inverse.apply(to: corner)
                return abs(u) < 16_000 && abs(v) < 16_000
            }
    }

    /// Canvas tiles (columns × rows) that keep the source pixels a tile reads in cache. When a canvas row crosses
    /// source rows or columns steeply (between about 15° and 75° of a turn), a wide tile's rows each walk across
    /// hundreds of source rows and neighbouring canvas rows no longer find them in cache: narrow tall tiles. When
    /// it runs nearly along them, wide short tiles read the source almost sequentially. The two shapes and the
    /// crossover were chosen by measuring both on the 12 MP photo over a range of turns (near 45° neither
    /// keeps the reads in cache well).
    static func tile(for inverse: AffineTransform2D) -> (width: Int, height: Int) {
        min(abs(inverse.a), abs(inverse.b)) * 64 >= 16 ? (64, 128) : (1024, 8)
    }

    /// - Parameter tile: canvas tiles, columns × rows (a parameter so tests can show it changes nothing).
    func bilinearPixels(
        from source: Image, into destination: Image, inverse: AffineTransform2D, tile: (width: Int, height: Int)
    ) {
        let width = destination.width
        let height = destination.height
        let middle = width / 2
        let one = 65536.0
        // a·(x − middle) and b·(x − middle) per column; the row term holds the rest: the middle column's pixel
        // centre in source pixel-centre coordinates, + 128 so bits 8–15 round the weights to the nearest 1/256.
        let columns = (0..<width).map { x in
            (
                Int32((inverse.a * Double(x - middle) * one).rounded()),
                Int32((inverse.b * Double(x - middle) * one).rounded())
            )
        }
        let rows = (0..<height).map { y in
            let (u, v) = inverse.apply(to: (Double(middle) + 0.5, Double(y) + 0.5))
            return (u: Int32(((u - 0.5) * one).rounded()) &+ 128, v: Int32(((v - 0.5) * one).rounded()) &+ 128)
        }
        let columnU = columns.map(\.0)
        let columnV = columns.map(\.1)
        let bands = (height + tile.height - 1) / tile.height
        columnU.withUnsafeBufferPointer { columnU in
            columnV.withUnsafeBufferPointer { columnV in
                Parallel.forEach(bands, threads: threads) { band, _ in
                    for x0 in stride(from: 0, to: width, by: tile.width) {
                        for y in (band * tile.height)..<min(height, (band + 1) * tile.height) {
                            bilinearRow(
                                source, columns: x0..<min(width, x0 + tile.width),
                                table: (columnU.baseAddress!, columnV.baseAddress!), origin: rows[y],
                                into: UnsafeMutableRawPointer(destination.row(y)).assumingMemoryBound(to: UInt32.self))
                        }
                    }
                }
            }
        }
    }

    private func bilinearRow(
        _ source: Image, columns: Range<Int>, table: (u: UnsafePointer<Int32>, v: UnsafePointer<Int32>),
        origin: (u: Int32, v: Int32), into row: UnsafeMutablePointer<UInt32>
    ) {
        let lastX = Int32(source.width - 1)
        let lastY = Int32(source.height - 1)
        func run(_ across: ClosedRange<Int32>, _ down: ClosedRange<Int32>) -> Range<Int> {
            let i = AffineWarp.run(where: across, table: table.u, origin: origin.u, in: columns)
            let j = AffineWarp.run(where: down, table: table.v, origin: origin.v, in: i)
            return j
        }
        // A source one pixel wide or high has no neighbourhood inside it: every pixel takes the edge path.
        let inside =
            lastX > 0 && lastY > 0 ? run(0...(lastX - 1), 0...(lastY - 1)) : columns.lowerBound..<columns.lowerBound
        var touched = columns
        if edgeMode == .transparent {
            touched = run(-1...lastX, -1...lastY)
            (row + columns.lowerBound).update(repeating: 0, count: touched.lowerBound - columns.lowerBound)
            (row + touched.upperBound).update(repeating: 0, count: columns.upperBound - touched.upperBound)
        }
        let inner = inside.isEmpty ? touched.lowerBound..<touched.lowerBound : inside
        edgePixels(source, columns: touched.lowerBound..<inner.lowerBound, table: table, origin: origin, into: row)
        kernels.bilinear(
            source.row(0), bytesPerRow: source.bytesPerRow, u: table.u + inner.lowerBound,
            v: table.v + inner.lowerBound, origin: origin, count: inner.count, into: row + inner.lowerBound)
        edgePixels(source, columns: inner.upperBound..<touched.upperBound, table: table, origin: origin, into: row)
    }

    /// The pixels whose neighbourhoods reach past the source: corners read through the edge mode.
    private func edgePixels(
        _ source: Image, columns: Range<Int>, table: (u: UnsafePointer<Int32>, v: UnsafePointer<Int32>),
        origin: (u: Int32, v: Int32), into row: UnsafeMutablePointer<UInt32>
    ) {
        for x in columns {
            let u = table.u[x] &+ origin.u
            let v = table.v[x] &+ origin.v
            let i = Int(u >> 16)
            let j = Int(v >> 16)
            func corner(_ i: Int, _ j: Int) -> UInt32 {
                let sourceX = edgeMode.sourceIndex(i, count: source.width)
                let sourceY = edgeMode.sourceIndex(j, count: source.height)
                guard sourceX >= 0, sourceY >= 0 else { return 0 }
                return UnsafeRawPointer(source.row(sourceY)).loadUnaligned(fromByteOffset: sourceX * 4, as: UInt32.self)
            }
            row[x] = ScalarKernels.bilinearPixel(
                (corner(i, j), corner(i + 1, j), corner(i, j + 1), corner(i + 1, j + 1)),
                fx: UInt32(bitPattern: u >> 8) & 255, fy: UInt32(bitPattern: v >> 8) & 255)
        }
    }

    /// The columns of `columns` whose position's integer part, (table[x] + origin) >> 16, lies in `range`: one
    /// run, because the positions are monotone along a row (found by two binary searches).
    static func run(
        where range: ClosedRange<Int32>, table: UnsafePointer<Int32>, origin: Int32, in columns: Range<Int>
    ) -> Range<Int> {
        guard !columns.isEmpty else { return columns }
        func part(_ x: Int) -> Int32 { (table[x] &+ origin) >> 16 }
        if range.contains(part(columns.lowerBound)) && range.contains(part(columns.upperBound - 1)) {
            return columns  // the common case inside the picture
        }
        /// The first column where `passed` holds, given that it holds on a suffix of `columns`.
        func first(_ passed: (Int32) -> Bool) -> Int {
            var low = columns.lowerBound
            var high = columns.upperBound
            while low < high {
                let mid = (low + high) / 2
                if passed(part(mid)) { high = mid } else { low = mid + 1 }
            }
            return low
        }
        let start: Int
        let end: Int
        if part(columns.upperBound - 1) >= part(columns.lowerBound) {
            start = first { $0 >= range.lowerBound }
            end = first { $0 > range.upperBound }
        } else {
            start = first { $0 <= range.upperBound }
            end = first { $0 < range.lowerBound }
        }
        return start..<max(start, end)
    }
}
