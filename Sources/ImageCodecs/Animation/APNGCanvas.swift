import CCodecShim
import Compositor

/// IHDR, as far as the animation reader needs it.
struct PNGHeader {
    var width: Int
    var height: Int
    /// Samples per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA.
    var channels: Int

    init(_ data: ArraySlice<UInt8>) throws(CodecError) {
        guard data.count == 13 else { throw .corrupt("IHDR is \(data.count) bytes, not 13") }
        let start = data.startIndex
        width = Int(data.bigEndianUInt32(at: start))
        height = Int(data.bigEndianUInt32(at: start + 4))
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw .corrupt("IHDR size \(width)x\(height)")
        }
        let depth = data[start + 8]
        let colorType = data[start + 9]
        guard data[start + 10] == 0, data[start + 11] == 0 else {
            throw .corrupt("unknown compression or filter method")
        }
        switch colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: throw .unsupported("colour type \(colorType) in the animation reader")
        }
        guard depth == 8 else { throw .unsupported("\(depth)-bit samples in the animation reader") }
        guard data[start + 12] == 0 else { throw .unsupported("interlaced frames in the animation reader") }
    }
}

/// One fcTL chunk: a frame's rectangle, delay and how it is drawn and then disposed of.
struct FrameControl {
    var sequence: UInt32
    var width: Int
    var height: Int
    var x: Int
    var y: Int
    var delaySeconds: Double
    /// 0 none, 1 clear to transparent black, 2 restore what was there before.
    var dispose: UInt8
    /// 0 source (replace), 1 over.
    var blend: UInt8

    static func wholeCanvas(_ header: PNGHeader) -> FrameControl {
        FrameControl(
            sequence: 0, width: header.width, height: header.height, x: 0, y: 0, delaySeconds: 0, dispose: 0,
            blend: 0)
    }

    private init(
        sequence: UInt32, width: Int, height: Int, x: Int, y: Int, delaySeconds: Double, dispose: UInt8,
        blend: UInt8
    ) {
        (self.sequence, self.width, self.height, self.x, self.y) = (sequence, width, height, x, y)
        (self.delaySeconds, self.dispose, self.blend) = (delaySeconds, dispose, blend)
    }

    init(_ data: ArraySlice<UInt8>, canvas: PNGHeader) throws(CodecError) {
        guard data.count == 26 else { throw .corrupt("fcTL is \(data.count) bytes, not 26") }
        let start = data.startIndex
        sequence = data.bigEndianUInt32(at: start)
        width = Int(data.bigEndianUInt32(at: start + 4))
        height = Int(data.bigEndianUInt32(at: start + 8))
        x = Int(data.bigEndianUInt32(at: start + 12))
        y = Int(data.bigEndianUInt32(at: start + 16))
        // Each value is below 2^32, so the sums cannot overflow an Int.
        guard width >= 1, height >= 1, x + width <= canvas.width, y + height <= canvas.height else {
            throw .corrupt(
                "a \(width)x\(height) frame at (\(x), \(y)) is not inside the \(canvas.width)x\(canvas.height) canvas")
        }
        let numerator = data.bigEndianUInt16(at: start + 20)
        let denominator = data.bigEndianUInt16(at: start + 22)
        delaySeconds = Double(numerator) / Double(denominator == 0 ? 100 : denominator)
        dispose = data[start + 24]
        blend = data[start + 25]
        guard dispose <= 2, blend <= 1 else { throw .corrupt("fcTL dispose op \(dispose), blend op \(blend)") }
    }
}

/// The picture an APNG builds up frame by frame, premultiplied like every image here.
final class APNGCanvas {
    let header: PNGHeader
    private let pixels: Image
    /// What a frame with dispose op "previous" covered before it was drawn.
    private var saved: Image?
    private var isFirstFrame = true

    init(_ header: PNGHeader) throws(CodecError) {
        self.header = header
        pixels = try APNGCanvas.allocate(width: header.width, height: header.height)
    }

    /// Inflates, unfilters and draws one frame's data onto the canvas.
    func draw(_ control: FrameControl, data: [UInt8]) throws(CodecError) {
        let frame = try decodeRectangle(data, width: control.width, height: control.height)
        let target = pixels.region(x: control.x, y: control.y, width: control.width, height: control.height)
        if control.dispose == 2 && !isFirstFrame {
            saved = target.copy()
        }
        if control.blend == 0 {
            target.copyPixels(from: frame)
        } else {
            for row in 0..<control.height {
                let source = frame.row(row)
                let destination = target.row(row)
                for i in 0..<(control.width * 4) {
                    // Premultiplied over: s + d·(1 − αs), rounded as the PNG reader's premultiply rounds.
                    let alpha = source[(i & ~3) + 3]
                    let product = UInt32(destination[i]) * UInt32(255 - alpha) + 128
                    destination[i] = UInt8(min(255, UInt32(source[i]) + ((product + (product >> 8)) >> 8)))
                }
            }
        }
    }

    /// The canvas as it shows now, as a new image.
    func snapshot() throws(CodecError) -> Image {
        let copy = try APNGCanvas.allocate(width: header.width, height: header.height)
        copy.copyPixels(from: pixels)
        return copy
    }

    /// After a frame has shown: clear its rectangle, restore it, or leave it. "Previous" on the first frame
    /// means clear, as the specification says.
    func dispose(_ control: FrameControl) {
        let target = pixels.region(x: control.x, y: control.y, width: control.width, height: control.height)
        if control.dispose == 1 || (control.dispose == 2 && isFirstFrame) {
            for row in 0..<control.height { target.row(row).update(repeating: 0, count: control.width * 4) }
        } else if control.dispose == 2, let saved {
            target.copyPixels(from: saved)
        }
        saved = nil
        isFirstFrame = false
    }

    private func decodeRectangle(_ data: [UInt8], width: Int, height: Int) throws(CodecError) -> Image {
        let channels = header.channels
        let rowBytes = width * channels
        let expected = (rowBytes + 1) * height
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ok = data.withUnsafeBufferPointer { bt_zlib_inflate($0.baseAddress, $0.count, expected, &output, &length) }
        defer { bt_free(output) }
        guard ok != 0, let output, length == expected else {
            throw .corrupt("a \(width)x\(height) frame's data does not inflate to its \(expected) bytes")
        }
        let image = try APNGCanvas.allocate(width: width, height: height)
        var above: UnsafeMutablePointer<UInt8>?
        for y in 0..<height {
            let line = output + y * (rowBytes + 1)
            try PNGFilter.unfilter(line + 1, above: above, count: rowBytes, bytesPerPixel: channels, type: line[0])
            above = line + 1
            let row = image.row(y)
            for x in 0..<width {
                let p = line + 1 + x * channels
                let (grey, alpha) = (p[0], channels == 2 ? p[1] : channels == 4 ? p[3] : 255)
                let colour = channels >= 3 ? (p[0], p[1], p[2]) : (grey, grey, grey)
                row[x * 4] = colour.0
                row[x * 4 + 1] = colour.1
                row[x * 4 + 2] = colour.2
                row[x * 4 + 3] = alpha
            }
        }
        image.premultiplyInPlace()
        return image
    }

    private static func allocate(width: Int, height: Int) throws(CodecError) -> Image {
        do {
            return try Image(checkedWidth: width, height: height)
        } catch {
            throw .outOfMemory("a \(width)x\(height) animation frame")
        }
    }
}

/// PNG's five row filters, undone in place.
enum PNGFilter {
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, above: UnsafePointer<UInt8>?, count: Int, bytesPerPixel bpp: Int,
        type: UInt8
    ) throws(CodecError) {
        switch type {
        case 0: return
        case 1:
            for i in bpp..<max(count, bpp) { row[i] &+= row[i - bpp] }
        case 2:
            guard let above else { return }
            for i in 0..<count { row[i] &+= above[i] }
        case 3:
            for i in 0..<count {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let b = above.map { Int($0[i]) } ?? 0
                row[i] &+= UInt8((a + b) >> 1)
            }
        case 4:
            for i in 0..<count {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let b = above.map { Int($0[i]) } ?? 0
                let c = i >= bpp ? above.map { Int($0[i - bpp]) } ?? 0 : 0
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                row[i] &+= UInt8(pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
            }
        default:
            throw .corrupt("row filter type \(type)")
        }
    }
}
