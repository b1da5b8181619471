/// The spring equation m·x″ + c·x′ + k·(x − 1) = 0 from x(0) = 0, x′(0) = v₀, integrated by classical
/// Runge–Kutta with a fine step: an oracle for springs that involves no closed form and none of the library's
/// code, only the equation's numbers.
public enum SpringIntegration {
    public static func position(
        mass m: Double, stiffness k: Double, damping c: Double, initialVelocity: Double, at end: Double,
        steps: Int = 200_000
    ) -> Double {
        var (x, v) = (0.0, initialVelocity)
        let h = end / Double(steps)
        func acceleration(_ x: Double, _ v: Double) -> Double { (-c * v - k * (x - 1)) / m }
        for _ in 0..<steps {
            let (k1x, k1v) = (v, acceleration(x, v))
            let (k2x, k2v) = (v + h / 2 * k1v, acceleration(x + h / 2 * k1x, v + h / 2 * k1v))
            let (k3x, k3v) = (v + h / 2 * k2v, acceleration(x + h / 2 * k2x, v + h / 2 * k2v))
            let (k4x, k4v) = (v + h * k3v, acceleration(x + h * k3x, v + h * k3v))
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return x
    }
}
