import CCodecShim
import Compositor
import Dispatch

/// One encoded APNG frame: the rectangle it replaces on the canvas and its zlib stream. Its sequence numbers
/// are assigned when the file is assembled, so frames can be encoded in any order, on any thread.
public struct AnimatedPNGFrame: Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// How long the frame shows.
    public var delay: FrameDelay
    /// The filtered rows of the rectangle, deflated: what the frame's IDAT or fdAT chunks carry.
    public var data: [UInt8]
    /// Drawn over the canvas (blend op over) rather than replacing it: an opaque animation's later frames carry
    /// their unchanged pixels as transparent, which deflate turns into almost nothing.
    public var blendsOver = false
}

/// Writes animated PNGs (APNG, PNG third edition). Frames after the first cover just the bounding box of what
/// changed since the frame before, so the file is exact: frame k of the file is frame k of the animation,
/// identical frames included (each is a 1×1 rectangle). In an opaque animation the box's unchanged pixels are
/// written transparent and the frame is drawn over the canvas (blend op over: an opaque pixel replaces, a
/// transparent one keeps): when a panel slides, most of its box is the same photo as before, and runs of
/// zeros cost deflate next to nothing (the review entrance: 4.4 MB instead of 13.6 MB at level 6). A
/// translucent animation replaces its boxes (blend op source), since over would mix its pixels.
public struct AnimatedPNGEncoder: Sendable {
    public let width: Int
    public let height: Int
    public let frameDelay: FrameDelay
    /// Plays of the whole animation; 0 means forever.
    public let loopCount: Int
    /// Every frame is opaque: later frames then carry unchanged pixels as transparent (see above). Alpha is
    /// dropped from the frames, so a translucent pixel shows as its picture over black.
    public let opaque: Bool
    /// 0...9: 0 stores, 1 deflates with igzip in bands, 2...9 with libdeflate at that level (`bt_png_frame.c`).
    public let compressionLevel: Int
    /// Threads each frame's filtering and deflating may use (bands of rows, the same bytes for any count).
    public let threads: Int

    /// - Precondition: width and height in 1...2^31 - 1, loopCount in 0...2^32 - 1.
    public init(
        width: Int, height: Int, frameDelay: FrameDelay, loopCount: Int = 0,
        opaque: Bool, compressionLevel: Int = 6, threads: Int = 1
    ) {
        precondition(
            (1...Int(Int32.max)).contains(width) && (1...Int(Int32.max)).contains(height),
            "APNG sizes are 1...2^31 - 1")
        precondition((0...Int(UInt32.max)).contains(loopCount), "APNG loop counts are 0...2^32 - 1")
        self.width = width
        self.height = height
        self.frameDelay = frameDelay
        self.loopCount = loopCount
        self.opaque = opaque
        self.compressionLevel = min(max(compressionLevel, 0), 9)
        self.threads = max(threads, 1)
    }

    /// One frame's chunks' payload, diffed against the previous frame's pixels (nil for frame 0). Pure: may be
    /// called for different frames on several threads at once.
    /// - Throws: `CodecError.encodingFailed` when a frame's size is not the animation's, `.outOfMemory`.
    public func encodeFrame(_ frame: Image, previous: Image?) throws(CodecError) -> AnimatedPNGFrame {
        try encodeFrame(frame, previous: previous, changesWithin: PixelBox(x: 0, y: 0, width: width, height: height))
    }

    /// `encodeFrame(_:previous:)` for a caller that knows the two frames hold the same pixels outside `bound`
    /// (nil: everywhere), as the animation renderer does: only that box is compared.
    package func encodeFrame(_ frame: Image, previous: Image?, changesWithin bound: PixelBox?)
        throws(CodecError) -> AnimatedPNGFrame
    {
        try checkSize(of: frame)
        var box = (x: 0, y: 0, width: width, height: height)
        if let previous {
            try checkSize(of: previous)
            let unchanged = (x: 0, y: 0, width: 1, height: 1)
            box = bound.flatMap { ChangedRegion.boundingBox(of: frame, since: previous, within: $0) } ?? unchanged
        }
        let region = frame.region(x: box.x, y: box.y, width: box.width, height: box.height)
        let blendsOver = opaque && previous != nil
        let pixels: Image
        if blendsOver, let previous {
            pixels = try changedPixels(
                of: region, since: previous.region(x: box.x, y: box.y, width: box.width, height: box.height))
        } else {
            // Opaque premultiplied pixels are already straight (the shim writes their alpha as 255, dropping
            // it as the doc says); translucent frames are un-premultiplied as the PNG encoder does.
            pixels = opaque ? region : try straightCopy(of: region)
        }
        let channels = 4
        var input = bt_png_frame_input(
            pixels: pixels.baseAddress, bytes_per_row: pixels.bytesPerRow, width: Int32(box.width),
            height: Int32(box.height), channels: Int32(channels), level: Int32(compressionLevel),
            band_rows: bt_png_band_rows(Int32(box.width), Int32(channels)), threads: Int32(clamping: threads),
            opaque_alpha: opaque && !blendsOver ? 1 : 0, deflater: Int32(BT_DEFLATER_BY_DATA), check_opaque: 0)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: Int(BT_MESSAGE_LENGTH))
        let status = withExtendedLifetime(pixels) { bt_png_frame_encode(&input, &output, &length, &message) }
        guard status == 0, let output else {
            throw .encodingFailed(message.withUnsafeBytes(shimMessage))
        }
        defer { bt_free(output) }
        return AnimatedPNGFrame(
            x: box.x, y: box.y, width: box.width, height: box.height, delay: frameDelay,
            data: [UInt8](UnsafeBufferPointer(start: output, count: length)), blendsOver: blendsOver)
    }

    /// The whole file from the frames in order (sequence numbers assigned here).
    /// - Precondition: at least one frame, the first covering the whole canvas (as `encodeFrame` makes it
    ///   with no previous frame), every frame inside the canvas.
    public func assemble(_ frames: [AnimatedPNGFrame]) -> [UInt8] {
        precondition(!frames.isEmpty, "an APNG has at least one frame")
        // An array in memory cannot hold 2^32 frames, so the count always fits acTL's 32 bits.
        var file = header(frameCount: UInt32(frames.count))
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() { file += chunks(of: frame, index: index, sequence: &sequence) }
        return file + trailer
    }

    /// An animated PNG of `frameCount` frames written frame by frame (see `AnimatedPNGStream`).
    /// - Throws: `CodecError.limitExceeded` for a count outside 1...2^32 − 1, which acTL cannot hold.
    public func stream(frameCount: Int) throws(CodecError) -> AnimatedPNGStream {
        try AnimatedPNGStream(self, frameCount: frameCount)
    }

    /// The file's start: the signature, IHDR, sRGB and acTL.
    func header(frameCount: UInt32) -> [UInt8] {
        var file = PNGChunkWriter(reservingCapacity: 128)
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]
        file.append("IHDR", header)
        file.append("sRGB", [0])  // the pixels are sRGB (perceptual intent), as the still encoder says
        var control: [UInt8] = []
        control.appendBigEndian(frameCount)
        control.appendBigEndian(UInt32(loopCount))
        file.append("acTL", control)
        return file.bytes
    }

    /// Frame `index`'s chunks: its fcTL, then IDAT (frame 0) or fdAT chunks, numbered from `sequence` on.
    /// - Precondition: frame 0 covers the whole canvas; every frame lies inside it (`isPlaceable`).
    func chunks(of frame: AnimatedPNGFrame, index: Int, sequence: inout UInt32) -> [UInt8] {
        precondition(isPlaceable(frame, index: index), "the first APNG frame covers the canvas; every one lies in it")
        var file = PNGChunkWriter(reservingCapacity: frame.data.count + 128, signature: false)
        var fcTL: [UInt8] = []
        fcTL.appendBigEndian(sequence)
        for value in [frame.width, frame.height, frame.x, frame.y] { fcTL.appendBigEndian(UInt32(value)) }
        fcTL.appendBigEndian(frame.delay.numerator)
        fcTL.appendBigEndian(frame.delay.denominator)
        // Dispose none; blend source (the rectangle's pixels replace the canvas's) or over.
        fcTL += [0, frame.blendsOver ? 1 : 0]
        file.append("fcTL", fcTL)
        sequence += 1
        for start in stride(from: 0, to: frame.data.count, by: AnimatedPNGEncoder.chunkBytes) {
            let piece = frame.data[start..<min(start + AnimatedPNGEncoder.chunkBytes, frame.data.count)]
            if index == 0 {
                file.append("IDAT", piece)  // frame 0 is also the still image readers without APNG show
            } else {
                var fdAT: [UInt8] = []
                fdAT.reserveCapacity(piece.count + 4)
                fdAT.appendBigEndian(sequence)
                fdAT += piece
                file.append("fdAT", fdAT)
                sequence += 1
            }
        }
        return file.bytes
    }

    /// Whether `frame` may be frame `index`: the first covers the whole canvas, every one lies inside it.
    func isPlaceable(_ frame: AnimatedPNGFrame, index: Int) -> Bool {
        let inside = frame.x >= 0 && frame.y >= 0 && frame.width >= 1 && frame.height >= 1
            && frame.x <= width - frame.width && frame.y <= height - frame.height
        return inside && (index > 0 || (frame.x == 0 && frame.y == 0 && frame.width == width && frame.height == height))
    }

    /// The file's end: IEND.
    var trailer: [UInt8] {
        var file = PNGChunkWriter(reservingCapacity: 12, signature: false)
        file.append("IEND", [])
        return file.bytes
    }

    /// Data chunks are cut at 1 MiB: any size to 2^31 - 1 is valid, and this costs 12 bytes per MiB.
    static let chunkBytes = 1 << 20

    private func checkSize(of frame: Image) throws(CodecError) {
        guard frame.width == width, frame.height == height else {
            throw .encodingFailed("a \(frame.width)x\(frame.height) frame in a \(width)x\(height) animation")
        }
    }

    /// The region's pixels where they differ from `previous` (forced opaque), transparent zeros where not.
    private func changedPixels(of region: Image, since previous: Image) throws(CodecError) -> Image {
        let copy: Image
        do {  // every pixel is written below: no clearing first
            copy = try Image(checkedUninitializedWidth: region.width, height: region.height)
        } catch {
            throw .outOfMemory("a \(region.width)x\(region.height) frame's copy")
        }
        for y in 0..<region.height {
            let (source, before, target) = (region.row(y), previous.row(y), copy.row(y))
            for x in 0..<region.width {
                let offset = x * 4
                let pixel = UnsafeRawPointer(source).loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let old = UnsafeRawPointer(before).loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let value = pixel == old ? 0 : pixel | AnimatedPNGEncoder.opaqueAlpha
                UnsafeMutableRawPointer(target).storeBytes(of: value, toByteOffset: offset, as: UInt32.self)
            }
        }
        return copy
    }

    /// The alpha byte of an RGBA pixel loaded as a little- or big-endian word.
    private static let opaqueAlpha: UInt32 = 1.littleEndian == 1 ? 0xFF00_0000 : 0x0000_00FF

    private func straightCopy(of region: Image) throws(CodecError) -> Image {
        let copy: Image
        do {  // every pixel is written below: no clearing first
            copy = try Image(checkedUninitializedWidth: region.width, height: region.height)
        } catch {
            throw .outOfMemory("a \(region.width)x\(region.height) frame's straight-alpha copy")
        }
        let bands = min(threads, max(1, region.height / 64))
        let box = UncheckedBox((region, copy))
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let (region, copy) = box.value
            let rows = (region.height * band / bands)..<(region.height * (band + 1) / bands)
            region.region(x: 0, y: rows.lowerBound, width: region.width, height: rows.count)
                .writeStraightRGBA(to: copy.row(rows.lowerBound), bytesPerRow: copy.bytesPerRow)
        }
        return copy
    }
}

/// Images shared across concurrentPerform's iterations, each writing rows of its own.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
