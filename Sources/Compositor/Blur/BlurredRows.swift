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
