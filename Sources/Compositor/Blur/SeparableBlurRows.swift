/// The exact blur as Float rows, from the SIMD engine's Float route (`SeparableBlurEngine.runTile`), for
/// materials that shade before their one quantisation. Each band of rows (one per rendering thread) walks down
/// the whole width once through a ring of 2r + 4 horizontally blurred rows in its scratch, so no image-sized
/// buffer exists: the oracle, `ReferenceGaussianBlur`, holds 16 bytes per pixel (1.6 GB for 10000 × 10000) and
/// runs on one thread. The ring is a tile as wide as the image, so it leaves the L2 cache on wide images; that
/// costs the engine speed but keeps rows whole for the shader. Its size per thread is (2r + 4) · width · 16
/// bytes: 9 MB at σ 6.5 on a 10,000-pixel-wide image, 51 MB at σ 100 on a 4000-pixel-wide one.
struct SeparableBlurRows: BlurredRows, @unchecked Sendable {
    let width: Int
    let height: Int
    /// Read as rows are filled; it must not change before.
    private let source: Image
    private let engine: SeparableBlurEngine
    /// Holds the column map and the weights.
    private let workspace: Workspace
    private let columnMap: UnsafePointer<Int>
    private let paddedWeights: UnsafePointer<Float>

    init(source: Image, engine: SeparableBlurEngine, workspace: Workspace) {
        width = source.width
        height = source.height
        self.source = source
        self.engine = engine
        self.workspace = workspace
        let radius = engine.kernel.radius
        let map = workspace.buffer(.columnMap, count: width + 2 * radius, of: Int.self)
        for i in 0..<(width + 2 * radius) { map[i] = engine.edgeMode.sourceIndex(i - radius, count: width) }
        columnMap = UnsafePointer(map)
        let padded = workspace.buffer(.weights, count: engine.kernel.weights.count + 6, of: Float.self)
        PaddedWeights.write(engine.kernel.weights, into: padded)
        paddedWeights = UnsafePointer(padded)
    }

    private var radius: Int { engine.kernel.radius }
    private var taps: Int { 2 * radius + 1 }
    private var ringRows: Int { taps + SeparableBlurEngine.rowsPerStep - 1 }
    private var rowValues: Int { width * 4 }

    /// The engine's buffers for one tile as wide as the image, carved from the Float scratch.
    var scratchCount: Int {
        let bytes =
            ScratchCarver.bytes(ringRows * SeparableBlurEngine.paddedRowCount(rowValues), of: Float.self)
            + ScratchCarver.bytes((width + 2 * radius) * 4, of: Float.self)
            + ScratchCarver.bytes(SeparableBlurEngine.rowsPerStep * rowValues, of: Float.self)
            + ScratchCarver.bytes(taps + SeparableBlurEngine.rowsPerStep + 4, of: UnsafePointer<Float>.self)
        return (bytes + 3) / 4
    }

    /// Row y alone costs as much as 2r + 1 rows of a band: `render` fills bands (`fillRows`).
    func fillRow(_ y: Int, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        fillRows(y..<(y + 1), into: destination, scratch: scratch) { _, row in
            row.write(count: rowValues, into: destination)
        }
    }

    func fillRows(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRow) -> Void
    ) {
        guard !rows.isEmpty, width > 0 else { return }
        var carver = ScratchCarver(UnsafeMutableRawPointer(scratch))
        let buffers = SeparableBlurEngine.TileBuffers(
            ring: carver.take(ringRows * SeparableBlurEngine.paddedRowCount(rowValues), of: Float.self),
            line: carver.take((width + 2 * radius) * 4, of: Float.self),
            output: carver.take(SeparableBlurEngine.rowsPerStep * rowValues, of: Float.self),
            rowPointers: carver.take(taps + SeparableBlurEngine.rowsPerStep + 4, of: UnsafePointer<Float>.self))
        engine.runTile(
            source: PixelRows(source), columns: 0..<width, rows: rows, outputY: 0, outputX: 0,
            columnMap: UnsafeBufferPointer(start: columnMap, count: width + 2 * radius),
            paddedWeights: UnsafeBufferPointer(start: paddedWeights, count: taps + 6), buffers: buffers
        ) { values, y in
            body(y, MixedRow(values))
        }
    }
}
