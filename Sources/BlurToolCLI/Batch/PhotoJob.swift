import Compositor
import ImageCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What became of one photo of a batch.
struct PhotoOutcome: Sendable {
    enum Status: String, Sendable {
        case done
        /// Its outputs were already there, made from this very file with these options.
        case skipped
        case failed
    }

    var status: Status
    /// Relative to the destination; none for a failure.
    var outputs: [String]
    var milliseconds: Int
    var failure: ToolFailure?
}

/// One photo of a batch: checked against the journal, read and decoded once (at the smallest scale its outputs
/// allow), rendered once per variant, each output renamed into place, then journalled.
struct PhotoJob {
    let photo: BatchPhoto
    let plan: BatchPlan

    /// `<folder>/<stem>-<suffix>.<ext>` relative to the destination, one per variant; the format is `--format`'s
    /// or the one the photo's name says (PNG when it says none), as for a single render.
    var outputs: [(relativePath: String, format: ImageFormat)] {
        let (folder, stem) = OutputPath.folderAndStem(photo.relativePath)
        return plan.variants.map { variant in
            let format = variant.request.format ?? ImageFormat(fileExtensionOf: photo.path) ?? .png
            return (folder + stem + "-" + variant.suffix + "." + format.fileExtension, format)
        }
    }

    func run(console: BlurTool.Console) -> PhotoOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let outputs = self.outputs
        var outcome = PhotoOutcome(status: .done, outputs: outputs.map(\.relativePath), milliseconds: 0)
        do {
            outcome.status = try render(outputs, console: console)
        } catch let failure as ToolFailure {
            outcome.status = .failed
            outcome.failure = failure
        } catch let error as UsageError {
            outcome.status = .failed
            outcome.failure = ToolFailure(.dataError, photo.path, error.message)
        } catch {
            outcome.status = .failed
            outcome.failure = ToolFailure(.internalError, photo.path, "\(error)")
        }
        if outcome.status == .failed { outcome.outputs = [] }  // what a failed photo had written is replaced later
        outcome.milliseconds = Int((clock.now - start).seconds * 1000)
        return outcome
    }

    private func render(
        _ outputs: [(relativePath: String, format: ImageFormat)], console: BlurTool.Console
    ) throws -> PhotoOutcome.Status {
        guard let identity = BatchJournal.identity(of: photo.path) else {
            throw ToolFailure(.noInput, photo.path, FileIO.errorText(errno))
        }
        let entry = BatchJournal.Entry(
            fingerprint: plan.fingerprint, size: identity.size, modified: identity.modified,
            relativePath: photo.relativePath)
        let paths = outputs.map { plan.destination + "/" + $0.relativePath }
        if plan.journal.contains(entry), paths.allSatisfy({ access($0, F_OK) == 0 }) { return .skipped }

        let bytes = try FileIO.readImage(photo.path)
        let requests = plan.variants.map { variant in
            var request = variant.request
            request.input = photo.path
            return request
        }
        if let slash = paths[0].lastIndex(of: "/") { try FileIO.makeFolders(String(paths[0][..<slash])) }
        try PhotoJob.render(
            bytes, path: photo.path, requests: requests, console: console,
            admit: { header, scale in
                let need = plan.memoryNeed(header: header, fileBytes: bytes.count, scale: scale)
                plan.memory.acquire(need)
                return { plan.memory.release(need) }
            }
        ) { index, image, decoded in
            let encoded = try ImageWriting.encode(
                image, as: outputs[index].format, request: requests[index], iccProfile: decoded.info.iccProfile,
                outputPath: paths[index])
            try OutputFile(paths[index], fixedTemporaryName: true).commit(encoded)
        }
        try plan.journal.record(entry)
        return .done
    }

    /// One decode for several outputs: `bytes` decoded at the smallest scale every request allows, then each
    /// request's result handed to `body` in turn, so one result is held at a time. `admit` is called with the
    /// header and the scale before anything is decoded and returns what to call once the work is over.
    static func render(
        _ bytes: [UInt8], path: String, requests: [RenderRequest], console: BlurTool.Console,
        admit: (ImageInfo, Int) -> () -> Void = { _, _ in {} },
        _ body: (Int, Image, DecodedImage) throws -> Void
    ) throws {
        let renderers = requests.map { Renderer(request: $0, console: console) }
        guard let loading = renderers.first?.loading else { return }
        let header = try loading.inspect(bytes, path: path)
        let scale = try renderers.map { try $0.decodeScale(for: header) }.min() ?? 1
        let release = admit(header, scale)
        defer { release() }
        let decoded = try loading.decode(bytes, header: header, path: path, scale: scale)
        for (index, renderer) in renderers.enumerated() {
            let (_, image) = try renderer.finish(
                decoded.image, header: header, scale: scale, times: Renderer.StageTimes())
            try body(index, image, decoded)
        }
    }

}
