import Compositor
import FuzzDriver
import Glibc
import SceneFormat
import Scenes

/// Any bytes as an SVG file: the XML reader (no DTD, entities or external references), the subset's shapes and
/// attributes, then the layers drawn into a small scene within the renderer's limits.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzSVG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let layers = try? SceneFile.svgLayers(Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    let scene = Scene(width: 48, height: 48, layers: [.group(layers, frame: Rect(x: 4, y: 4, width: 40, height: 40))])
    _ = try? SceneRenderer(threads: 1).render(scene)
    return 0
}

var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzSVG))
