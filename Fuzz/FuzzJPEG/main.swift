import FuzzDriver
import Glibc
import ImageCodecs

/// JPEG bytes through the whole decode (header, markers, ICC, EXIF, pixels, orientation). Strict first; what
/// strict refuses as corrupt is decoded again leniently, the path that keeps partial pixels. The scale comes
/// from the length, so every denominator is reached without spending input bytes on it. 4 megapixels at most:
/// enough for every decoder path, small enough that the fuzzer does not chase huge allocations.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard ImageFormat(sniffing: bytes) == .jpeg else { return 0 }
    let maxPixels = 4_000_000
    let scale = [1, 2, 4, 8][bytes.count % 4]
    _ = try? ImageDecoder.inspect(bytes, maxPixels: maxPixels)
    do {
        _ = try ImageDecoder.decode(bytes, options: DecodeOptions(maxPixels: maxPixels, scaleDenominator: scale))
    } catch CodecError.corrupt {
        _ = try? ImageDecoder.decode(
            bytes, options: DecodeOptions(maxPixels: maxPixels, scaleDenominator: scale, isLenient: true))
    } catch {}
    return 0
}

// SwiftPM links this top-level code as main; it hands the callback to libFuzzer (see fuzz_driver.h).
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzJPEG))
