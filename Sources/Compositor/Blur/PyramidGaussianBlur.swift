#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A large-σ Gaussian whose cost per pixel does not grow with σ: area-average the image down by an integer
/// factor f, blur the small image exactly with σ' = √(σ² − (f² − 1)/12) / f (the box average already
/// contributed variance (f² − 1)/12), and interpolate back up bilinearly.
///
/// Edges: the small grid extends beyond the image by more than the small kernel's radius, and those
/// margins are filled through the edge mode from the full-resolution pixels, so every edge mode behaves
/// as in the exact blur and the small image's own borders never reach the result.
///
/// Error: bilinear interpolation of a signal blurred by σ' small pixels errs by at most about
/// 7.7 / σ'² LSB on a full-range step; f is chosen so that σ' ≥ 5 (about 0.3 LSB). The tests hold the
/// result within a stated PSNR of `ReferenceGaussianBlur`.
public struct PyramidGaussianBlur: BlurredRows {
    public let width: Int
    public let height: Int
    /// The downsampling factor.
    public let factor: Int
    /// The σ of the exact blur applied to the small image, in small pixels.
    public let smallSigma: Double
    private let smallWidth: Int
    private let smallHeight: Int
    private let small: [Float]
    private let columnTaps: [InterpolationTap]
    private let rowTaps: [InterpolationTap]

    /// σ' is kept at or above this many small pixels.
    public static let minimumSmallSigma = 5.0

    /// The factor this route uses for σ; 1 means the pyramid would not shrink anything.
    public static func factor(forSigma sigma: Double) -> Int {
        max(1, Int(sigma / minimumSmallSigma))
    }

    public init(source: Image, sigma: Double, edgeMode: EdgeMode = .mirror) {
        let factor = PyramidGaussianBlur.factor(forSigma: sigma)
        let smallSigma = (max(sigma * sigma - Double(factor * factor - 1) / 12, 0)).squareRoot() / Double(factor)
        let kernel = GaussianKernel(sigma: smallSigma)
        let margin = kernel.radius + 1
        width = source.width
        height = source.height
        self.factor = factor
        self.smallSigma = smallSigma
        smallWidth = 2 * margin + (source.width + factor - 1) / factor
        smallHeight = 2 * margin + (source.height + factor - 1) / factor
        var small = PyramidGaussianBlur.areaAverage(source, factor: factor, margin: margin,
                                                    smallWidth: smallWidth, smallHeight: smallHeight,
                                                    edgeMode: edgeMode)
        PyramidGaussianBlur.blurInPlace(&small, width: smallWidth, height: smallHeight, kernel: kernel)
        self.small = small
        columnTaps = InterpolationTap.taps(count: source.width, factor: factor, margin: margin)
        rowTaps = InterpolationTap.taps(count: source.height, factor: factor, margin: margin)
    }

    public var scratchCount: Int { smallWidth * 4 }

    /// Small pixel (i, j) averages the f×f block of full-resolution pixels starting at
    /// ((i − margin)·f, (j − margin)·f), reading outside the image through the edge mode.
    private static func areaAverage(_ source: Image, factor: Int, margin: Int, smallWidth: Int, smallHeight: Int,
                                    edgeMode: EdgeMode) -> [Float] {
        let origin = -margin * factor
        let columnMap = (0..<(smallWidth * factor)).map { edgeMode.sourceIndex(origin + $0, count: source.width) }
        var small = [Float](repeating: 0, count: smallWidth * smallHeight * 4)
        let scale = 1 / Float(factor * factor)
        var sums = [UInt32](repeating: 0, count: smallWidth * 4)
        small.withUnsafeMutableBufferPointer { small in
            sums.withUnsafeMutableBufferPointer { sums in
                for j in 0..<smallHeight {
                    sums.update(repeating: 0)
                    for dy in 0..<factor {
                        let sourceY = edgeMode.sourceIndex(origin + j * factor + dy, count: source.height)
                        guard sourceY >= 0 else { continue }
                        let row = source.row(sourceY)
                        var column = 0
                        for i in 0..<smallWidth {
                            var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
                            for _ in 0..<factor {
                                let sourceX = columnMap[column]
                                column += 1
                                guard sourceX >= 0 else { continue }
                                let p = row + sourceX * 4
                                r &+= UInt32(p[0])
                                g &+= UInt32(p[1])
                                b &+= UInt32(p[2])
                                a &+= UInt32(p[3])
                            }
                            sums[i * 4] &+= r
                            sums[i * 4 + 1] &+= g
                            sums[i * 4 + 2] &+= b
                            sums[i * 4 + 3] &+= a
                        }
                    }
                    let out = small.baseAddress! + j * smallWidth * 4
                    for i in 0..<(smallWidth * 4) {
                        out[i] = Float(sums[i]) * scale
                    }
                }
            }
        }
        return small
    }

    /// An exact separable blur of the small image; its clamp edges lie outside what is interpolated.
    private static func blurInPlace(_ samples: inout [Float], width: Int, height: Int, kernel: GaussianKernel) {
        let radius = kernel.radius
        let weights = kernel.weights
        var line = [Float](repeating: 0, count: (max(width, height) + 2 * radius) * 4)
        // Horizontal, then vertical: the same 1-D pass over rows and then over columns.
        for (count, lines, step, lineStep) in [(width, height, 4, width * 4), (height, width, width * 4, 4)] {
            for lineIndex in 0..<lines {
                let start = lineIndex * lineStep
                for i in 0..<(count + 2 * radius) {
                    let source = start + min(max(i - radius, 0), count - 1) * step
                    for c in 0..<4 { line[i * 4 + c] = samples[source + c] }
                }
                for x in 0..<count {
                    var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                    for (k, w) in weights.enumerated() {
                        let p = (x + k) * 4
                        sum.0 += w * line[p]
                        sum.1 += w * line[p + 1]
                        sum.2 += w * line[p + 2]
                        sum.3 += w * line[p + 3]
                    }
                    let target = start + x * step
                    samples[target] = sum.0
                    samples[target + 1] = sum.1
                    samples[target + 2] = sum.2
                    samples[target + 3] = sum.3
                }
            }
        }
    }

    public func fillRow(_ y: Int, into destination: UnsafeMutablePointer<Float>,
                        scratch: UnsafeMutablePointer<Float>) {
        let rowTap = rowTaps[y]
        let rowWidth = smallWidth * 4
        small.withUnsafeBufferPointer { small in
            let upper = small.baseAddress! + rowTap.index * rowWidth
            let lower = upper + rowWidth
            let t = rowTap.weight
            for i in 0..<rowWidth {
                scratch[i] = upper[i] + t * (lower[i] - upper[i])
            }
        }
        columnTaps.withUnsafeBufferPointer { taps in
            for x in 0..<width {
                let tap = taps[x]
                let left = scratch + tap.index * 4
                let out = destination + x * 4
                for c in 0..<4 {
                    out[c] = left[c] + tap.weight * (left[c + 4] - left[c])
                }
            }
        }
    }
}

/// Where full-resolution position x falls between two small samples: sample `index` and `index + 1`,
/// mixed with `weight` of the second.
struct InterpolationTap: Sendable {
    let index: Int
    let weight: Float

    /// Small sample i is centred on full-resolution position (i − margin)·f + (f − 1)/2.
    static func taps(count: Int, factor: Int, margin: Int) -> [InterpolationTap] {
        (0..<count).map { x in
            let position = (Double(x) - Double(factor - 1) / 2) / Double(factor) + Double(margin)
            let index = Int(position.rounded(.down))
            return InterpolationTap(index: index, weight: Float(position - Double(index)))
        }
    }
}
