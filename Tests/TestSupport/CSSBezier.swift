/// CSS's cubic Bézier timing function, evaluated without the library's solver: y of the curve (0, 0), (x1, y1),
/// (x2, y2), (1, 1) where its x is `x`, the parameter found by bisection (100 halvings).
public func cssBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
    func point(_ a: Double, _ b: Double, _ s: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
    }
    var (low, high) = (0.0, 1.0)
    for _ in 0..<100 {
        let middle = (low + high) / 2
        if point(x1, x2, middle) < x { low = middle } else { high = middle }
    }
    return point(y1, y2, (low + high) / 2)
}
