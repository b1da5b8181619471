import Compositor
import FuzzDriver
import Glibc

/// Any bytes as SVG path data, parsed up to the first error as SVG renders it, then filled by both rules into a
/// small image through a plain, a scaling and a rotating transform: the parser, the flattener's bounds and the
/// rasteriser's cells on hostile numbers.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (path, _) = Path.parsingSVGPathData(text)
    let image = Image(width: 64, height: 48)
    let transforms = [
        AffineTransform2D.identity, AffineTransform2D(scaleX: 1e6, y: 1e-6),
        AffineTransform2D.identity.rotatedBy(0.7).translatedBy(x: 30, y: -5),
    ]
    for (index, transform) in transforms.enumerated() {
        image.fill(
            path, color: RGBAColor(red: 1, green: 0, blue: 0), rule: index == 1 ? .evenOdd : .nonZero,
            transform: transform, threads: 1)
    }
    return 0
}

var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzPath))
