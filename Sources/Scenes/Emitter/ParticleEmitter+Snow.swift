import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ParticleEmitter {
    /// Snow over a `width` × `height` point area: soft white dots of 3.6 to 10.8 points falling from a line just
    /// above the top at 25 to 55 points a second, spread ±15° about straight down (each flake drifts its own way)
    /// on a slight breeze to the right, 70 to 100 % opaque. Each flake lives long enough for the slowest to pass
    /// the bottom, and the emitter has already run that long at time 0, so the first frame is full of snow.
    /// 0.025 flakes are born per point of line a second, so the density is the same at any size (390 × 844: about
    /// 510 alive, 170 of them on screen).
    public static func snow(width: Double, height: Double, seed: UInt32 = 1) -> ParticleEmitter {
        // The slowest flake's downward speed (25 points a second, 15° off vertical), its acceleration, the line's y.
        let (fall, acceleration, top) = (25 * cos(Double.pi / 12), 1.0, -12.0)
        // The slowest flake passes the bottom when fall·t + a·t²/2 = height − top.
        let distance = max(bounded(height), 0) - top
        let lifetime = (-fall + (fall * fall + 2 * acceleration * distance).squareRoot()) / acceleration
        var flake = EmitterCell(contents: .image(softDot))
        flake.name = "snowflake"
        flake.contentsScale = 2
        flake.lifetime = lifetime
        flake.velocity = 40
        flake.velocityRange = 15
        flake.emissionLongitude = .pi / 2
        flake.emissionRange = .pi / 6
        flake.xAcceleration = 0.5
        flake.yAcceleration = acceleration
        flake.scale = 0.3
        flake.scaleRange = 0.15
        flake.color = RGBAColor(white: 1, alpha: 0.85)
        flake.alphaRange = 0.15
        var emitter = ParticleEmitter(cells: [flake])
        emitter.emitterShape = .line
        emitter.emitterPosition = Point(x: max(bounded(width), 0) / 2, y: top)
        // Wider than the area by what a flake drifting 10 points a second sideways covers in its life, so as many
        // drift in over each edge as drift out.
        emitter.emitterSize = Size(width: max(bounded(width), 0) + 20 * lifetime, height: 0)
        flake.birthRate = 0.025 * emitter.emitterSize.width
        emitter.emitterCells = [flake]
        emitter.seed = seed
        emitter.timeOffset = lifetime
        return emitter
    }

    /// A white dot 48 pixels across whose alpha falls smoothly from the centre to 0 at the rim, (1 − r²)²: a
    /// flake with no hard edge at any size.
    public static let softDot: Image = {
        let size = 48
        let image = Image(width: size, height: size)
        let radius = Double(size) / 2
        for y in 0..<size {
            let row = image.row(y)
            for x in 0..<size {
                let dx = (Double(x) + 0.5 - radius) / radius
                let dy = (Double(y) + 0.5 - radius) / radius
                let falloff = max(1 - (dx * dx + dy * dy), 0)
                let value = UInt8((falloff * falloff * 255).rounded())
                for channel in 0..<Image.bytesPerPixel { row[x * Image.bytesPerPixel + channel] = value }
            }
        }
        return image
    }()
}
