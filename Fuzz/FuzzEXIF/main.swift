import FuzzDriver
import Glibc
import ImageCodecs

/// Any bytes as an EXIF block (with or without the "Exif\0\0" prefix).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzEXIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = EXIFReader.orientation(in: Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

// SwiftPM links this top-level code as main; it hands the callback to libFuzzer (see fuzz_driver.h).
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzEXIF))
