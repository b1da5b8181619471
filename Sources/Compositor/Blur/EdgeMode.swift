/// What a blur or a resampler reads beyond the edges of an image.
public enum EdgeMode: String, CaseIterable, Sendable {
    /// Reflect, repeating the edge pixel (… b a | a b c …): a uniform image stays uniform and total
    /// energy is preserved. The default, as in the CSS backdrop-filter spec.
    case mirror
    /// Repeat the edge pixel.
    case clamp
    /// Continue from the opposite edge (a tiled image).
    case wrap
    /// Transparent black beyond the edges, so blurred edges fade out.
    case transparent

    /// The index to read for position `index` of a line of `count` pixels, or -1 for transparent.
    @inline(__always)
    public func sourceIndex(_ index: Int, count: Int) -> Int {
        if index >= 0 && index < count { return index }
        switch self {
        case .clamp:
            return index < 0 ? 0 : count - 1
        case .wrap:
            let m = index % count
            return m < 0 ? m + count : m
        case .mirror:
            let period = 2 * count
            var m = index % period
            if m < 0 { m += period }
            return m < count ? m : period - 1 - m
        case .transparent:
            return -1
        }
    }
}
