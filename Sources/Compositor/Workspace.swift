/// Scratch memory that blurs, resampling, materials and scene rendering reuse from call to call: once a
/// renderer's sizes have settled, a call takes no new pixel-sized scratch (buffers only grow). Results are
/// still new images unless the call writes `into:` one; kernel weights are kept for the last few σ asked.
///
/// Thread safety: a workspace serves one operation at a time (which may use several threads). Give each
/// thread that works concurrently its own workspace.
public final class Workspace {
    /// What a buffer is for; each (use, worker) pair has its own buffer.
    enum Use: Int, CaseIterable {
        case ring, line, rowOutput, rowPointers, weights, columnMap, smallAverage, smallWeights, columnTaps,
            columnFractions,
            columnGroups, rowTaps, rowWeights, renderRow, renderScratch, grain, sourceCopy,
            resizeRows, resizeRowPointers, resizeOutput, resizeFirst, resizeWeights,
            sharedRowTable, sharedRowList, sharedRows, sharedRowStates, shadeRow, scratchImage
        /// Tables of per-worker pointers, one table per use (stored under the use's raw value as "worker").
        case pointerTable
    }

    private var storage: [Int: (pointer: UnsafeMutableRawPointer, bytes: Int)] = [:]
    /// Gaussian weights by σ: a renderer blurs at a handful of σ, frame after frame.
    private var kernels: [Double: GaussianKernel] = [:]
    private static let keptKernels = 8
    /// Images over borrowed memory (a caller's buffer, this workspace's scratch) by their geometry: a call repeated
    /// every frame wraps the same pixels in the same object instead of a new one.
    private var views: [BorrowedGeometry: Image] = [:]
    private static let keptViews = 32

    private struct BorrowedGeometry: Hashable {
        let address: UInt
        let width, height, bytesPerRow: Int
    }

    /// An image of the given size in this workspace's memory, for a result that cannot be written in place: the
    /// same pixels (and object) each call of that size, valid until the next call.
    package func scratchImage(width: Int, height: Int) -> Image {
        let pixels = buffer(.scratchImage, count: width * height * Image.bytesPerPixel, of: UInt8.self)
        return borrowedImage(pixels, width: width, height: height, bytesPerRow: width * Image.bytesPerPixel)
    }

    /// An image borrowing `pointer`'s pixels (see `Image(borrowing:…)`), the same object for the same geometry
    /// while this workspace keeps at most `keptViews` of them.
    package func borrowedImage(
        _ pointer: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int
    ) -> Image {
        let key = BorrowedGeometry(
            address: UInt(bitPattern: pointer), width: width, height: height, bytesPerRow: bytesPerRow)
        if let view = views[key] { return view }
        let view = Image(borrowing: pointer, width: width, height: height, bytesPerRow: bytesPerRow)
        if views.count >= Workspace.keptViews { views.removeAll(keepingCapacity: true) }
        views[key] = view
        return view
    }

    public init() {}

    /// The weights for σ, made once while this workspace holds at most `keptKernels` of them.
    func gaussianKernel(sigma: Double) -> GaussianKernel {
        if let kernel = kernels[sigma] { return kernel }
        let kernel = GaussianKernel(sigma: sigma)
        if kernels.count >= Workspace.keptKernels { kernels.removeAll(keepingCapacity: true) }
        kernels[sigma] = kernel
        return kernel
    }

    deinit {
        for buffer in storage.values { PixelMemory.release(buffer.pointer) }
    }

    /// Bytes held, for tests and for renderers that want to know.
    public var capacity: Int { storage.values.reduce(0) { $0 + $1.bytes } }

    /// A buffer of at least `count` values of `T` for `use` by `worker`. Call from one thread only (before
    /// work is spread over threads); the pointers may then be used from the workers.
    func buffer<T>(_ use: Use, worker: Int = 0, count: Int, of type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        let key = worker * Use.allCases.count + use.rawValue
        precondition(count < 1 << 40, "scratch request of \(count) for \(use)")
        let bytes = max(count, 1) * MemoryLayout<T>.stride
        let existing = storage[key]
        if let existing, existing.bytes >= bytes {
            return existing.pointer.bindMemory(to: T.self, capacity: max(count, 1))
        }
        existing.map { PixelMemory.release($0.pointer) }
        // Grow by half again, so slowly growing sizes settle quickly.
        let grown = max(bytes, (existing?.bytes ?? 0) * 3 / 2)
        let pointer = PixelMemory.allocate(byteCount: grown)
        storage[key] = (pointer, grown)
        return pointer.bindMemory(to: T.self, capacity: max(count, 1))
    }

    /// One buffer per worker for `use`, each of at least `count` values.
    func buffers<T>(_ use: Use, workers: Int, count: Int, of type: T.Type = T.self) -> PerWorker<T> {
        let table = buffer(
            .pointerTable, worker: use.rawValue, count: max(workers, 1),
            of: UnsafeMutablePointer<T>.self)
        for worker in 0..<max(workers, 1) {
            table[worker] = buffer(use, worker: worker, count: count, of: T.self)
        }
        return PerWorker(table: table)
    }
}

/// Pointers to one buffer per worker thread (the table lives in the workspace).
struct PerWorker<T>: @unchecked Sendable {
    let table: UnsafeMutablePointer<UnsafeMutablePointer<T>>

    subscript(worker: Int) -> UnsafeMutablePointer<T> {
        table[worker]
    }
}
