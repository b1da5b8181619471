extension PyramidGaussianBlur {
    /// The pyramid blur of the `width` × `height` frame that resizing the `crop` of `source` with `filter`
    /// makes (`Resampler`), without making that frame: each cell's average of the frame is a fixed weighted
    /// sum of source pixels (`ResampleWeights(cellsOf:)`), so the small grid is resampled from `source`
    /// directly. A background shown on a phone is decoded small and magnified to the frame; this skips
    /// writing millions of magnified pixels only to average them back down. Cells past the frame's borders
    /// read it through `edgeMode`, as blurring the frame does. The only difference from resizing first is
    /// that the frame is never rounded to bytes (ReducedRouteTests measures the two routes against each other).
    init(
        resizing source: Image, crop: (x: Double, y: Double, width: Double, height: Double),
        filter: ResampleFilter, sigma: Double, edgeMode: EdgeMode, threads: Int,
        kernels: any ConvolutionKernelSet.Type, width: Int, height: Int, workspace: Workspace
    ) {
        let factor = PyramidGaussianBlur.factor(forSigma: sigma)
        self.init(
            sigma: sigma, factor: factor, kernels: kernels, regionX: 0, y: 0, width: width, height: height,
            workspace: workspace
        ) { grid in
            let frameColumns = ResampleWeights(
                filter: filter, sourceCount: source.width, start: crop.x, length: crop.width, count: width)
            let frameRows = ResampleWeights(
                filter: filter, sourceCount: source.height, start: crop.y, length: crop.height, count: height)
            let columns = ResampleWeights(
                cellsOf: frameColumns, frameCount: width, factor: factor, firstCell: grid.firstColumn,
                count: grid.width, edgeMode: edgeMode)
            let rows = ResampleWeights(
                cellsOf: frameRows, frameCount: height, factor: factor, firstCell: grid.firstRow,
                count: grid.height, edgeMode: edgeMode)
            var resampler = Resampler(filter: filter, threads: threads)
            resampler.kernels = kernels
            let averaged = workspace.buffer(.smallAverage, count: grid.width * grid.height * 4, of: Float.self)
            resampler.resample(source, columns: columns, rows: rows, workspace: workspace) { j, row in
                (averaged + j * grid.width * 4).update(from: row, count: grid.width * 4)
            }
            return .whole(WholeCellRows(cells: averaged, width: grid.width))
        }
    }
}
