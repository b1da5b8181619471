/// The spring equation m·x″ + c·x′ + k·(x − target) = 0, integrated by classical Runge–Kutta with a fine step:
/// an oracle for springs that involves no closed form and none of the library's code, only the equation's numbers.
public enum SpringIntegration {
    /// The position `end` seconds after release from x(0) = 0, x′(0) = v₀, towards 1.
    public static func position(
        mass m: Double, stiffness k: Double, damping c: Double, initialVelocity: Double, at end: Double,
        steps: Int = 200_000
    ) -> Double {
        motion(
            mass: m, stiffness: k, damping: c, from: 0, velocity: initialVelocity, target: 1, over: end,
            steps: steps
        ).position
    }

    /// Position and velocity `duration` seconds after release from `start` at `velocity`, towards `target`.
    public static func motion(
        mass m: Double, stiffness k: Double, damping c: Double, from start: Double, velocity: Double,
        target: Double, over duration: Double, steps: Int = 200_000
    ) -> (position: Double, velocity: Double) {
        var (x, v) = (start, velocity)
        let h = duration / Double(steps)
        func acceleration(_ x: Double, _ v: Double) -> Double { (-c * v - k * (x - target)) / m }
        for _ in 0..<steps {
            let (k1x, k1v) = (v, acceleration(x, v))
            let (k2x, k2v) = (v + h / 2 * k1v, acceleration(x + h / 2 * k1x, v + h / 2 * k1v))
            let (k3x, k3v) = (v + h / 2 * k2v, acceleration(x + h / 2 * k2x, v + h / 2 * k2v))
            let (k4x, k4v) = (v + h * k3v, acceleration(x + h * k3x, v + h * k3v))
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return (x, v)
    }
}
