/// A blurred image produced row by row, so that later stages (tint, dither, quantisation) see Float values
/// and the whole result never needs to exist at full resolution in Float.
public protocol BlurredRows: Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The minimum scratch (in Floats) that `fillRow` and `fillRows` need.
    var scratchCount: Int { get }
    /// Writes row `y` as `width * 4` premultiplied Floats on the 0...255 scale.
    func fillRow(_ y: Int, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>)
    /// Hands each row of `rows` in order to `body` with its y, as a mix that `write` makes into the values
    /// `fillRow` writes: for blurs whose neighbouring rows share work (the pyramid's, which gives each row as the
    /// mix of upsampled rows so it need not be written out). `destination` has room for one row.
    func fillRows(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRow) -> Void)
    /// `fillRows`, handing on at once each run of rows that mix the same rows (`MixedRowGroup`, with the y of its
    /// first row), so that they can be finished together column by column.
    func fillRowGroups(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRowGroup) -> Void)
    /// Rows `band(i, of: bands)` for i in 0..<bands cover every row once, in order: the bands `render` gives
    /// its threads, cut so that they take about the same time.
    func band(_ index: Int, of bands: Int) -> Range<Int>
    /// This blur made ready to be filled in `bands` bands of rows (`band(_:of:)`), one per thread, so that work
    /// several bands would each repeat is done once; it keeps using `workspace`, which must outlive the result.
    /// Rows are the same either way.
    func prepared(forBands bands: Int, workspace: BlurWorkspace) -> Self
}

extension BlurredRows {
    /// Every row costs the same.
    public func band(_ index: Int, of bands: Int) -> Range<Int> {
        Parallel.part(index, of: bands, count: height)
    }

    /// Bands share nothing: each fills its rows alone.
    public func prepared(forBands bands: Int, workspace: BlurWorkspace) -> Self {
        self
    }

    public func fillRows(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRow) -> Void
    ) {
        for y in rows {
            fillRow(y, into: destination, scratch: scratch)
            body(y, MixedRow(destination))
        }
    }

    /// Groups of one row.
    public func fillRowGroups(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRowGroup) -> Void
    ) {
        fillRows(rows, into: destination, scratch: scratch) { y, row in
            withUnsafePointer(to: row.weights) { weights in
                body(y, MixedRowGroup(row.rows, weights: UnsafeBufferPointer(start: weights, count: 1)))
            }
        }
    }
}
