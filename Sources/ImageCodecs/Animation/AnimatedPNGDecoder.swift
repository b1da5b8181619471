import Compositor

/// The frames of an animation, each a whole canvas, with how long each shows.
public struct DecodedAnimation: Sendable {
    /// Premultiplied, each the full canvas as it looks while that frame shows.
    public var frames: [Image]
    /// Seconds per frame.
    public var delays: [Double]
    /// Plays of the whole animation; 0 means forever.
    public var loopCount: Int
}

/// Reads animated PNGs (8-bit grey, grey+alpha, RGB and RGBA; not interlaced): the project's own reader, so
/// the writer can be tested without outside tools. A PNG without acTL is an animation of its one image.
public enum AnimatedPNGDecoder {
    /// - Parameter maxPixels: the most pixels of all returned frames together (canvas × frame count),
    ///   checked against the header and acTL before any frame is decoded.
    /// - Throws: `CodecError` for bytes that are not PNG, a bad CRC, truncation, frames past the canvas or out
    ///   of sequence, sizes over `maxPixels`, or features this reader does not handle; never traps.
    public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(CodecError) -> DecodedAnimation {
        var reader = try PNGChunkReader(bytes)
        var canvas: APNGCanvas?
        var declaredFrames: Int?
        var loopCount = 0
        var sequence: UInt32 = 0
        var pending: (control: FrameControl, data: [UInt8], inIDAT: Bool)?
        var sawIDAT = false
        var output = DecodedAnimation(frames: [], delays: [], loopCount: 0)
        var defaultImageData: [UInt8] = []

        func finishPending() throws(CodecError) {
            guard let frame = pending, let canvas else { return }
            pending = nil
            try canvas.draw(frame.control, data: frame.data)
            output.frames.append(try canvas.snapshot())
            output.delays.append(frame.control.delaySeconds)
            canvas.dispose(frame.control)
        }

        while let chunk = try reader.next() {
            if canvas == nil && chunk.type != "IHDR" { throw .corrupt("the first chunk is \(chunk.type), not IHDR") }
            switch chunk.type {
            case "IHDR":
                guard canvas == nil else { throw .corrupt("a second IHDR chunk") }
                let header = try PNGHeader(chunk.data)
                let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
                guard !overflow, pixels <= maxPixels else {
                    throw .tooManyPixels(width: header.width, height: header.height, limit: maxPixels)
                }
                canvas = try APNGCanvas(header)
            case "acTL":
                guard !sawIDAT, declaredFrames == nil, chunk.data.count == 8 else {
                    throw .corrupt("acTL is repeated, after the image data or not 8 bytes")
                }
                let frames = Int(chunk.data.bigEndianUInt32(at: chunk.data.startIndex))
                loopCount = Int(chunk.data.bigEndianUInt32(at: chunk.data.startIndex + 4))
                guard frames >= 1 else { throw .corrupt("acTL declares no frames") }
                let canvasPixels = canvas!.header.width * canvas!.header.height
                let (total, overflow) = canvasPixels.multipliedReportingOverflow(by: frames)
                guard !overflow, total <= maxPixels else {
                    throw .limitExceeded(
                        "\(frames) frames of \(canvas!.header.width)x\(canvas!.header.height) are more than "
                            + "\(maxPixels) pixels")
                }
                declaredFrames = frames
            case "fcTL":
                guard declaredFrames != nil else { throw .corrupt("fcTL without acTL") }
                let control = try FrameControl(chunk.data, canvas: canvas!.header)
                guard control.sequence == sequence else {
                    throw .corrupt("fcTL has sequence number \(control.sequence), expected \(sequence)")
                }
                sequence += 1
                if sawIDAT {
                    try finishPending()
                } else if pending != nil {
                    throw .corrupt("two fcTL chunks before the image data")
                }
                if output.frames.count + (pending == nil ? 0 : 1) >= declaredFrames! {
                    throw .corrupt("more fcTL chunks than the \(declaredFrames!) frames acTL declares")
                }
                if !sawIDAT {
                    // An fcTL before the image data makes the IDAT frame 0, which must cover the canvas.
                    guard control.x == 0, control.y == 0, control.width == canvas!.header.width,
                        control.height == canvas!.header.height
                    else { throw .corrupt("the frame in IDAT does not cover the whole canvas") }
                }
                pending = (control, [], !sawIDAT)
            case "IDAT":
                if let frame = pending, frame.inIDAT {
                    pending!.data += chunk.data
                } else if declaredFrames == nil || pending == nil {
                    defaultImageData += chunk.data  // a plain PNG, or a still image that is not a frame
                } else {
                    throw .corrupt("IDAT after the first frame's data")
                }
                sawIDAT = true
            case "fdAT":
                guard let frame = pending, !frame.inIDAT, chunk.data.count >= 4 else {
                    throw .corrupt("fdAT without an fcTL for a frame after the first")
                }
                let number = chunk.data.bigEndianUInt32(at: chunk.data.startIndex)
                guard number == sequence else {
                    throw .corrupt("fdAT has sequence number \(number), expected \(sequence)")
                }
                sequence += 1
                pending!.data += chunk.data.dropFirst(4)
            case "IEND":
                guard sawIDAT else { throw .corrupt("IEND before any image data") }
                guard let canvas else { throw .corrupt("no IHDR") }
                try finishPending()
                if declaredFrames == nil {
                    try canvas.draw(.wholeCanvas(canvas.header), data: defaultImageData)
                    return DecodedAnimation(frames: [try canvas.snapshot()], delays: [0], loopCount: 0)
                }
                guard output.frames.count == declaredFrames else {
                    throw .corrupt("acTL declares \(declaredFrames!) frames, the file has \(output.frames.count)")
                }
                output.loopCount = loopCount
                return output
            case "PLTE":
                throw .unsupported("palette PNGs in the animation reader")
            default:
                if chunk.isCritical { throw .unsupported("the critical chunk \(chunk.type)") }
            }
        }
        throw .corrupt("the file ends before IEND")
    }
}
