/// A contact sheet as one HTML page: tiles laid out as phone screens on a fixed grid, each labelled, so a browser
/// (and a test) finds tile i at a position computed from the constants here alone.
///
/// Tile i sits in column i mod `columns`, row i / `columns`; its picture's top-left corner is at
/// x = margin + column × (tileWidth + gap), y = headerHeight + row × (tileHeight + labelHeight + gap), in CSS
/// pixels, with its label below it.
struct SheetPage {
    struct Tile {
        let label: String
        /// The parameters under the label, or a failure's reason (shown in place of the picture).
        let detail: String?
        /// The picture's URL relative to the page (or a data: URL); nil for a failure.
        let image: String?
    }

    static let margin = 16
    static let gap = 16
    static let headerHeight = 64
    static let labelHeight = 64
    static let cornerRadius = 20

    let title: String
    let columns: Int
    let tileWidth: Int
    let tileHeight: Int
    let tiles: [Tile]

    var pageWidth: Int { 2 * SheetPage.margin + columns * tileWidth + (columns - 1) * SheetPage.gap }
    var pageHeight: Int {
        let rows = (tiles.count + columns - 1) / columns
        return SheetPage.headerHeight + rows * (tileHeight + SheetPage.labelHeight + SheetPage.gap)
    }

    func origin(ofTile index: Int) -> (x: Int, y: Int) {
        let (row, column) = index.quotientAndRemainder(dividingBy: columns)
        return (
            SheetPage.margin + column * (tileWidth + SheetPage.gap),
            SheetPage.headerHeight + row * (tileHeight + SheetPage.labelHeight + SheetPage.gap)
        )
    }

    var html: String {
        var body = ""
        for (index, tile) in tiles.enumerated() {
            let (x, y) = origin(ofTile: index)
            let box = "left:\(x)px;top:\(y)px;width:\(tileWidth)px;height:\(tileHeight)px"
            if let image = tile.image {
                body += "<img class=\"screen\" data-tile=\"\(index)\" style=\"\(box)\" src=\"\(escaped(image))\" "
                body += "alt=\"\(escaped(tile.label))\">\n"
            } else {
                body += "<div class=\"screen failed\" data-tile=\"\(index)\" style=\"\(box)\">"
                body += "<p>\(escaped(tile.detail ?? "failed"))</p></div>\n"
            }
            let label = "left:\(x)px;top:\(y + tileHeight)px;width:\(tileWidth)px"
            body += "<div class=\"label\" style=\"\(label)\"><b>\(escaped(tile.label))</b>"
            if tile.image != nil, let detail = tile.detail { body += "<br>\(escaped(detail))" }
            body += "</div>\n"
        }
        let style = [
            "html, body { margin: 0; background: #f2f2f7; color: #1c1c1e;",
            "  font: 12px/16px -apple-system, \"Inter\", sans-serif; }",
            "body { position: relative; width: \(pageWidth)px; height: \(pageHeight)px; }",
            "h1 { position: absolute; left: \(SheetPage.margin)px; top: 0; margin: 0;",
            "  line-height: \(SheetPage.headerHeight)px; font-size: 18px; }",
            ".screen { position: absolute; display: block; box-sizing: border-box;",
            "  border-radius: \(SheetPage.cornerRadius)px; object-fit: cover; }",
            ".failed { background: #ff3b30; color: #fff; padding: 24px 12px; overflow: hidden; }",
            ".label { position: absolute; box-sizing: border-box; height: \(SheetPage.labelHeight)px;",
            "  padding-top: 6px; overflow: hidden; text-align: center; font-size: 11px; line-height: 14px; }",
            ".label b { font-size: 12px; }",
        ].joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(escaped(title))</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            <h1>\(escaped(title))</h1>
            \(body)</body>
            </html>

            """
    }

    /// A relative file path as a URL path: every byte but letters, digits, `-._~` and `/` percent-encoded (a
    /// photo called `a #1?.jpg` stays a file, not a fragment or a query).
    static func urlPath(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }

    /// Text in HTML and in a quoted attribute.
    private func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
