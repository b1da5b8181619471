import CWebP
import Compositor

/// libwebp's own animation decoder (libwebpdemux), to read back what AnimatedWebPEncoder wrote.
public struct WebPAnimationReader {
    public var frames: [Image] = []
    /// When each frame stops showing, in milliseconds from the start (what WebPAnimDecoderGetNext reports).
    public var endTimestamps: [Int] = []
    public var loopCount = 0

    public init?(_ bytes: [UInt8]) {
        let decoded: Bool = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { return false }
            options.color_mode = MODE_RGBA  // straight alpha
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { return false }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { return false }
            loopCount = Int(info.loop_count)
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else { return false }
                frames.append(
                    Image(
                        straightRGBA: pixels, width: Int(info.canvas_width), height: Int(info.canvas_height),
                        bytesPerRow: Int(info.canvas_width) * 4))
                endTimestamps.append(Int(timestamp))
            }
            return true
        }
        if !decoded { return nil }
    }
}
