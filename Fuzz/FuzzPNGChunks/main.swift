import FuzzDriver
import Glibc
@testable import ImageCodecs

/// The Swift chunk walk that runs before libpng (IHDR fields, iCCP through the bounded inflate, eXIf, lying
/// lengths) and the ICC header check on the inflated profile, without libpng, so every execution is spent on
/// our own parsing. (`@testable`: the walk is
/// internal; fuzz builds are debug builds, which SwiftPM compiles with testing enabled.)
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPNGChunks(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunks = PNGChunks(bytes)
    _ = chunks.colorTypeName
    _ = chunks.exif.flatMap(EXIFReader.orientation(in:))
    _ = chunks.iccProfile.map(ICCProfileHeader.passThrough)
    return 0
}

// SwiftPM links this top-level code as main; it hands the callback to libFuzzer (see fuzz_driver.h).
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzPNGChunks))
