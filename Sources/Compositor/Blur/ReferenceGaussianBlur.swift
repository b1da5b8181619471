/// The exact separable Gaussian, computed directly in Float: horizontal pass over the whole image first,
/// then each output row as a weighted sum of horizontally blurred rows. It is the oracle the fast routes are
/// tested against, and no route uses it: it holds the whole image in Float (16 bytes per pixel) and runs on one
/// thread.
struct ReferenceGaussianBlur: BlurredRows {
    let width: Int
    let height: Int
    let kernel: GaussianKernel
    let edgeMode: EdgeMode
    private let horizontal: [Float]

    init(source: Image, sigma: Double, edgeMode: EdgeMode = .mirror) {
        self.init(source: source, kernel: GaussianKernel(sigma: sigma), edgeMode: edgeMode)
    }

    init(source: Image, kernel: GaussianKernel, edgeMode: EdgeMode) {
        width = source.width
        height = source.height
        self.kernel = kernel
        self.edgeMode = edgeMode
        horizontal = ReferenceGaussianBlur.blurRows(of: source, kernel: kernel, edgeMode: edgeMode)
    }

    var scratchCount: Int { 0 }

    /// Each row blurred horizontally, in Float; rows padded through the edge mode first.
    private static func blurRows(of source: Image, kernel: GaussianKernel, edgeMode: EdgeMode) -> [Float] {
        let width = source.width
        let radius = kernel.radius
        var result = [Float](repeating: 0, count: width * source.height * 4)
        guard width > 0 else { return result }
        let columnMap = (-radius..<(width + radius)).map { edgeMode.sourceIndex($0, count: width) }
        var padded = [Float](repeating: 0, count: (width + 2 * radius) * 4)
        kernel.weights.withUnsafeBufferPointer { weights in
            result.withUnsafeMutableBufferPointer { output in
                padded.withUnsafeMutableBufferPointer { padded in
                    for y in 0..<source.height {
                        let row = source.row(y)
                        for (i, sourceX) in columnMap.enumerated() {
                            for c in 0..<4 {
                                padded[i * 4 + c] = sourceX < 0 ? 0 : Float(row[sourceX * 4 + c])
                            }
                        }
                        let out = output.baseAddress! + y * width * 4
                        for x in 0..<width {
                            var sum: (Float, Float, Float, Float) = (0, 0, 0, 0)
                            for k in 0..<weights.count {
                                let w = weights[k]
                                let p = (x + k) * 4
                                sum.0 += w * padded[p]
                                sum.1 += w * padded[p + 1]
                                sum.2 += w * padded[p + 2]
                                sum.3 += w * padded[p + 3]
                            }
                            out[x * 4] = sum.0
                            out[x * 4 + 1] = sum.1
                            out[x * 4 + 2] = sum.2
                            out[x * 4 + 3] = sum.3
                        }
                    }
                }
            }
        }
        return result
    }

    func fillRow(
        _ y: Int, into destination: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Float>
    ) {
        let count = width * 4
        destination.initialize(repeating: 0, count: count)
        horizontal.withUnsafeBufferPointer { rows in
            for (index, weight) in kernel.weights.enumerated() {
                let sourceY = edgeMode.sourceIndex(y + index - kernel.radius, count: height)
                guard sourceY >= 0 else { continue }
                let source = rows.baseAddress! + sourceY * count
                for i in 0..<count {
                    destination[i] += weight * source[i]
                }
            }
        }
    }
}
