#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One premultiplied RGBA8 pixel, sRGB-encoded: `red`, `green` and `blue` never exceed `alpha`.
public struct Pixel: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let transparent = Pixel(red: 0, green: 0, blue: 0, alpha: 0)

    public var description: String { "(\(red), \(green), \(blue), \(alpha))" }
}

/// Premultiplied RGBA8 pixels in sRGB encoding, with an explicit row stride.
///
/// `Image` has reference semantics, like a `CGContext` or a `vImage_Buffer`: a region made with
/// `region(x:y:width:height:)` shares the pixels of the image it came from, and writing through one is
/// seen through the other. `copy()` makes an independent, tightly packed image.
///
/// Pixel memory is either owned (allocated here, or handed over by a decoder) or borrowed from a caller
/// through `init(borrowing:width:height:bytesPerRow:)`, in which case the caller keeps it alive.
///
/// The pixels are reached through `withUnsafeBytes` and `withUnsafeMutableBytes`, whose pointers are valid
/// inside the closure only (the image, and the memory of the image a region came from, is kept alive for it),
/// or pixel by pixel through the subscript; the package's own kernels use `baseAddress` and `row(_:)`.
///
/// Thread safety: an `Image` may be read from any number of threads at once; writes to the same pixels
/// from several threads need the caller's synchronisation, as with any shared buffer (a region and the image
/// it came from are the same pixels).
public final class Image: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the start of the next; at least `width * 4`.
    public let bytesPerRow: Int
    /// The first byte of the top-left pixel: for the package's kernels, which keep the image alive around its
    /// use; callers outside use the scoped accessors.
    package let baseAddress: UnsafeMutablePointer<UInt8>
    private let storage: PixelStorage?

    public static let bytesPerPixel = 4

    /// Makes an image of the given size filled with one pixel value (transparent by default), or throws where
    /// `init(width:height:fill:)` would trap: for sizes that come from input (a file, a scene, a flag) and
    /// memory that may run out.
    /// - Throws: `PixelMemory.Failure.invalidSize` for a negative size or one whose bytes overflow an Int,
    ///   `.outOfMemory` when the system refuses the memory.
    public convenience init(checkedWidth width: Int, height: Int, fill: Pixel = .transparent)
        throws(PixelMemory.Failure)
    {
        try self.init(checkedUninitializedWidth: width, height: height)
        initializePixels(to: fill)
    }

    /// Allocates as `init(checkedWidth:height:fill:)` does, leaving the pixels to a caller that writes every one
    /// (a frame that starts as a copy of its cached base, say: filling it first would be a wasted pass).
    package init(checkedUninitializedWidth width: Int, height: Int) throws(PixelMemory.Failure) {
        let storage = try PixelStorage(checkedWidth: width, height: height, bytesPerPixel: Image.bytesPerPixel)
        self.width = width
        self.height = height
        bytesPerRow = width * Image.bytesPerPixel
        baseAddress = storage.pointer
        self.storage = storage
    }

    /// Makes a transparent image (every byte zero) of the given size. Traps on a negative size or when memory
    /// is exhausted, as Swift's own allocation does (`init(checkedWidth:height:)` throws instead).
    public convenience init(width: Int, height: Int) {
        self.init(width: width, height: height, fill: .transparent)
    }

    /// Makes an image of the given size filled with one pixel value.
    public convenience init(width: Int, height: Int, fill: Pixel) {
        self.init(uninitializedWidth: width, height: height)
        initializePixels(to: fill)
    }

    /// Writes every pixel of an image that was just allocated (rows are contiguous).
    private func initializePixels(to fill: Pixel) {
        if fill == .transparent {
            baseAddress.initialize(repeating: 0, count: bytesPerRow * height)
        } else {
            let words = UnsafeMutableRawPointer(baseAddress).bindMemory(to: UInt32.self, capacity: width * height)
            words.initialize(repeating: fill.packed, count: width * height)
        }
    }

    /// Makes an image whose pixels are not initialised, for results that overwrite every pixel.
    package init(uninitializedWidth width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        let bytesPerRow = width * Image.bytesPerPixel
        let storage = PixelStorage(byteCount: bytesPerRow * height)
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.baseAddress = storage.pointer
        self.storage = storage
    }

    /// Adopts memory allocated with `malloc` (by a C decoder, say); the image frees it.
    public init(
        adoptingMallocedPixels pointer: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
        bytesPerRow: Int
    ) {
        precondition(bytesPerRow >= width * Image.bytesPerPixel, "row stride shorter than a row")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.baseAddress = pointer
        self.storage = PixelStorage(adoptingMalloced: pointer)
    }

    /// Wraps a caller's premultiplied RGBA8 buffer without copying. The caller keeps the memory alive and
    /// unmoved for as long as this image (or any region of it) is used.
    public init(borrowing baseAddress: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        precondition(bytesPerRow >= width * Image.bytesPerPixel, "row stride shorter than a row")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.baseAddress = baseAddress
        self.storage = nil
    }

    private init(
        view baseAddress: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int,
        storage: PixelStorage?
    ) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.baseAddress = baseAddress
        self.storage = storage
    }

    public var pixelCount: Int { width * height }

    /// A view of a rectangle of this image, sharing its pixels (no copy).
    public func region(x: Int, y: Int, width: Int, height: Int) -> Image {
        precondition(
            x >= 0 && y >= 0 && width >= 0 && height >= 0 && x + width <= self.width
                && y + height <= self.height, "region outside the image")
        return Image(
            view: baseAddress + y * bytesPerRow + x * Image.bytesPerPixel, width: width, height: height,
            bytesPerRow: bytesPerRow, storage: storage)
    }

    /// The first byte of row `y` (for the package's kernels, as `baseAddress`).
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        baseAddress + y * bytesPerRow
    }

    /// The bytes from the top-left pixel to the end of the bottom row's pixels (rows `bytesPerRow` apart; the
    /// bytes between one row's end and the next row's start are not the image's), valid inside `body` only.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(UnsafeRawBufferPointer(start: baseAddress, count: byteSpan)) }
    }

    /// As `withUnsafeBytes`, to write the pixels (premultiplied: no channel above its alpha).
    public func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        try withExtendedLifetime(self) {
            try body(UnsafeMutableRawBufferPointer(start: baseAddress, count: byteSpan))
        }
    }

    /// Bytes from the first pixel to the end of the last row's pixels.
    private var byteSpan: Int { height == 0 ? 0 : (height - 1) * bytesPerRow + width * Image.bytesPerPixel }

    public subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
            let p = row(y) + x * 4
            return Pixel(red: p[0], green: p[1], blue: p[2], alpha: p[3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the image")
            let p = row(y) + x * 4
            p[0] = newValue.red
            p[1] = newValue.green
            p[2] = newValue.blue
            p[3] = newValue.alpha
        }
    }

    /// An independent, tightly packed copy.
    public func copy() -> Image {
        let result = Image(uninitializedWidth: width, height: height)  // every byte is copied over: one pass
        result.copyPixels(from: self)
        return result
    }

    /// Copies every pixel of `source`, which must have the same size.
    public func copyPixels(from source: Image) {
        precondition(source.width == width && source.height == height, "copy between images of different sizes")
        let rowBytes = width * Image.bytesPerPixel
        for y in 0..<height {
            row(y).update(from: source.row(y), count: rowBytes)
        }
    }

    /// Copies the pixels of `source` (the same size) inside `box`, clipped to the image.
    package func copyPixels(from source: Image, in box: PixelBox) {
        precondition(source.width == width && source.height == height, "copy between images of different sizes")
        let clipped = box.intersection(PixelBox(x: 0, y: 0, width: width, height: height))
        guard !clipped.isEmpty else { return }
        let offset = clipped.x * Image.bytesPerPixel
        for y in clipped.y..<(clipped.y + clipped.height) {
            (row(y) + offset).update(from: source.row(y) + offset, count: clipped.width * Image.bytesPerPixel)
        }
    }

    /// True when every pixel has alpha 255. Sixteen pixels at a time (a 12 MP photo in a few milliseconds, which a
    /// caller's straight-alpha buffer saves converting when it is opaque), stopping at the first that is not.
    public var isOpaque: Bool {
        // Little-endian: a pixel's alpha byte is the top byte of its 32-bit word.
        let alphas = SIMD16<UInt32>(repeating: 0xFF00_0000)
        for y in 0..<height {
            let pixels = UnsafeRawPointer(row(y))
            var x = 0
            while x + 16 <= width {
                if pixels.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt32>.self) & alphas != alphas {
                    return false
                }
                x += 16
            }
            while x < width {
                if pixels.load(fromByteOffset: x * 4 + 3, as: UInt8.self) != 255 { return false }
                x += 1
            }
        }
        return true
    }

    /// True when both images have the same size and the same pixels (strides may differ).
    /// Whether the two images' pixels share any memory (a region and its parent, say).
    package func overlaps(_ other: Image) -> Bool {
        let end = baseAddress + bytesPerRow * max(height - 1, 0) + width * 4
        let otherEnd = other.baseAddress + other.bytesPerRow * max(other.height - 1, 0) + other.width * 4
        return baseAddress < otherEnd && other.baseAddress < end
    }

    public func hasSamePixels(as other: Image) -> Bool {
        guard width == other.width, height == other.height else { return false }
        let rowBytes = width * Image.bytesPerPixel
        for y in 0..<height where memcmp(row(y), other.row(y), rowBytes) != 0 {
            return false
        }
        return true
    }
}

extension Pixel {
    /// The four bytes in memory order, as one native-endian word.
    var packed: UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { bytes in
            bytes[0] = red
            bytes[1] = green
            bytes[2] = blue
            bytes[3] = alpha
        }
        return value
    }
}

/// Owns pixel memory for one or more `Image` views.
final class PixelStorage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>

    init(byteCount: Int) {
        pointer = PixelMemory.allocate(byteCount: byteCount).bindMemory(to: UInt8.self, capacity: max(byteCount, 1))
    }

    /// Memory for `width` × `height` pixels of `bytesPerPixel`, or the reason there is none.
    init(checkedWidth width: Int, height: Int, bytesPerPixel: Int) throws(PixelMemory.Failure) {
        let byteCount = try PixelMemory.byteCount(width: width, height: height, bytesPerPixel: bytesPerPixel)
        guard let memory = PixelMemory.allocateIfPossible(byteCount: byteCount) else {
            throw .outOfMemory(byteCount: byteCount)
        }
        pointer = memory.bindMemory(to: UInt8.self, capacity: max(byteCount, 1))
    }

    /// Takes memory allocated with `malloc` (by a C decoder); freed the same way as PixelMemory's.
    init(adoptingMalloced pointer: UnsafeMutablePointer<UInt8>) {
        self.pointer = pointer
    }

    deinit {
        PixelMemory.release(pointer)
    }
}
