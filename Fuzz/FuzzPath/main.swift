import Compositor
import FuzzDriver
import Glibc

/// Any bytes as SVG path data, parsed up to the first error as SVG renders it, then filled by both rules and
/// stroked (a style from the input's last byte) into a small image through a plain, a scaling and a rotating
/// transform, and trimmed by length: the parser, the flattener, the stroker and the rasteriser on hostile numbers.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (path, _) = Path.parsingSVGPathData(text)
    let image = Image(width: 64, height: 48)
    let transforms = [
        AffineTransform2D.identity, AffineTransform2D(scaleX: 1e6, y: 1e-6),
        AffineTransform2D.identity.rotatedBy(0.7).translatedBy(x: 30, y: -5),
    ]
    // Stroke styles from the input's last bytes: widths from hairline to huge, each cap and join, dashes tiny
    // and long.
    let last = size > 0 ? Int(data![size - 1]) : 0
    let widths = [0, 0.5, 3, 1e300]
    var style = StrokeStyle(
        width: widths[last % 4], cap: StrokeStyle.LineCap.allCases[(last / 4) % 3],
        join: StrokeStyle.LineJoin.allCases[(last / 12) % 3], miterLimit: last % 2 == 0 ? 4 : 1e6)
    if last & 0x80 != 0 { style = (try? style.dashed([1e-3, 2, 5], phase: 1.5)) ?? style }
    for (index, transform) in transforms.enumerated() {
        image.fill(
            path, color: RGBAColor(red: 1, green: 0, blue: 0), rule: index == 1 ? .evenOdd : .nonZero,
            transform: transform, threads: 1)
        image.stroke(path, style: style, color: RGBAColor(red: 0, green: 0, blue: 1), transform: transform, threads: 1)
        _ = path.trimmed(to: 0.5, tolerance: 0.01)
    }
    return 0
}

var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzPath))
