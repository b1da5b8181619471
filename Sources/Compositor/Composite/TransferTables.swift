/// The sRGB transfer functions as tables with linear interpolation, for the linear working space: 4096
/// intervals keep both directions within 0.01 LSB of the exact curves (CompositeTests measures it), at a
/// fraction of `powf`'s cost.
struct TransferTable: @unchecked Sendable {
    static let intervals = 4096
    /// `intervals + 2` values: one past the end, so interpolating at exactly 1 reads no further.
    private let values: UnsafeMutablePointer<Float>

    static let linearFromSRGB = TransferTable(ReferenceCompositing.linearFromSRGB)
    static let srgbFromLinear = TransferTable(ReferenceCompositing.srgbFromLinear)

    /// Built once per direction and kept for the life of the process.
    private init(_ function: (Float) -> Float) {
        values = .allocate(capacity: TransferTable.intervals + 2)
        for i in 0...TransferTable.intervals {
            values[i] = function(Float(Double(i) / Double(TransferTable.intervals)))
        }
        values[TransferTable.intervals + 1] = values[TransferTable.intervals]
    }

    @inline(__always)
    func callAsFunction(_ v: Float) -> Float {
        let x = min(max(v, 0), 1) * Float(TransferTable.intervals)
        let i = Int(x)
        let t = x - Float(i)
        return values[i] + (values[i + 1] - values[i]) * t
    }

    /// The straight colours of 16 premultiplied pixels mapped through the table, premultiplied again.
    @inline(__always)
    func convert(_ p: inout Planar16) {
        var red = p.red.dividedOrZero(by: p.alpha)
        var green = p.green.dividedOrZero(by: p.alpha)
        var blue = p.blue.dividedOrZero(by: p.alpha)
        for i in 0..<16 {
            red[i] = self(red[i])
            green[i] = self(green[i])
            blue[i] = self(blue[i])
        }
        p = Planar16(red: red * p.alpha, green: green * p.alpha, blue: blue * p.alpha, alpha: p.alpha)
    }
}
