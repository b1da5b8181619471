import Compositor
import ImageCodecs
import Scenes


/// `blurtool sheet PHOTO -o sheet.html`: the photo under every material in light and dark (optionally dimmed, with
/// a foreground over each), as phone screens on one page, each labelled with its name and parameters.
public struct SheetRequest: Equatable, Sendable {
    public var photo: String
    /// The page; nil for `<stem>-sheet.html` beside the photo.
    public var output: String?
    /// One request per tile, the photo as input.
    public var tiles: [RenderRequest]
    /// An image (PNG with alpha) or a scene file drawn over each tile, fitted to it.
    public var foreground: String?
    /// The pictures inside the page as data: URLs instead of files in `<page stem>_files/` beside it.
    public var embedsImages = false
}

extension ArgumentParser {
    static func sheetRequest(
        positionals: [String], options: [(name: String, value: String?)]
    ) throws(UsageError) -> SheetRequest {
        guard positionals.count == 1 else { throw UsageError("'sheet' needs exactly one PHOTO") }
        let applicable: Set = [
            "--output", "--size", "--dim", "--foreground", "--embed", "--threads", "--quality", "--max-pixels",
            "--no-auto-orient", "--lenient",
        ]
        if let option = options.first(where: { !applicable.contains($0.name) }) {
            throw UsageError("option '\(option.name)' does not apply to 'sheet'")
        }
        var shared = options.filter { !["--output", "--foreground", "--embed"].contains($0.name) }
        if !shared.contains(where: { $0.name == "--size" }) { shared.append(("--size", "390x844")) }
        var tiles: [RenderRequest] = []
        for material in MaterialCatalog.all {
            for appearance in material.fixedAppearance.map({ [$0] }) ?? [.light, .dark] {
                tiles.append(
                    try renderRequest(
                        input: positionals[0],
                        options: shared + [("--material", material.name), ("--appearance", appearance.rawValue)]))
            }
        }
        var request = SheetRequest(photo: positionals[0], tiles: tiles)
        for (name, value) in options {
            switch name {
            case "--output": request.output = value
            case "--foreground": request.foreground = value
            case "--embed": request.embedsImages = true
            default: break
            }
        }
        if request.photo == "-" { throw UsageError("'sheet' reads its PHOTO from a file, not standard input") }
        return request
    }
}

struct SheetCommand {
    let request: SheetRequest
    let console: BlurTool.Console

    func run() throws {
        let pagePath = try OutputPath.resolve(request.output, input: request.photo) { $0 + "-sheet.html" }
        guard pagePath != "-" else { throw UsageError("'sheet' writes a page and its pictures; name the page") }
        let page = try OutputFile(pagePath)
        defer { page.discard() }
        let (folder, stem) = OutputPath.folderAndStem(pagePath)
        let filesFolder = stem + "_files"
        if !request.embedsImages {
            try FileIO.makeFolder(folder + filesFolder)
        }
        let size = request.tiles[0].size ?? FrameSize(width: 390, height: 844)
        let foreground = try request.foreground.map {
            try fitted(foreground: $0, width: size.width, height: size.height)
        }
        let bytes = try FileIO.readImage(request.photo)
        var tiles: [SheetPage.Tile] = []
        try PhotoJob.render(bytes, path: request.photo, requests: request.tiles, console: console) {
            index, image, _ in
            let tile = request.tiles[index]
            if let foreground { image.draw(foreground, threads: tile.threads) }
            let encoded = try ImageWriting.encode(image, as: .jpeg, request: tile, outputPath: pagePath)
            let material = tile.materialName ?? ""
            let fixed = MaterialCatalog.lookup(material)?.material.fixedAppearance != nil
            let name = material + (fixed ? "" : "-" + tile.appearance.rawValue) + ".jpg"
            let source: String
            if request.embedsImages {
                source = "data:image/jpeg;base64," + Base64.encode(encoded)
            } else {
                try OutputFile(folder + filesFolder + "/" + name).commit(encoded)
                source = SheetPage.urlPath(filesFolder + "/" + name)
            }
            tiles.append(
                SheetPage.Tile(label: name.dropLast(4).description, detail: parameters(of: tile), image: source))
        }
        let html = SheetPage(
            title: "\(ToolFailure.display(request.photo)) under every material, \(size.width)x\(size.height)",
            columns: 6, tileWidth: size.width, tileHeight: size.height, tiles: tiles
        ).html
        try page.commit(Array(html.utf8))
        if request.output == nil || pagePath != request.output { console.out(pagePath) }
    }

    /// The recipe a tile shows, as `blurtool materials` words it.
    private func parameters(of tile: RenderRequest) -> String {
        guard let name = tile.materialName, let (material, forced) = MaterialCatalog.lookup(name) else { return "" }
        let recipe = material.recipe(for: forced ?? tile.appearance)
        var text = "blur \(String(format2: recipe.blurPoints)) pt, saturation \(String(format2: recipe.saturation))"
        if tile.dim > 0 { text += ", dim \(String(format2: tile.dim))" }
        return text
    }

    /// The foreground, fitted into a tile: a scene file composed as `blurtool compose` does (its own canvas,
    /// transparent where it draws nothing), or an image.
    private func fitted(foreground path: String, width: Int, height: Int) throws -> Image {
        let request = request.tiles[0]
        let image: Image
        if path.lowercased().hasSuffix(".json") {
            let scene = try Composer.scene(
                fromFile: try Composer.readSceneFile(path), path: path, request: request, console: console)
            do {
                image = try SceneRenderer(threads: request.threads).render(scene.snapshot(at: 0))
            } catch {
                throw ToolFailure(.dataError, path, error.description)
            }
        } else {
            let loading = ImageLoading(request: request, console: console)
            let bytes = try FileIO.readImage(path)
            image = try loading.decode(bytes, header: try loading.inspect(bytes, path: path), path: path).image
        }
        return Resampler(filter: .lanczos3, threads: request.threads).fit(
            image, width: width, height: height, mode: .fit)
    }
}

/// RFC 4648 base64, for pictures inside a page.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var result = [UInt8]()
        result.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                result.append(
                    position <= count ? alphabet[Int(group >> UInt32(18 - 6 * position)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: result, as: UTF8.self)
    }
}
