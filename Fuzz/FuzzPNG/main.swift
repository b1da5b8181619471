import FuzzDriver
import Glibc
import ImageCodecs

/// PNG bytes through the whole decode (chunk walk, iCCP inflate, libpng, premultiply, orientation), strict
/// and then, for corrupt data, lenient. 4 megapixels at most, so the fuzzer does not chase huge allocations.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard ImageFormat(sniffing: bytes) == .png else { return 0 }
    let maxPixels = 4_000_000
    _ = try? ImageDecoder.inspect(bytes, maxPixels: maxPixels)
    do {
        _ = try ImageDecoder.decode(bytes, options: DecodeOptions(maxPixels: maxPixels))
    } catch CodecError.corrupt {
        _ = try? ImageDecoder.decode(bytes, options: DecodeOptions(maxPixels: maxPixels, isLenient: true))
    } catch {}
    return 0
}

// SwiftPM links this top-level code as main; it hands the callback to libFuzzer (see fuzz_driver.h).
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzPNG))
