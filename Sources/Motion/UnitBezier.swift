/// A cubic Bézier from (0, 0) to (1, 1) through two control points, solved for y at a given x as the
/// browsers solve CSS `cubic-bezier()` and Core Animation's timing functions.
///
/// The solver follows WebKit's `Source/WebCore/platform/graphics/UnitBezier.h` and Chromium's
/// `ui/gfx/geometry/cubic_bezier.cc`: polynomial coefficients from the control points, an initial guess
/// interpolated from a table of 11 samples of x(t), a few Newton steps, then bisection within the sampled
/// bracket when Newton stalls. Outside [0, 1] the curve continues as a straight line with the end slopes
/// (Chromium's `start_gradient_` / `end_gradient_` rules), so a caller that overshoots gets a value, not a trap.
package struct UnitBezier: Sendable, Equatable {
    let x1, y1, x2, y2: Double

    /// x(t) = ((ax·t + bx)·t + cx)·t, and the same for y: the Bernstein form with its end points fixed.
    private let ax, bx, cx, ay, by, cy: Double
    private let startGradient, endGradient: Double
    /// x at t = 0, 0.1, …, 1: the table the initial guess interpolates in (Chromium's `spline_samples_`).
    private let samples: [Double]

    /// The tolerance in x of WebKit's and Chromium's solvers (`kBezierEpsilon`).
    static let epsilon = 1e-7
    private static let sampleCount = 11
    private static let newtonIterations = 4
    /// Bisection halves [0, 1] to below `epsilon` in 24 steps; the cap only guarantees the loop ends.
    private static let bisectionLimit = 64

    /// Control points as CSS gives them; x1 and x2 must lie in [0, 1] (the parser checks) so that x(t) is
    /// monotone and each x has one t.
    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by

        if x1 > 0 {
            startGradient = y1 / x1
        } else if y1 == 0 && x2 > 0 {
            startGradient = y2 / x2
        } else if y1 == 0 && y2 == 0 {
            startGradient = 1
        } else {
            startGradient = 0
        }
        if x2 < 1 {
            endGradient = (y2 - 1) / (x2 - 1)
        } else if y2 == 1 && x1 < 1 {
            endGradient = (y1 - 1) / (x1 - 1)
        } else if y2 == 1 && y1 == 1 {
            endGradient = 1
        } else {
            endGradient = 0
        }
        let (a, b, c) = (ax, bx, cx)
        samples = (0..<UnitBezier.sampleCount).map { index in
            let t = Double(index) / Double(UnitBezier.sampleCount - 1)
            return ((a * t + b) * t + c) * t
        }
    }

    package static func == (lhs: UnitBezier, rhs: UnitBezier) -> Bool {
        (lhs.x1, lhs.y1, lhs.x2, lhs.y2) == (rhs.x1, rhs.y1, rhs.x2, rhs.y2)
    }

    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// y at `x`: exact at the end points, the solved curve inside, the end slopes' lines outside.
    func value(atX x: Double) -> Double {
        if x <= 0 { return x == 0 ? 0 : startGradient * x }
        if x >= 1 { return x == 1 ? 1 : 1 + endGradient * (x - 1) }
        return sampleY(solveT(forX: x))
    }

    /// The parameter t in [0, 1] whose x(t) is within `epsilon` of `x` (which must lie in (0, 1)).
    func solveT(forX x: Double) -> Double {
        var lower = 0.0
        var upper = 1.0
        var t = x
        let step = 1 / Double(UnitBezier.sampleCount - 1)
        for index in 1..<UnitBezier.sampleCount where x <= samples[index] {
            upper = step * Double(index)
            lower = upper - step
            let span = samples[index] - samples[index - 1]
            t = span > 0 ? lower + step * (x - samples[index - 1]) / span : lower
            break
        }

        var newton = t
        for _ in 0..<UnitBezier.newtonIterations {
            let error = sampleX(newton) - x
            if abs(error) < UnitBezier.epsilon { return newton }
            let slope = sampleDerivativeX(newton)
            if abs(slope) < UnitBezier.epsilon { break }
            newton -= error / slope
        }
        if newton >= lower && newton <= upper && abs(sampleX(newton) - x) < UnitBezier.epsilon { return newton }

        // x(t) is monotone for x1, x2 in [0, 1], so the sampled bracket holds the answer.
        t = (lower + upper) / 2
        for _ in 0..<UnitBezier.bisectionLimit {
            let sampled = sampleX(t)
            if abs(sampled - x) < UnitBezier.epsilon { return t }
            if x > sampled { lower = t } else { upper = t }
            t = (lower + upper) / 2
        }
        return t
    }
}
