/// Premultiplied RGBA in Float (0...255 scale), tightly packed: the working format between a blur and
/// whatever quantises its result. Owned by the blur that made it; never shared across threads for writing.
struct FloatImage {
    let width: Int
    let height: Int
    var samples: [Float]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        samples = [Float](repeating: 0, count: width * height * 4)
    }
}

/// A blurred image produced row by row, so that later stages (tint, dither, quantisation) see Float values
/// and the whole result never needs to exist at full resolution in Float.
public protocol BlurredRows: Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The minimum scratch (in Floats) that `fillRow` needs.
    var scratchCount: Int { get }
    /// Writes row `y` as `width * 4` premultiplied Floats on the 0...255 scale.
    func fillRow(_ y: Int, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>)
}
