import CKernels

/// Rounds premultiplied Float pixels (0...255 scale) to RGBA8, keeping each colour at or below its alpha.
///
/// Each value v becomes roundToNearestEven(v + offset), offset 0 without dither; with dither, offset is
/// uniform in (−0.5, 0.5) from a fixed noise tile, which rounds v up with probability equal to its fraction,
/// so smooth gradients show no bands while whole numbers stay unchanged (a uniform image stays uniform).
/// The colour channels share one offset so greys stay grey. Grain adds a monochrome offset of up to
/// ±grain/2 of full scale, scaled by alpha. Colours are clamped to alpha before rounding; rounding is
/// monotone, so the result stays premultiplied.
///
/// The loops run in C (Sources/CKernels/quantize.inc) at the process's kernel level (`Kernels.cLoops`),
/// or as the Swift loops below under `BLURTOOL_KERNELS=swift` or `reference`: the same operations in the same
/// order, so the same bytes.
struct Quantizer: Sendable {
    let dither: Bool
    let grain: Float
    /// The C loops to run, or nil for the Swift ones.
    let loops: bt_kernel_table?

    init(dither: Bool = false, grain: Float = 0, loops: bt_kernel_table? = Kernels.cLoops) {
        self.dither = dither
        self.grain = grain
        self.loops = loops
    }

    /// Adding 1.5·2²³ to a Float in [0, 2²²) leaves it rounded to the nearest integer, ties to even, in the
    /// low mantissa bits: one vector add instead of a per-lane call.
    static let magic: Float = 12_582_912

    /// Float in 0...255 to its byte, rounded to nearest, ties to even (the add puts the rounded integer in the
    /// low mantissa bits); out-of-range values clamp.
    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(max(value, 0), 255) + magic).bitPattern)
    }

    /// Two passes the compiler vectorises well: Float to bytes over the whole row (plus dither, read from the
    /// tile in runs that line up with it), then each colour byte limited to its pixel's alpha byte, 16 bytes
    /// at a time. Limiting after rounding equals limiting before it, because rounding is monotone.
    /// - Parameters:
    ///   - y, firstX: the position of the row's first pixel in the noise tiles' coordinates.
    ///   - grainScratch: room for `count * 4` Floats, needed only when `grain` is not zero.
    func quantize(
        _ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<UInt8>,
        y: Int, firstX: Int = 0, grainScratch: UnsafeMutablePointer<Float>? = nil
    ) {
        var source = source
        if grain != 0, let grainScratch {
            addGrain(source, count: count, y: y, firstX: firstX, into: grainScratch)
            source = UnsafePointer(grainScratch)
        }
        let ditherRow = NoiseTile.dither.row(y)
        var x = 0
        while x < count {
            let run = min(NoiseTile.size - ((firstX + x) & NoiseTile.mask), count - x)
            let input = source + x * 4
            let output = destination + x * 4
            let tile = dither ? ditherRow + ((firstX + x) & NoiseTile.mask) * 4 : nil
            if let loops {
                loops.quantize(input, tile, run * 4, output)
            } else if let tile {
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(input[i] + tile[i]) }
            } else {
                for i in 0..<(run * 4) { output[i] = Quantizer.byte(input[i]) }
            }
            x += run
        }
        Quantizer.limitColoursToAlpha(destination, count: count, loops: loops)
    }

    /// Lowers each colour byte of `count` RGBA pixels to its alpha byte where it is above it.
    static func limitColoursToAlpha(
        _ destination: UnsafeMutablePointer<UInt8>, count: Int, loops: bt_kernel_table? = Kernels.cLoops
    ) {
        if let loops {
            loops.limit_colours_to_alpha(destination, count)
            return
        }
        // Pixels as little-endian words (alpha in the top byte): shifts, masks and `min` on 16 at a time.
        var pixel = 0
        let byteMask = SIMD16<UInt32>(repeating: 0xFF)
        while pixel + 16 <= count {
            let pointer = UnsafeMutableRawPointer(destination + pixel * 4)
            let words = pointer.loadUnaligned(as: SIMD16<UInt32>.self)
            // Compare-and-select rather than `pointwiseMin`, which stays an outlined generic call here.
            let alpha: SIMD16<UInt32> = words &>> 24
            var red: SIMD16<UInt32> = words & byteMask
            var green: SIMD16<UInt32> = (words &>> 8) & byteMask
            var blue: SIMD16<UInt32> = (words &>> 16) & byteMask
            red.replace(with: alpha, where: red .> alpha)
            green.replace(with: alpha, where: green .> alpha)
            blue.replace(with: alpha, where: blue .> alpha)
            let packed: SIMD16<UInt32> = red | (green &<< 8) | (blue &<< 16) | (alpha &<< 24)
            pointer.storeBytes(of: packed, as: SIMD16<UInt32>.self)
            pixel += 16
        }
        while pixel < count {
            let bytes = destination + pixel * 4
            for c in 0..<3 { bytes[c] = min(bytes[c], bytes[3]) }
            pixel += 1
        }
    }

    /// The row with grain added to the colours, scaled by alpha.
    private func addGrain(
        _ source: UnsafePointer<Float>, count: Int, y: Int, firstX: Int, into output: UnsafeMutablePointer<Float>
    ) {
        let grainRow = NoiseTile.grain.row(y)
        for x in 0..<count {
            let tile = ((firstX + x) & NoiseTile.mask) * 4
            let alpha = source[x * 4 + 3]
            for c in 0..<3 { output[x * 4 + c] = source[x * 4 + c] + grainRow[tile + c] * grain * alpha }
            output[x * 4 + 3] = alpha
        }
    }

    /// The same rounding one value at a time, written plainly: the twin the tests compare with.
    func quantizeReference(
        _ source: UnsafePointer<Float>, count: Int,
        into destination: UnsafeMutablePointer<UInt8>, y: Int, firstX: Int = 0
    ) {
        let ditherRow = NoiseTile.dither.row(y)
        let grainRow = NoiseTile.grain.row(y)
        for i in 0..<count {
            let tile = ((firstX + i) & NoiseTile.mask) * 4
            var values = (0..<4).map { source[i * 4 + $0] }
            if grain != 0 {
                let alpha = values[3]
                for c in 0..<3 { values[c] += grainRow[tile + c] * grain * alpha }
            }
            if dither {
                for c in 0..<4 { values[c] += ditherRow[tile + c] }
            }
            let rounded = values.map { UInt8(min(max($0, 0), 255).rounded(.toNearestOrEven)) }
            for c in 0..<3 { destination[i * 4 + c] = min(rounded[c], rounded[3]) }
            destination[i * 4 + 3] = rounded[3]
        }
    }
}

/// A fixed tile of noise, laid out per pixel as (n, n, n, m) so a run of it lines up with a run of pixels: the colour
/// channels share n (greys stay grey), alpha gets m (0 for grain, which leaves alpha alone).
struct NoiseTile: @unchecked Sendable {
    static let size = 128
    static let mask = size - 1
    /// Allocated once per tile and never freed: the two tiles live as long as the process.
    private let values: UnsafeMutablePointer<Float>

    /// Dither offsets, uniform in [−0.4995, 0.4995]: a whole number never moves.
    static let dither = NoiseTile(seed: 0x5EED_D17E, alpha: true)
    /// Grain in [−0.5, 0.5] of the grain amplitude; alpha untouched.
    static let grain = NoiseTile(seed: 0x06A1_4E55, alpha: false)

    private init(seed: UInt64, alpha: Bool) {
        var state = seed
        func next() -> Float {
            // SplitMix64: deterministic, and good enough for noise nobody should see.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Float(z >> 40) / Float(1 << 24) * 0.999 - 0.4995
        }
        let values = UnsafeMutablePointer<Float>.allocate(capacity: NoiseTile.size * NoiseTile.size * 4)
        for pixel in 0..<(NoiseTile.size * NoiseTile.size) {
            let shared = next()
            values[pixel * 4] = shared
            values[pixel * 4 + 1] = shared
            values[pixel * 4 + 2] = shared
            values[pixel * 4 + 3] = alpha ? next() : 0
        }
        self.values = values
    }

    /// The tile's row for image row y (the tile repeats).
    func row(_ y: Int) -> UnsafePointer<Float> {
        UnsafePointer(values + (y & NoiseTile.mask) * NoiseTile.size * 4)
    }
}
