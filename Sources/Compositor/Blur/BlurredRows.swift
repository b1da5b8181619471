/// A blurred image produced row by row, so that later stages (tint, dither, quantisation) see Float values
/// and the whole result never needs to exist at full resolution in Float.
protocol BlurredRows: Sendable {
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
    func prepared(forBands bands: Int, workspace: Workspace) -> Self
}

extension BlurredRows {
    /// Every row costs the same.
    func band(_ index: Int, of bands: Int) -> Range<Int> {
        Parallel.part(index, of: bands, count: height)
    }

    /// Bands share nothing: each fills its rows alone.
    func prepared(forBands bands: Int, workspace: Workspace) -> Self {
        self
    }

    func fillRows(
        _ rows: Range<Int>, into destination: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
        _ body: (Int, MixedRow) -> Void
    ) {
        for y in rows {
            fillRow(y, into: destination, scratch: scratch)
            body(y, MixedRow(destination))
        }
    }

    /// Groups of one row.
    func fillRowGroups(
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

extension BlurredRows {
    /// Finishes every row into `destination` (which has this size), each thread one band of rows.
    ///
    /// - Parameters:
    ///   - dither: round up or down at random with the probabilities that keep each value's mean.
    ///   - grain: amplitude of monochrome noise added before rounding, as a fraction of full scale.
    ///   - threads: at most this many threads; the result is the same for every count.
    ///   - noiseOrigin: where `destination` lies in the picture the noise is laid over, so a region rendered
    ///     alone gets the same dither and grain as the same pixels of the whole picture.
    ///   - finish: turns one Float row (y given) into the row to quantise, in place or not; it must depend
    ///     only on the row and y.
    func render(
        into destination: Image, dither: Bool = false, grain: Float = 0,
        threads: Int = Parallel.processorCount, workspace: Workspace = Workspace(),
        noiseOrigin: (x: Int, y: Int) = (0, 0),
        finish: ((UnsafeMutablePointer<Float>, Int, Int) -> UnsafeMutablePointer<Float>)? = nil
    ) {
        precondition(destination.width == width && destination.height == height, "destination size differs")
        // One band per worker: a band's rows share work in `fillRows`, which a band boundary restarts.
        let workers = Parallel.workers(height, threads: threads)
        let blur = prepared(forBands: workers, workspace: workspace)
        let rows = workspace.buffers(.renderRow, workers: workers, count: width * 4, of: Float.self)
        let scratch = workspace.buffers(.renderScratch, workers: workers, count: scratchCount, of: Float.self)
        let grainRows = workspace.buffers(.grain, workers: workers, count: grain != 0 ? width * 4 : 0, of: Float.self)
        let quantizer = Quantizer(dither: dither, grain: grain)
        Parallel.forEach(workers, threads: threads) { band, worker in
            let row = rows[worker]
            if finish == nil && grain == 0 {
                blur.fillRowGroups(blur.band(band, of: workers), into: row, scratch: scratch[worker]) { y, group in
                    quantizer.quantize(
                        group, count: width, into: destination.row(y), bytesPerRow: destination.bytesPerRow,
                        y: y + noiseOrigin.y, firstX: noiseOrigin.x)
                }
                return
            }
            blur.fillRows(blur.band(band, of: workers), into: row, scratch: scratch[worker]) {
                y, mixed in
                guard let finish else {
                    quantizer.quantize(
                        mixed, count: width, into: destination.row(y), y: y + noiseOrigin.y, firstX: noiseOrigin.x,
                        rowScratch: row, grainScratch: grainRows[worker])
                    return
                }
                mixed.write(count: width * 4, into: row)
                quantizer.quantize(
                    finish(row, y, width), count: width, into: destination.row(y), y: y + noiseOrigin.y,
                    firstX: noiseOrigin.x, grainScratch: grainRows[worker])
            }
        }
    }
}
