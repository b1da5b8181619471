import CBlurToolAPI
import Compositor

/// A caller's `blurtool_buffer_t`, checked: the pointer, sizes, stride and alpha are all that the library will
/// touch, so a buffer that passes cannot make a call read or write outside `stride × height` bytes.
struct CallerBuffer {
    /// The library's largest side: far beyond any image that fits in memory, small enough that no product of
    /// two sides and a stride overflows.
    static let maximumSide: Int32 = 1 << 20

    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int
    let height: Int
    let stride: Int
    let isStraight: Bool

    /// The same pixels read and written as premultiplied: for straight-alpha pixels that are all opaque, whose
    /// premultiplied and straight bytes are the same.
    var asPremultiplied: CallerBuffer {
        CallerBuffer(pixels: pixels, width: width, height: height, stride: stride, isStraight: false)
    }

    private init(pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, isStraight: Bool) {
        (self.pixels, self.width, self.height) = (pixels, width, height)
        (self.stride, self.isStraight) = (stride, isStraight)
    }

    init(_ pointer: UnsafePointer<blurtool_buffer_t>?, _ name: String) throws(CallFailure) {
        guard let buffer = pointer?.pointee else { throw .argument(name, "is NULL") }
        guard let pixels = buffer.pixels else { throw .argument("\(name)->pixels", "is NULL") }
        for (side, value) in [("width", buffer.width), ("height", buffer.height)] {
            guard value >= 1, value <= CallerBuffer.maximumSide else {
                throw .argument("\(name)->\(side)", "must be 1 to \(CallerBuffer.maximumSide), not \(value)")
            }
        }
        let rowBytes = Int64(buffer.width) * 4
        guard buffer.stride >= rowBytes, buffer.stride <= Int64(Int32.max) * 4 else {
            throw .argument(
                "\(name)->stride",
                "must be at least width × 4 = \(rowBytes) bytes (and below 8 GiB), not \(buffer.stride)")
        }
        switch buffer.alpha {
        case BLURTOOL_ALPHA_PREMULTIPLIED: isStraight = false
        case BLURTOOL_ALPHA_STRAIGHT: isStraight = true
        default:
            throw .argument(
                "\(name)->alpha", "must be BLURTOOL_ALPHA_PREMULTIPLIED or _STRAIGHT, not \(buffer.alpha.rawValue)")
        }
        self.pixels = pixels
        width = Int(buffer.width)
        height = Int(buffer.height)
        stride = Int(buffer.stride)
    }

    /// The bytes the buffer spans, first to last.
    var byteRange: Range<UInt> {
        let start = UInt(bitPattern: pixels)
        return start..<(start + UInt((height - 1) * stride + width * 4))
    }

    func overlaps(_ other: CallerBuffer) -> Bool { byteRange.overlaps(other.byteRange) }

    var whole: PixelBox { PixelBox(x: 0, y: 0, width: width, height: height) }

    /// The pixels a filter of `region` reads: `reach` around it, clipped to the buffer; all of it for nil (a
    /// wrapped edge reads the far side).
    func window(around region: PixelBox, reach: Int?) -> PixelBox {
        reach.map { region.expanded(by: $0).intersection(whole) } ?? whole
    }

    /// The pixels of `box` seen as an image without copying (as premultiplied, whatever they hold): the
    /// workspace's object for that geometry when there is one, so a renderer's frame loop allocates none.
    func view(_ box: PixelBox, _ workspace: Workspace?) -> Image {
        let first = pixels + box.y * stride + box.x * 4
        return workspace?.borrowedImage(first, width: box.width, height: box.height, bytesPerRow: stride)
            ?? Image(borrowing: first, width: box.width, height: box.height, bytesPerRow: stride)
    }

    /// The pixels of `box` as a premultiplied image: borrowed in place when the buffer is premultiplied, else a
    /// premultiplied copy of that rectangle only.
    func premultiplied(_ box: PixelBox, _ workspace: Workspace? = nil) -> Image {
        let view = view(box, workspace)
        guard isStraight else { return view }
        let copy = view.copy()
        copy.premultiplyInPlace()
        return copy
    }

    /// Writes `image` (premultiplied) at (x, y), converting to straight alpha when the buffer holds that; a
    /// borrowed view of this buffer's own pixels is left as it is.
    func store(_ image: Image, x: Int = 0, y: Int = 0, _ workspace: Workspace? = nil) {
        let target = view(PixelBox(x: x, y: y, width: image.width, height: image.height), workspace)
        if isStraight {
            target.withUnsafeMutableBytes { bytes in
                image.writeStraightRGBA(to: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow: stride)
            }
        } else if target.baseAddress != image.baseAddress {
            target.copyPixels(from: image)
        }
    }
}

/// A `blurtool_rect_t` checked against the buffer it selects from; NULL is the whole buffer.
func region(
    _ pointer: UnsafePointer<blurtool_rect_t>?, in buffer: CallerBuffer, _ name: String
)
    throws(CallFailure) -> PixelBox
{
    guard let rect = pointer?.pointee else { return buffer.whole }
    guard rect.width >= 1, rect.height >= 1, rect.x >= 0, rect.y >= 0,
        Int(rect.x) + Int(rect.width) <= buffer.width, Int(rect.y) + Int(rect.height) <= buffer.height
    else {
        throw .argument(
            name,
            "\(rect.width)x\(rect.height) at (\(rect.x), \(rect.y)) is not a non-empty rectangle inside the "
                + "\(buffer.width)x\(buffer.height) buffer")
    }
    return PixelBox(x: Int(rect.x), y: Int(rect.y), width: Int(rect.width), height: Int(rect.height))
}
