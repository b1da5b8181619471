/// An animated PNG written frame by frame, so that a long animation is never held whole: `header` first, then
/// each frame's `chunks(of:)` in order, then `trailer()`. The stream numbers the chunks itself and checks what
/// the format needs: the first frame covers the canvas, every frame lies inside it, no more frames than the
/// header announced, and the trailer only after the last of them.
///
///     var stream = try encoder.stream(frameCount: frames.count)
///     var file = stream.header
///     for frame in encoded { file += try stream.chunks(of: frame) }
///     file += try stream.trailer()
public struct AnimatedPNGStream: Sendable {
    public let encoder: AnimatedPNGEncoder
    /// The frames the header announces.
    public let frameCount: Int
    public private(set) var framesWritten = 0
    /// The next chunk's sequence number (fcTL and fdAT chunks share one count).
    private var sequence: UInt32 = 0

    /// - Throws: `CodecError.limitExceeded` for a count outside 1...2^32 − 1, which acTL cannot hold.
    init(_ encoder: AnimatedPNGEncoder, frameCount: Int) throws(CodecError) {
        guard frameCount >= 1, UInt32(exactly: frameCount) != nil else {
            throw .limitExceeded("an animated PNG holds 1 to \(UInt32.max) frames, not \(frameCount)")
        }
        self.encoder = encoder
        self.frameCount = frameCount
    }

    /// The signature, IHDR, sRGB and acTL.
    public var header: [UInt8] { encoder.header(frameCount: UInt32(frameCount)) }

    /// The next frame's chunks.
    /// - Throws: `CodecError.encodingFailed` for a frame past the announced count, a first frame that does not
    ///   cover the canvas, or a frame outside it.
    public mutating func chunks(of frame: AnimatedPNGFrame) throws(CodecError) -> [UInt8] {
        guard framesWritten < frameCount else {
            throw .encodingFailed("frame \(framesWritten + 1) of an animated PNG announced with \(frameCount)")
        }
        guard encoder.isPlaceable(frame, index: framesWritten) else {
            throw .encodingFailed(
                "frame \(framesWritten) at (\(frame.x), \(frame.y)) sized \(frame.width)x\(frame.height) does not "
                    + (framesWritten == 0 ? "cover" : "fit in") + " the \(encoder.width)x\(encoder.height) canvas")
        }
        defer { framesWritten += 1 }
        return encoder.chunks(of: frame, index: framesWritten, sequence: &sequence)
    }

    /// IEND.
    /// - Throws: `CodecError.encodingFailed` before every announced frame is written (readers would stop at it).
    public func trailer() throws(CodecError) -> [UInt8] {
        guard framesWritten == frameCount else {
            throw .encodingFailed("an animated PNG announced with \(frameCount) frames ends after \(framesWritten)")
        }
        return encoder.trailer
    }
}
