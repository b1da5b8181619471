import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// The fast (pyramid) route against a float64 Gaussian on a real photo, σ 10 to 200. A full float64 blur at
/// σ 200 would take minutes in a debug build, so the reference is computed exactly at a grid of sampled
/// output pixels (32×32, borders included): each is a float64 sum over every source pixel its kernel reaches.
final class FastBlurAccuracyTests: XCTestCase {
    private func photo() throws -> Image {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("coffee.jpg"))))
        return try ImageDecoder.decode(bytes).image
    }

    /// Float64 weights of the kernel, truncated at 4σ and normalised, as the reference defines it.
    private func weights(_ sigma: Double) -> [Double] {
        let radius = Int((4 * sigma).rounded(.up))
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// Reference values (channel c) at the sampled columns × rows.
    private func reference(_ image: Image, sigma: Double, edge: EdgeMode, columns: [Int], rows: [Int]) -> [[[Double]]] {
        let w = weights(sigma)
        let radius = w.count / 2
        // Horizontal pass, only at the sampled columns, for every source row.
        var horizontal = [[[Double]]](repeating: [], count: image.height)
        for y in 0..<image.height {
            let row = image.row(y)
            horizontal[y] = columns.map { x in
                var sum = [Double](repeating: 0, count: 4)
                for k in -radius...radius {
                    let sx = edge.sourceIndex(x + k, count: image.width)
                    guard sx >= 0 else { continue }
                    for c in 0..<4 { sum[c] += w[k + radius] * Double(row[sx * 4 + c]) }
                }
                return sum
            }
        }
        return rows.map { y in
            (0..<columns.count).map { i in
                var sum = [Double](repeating: 0, count: 4)
                for k in -radius...radius {
                    let sy = edge.sourceIndex(y + k, count: image.height)
                    guard sy >= 0 else { continue }
                    for c in 0..<4 { sum[c] += w[k + radius] * horizontal[sy][i][c] }
                }
                return sum
            }
        }
    }

    func testPyramidIsWithin58dBOfAFloat64GaussianOnARealPhoto() throws {
        let image = try photo()
        let columns = (0..<32).map { $0 * (image.width - 1) / 31 }  // edges included
        let rows = (0..<32).map { $0 * (image.height - 1) / 31 }
        for sigma in [10.0, 50, 200] {
            for edge in [EdgeMode.mirror, .clamp] {
                let fast = GaussianBlur(sigma: sigma, edgeMode: edge, precision: .fast).apply(to: image)
                let expected = reference(image, sigma: sigma, edge: edge, columns: columns, rows: rows)
                var squared = 0.0
                var maxError = 0.0
                for (j, y) in rows.enumerated() {
                    for (i, x) in columns.enumerated() {
                        let p = fast[x, y]
                        for (c, value) in [p.red, p.green, p.blue, p.alpha].enumerated() {
                            let error = abs(Double(value) - expected[j][i][c])
                            squared += error * error
                            maxError = max(maxError, error)
                        }
                    }
                }
                let psnr = 10 * log10(255 * 255 / max(squared / Double(rows.count * columns.count * 4), 1e-12))
                // Measured on these 32×32 samples: PSNR 58.9–59.8 dB, max error 0.94–1.09 LSB (the issue asked for
                // 45 dB); the bounds leave under 1 dB and 0.4 LSB of room, so a real loss of accuracy fails.
                XCTAssertGreaterThanOrEqual(psnr, 58, "σ \(sigma) \(edge)")
                XCTAssertLessThan(maxError, 1.5, "σ \(sigma) \(edge)")
            }
        }
    }
}
