#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The styles whose edge between the photos is soft: smoothleft/right, circleopen/close, radial. Each gives
/// every pixel the new photo's share, smoothstep(0, 1, s) or its complement, for a field s of position and P
/// (xfade's formulas, in Float as xfade computes them); the shares are rounded to 1/256 and mixed in fixed point.
extension TransitionFrame {
    /// Pixels per run of shares: the run's shares stay in L1 between the two loops.
    static let softEdgeRun = 128

    func softEdge(_ style: PhotoTransition.Style) {
        let field = SoftEdgeField(style: style, width: width, height: height, progress: Float(xfade))
        let width = self.width
        forEachRow { y in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: TransitionFrame.softEdgeRun) { shares in
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

/// The new photo's share at each pixel, in 1/256, for one soft-edged style at one progress.
struct SoftEdgeField {
    enum Kind { case left, right, circle(open: Bool), radial }
    let kind: Kind
    let width: Float
    /// xfade's centre: the halves of the size in integers.
    let centreX: Int
    let centreY: Int
    /// circle: 1 / hypot(W/2, H/2); others unused.
    let inverseRadius: Float
    /// The field's offset for this progress.
    let offset: Float

    init(style: PhotoTransition.Style, width: Int, height: Int, progress: Float) {
        self.width = Float(width)
        centreX = width / 2
        centreY = height / 2
        let radius = (Float(centreX) * Float(centreX) + Float(centreY) * Float(centreY)).squareRoot()
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
    func shares(x: Int, y: Int, count: Int, into shares: UnsafeMutablePointer<UInt16>) {
        for i in 0..<count {
            let column = x + i
            let share: Float
            switch kind {
            case .left:
                share = smoothstep(0, 1, Float(column) / width + offset)
            case .right:
                share = smoothstep(0, 1, (width - 1 - Float(column)) / width + offset)
            case .circle(let open):
                let dx = Float(column - centreX)
                let dy = Float(y - centreY)
                let s = smoothstep(0, 1, (dx * dx + dy * dy).squareRoot() * inverseRadius + offset)
                share = open ? 1 - s : s
            case .radial:
                share = smoothstep(0, 1, atan2f(Float(column - centreX), Float(y - centreY)) + offset)
            }
            shares[i] = UInt16(share * 256 + 0.5)
        }
    }
}
