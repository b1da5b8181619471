import CKernels

/// Drawing one image (or a colour through a coverage mask) onto another: the compositing primitive that layers,
/// shapes and backdrop materials use.
///
/// Operators act inside the drawn rectangle only, as Core Graphics does when it draws an image: outside it the
/// destination is unchanged, even for `copy`, `clear` or `source-in`. The source is multiplied by `opacity`;
/// a `mask` (coverage 0...255, the source's size) then acts as a clip, mixing the operator's result with the
/// old destination, so an anti-aliased shape edge is a partial clip. Results are identical for every thread
/// count. The source may share memory with the destination (it is copied first). Thread safety: calls may run
/// at once on different destinations.
extension Image {
    /// Draws `source` with its top-left corner at (x, y) of this image (parts outside are skipped).
    public func draw(
        _ source: Image, x: Int = 0, y: Int = 0, operator op: CompositeOperator = .sourceOver, opacity: Double = 1,
        mask: Plane? = nil, space: WorkingSpace = .srgb, threads: Int = Parallel.processorCount
    ) {
        if let mask {
            precondition(mask.width == source.width && mask.height == source.height, "mask size differs from source")
        }
        // Drawing part of an image onto itself: rows would be overwritten while other threads still read them.
        let source = source.overlaps(self) ? source.copy() : source
        composite(
            op, width: source.width, height: source.height, x: x, y: y, opacity: opacity, space: space,
            threads: threads, source: { source.row($0) }, solid: .init(red: 0, green: 0, blue: 0, alpha: 0),
            mask: mask.map { mask in { mask.row($0) } })
    }

    /// Draws `color` through `mask` (coverage) with the mask's top-left corner at (x, y).
    public func fill(
        _ color: RGBAColor, mask: Plane, x: Int = 0, y: Int = 0, operator op: CompositeOperator = .sourceOver,
        opacity: Double = 1, space: WorkingSpace = .srgb, threads: Int = Parallel.processorCount
    ) {
        composite(
            op, width: mask.width, height: mask.height, x: x, y: y, opacity: opacity, space: space,
            threads: threads, source: nil, solid: color.unitPixel, mask: { mask.row($0) })
    }

    /// Draws `color` over the rectangle at (x, y) of the given size.
    public func fill(
        _ color: RGBAColor, x: Int = 0, y: Int = 0, width: Int, height: Int,
        operator op: CompositeOperator = .sourceOver, opacity: Double = 1, space: WorkingSpace = .srgb,
        threads: Int = Parallel.processorCount
    ) {
        composite(
            op, width: width, height: height, x: x, y: y, opacity: opacity, space: space, threads: threads,
            source: nil, solid: color.unitPixel, mask: nil)
    }

    /// The shared driver: clips the w × h rectangle at (x, y) to this image, then runs bands of rows on threads.
    /// `source` and `mask` give row y of the drawn rectangle (nil: the solid colour; no mask).
    private func composite(
        _ op: CompositeOperator, width w: Int, height h: Int, x: Int, y: Int, opacity: Double,
        space: WorkingSpace, threads: Int, source: ((Int) -> UnsafeMutablePointer<UInt8>)?, solid: UnitPixel,
        mask: ((Int) -> UnsafeMutablePointer<UInt8>)?
    ) {
        let left = max(x, 0)
        let top = max(y, 0)
        let right = min(x + w, width)
        let bottom = min(y + h, height)
        guard right > left, bottom > top else { return }
        let count = right - left
        let skip = left - x  // pixels of the source row left of this image
        let painter = RowPainter(op, solid: solid, opacity: opacity, space: space, pixels: count * (bottom - top))
        let bandHeight = 16
        let bands = (bottom - top + bandHeight - 1) / bandHeight
        Parallel.forEach(bands, threads: threads) { band, _ in
            let first = top + band * bandHeight
            for destinationY in first..<min(first + bandHeight, bottom) {
                let sourceY = destinationY - y
                let sourceRow = source.map { UnsafePointer($0(sourceY) + skip * 4) }
                let maskRow = mask.map { UnsafePointer($0(sourceY) + skip) }
                painter.paint(source: sourceRow, mask: maskRow, onto: row(destinationY) + left * 4, count: count)
            }
        }
    }
}

/// One row of `Image.composite`'s work: an operator, opacity and working space with the colour a missing source
/// stands for, through the process's kernels (or the scalar reference when those are the scalar set). The path
/// rasteriser paints each row of coverage with one as soon as it is made, while the row is in cache.
struct RowPainter {
    let op: CompositeOperator
    let solid: UnitPixel
    let opacity: Float
    let space: WorkingSpace
    private let kernel: CompositeKernel
    private let reference = Kernels.active == ScalarKernels.self
    /// What a fully covered block of the solid colour becomes whatever lies under it, when that is one value
    /// (`CompositeKernel.fullCoverageWords`); looked for when the painting is `pixels` large enough to repay it.
    private var fullCoverageWords: SIMD16<UInt32>?

    init(_ op: CompositeOperator, solid: UnitPixel, opacity: Double, space: WorkingSpace, pixels: Int = 0) {
        (self.op, self.solid, self.space, kernel) = (op, solid, space, CompositeKernel(op))
        self.opacity = Float(min(max(opacity, 0), 1))
        if op == .sourceOver, space == .srgb, !reference, pixels >= 1 << 12 {
            fullCoverageWords = CompositeKernel.fullCoverageWords(
                Planar16(repeating: solid).scaled(by: Planar16.Lanes(repeating: self.opacity)))
        }
    }

    /// Composites `count` pixels of `source` (nil: the solid colour) through `mask` (nil: none) onto
    /// `destination`.
    func paint(
        source: UnsafePointer<UInt8>?, mask: UnsafePointer<UInt8>?, onto destination: UnsafeMutablePointer<UInt8>,
        count: Int
    ) {
        if reference {
            ReferenceCompositing.compositeRow(
                op, source: source, solid: solid, mask: mask, destination: destination, count: count,
                opacity: opacity, space: space)
        } else {
            kernel.compositeRow(
                source: source, solid: solid, mask: mask, destination: destination, count: count, opacity: opacity,
                space: space, fullCoverageWords: fullCoverageWords)
        }
    }
}

extension RGBAColor {
    /// Premultiplied, in unit floats, channels clamped to 0...1.
    var unitPixel: UnitPixel {
        let a = Float(min(max(alpha, 0), 1))
        func channel(_ v: Double) -> Float { Float(min(max(v, 0), 1)) * a }
        return UnitPixel(red: channel(red), green: channel(green), blue: channel(blue), alpha: a)
    }
}

extension CompositeKernel {
    /// One row, 16 pixels at a time (the last few through a padded copy); the same contract as
    /// `ReferenceCompositing.compositeRow`. `fastPaths: false` takes the general loop only (for the tests that
    /// hold the fast paths to it); `loops` is the C level for source-over's fast path (nil: the Swift loop).
    func compositeRow(
        source: UnsafePointer<UInt8>?, solid: UnitPixel, mask: UnsafePointer<UInt8>?,
        destination: UnsafeMutablePointer<UInt8>, count: Int, opacity: Float, space: WorkingSpace,
        fastPaths: Bool = true, loops: bt_kernel_table? = Kernels.cLoops, fullCoverageWords: SIMD16<UInt32>? = nil
    ) {
        var done = 0
        if fastPaths, op == .sourceOver, space == .srgb, mask == nil, let source {
            // The C copy of `sourceOverBlocks` at the process's level (Sources/CKernels/composite.inc).
            done =
                loops?.source_over(source, destination, count, opacity)
                ?? Self.sourceOverBlocks(source, onto: destination, count: count, opacity: opacity)
        } else if fastPaths, op == .sourceOver, space == .srgb, source == nil, let mask {
            let colour = Planar16(repeating: solid).scaled(by: Planar16.Lanes(repeating: opacity))
            if let fullCoverageWords {
                done = Self.solidSourceOverBlocks(
                    colour, mask: mask, onto: destination, count: count, fullCoverageWords: fullCoverageWords)
            } else {
                done = Self.solidSourceOverBlocks(colour, mask: mask, onto: destination, count: count)
            }
            if done < count {
                Self.solidSourceOverTail(colour, mask: mask + done, onto: destination + done * 4, count: count - done)
                done = count
            }
        }
        guard done < count else { return }
        let row = Row(
            source: source, solid: solid, mask: mask, destination: destination, count: count, opacity: opacity,
            space: space)
        if let porterDuff = PorterDuffOperator(op) {
            row.composite(with: porterDuff, from: done)
        } else if op == .plusDarker {
            row.composite(with: PlusDarkerOperator(), from: done)
        } else if let mode = op.separableBlend {
            row.composite(with: SeparableBlendOperator(mode: mode), from: done)
        } else {
            row.composite(with: NonSeparableBlendOperator(op: op), from: done)
        }
    }

    /// One row's operands, and the loop over it for a given operator (specialised per operator type).
    private struct Row {
        let source: UnsafePointer<UInt8>?
        let solid: UnitPixel
        let mask: UnsafePointer<UInt8>?
        let destination: UnsafeMutablePointer<UInt8>
        let count: Int
        let opacity: Float
        let space: WorkingSpace

        func composite<Operator: PlanarOperator>(with op: Operator, from start: Int) {
            let opacityLanes = Planar16.Lanes(repeating: opacity)
            let solidLanes = Planar16(repeating: solid).scaled(by: opacityLanes)
            var x = start
            while x + 16 <= count {
                step(
                    op, source: source.map { $0 + x * 4 }, solid: solidLanes, mask: mask.map { $0 + x },
                    destination: destination + x * 4, opacity: opacityLanes)
                x += 16
            }
            let rest = count - x
            guard rest > 0 else { return }
            // The tail: padded copies of 16 pixels (zeros past the end; their results are dropped).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 * 4 * 2 + 16) { scratch in
                let base = scratch.baseAddress!
                base.initialize(repeating: 0, count: scratch.count)
                let sourceCopy = base
                let destinationCopy = base + 64
                let maskCopy = base + 128
                if let source { sourceCopy.update(from: source + x * 4, count: rest * 4) }
                if let mask { maskCopy.update(from: mask + x, count: rest) }
                destinationCopy.update(from: destination + x * 4, count: rest * 4)
                step(
                    op, source: source == nil ? nil : UnsafePointer(sourceCopy), solid: solidLanes,
                    mask: mask == nil ? nil : UnsafePointer(maskCopy), destination: destinationCopy,
                    opacity: opacityLanes)
                (destination + x * 4).update(from: destinationCopy, count: rest * 4)
            }
        }

        @inline(__always)
        private func step<Operator: PlanarOperator>(
            _ op: Operator, source: UnsafePointer<UInt8>?, solid: Planar16, mask: UnsafePointer<UInt8>?,
            destination: UnsafeMutablePointer<UInt8>, opacity: Planar16.Lanes
        ) {
            let destinationWords = UnsafeMutableRawPointer(destination)
            var backdrop = Planar16(words: destinationWords.loadUnaligned(as: SIMD16<UInt32>.self))
            var drawn = solid
            if let source {
                drawn = Planar16(words: UnsafeRawPointer(source).loadUnaligned(as: SIMD16<UInt32>.self)).scaled(
                    by: opacity)
            }
            if space == .linear {
                TransferTable.linearFromSRGB.convert(&drawn)
                TransferTable.linearFromSRGB.convert(&backdrop)
            }
            var out = op.composite(source: drawn, backdrop: backdrop)
            if let mask {
                var coverage = Planar16.Lanes()
                for i in 0..<16 { coverage[i] = Float(mask[i]) }
                out = backdrop.mixed(with: out, by: coverage * (1 / 255))
            }
            if space == .linear { TransferTable.srgbFromLinear.convert(&out) }
            destinationWords.storeBytes(of: out.packedWords(), as: SIMD16<UInt32>.self)
        }
    }

    /// A colour through a coverage mask, source-over, in whole 16-pixel blocks: text and shapes. The general
    /// loop's arithmetic (o = s + (1 − αs)·b, then b + (o − b)·m/255) without its per-operator factors and with
    /// the mask converted in vector registers, so the pixels are the same bits; a block the mask leaves
    /// uncovered is skipped (most of a label's box), which leaves it as the general loop leaves a valid
    /// premultiplied pixel. Returns how many pixels it did.
    private static func solidSourceOverBlocks(
        _ solid: Planar16, mask: UnsafePointer<UInt8>, onto destination: UnsafeMutablePointer<UInt8>, count: Int
    ) -> Int {
        typealias Lanes = Planar16.Lanes
        let keep = 1 - solid.alpha
        var x = 0
        while x + 16 <= count {
            let coverageBytes = UnsafeRawPointer(mask + x)
            // Tested as two words: a SIMD `==` compiles to a lane-by-lane loop through the stack.
            let high = coverageBytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if coverageBytes.loadUnaligned(as: UInt64.self) | high == 0 {
                x += 16
                continue
            }
            let coverage = coverageBytes.loadUnaligned(as: SIMD16<UInt8>.self)
            let target = UnsafeMutableRawPointer(destination + x * 4)
            let b = Planar16(words: target.loadUnaligned(as: SIMD16<UInt32>.self))
            // A lane loop, which LLVM folds into one widening: the generic `SIMD16<UInt32>(truncatingIfNeeded:)`
            // stays a call per block (shared/SWIFT-PERFORMANCE.md).
            var m = SIMD16<UInt32>(repeating: 0x4B00_0000)
            for lane in 0..<16 { m[lane] |= UInt32(coverage[lane]) }
            let t = (unsafeBitCast(m, to: Lanes.self) - 8_388_608) * (1 / 255)
            let o = Planar16(
                red: solid.red + keep * b.red, green: solid.green + keep * b.green, blue: solid.blue + keep * b.blue,
                alpha: solid.alpha + keep * b.alpha)
            target.storeBytes(of: b.mixed(with: o, by: t).packedWords(), as: SIMD16<UInt32>.self)
            x += 16
        }
        return x
    }

    /// `solidSourceOverBlocks` where fully covered blocks are `fullCoverageWords` whatever lies under them: runs of
    /// such blocks are stored as they are (the backdrop not read), the runs between go to the blocks' loop, which
    /// stays as it is (holding the words in it too would spill its registers). Returns how many pixels it did.
    private static func solidSourceOverBlocks(
        _ solid: Planar16, mask: UnsafePointer<UInt8>, onto destination: UnsafeMutablePointer<UInt8>, count: Int,
        fullCoverageWords words: SIMD16<UInt32>
    ) -> Int {
        @inline(__always) func full(_ x: Int) -> Bool {
            let bytes = UnsafeRawPointer(mask + x)
            let high = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            return bytes.loadUnaligned(as: UInt64.self) & high == .max
        }
        var x = 0
        while x + 16 <= count {
            if full(x) {
                UnsafeMutableRawPointer(destination + x * 4).storeBytes(of: words, as: SIMD16<UInt32>.self)
                x += 16
                continue
            }
            var end = x + 16
            while end + 16 <= count, !full(end) { end += 16 }
            x += solidSourceOverBlocks(solid, mask: mask + x, onto: destination + x * 4, count: end - x)
        }
        return x
    }

    /// The words an opaque `solid` (premultiplied, opacity applied) leaves on a fully covered block whatever the
    /// backdrop, or nil when they depend on it (or the colour is not opaque). The blocks' arithmetic there is
    /// o = s + 0·b = s mixed at t = 1, b + (s − b) per channel, which rounds to s's own byte for every backdrop
    /// byte unless s lies within rounding of a half level: each channel depends on its own byte only, so trying
    /// all 256 in every channel at once decides it, with the very operations the blocks use.
    static func fullCoverageWords(_ solid: Planar16) -> SIMD16<UInt32>? {
        guard solid.alpha[0] == 1 else { return nil }
        let words = solid.packedWords()
        for start in stride(from: 0, to: 256, by: 16) {
            var backdrop = SIMD16<UInt32>()
            for lane in 0..<16 { backdrop[lane] = UInt32(start + lane) &* 0x0101_0101 }
            let mixed = Planar16(words: backdrop).mixed(with: solid, by: Planar16.Lanes(repeating: 1)).packedWords()
            for lane in 0..<16 where mixed[lane] != words[lane] { return nil }
        }
        return words
    }

    /// `solidSourceOverBlocks` for the last `count` (< 16) pixels of a row, through a padded copy with zero
    /// coverage beyond them: a small shape's rows are short, and the general loop would be most of their cost.
    private static func solidSourceOverTail(
        _ solid: Planar16, mask: UnsafePointer<UInt8>, onto destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        var paddedMask = SIMD16<UInt8>()
        var paddedPixels = SIMD16<UInt32>()
        withUnsafeMutableBytes(of: &paddedMask) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: mask, count: count))
        }
        withUnsafeMutableBytes(of: &paddedPixels) { pixels in
            pixels.copyMemory(from: UnsafeRawBufferPointer(start: destination, count: count * 4))
            withUnsafeBytes(of: paddedMask) { maskBytes in
                _ = solidSourceOverBlocks(
                    solid, mask: maskBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    onto: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 16)
            }
            UnsafeMutableRawPointer(destination).copyMemory(from: pixels.baseAddress!, byteCount: count * 4)
        }
    }

    /// Source-over of whole 16-pixel blocks, the operator layers use most, written as one loop with nothing
    /// to inline: co = o·cs + (1 − o·αs)·cb on the 0...255 scale. Returns how many pixels it did.
    private static func sourceOverBlocks(
        _ source: UnsafePointer<UInt8>, onto destination: UnsafeMutablePointer<UInt8>, count: Int, opacity: Float
    ) -> Int {
        typealias Lanes = SIMD16<Float>
        let o = Lanes(repeating: opacity)
        let keepScale = Lanes(repeating: opacity / 255)
        var x = 0
        while x + 16 <= count {
            let s = UnsafeRawPointer(source + x * 4).loadUnaligned(as: SIMD16<UInt32>.self)
            let target = UnsafeMutableRawPointer(destination + x * 4)
            let d = target.loadUnaligned(as: SIMD16<UInt32>.self)
            // Bytes to Floats by OR-ing them into the mantissa of 2²³ (no per-lane conversion calls).
            @inline(__always) func float(_ words: SIMD16<UInt32>, _ shift: UInt32) -> Lanes {
                unsafeBitCast(((words &>> shift) & 0xFF) | 0x4B00_0000, to: Lanes.self) - 8_388_608
            }
            let keep = 1 - float(s, 24) * keepScale
            @inline(__always) func channel(_ shift: UInt32) -> SIMD16<UInt32> {
                var v = float(s, shift) * o + float(d, shift) * keep
                v.replace(with: 0, where: .!(v .> 0))
                // A valid premultiplied pair sums to at most 255 (plus rounding), but a borrowed buffer may hold
                // colour > alpha: clamped as the general path does, not wrapped by the mask below.
                v.replace(with: 255, where: v .> 255)
                // Adding 1.5·2²³ rounds to nearest, ties to even.
                return unsafeBitCast(v + 12_582_912, to: SIMD16<UInt32>.self) & 0xFF
            }
            let alpha = channel(24)
            var red = channel(0)
            var green = channel(8)
            var blue = channel(16)
            red.replace(with: alpha, where: red .> alpha)
            green.replace(with: alpha, where: green .> alpha)
            blue.replace(with: alpha, where: blue .> alpha)
            target.storeBytes(of: red | (green &<< 8) | (blue &<< 16) | (alpha &<< 24), as: SIMD16<UInt32>.self)
            x += 16
        }
        return x
    }
}
