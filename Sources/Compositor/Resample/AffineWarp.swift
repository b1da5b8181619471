/// Draws an image through an affine transform onto a canvas, as a layer with a `CGAffineTransform`:
/// source point p lands on canvas point transform(p), both measured from top-left corners in pixels.
///
/// Each canvas pixel centre is mapped back through the inverse transform and the source is filtered
/// there. Where the inverse shrinks (the picture is minified) the filter widens by the local scale along
/// each source axis, so it averages what the pixel covers instead of aliasing. Taps outside the source
/// read through the edge mode: `transparent` (the default) gives antialiased edges, `clamp`, `mirror` and
/// `wrap` fill the canvas. Transforms that carry pixel centres onto pixel centres (integer translations,
/// quarter turns, flips) take an exact path that copies pixels; bilinear without minification takes a fixed-point
/// path (`AffineWarp+Bilinear.swift`), within one level of this Float one. Output is the same for every thread
/// count.
public struct AffineWarp: Sendable {
    public var transform: AffineTransform2D
    public var filter: ResampleFilter
    public var edgeMode: EdgeMode
    public var threads: Int
    /// The fixed-point bilinear loop: SIMD, or its scalar twin (`Kernels.bilinear` honours
    /// `BLURTOOL_KERNELS=reference`).
    var kernels: any BilinearKernelSet.Type = Kernels.bilinear

    public init(
        transform: AffineTransform2D, filter: ResampleFilter = .bilinear, edgeMode: EdgeMode = .transparent,
        threads: Int = Parallel.processorCount
    ) {
        self.transform = transform
        self.filter = filter
        self.edgeMode = edgeMode
        self.threads = threads
    }

    /// `source` drawn through the transform onto a new `width` × `height` canvas; nil when the transform is
    /// singular (it squashes the picture to a line, so nothing would be drawn).
    public func apply(to source: Image, width: Int, height: Int) -> Image? {
        guard let inverse = transform.inverted() else { return nil }
        let (stretchX, stretchY) = AffineWarp.stretch(inverse)
        let smallWidth = max(1, Int((Double(source.width) / stretchX).rounded(.up)))
        let smallHeight = max(1, Int((Double(source.height) / stretchY).rounded(.up)))
        if (stretchX > 2 || stretchY > 2) && (smallWidth < source.width || smallHeight < source.height) {
            // Shrink first with the separable resampler, as libvips does, so the warp's filter spans about one
            // pixel: filtering directly sums stretch² taps for every canvas pixel, which for `scale(1e-7)`
            // would never finish.
            let small = Resampler(filter: filter, threads: threads).resize(
                source, width: smallWidth, height: smallHeight)
            let enlarge = AffineTransform2D(
                scaleX: Double(source.width) / Double(smallWidth), y: Double(source.height) / Double(smallHeight))
            return AffineWarp(
                transform: enlarge.concatenating(transform), filter: filter, edgeMode: edgeMode, threads: threads
            ).apply(to: small, width: width, height: height)
        }
        let result = Image(uninitializedWidth: width, height: height)
        if let exact = pixelExact(inverse) {
            copyPixels(from: source, into: result, inverse: exact)
        } else if filter == .bilinear && AffineWarp.stretch(inverse) == (1, 1)
            && AffineWarp.fixedPointFits(inverse, width: width, height: height)
        {
            bilinearPixels(from: source, into: result, inverse: inverse, tile: AffineWarp.tile(for: inverse))
        } else {
            filterPixels(from: source, into: result, inverse: inverse)
        }
        return result
    }

    /// The inverse with its entries snapped to {-1, 0, 1} and whole offsets, when it maps pixel centres to
    /// pixel centres (within 1e-9: `rotationAngle: .pi / 2` leaves 6e-17 where 0 is meant); nil otherwise.
    func pixelExact(_ inverse: AffineTransform2D) -> AffineTransform2D? {
        func snapped(_ value: Double) -> Double? {
            // Offsets past a billion pixels (a translate(1e300, 0)) take the general path, which copes.
            let whole = value.rounded()
            return abs(value - whole) < 1e-9 && abs(whole) < 1e9 ? whole : nil
        }
        guard let a = snapped(inverse.a), let b = snapped(inverse.b), let c = snapped(inverse.c),
            let d = snapped(inverse.d), [a, b, c, d].allSatisfy({ abs($0) <= 1 })
        else { return nil }
        // Centre (x + 0.5, y + 0.5) must land on a centre (i + 0.5, j + 0.5).
        let (x, y) = inverse.apply(to: (0.5, 0.5))
        guard let i = snapped(x - 0.5), let j = snapped(y - 0.5) else { return nil }
        let linear = AffineTransform2D(a: a, b: b, c: c, d: d, tx: 0, ty: 0)
        let (cx, cy) = linear.apply(to: (0.5, 0.5))
        return AffineTransform2D(a: a, b: b, c: c, d: d, tx: i + 0.5 - cx, ty: j + 0.5 - cy)
    }

    private func copyPixels(from source: Image, into destination: Image, inverse: AffineTransform2D) {
        let (originX, originY) = inverse.apply(to: (0.5, 0.5))
        let startX = Int((originX - 0.5).rounded())
        let startY = Int((originY - 0.5).rounded())
        let stepX = (Int(inverse.a), Int(inverse.b))
        let stepY = (Int(inverse.c), Int(inverse.d))
        Parallel.forEach(destination.height, threads: threads) { y, _ in
            let out = UnsafeMutableRawPointer(destination.row(y)).assumingMemoryBound(to: UInt32.self)
            var sx = startX + y * stepY.0
            var sy = startY + y * stepY.1
            for x in 0..<destination.width {
                let i = edgeMode.sourceIndex(sx, count: source.width)
                let j = edgeMode.sourceIndex(sy, count: source.height)
                out[x] =
                    i < 0 || j < 0
                    ? 0
                    : UnsafeRawPointer(source.row(j)).loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
                sx += stepX.0
                sy += stepX.1
            }
        }
    }

    /// A canvas step in x moves the source sample by (a, b), in y by (c, d): the filter stretches by how far
    /// one canvas pixel reaches along each source axis, when that is more than one source pixel.
    package static func stretch(_ inverse: AffineTransform2D) -> (x: Double, y: Double) {
        (
            max(1, (inverse.a * inverse.a + inverse.c * inverse.c).squareRoot()),
            max(1, (inverse.b * inverse.b + inverse.d * inverse.d).squareRoot())
        )
    }

    /// `stretch`, limited along each axis to the picture's size on that axis (at least 2). A picture already
    /// shrunk to one pixel across (see `apply`) may still be sub-pixel on the canvas: a filter wider than the
    /// picture would only count more of the transparent or repeated edge, so it stops there. Per axis, not by
    /// the larger side: `skewX(89.9999999deg)` shrinks a 4032×3024 photo to 1×3024 and still stretches x by
    /// 10⁵, and a limit of 3024 there cost 18,000 taps per canvas pixel. With `apply`'s shrinking first, a
    /// canvas pixel reads at most (2·support·2 + 2)² source pixels, whatever the transform.
    static func filterStretch(
        _ inverse: AffineTransform2D, sourceWidth: Int, sourceHeight: Int
    ) -> (x: Double, y: Double) {
        let natural = stretch(inverse)
        return (min(natural.x, Double(max(sourceWidth, 2))), min(natural.y, Double(max(sourceHeight, 2))))
    }

    /// The general path, in Float: every filter and scale (tests compare the fixed-point bilinear path with it).
    func filterPixels(from source: Image, into destination: Image, inverse: AffineTransform2D) {
        let (stretchX, stretchY) = AffineWarp.filterStretch(
            inverse, sourceWidth: source.width, sourceHeight: source.height)
        let width = destination.width
        let height = destination.height
        // Tiles of the canvas: a rotated row walks across many source rows, so neighbouring canvas rows are
        // done together while the source pixels they share are still in cache.
        let tileWidth = 256
        let bandHeight = 64
        let bands = (height + bandHeight - 1) / bandHeight
        let workers = Parallel.workers(bands, threads: threads)
        let reachX = filter.support * stretchX
        let reachY = filter.support * stretchY
        let tapsX = Int(2 * reachX) + 2
        let tapsY = Int(2 * reachY) + 2
        let perWorker = tileWidth * 4 + tapsX + tapsY
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: perWorker * workers)
        defer { scratch.deallocate() }
        let shared = UncheckedSendable(scratch)
        Parallel.forEach(bands, threads: threads) { band, worker in
            let segment = shared.value + worker * perWorker
            for x0 in stride(from: 0, to: width, by: tileWidth) {
                let columns = x0..<min(width, x0 + tileWidth)
                for y in (band * bandHeight)..<min(height, (band + 1) * bandHeight) {
                    filteredRow(
                        y, columns: columns, source: source, inverse: inverse, into: segment,
                        stretch: (stretchX, stretchY),
                        weights: (segment + tileWidth * 4, segment + tileWidth * 4 + tapsX))
                    Quantizer().quantize(segment, count: columns.count, into: destination.row(y) + x0 * 4, y: y)
                }
            }
        }
    }

    /// The general case: per canvas pixel, the filter's weights along each source axis once, then the
    /// separable sum over the window (taps outside the source through the edge mode).
    private func filteredRow(
        _ y: Int, columns: Range<Int>, source: Image, inverse: AffineTransform2D,
        into row: UnsafeMutablePointer<Float>, stretch: (x: Double, y: Double),
        weights: (x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>)
    ) {
        let reachX = filter.support * stretch.x
        let reachY = filter.support * stretch.y
        for x in columns {
            let (u, v) = inverse.apply(to: (Double(x) + 0.5, Double(y) + 0.5))
            // In pixel-centre coordinates; a billion pixels away (or NaN, from a transform of 1e300s) is as far
            // as any edge mode can tell apart, and keeps the window's ends convertible to Int.
            let px = AffineWarp.withinReason(u - 0.5)
            let py = AffineWarp.withinReason(v - 0.5)
            let firstI = Int((px - reachX).rounded(.up))
            let lastI = Int((px + reachX).rounded(.down))
            let firstJ = Int((py - reachY).rounded(.up))
            let lastJ = Int((py + reachY).rounded(.down))
            var totalX = 0.0
            var totalY = 0.0
            for i in firstI...max(firstI, lastI) {
                let w = AffineWarp.weight(filter, Double(i) - px, stretch.x)
                weights.x[i - firstI] = Float(w)
                totalX += w
            }
            for j in firstJ...max(firstJ, lastJ) {
                let w = AffineWarp.weight(filter, Double(j) - py, stretch.y)
                weights.y[j - firstJ] = Float(w)
                totalY += w
            }
            var sum = SIMD4<Float>(repeating: 0)
            for j in firstJ...max(firstJ, lastJ) {
                let wy = weights.y[j - firstJ]
                let sourceY = edgeMode.sourceIndex(j, count: source.height)
                guard wy != 0, sourceY >= 0 else { continue }  // transparent rows add weight only
                let sourceRow = source.row(sourceY)
                var line = SIMD4<Float>(repeating: 0)
                for i in firstI...max(firstI, lastI) {
                    let wx = weights.x[i - firstI]
                    let sourceX = edgeMode.sourceIndex(i, count: source.width)
                    guard wx != 0, sourceX >= 0 else { continue }
                    let p = sourceRow + sourceX * 4
                    line = line + SIMD4(repeating: wx) * SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3]))
                }
                sum = sum + SIMD4(repeating: wy) * line
            }
            let total = Float(totalX * totalY)
            let value = total != 0 ? sum / SIMD4(repeating: total) : SIMD4(repeating: 0)
            UnsafeMutableRawPointer(row + (x - columns.lowerBound) * 4).storeBytes(of: value, as: SIMD4<Float>.self)
        }
    }

    private static func withinReason(_ coordinate: Double) -> Double {
        coordinate.isNaN ? -1e9 : min(max(coordinate, -1e9), 1e9)
    }

    /// The filter at distance `offset`, stretched; nearest keeps exactly one source pixel per sample.
    @inline(__always)
    static func weight(_ filter: ResampleFilter, _ offset: Double, _ stretch: Double) -> Double {
        if filter == .nearest {
            return offset >= -0.5 && offset < 0.5 ? 1 : 0
        }
        return filter.weight(offset / stretch)
    }
}
