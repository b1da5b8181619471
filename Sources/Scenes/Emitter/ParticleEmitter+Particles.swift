import Compositor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One particle alive at the emitter's time, in the emitter layer's coordinates.
public struct Particle: Equatable, Sendable {
    /// Which of the emitter's cells made it, and its birth number in that cell (born at index / birth rate).
    public var cell: Int
    public var index: Int
    public var birthTime: Double
    public var age: Double
    /// Its centre, in points.
    public var x: Double
    public var y: Double
    public var scale: Double
    /// Radians, clockwise on screen (y down).
    public var rotation: Double
    public var opacity: Double
}

extension ParticleEmitter {
    /// The particles alive at `time`, oldest first (equal births in cell order): every particle born in
    /// [t − its lifetime, t] of the emitter's own time t = `time + timeOffset`, each from its own draws. A cell
    /// more than 2⁶² births in (a hostile birth rate over a long time) has no particles left to show.
    public func particles() -> [Particle] {
        let now = Self.bounded(time + timeOffset)
        let rates = birthRates()
        var result: [Particle] = []
        for (cellIndex, cell) in emitterCells.enumerated() {
            let rate = rates[cellIndex]
            guard let births = births(of: cell, rate: rate, now: now) else { continue }
            for index in births {
                if let particle = particle(index, of: cell, cellIndex: cellIndex, rate: rate, now: now) {
                    result.append(particle)
                }
            }
        }
        result.sort { ($0.birthTime, $0.cell) < ($1.birthTime, $1.cell) }
        return result
    }

    /// How many births `particles()` evaluates at the emitter's time (those whose lifetime has run out included),
    /// worked out without evaluating them: what the renderer's cost model charges.
    public var particlesEvaluated: Int {
        let now = Self.bounded(time + timeOffset)
        let rates = birthRates()
        return zip(emitterCells, rates).reduce(0) { $0 + (births(of: $1.0, rate: $1.1, now: now)?.count ?? 0) }
    }

    /// The birth numbers of `cell` that may be alive at emitter time `now`: births i / rate inside
    /// [now − longest lifetime, now] (rate·longest ≤ maximumParticles keeps the range short); nil when none.
    private func births(of cell: EmitterCell, rate: Double, now: Double) -> ClosedRange<Int>? {
        let longest = maximumLifetime(of: cell)
        guard rate > 0, longest > 0, now >= 0 else { return nil }
        let first = max(0, ((now - longest) * rate).rounded(.up))
        let last = (now * rate).rounded(.down)
        guard first <= last, last < 0x1p62 else { return nil }
        return Int(first)...Int(last)
    }

    /// Each cell's particles per second, scaled down together when they would keep more than `maximumParticles`
    /// alive at once.
    func birthRates() -> [Double] {
        let rates = unscaledBirthRates
        let alive = liveParticleBound
        let limit = Double(ParticleEmitter.maximumParticles)
        return alive > limit ? rates.map { $0 * (limit / alive) } : rates
    }

    /// The most particles alive at once as the numbers ask (birth rate times longest lifetime, over the cells),
    /// before `maximumParticles` scales the birth rates down.
    public var liveParticleBound: Double {
        zip(unscaledBirthRates, emitterCells).reduce(0.0) { $0 + $1.0 * maximumLifetime(of: $1.1) }
    }

    private var unscaledBirthRates: [Double] {
        emitterCells.map { max(Self.bounded(birthRate) * Self.bounded($0.birthRate), 0) }
    }

    /// The longest a particle of `cell` can live.
    func maximumLifetime(of cell: EmitterCell) -> Double {
        max((Self.bounded(cell.lifetime) + Self.bounded(cell.lifetimeRange).magnitude) * Self.bounded(lifetime), 0)
    }

    /// Particle `index` of a cell at the emitter's time `now`; nil once it has died.
    private func particle(
        _ index: Int, of cell: EmitterCell, cellIndex: Int, rate: Double, now: Double
    )
        -> Particle?
    {
        let draws = Draws(seed: seed, cell: cellIndex, index: index)
        let birth = Double(index) / rate
        let age = now - birth
        let life =
            (Self.bounded(cell.lifetime) + Self.bounded(cell.lifetimeRange) * draws.signed(.lifetime))
            * Self.bounded(lifetime)
        guard age >= 0, age < life else { return nil }
        let start = origin(draws)
        let speed = Self.bounded(cell.velocity) + Self.bounded(cell.velocityRange) * draws.signed(.speed)
        let angle =
            Self.bounded(cell.emissionLongitude)
            + Self.bounded(cell.emissionRange) * (draws.unit(.direction) - 0.5)
        let (ax, ay) = (Self.bounded(cell.xAcceleration), Self.bounded(cell.yAcceleration))
        let scale =
            Self.bounded(cell.scale) + Self.bounded(cell.scaleRange) * draws.signed(.scale)
            + Self.bounded(cell.scaleSpeed) * age
        let spin = Self.bounded(cell.spin) + Self.bounded(cell.spinRange) * draws.signed(.spin)
        let alpha =
            Self.bounded(cell.color.alpha) + Self.bounded(cell.alphaRange) * draws.signed(.alpha)
            + Self.bounded(cell.alphaSpeed) * age
        return Particle(
            cell: cellIndex, index: index, birthTime: birth, age: age,
            x: start.x + speed * cos(angle) * age + ax * age * age / 2,
            y: start.y + speed * sin(angle) * age + ay * age * age / 2,
            scale: max(scale, 0), rotation: spin * age, opacity: min(max(alpha, 0), 1))
    }

    /// Where a particle is born on the emitter's shape.
    private func origin(_ draws: Draws) -> (x: Double, y: Double) {
        let (x, y) = (Self.bounded(emitterPosition.x), Self.bounded(emitterPosition.y))
        let (width, height) = (Self.bounded(emitterSize.width), Self.bounded(emitterSize.height))
        let (u, v) = (draws.unit(.positionX), draws.unit(.positionY))
        switch (emitterShape, emitterMode) {
        case (.point, _): return (x, y)
        case (.line, .points): return (x + (u < 0.5 ? -width : width) / 2, y)
        case (.line, _): return (x + (u - 0.5) * width, y)
        case (.rectangle, .points):
            let corner = min(Int(u * 4), 3)
            return (x + (corner & 1 == 0 ? -width : width) / 2, y + (corner < 2 ? -height : height) / 2)
        case (.rectangle, .outline):
            // A point along the perimeter, clockwise from the top left corner.
            let (w, h) = (width.magnitude, height.magnitude)
            var along = u * 2 * (w + h)
            let (left, top) = (x - w / 2, y - h / 2)
            if along < w { return (left + along, top) }
            along -= w
            if along < h { return (left + w, top + along) }
            along -= h
            if along < w { return (left + w - along, top + h) }
            return (left, top + h - (along - w))
        case (.rectangle, .surface), (.rectangle, .volume): return (x + (u - 0.5) * width, y + (v - 0.5) * height)
        }
    }

    /// A number as the emitter uses it: finite, within ±`largestMagnitude` (NaN counts as 0).
    static func bounded(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, -largestMagnitude), largestMagnitude)
    }
}

/// A particle's random numbers: a counter-based hash (SplitMix64's finaliser) of the seed, the cell, the particle
/// and which number, so no particle's draws depend on another's or on the order they are evaluated in.
struct Draws {
    enum Slot: UInt64 {
        case lifetime = 1
        case positionX, positionY, speed, direction, scale, spin, alpha
    }

    let key: UInt64

    init(seed: UInt32, cell: Int, index: Int) {
        let cellKey = Draws.mix(Draws.mix(UInt64(seed)) &+ UInt64(truncatingIfNeeded: cell))
        key = Draws.mix(cellKey &+ UInt64(truncatingIfNeeded: index))
    }

    /// Uniform in [0, 1), 53 bits.
    func unit(_ slot: Slot) -> Double {
        Double(Draws.mix(key &+ slot.rawValue &* 0xD1B5_4A32_D192_ED03) >> 11) * 0x1p-53
    }

    /// Uniform in [−1, 1).
    func signed(_ slot: Slot) -> Double { 2 * unit(slot) - 1 }

    /// SplitMix64: the golden-ratio increment, then its finaliser.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
