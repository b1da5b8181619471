/// The separable blend modes of W3C Compositing and Blending Level 1 (§ 10.3), which tints use.
public enum BlendMode: String, CaseIterable, Sendable {
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color-dodge"
    case colorBurn = "color-burn"
    case hardLight = "hard-light"
    case softLight = "soft-light"
    case difference, exclusion

    /// B(Cb, Cs) for one straight-alpha component in 0...1 (Cb the backdrop, Cs the source).
    @inline(__always)
    public func blend(backdrop cb: Float, source cs: Float) -> Float {
        switch self {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return BlendMode.hardLight.blend(backdrop: cs, source: cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs >= 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb >= 1 { return 1 }
            if cs <= 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5 ? cb * 2 * cs : BlendMode.screen.blend(backdrop: cb, source: 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        }
    }
}
