import Compositor
import FuzzDriver
import Glibc
import SceneFormat
import Scenes
import Typesetting

/// Bytes as a scene file, parsed as JSON and read into a `Scene`. Every image path loads a 2x2 stub and every
/// tenth load fails, so the loader's error path is read too; error messages are built, as they quote input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var loads = 0
    var reader = SceneFile(directory: "scenes", maxPixels: 4_000_000, typesetter: FontTypesetter()) { path in
        loads += 1
        if loads % 10 == 0 { throw StubLoadError(path: path) }
        return Image(width: 2, height: 2)
    }
    do {
        _ = try reader.scene(fromJSON: bytes)
    } catch {
        _ = error.description
    }
    return 0
}

struct StubLoadError: Error {
    let path: String
}

// SwiftPM links this top-level code as main; it hands the callback to libFuzzer (see fuzz_driver.h).
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzScene))
