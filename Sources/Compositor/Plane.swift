/// One 8-bit channel per pixel (a mask, an alpha channel, a grey image), with an explicit row stride.
/// Reference semantics, scoped access and thread safety as `Image`.
public final class Plane: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    /// The first byte: for the package's kernels (see `Image.baseAddress`).
    package let baseAddress: UnsafeMutablePointer<UInt8>
    private let storage: PixelStorage?

    /// A plane of `fill` (zeros by default). Traps on a negative size or when memory is exhausted
    /// (`init(checkedWidth:height:fill:)` throws instead).
    public init(width: Int, height: Int, fill: UInt8 = 0) {
        precondition(width >= 0 && height >= 0, "plane dimensions must not be negative")
        let storage = PixelStorage(byteCount: width * height)
        storage.pointer.initialize(repeating: fill, count: max(width * height, 1))
        self.width = width
        self.height = height
        bytesPerRow = width
        baseAddress = storage.pointer
        self.storage = storage
    }

    /// A plane of `fill`, or the reason there is none, where `init(width:height:fill:)` would trap.
    /// - Throws: `PixelMemory.Failure`, as `Image(checkedWidth:height:)`.
    public init(checkedWidth width: Int, height: Int, fill: UInt8 = 0) throws(PixelMemory.Failure) {
        let storage = try PixelStorage(checkedWidth: width, height: height, bytesPerPixel: 1)
        storage.pointer.initialize(repeating: fill, count: max(width * height, 1))
        self.width = width
        self.height = height
        bytesPerRow = width
        baseAddress = storage.pointer
        self.storage = storage
    }

    /// Wraps a caller's buffer without copying; the caller keeps it alive.
    public init(borrowing baseAddress: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        precondition(width >= 0 && height >= 0 && bytesPerRow >= width, "invalid plane geometry")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.baseAddress = baseAddress
        storage = nil
    }

    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        baseAddress + y * bytesPerRow
    }

    /// The bytes from the first sample to the end of the last row's samples, valid inside `body` only.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(UnsafeRawBufferPointer(start: baseAddress, count: byteSpan)) }
    }

    /// As `withUnsafeBytes`, to write the samples.
    public func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        try withExtendedLifetime(self) {
            try body(UnsafeMutableRawBufferPointer(start: baseAddress, count: byteSpan))
        }
    }

    private var byteSpan: Int { height == 0 ? 0 : (height - 1) * bytesPerRow + width }

    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the plane")
            return row(y)[x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the plane")
            row(y)[x] = newValue
        }
    }
}
