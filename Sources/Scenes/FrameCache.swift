import Compositor

/// What stays the same between the frames of one animation, kept so that each frame draws only what moves:
/// the bottom layers that never change (drawn once), the backdrop materials seen over them (once per distinct
/// material state, for a panel wherever it moves), and isolated groups whose layers never change (once per
/// placement, however their opacity animates).
///
/// Every cached picture is exactly what drawing it afresh gives, so a frame is identical with or without the
/// cache, on any thread count. Shared by the frames being drawn at once; pictures beyond `byteLimit` are not
/// kept (drawn again instead).
final class FrameCache: @unchecked Sendable {
    /// How many top-level layers at the bottom never change (their pixels are `base`).
    let staticPrefix: Int
    /// The canvas with the static layers drawn: each frame starts from a copy.
    let base: Image
    /// Paths (child indices from the top) of groups none of whose layers is animated.
    let staticGroups: Set<[Int]>
    let byteLimit: Int

    private let entries = Locked(Entries())

    private struct Entries {
        var backdrops: [Backdrop] = []
        /// One picture per group path: the last placement drawn (a group that moves gets a new one each frame,
        /// which replaces the old instead of filling the cache).
        var groups: [[Int]: (key: GroupKey, picture: Image)] = [:]
        var bytes = 0
    }

    /// Regions kept per material state: a panel that moves over changing pixels makes a new one each frame.
    static let regionsPerState = 8

    /// A material over the base canvas: its regions drawn so far, and the whole canvas once a second region of
    /// the same state was asked for (a moving panel then crops it).
    private struct Backdrop {
        var state: BackdropState
        var regions: [PixelBox: Image]
        var whole: Image?
    }

    struct BackdropState: Equatable {
        var recipe: MaterialRecipe
        var dim: Double
        var pixelsPerPoint: Double
        var precision: BlurPrecision
    }

    struct GroupKey: Hashable {
        var path: [Int]
        var transform: AffineTransform2D
        var bounds: Rect
        var box: PixelBox
    }

    init(staticPrefix: Int, base: Image, staticGroups: Set<[Int]>, byteLimit: Int) {
        self.staticPrefix = staticPrefix
        self.base = base
        self.staticGroups = staticGroups
        self.byteLimit = byteLimit
    }

    /// The material `state` of the base canvas in `box`, from the cache or made by `make(region)` (a region of
    /// the canvas, or the whole canvas when a panel of this state has moved and `wholeAllowed`: the canvas is
    /// still all base).
    func backdrop(
        _ state: BackdropState, box: PixelBox, wholeAllowed: Bool, make: (PixelBox) -> Image
    ) -> Image {
        enum Plan { case hit(Image), region, whole }
        let wholeBytes = base.width * base.height * Image.bytesPerPixel
        let plan = entries.withLock { entries -> Plan in
            guard let index = entries.backdrops.firstIndex(where: { $0.state == state }) else { return .region }
            let entry = entries.backdrops[index]
            if let image = entry.regions[box] { return .hit(image) }
            if let whole = entry.whole { return .hit(whole.region(x: box.x, y: box.y, width: box.width, height: box.height)) }
            // The whole canvas only when it can be kept: made and dropped, it would cost a full blur per frame.
            guard wholeAllowed, entries.bytes + wholeBytes <= byteLimit else { return .region }
            return .whole
        }
        switch plan {
        case .hit(let image): return image
        case .region:
            let image = make(box)
            store(image) { entries in
                if let index = entries.backdrops.firstIndex(where: { $0.state == state }) {
                    guard entries.backdrops[index].regions.count < FrameCache.regionsPerState else { return false }
                    entries.backdrops[index].regions[box] = image
                } else {
                    entries.backdrops.append(Backdrop(state: state, regions: [box: image], whole: nil))
                }
                return true
            }
            return image
        case .whole:
            let canvas = PixelBox(x: 0, y: 0, width: base.width, height: base.height)
            let whole = make(canvas)
            store(whole) { entries in
                guard let index = entries.backdrops.firstIndex(where: { $0.state == state }),
                    entries.backdrops[index].whole == nil
                else { return false }
                entries.backdrops[index].whole = whole
                return true
            }
            return whole.region(x: box.x, y: box.y, width: box.width, height: box.height)
        }
    }

    /// The picture of a static isolated group at one placement, from the cache or drawn by `draw`.
    func group(_ key: GroupKey, draw: () throws(SceneRenderError) -> Image) throws(SceneRenderError) -> Image {
        if let entry = entries.withLock({ $0.groups[key.path] }), entry.key == key { return entry.picture }
        let picture = try draw()
        let bytes = picture.bytesPerRow * picture.height
        entries.withLock { entries in
            let replaced = entries.groups[key.path].map { $0.picture.bytesPerRow * $0.picture.height } ?? 0
            guard entries.bytes - replaced + bytes <= byteLimit else { return }
            entries.bytes += bytes - replaced
            entries.groups[key.path] = (key, picture)
        }
        return picture
    }

    /// Keeps `image` when it fits the byte limit and `insert` takes it (returns true).
    private func store(_ image: Image, _ insert: (inout Entries) -> Bool) {
        let bytes = image.bytesPerRow * image.height
        entries.withLock { entries in
            guard entries.bytes + bytes <= byteLimit, insert(&entries) else { return }
            entries.bytes += bytes
        }
    }
}
