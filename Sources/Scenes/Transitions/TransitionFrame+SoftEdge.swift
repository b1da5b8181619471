import Compositor

/// The styles whose edge between the photos is soft: smoothleft/right, circleopen/close, radial. Each gives
/// every pixel the new photo's share, smoothstep(0, 1, s) or its complement, for a field s of position and P
/// (xfade's formulas, in Float as xfade computes them; radial's atan2 a polynomial within 1e-5 rad of it); the
/// shares are rounded to 1/256 and mixed in fixed point.
extension TransitionFrame {
    /// Pixels per run of shares: the run's shares stay in L1 between the two loops.
    static let softEdgeRun = 128

    func softEdge(_ style: PhotoTransition.Style) {
        let field = SoftEdgeField(style: style, width: width, height: height, progress: Float(xfade))
        let width = self.width
        forEachRow { y in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: TransitionFrame.softEdgeRun) { shares in
                let shares = shares.baseAddress!
                var x = 0
                while x < width {
                    let count = min(TransitionFrame.softEdgeRun, width - x)
                    field.shares(x: x, y: y, count: count, into: shares)
                    TransitionKernels.mix(
                        from.row(y) + x * 4, to.row(y) + x * 4, weights: shares, into: target.row(y) + x * 4,
                        count: count)
                    x += count
                }
            }
        }
    }
}

/// The new photo's share at each pixel, in 1/256, for one soft-edged style at one progress: 16 pixels at a time
/// in SIMD, and a scalar twin (the run's tail, and the tests' reference) doing the same Float
/// operations in the same order, so both round to the same shares.
struct SoftEdgeField {
    enum Kind { case left, right, circle(open: Bool), radial }
    let kind: Kind
    let width: Float
    /// xfade's centre: the halves of the size in integers.
    let centreX: Float
    let centreY: Int
    /// circle: 1 / hypot(W/2, H/2); others unused.
    let inverseRadius: Float
    /// The field's offset for this progress.
    let offset: Float

    init(style: PhotoTransition.Style, width: Int, height: Int, progress: Float) {
        self.width = Float(width)
        centreX = Float(width / 2)
        centreY = height / 2
        let radius = (centreX * centreX + Float(centreY) * Float(centreY)).squareRoot()
        inverseRadius = radius > 0 ? 1 / radius : 0  // a 1×1 image: every pixel at the centre
        switch style {
        case .smoothleft:
            kind = .left
            offset = 1 - progress * 2
        case .smoothright:
            kind = .right
            offset = 1 - progress * 2
        case .circleopen:
            kind = .circle(open: true)
            offset = (progress - 0.5) * 3
        case .circleclose:
            kind = .circle(open: false)
            offset = (0.5 - progress) * 3
        default:
            kind = .radial
            offset = -(progress - 0.5) * (Float.pi * 2.5)
        }
    }

    /// Shares of pixels x..<x + count of row y.
    func shares(x: Int, y: Int, count: Int, into shares: UnsafeMutablePointer<UInt32>) {
        var i = 0
        while i + 16 <= count {
            UnsafeMutableRawPointer(shares + i).storeBytes(of: vectorShares(x: x + i, y: y), as: SIMD16<UInt32>.self)
            i += 16
        }
        while i < count {
            shares[i] = share(x: x + i, y: y)
            i += 1
        }
    }

    private static let lanes = SIMD16<Float>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

    /// Pixels x..<x + 16.
    @inline(__always)
    func vectorShares(x: Int, y: Int) -> SIMD16<UInt32> {
        let columns = SoftEdgeField.lanes + Float(x)
        let s: SIMD16<Float>
        var complement = false
        switch kind {
        case .left:
            s = columns / width + offset
        case .right:
            s = (width - 1 - columns) / width + offset
        case .circle(let open):
            let dx = columns - centreX
            let dy = Float(y) - Float(centreY)
            s = (dx * dx + dy * dy).squareRoot() * inverseRadius + offset
            complement = open
        case .radial:
            s = Arctangent.atan2(columns - centreX, SIMD16(repeating: Float(y) - Float(centreY))) + offset
        }
        // clamp(s, 0, 1) by sign bits (pointwiseMin/Max went lane by lane); s is never NaN.
        var t = Arctangent.select(s, SIMD16(repeating: 0), whereNegative: s)
        t = Arctangent.select(t, SIMD16(repeating: 1), whereNegative: 1 - t)
        var share = t * t * (3 - 2 * t)
        if complement { share = 1 - share }
        // Adding 1.5·2²³ rounds to an integer (to nearest, ties to even) in the low mantissa bits.
        let rounded = share * 256 + 12_582_912
        return unsafeBitCast(rounded, to: SIMD16<UInt32>.self) & 0x3F_FFFF
    }

    /// One pixel's share: `vectorShares`'s operations in its order for one lane.
    func share(x: Int, y: Int) -> UInt32 {
        let column = Float(x)
        let s: Float
        var complement = false
        switch kind {
        case .left:
            s = column / width + offset
        case .right:
            s = (width - 1 - column) / width + offset
        case .circle(let open):
            let dx = column - centreX
            let dy = Float(y) - Float(centreY)
            s = (dx * dx + dy * dy).squareRoot() * inverseRadius + offset
            complement = open
        case .radial:
            s = Arctangent.atan2(column - centreX, Float(y) - Float(centreY)) + offset
        }
        let t = min(max(s, 0), 1)
        var share = t * t * (3 - 2 * t)
        if complement { share = 1 - share }
        return UInt32((share * 256).rounded(.toNearestOrEven))
    }
}
