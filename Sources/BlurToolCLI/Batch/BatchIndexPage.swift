/// `batch --sheet`: DEST/index.html, one tile per photo of the run showing its first output (or, for a photo
/// that failed, its error), in the order of the photos' paths.
struct BatchIndexPage {
    let destination: String
    let photos: [BatchPhoto]
    let outcomes: [PhotoOutcome?]

    func write() throws(ToolFailure) {
        var tiles: [SheetPage.Tile] = []
        for (photo, outcome) in zip(photos, outcomes) {
            guard let outcome else { continue }  // not reached before a signal stopped the run
            switch outcome.status {
            case .done, .skipped:
                tiles.append(
                    SheetPage.Tile(
                        label: photo.relativePath, detail: nil, image: outcome.outputs.first.map(SheetPage.urlPath)))
            case .failed:
                tiles.append(
                    SheetPage.Tile(label: photo.relativePath, detail: outcome.failure?.reason ?? "failed", image: nil))
            }
        }
        let failed = tiles.filter { $0.image == nil }.count
        let page = SheetPage(
            title: "blurtool batch: \(tiles.count) photos" + (failed > 0 ? ", \(failed) failed" : ""),
            columns: 6, tileWidth: 180, tileHeight: 390, tiles: tiles)
        try OutputFile(destination + "/index.html").commit(Array(page.html.utf8))
    }
}
