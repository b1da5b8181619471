import Compositor

/// A particle system as Core Animation's `CAEmitterLayer` draws one: cells emit particles from a point, a line or
/// a rectangle, and each particle moves, grows, spins and fades by its cell's numbers.
///
/// The emitter is evaluated in closed form at `time`, never stepped: particle i of a cell is born at
/// i / birth rate, its random draws come from a hash of (seed, cell, i), and its state at an age is a formula of
/// that age. So a frame alone equals that frame of a whole animation, on any thread count. Names, units and
/// defaults are Core Animation's (points, seconds, radians; y points down as in UIKit); `Scene.snapshot(at:)` sets
/// `time`, and an emitter layer draws as a group of its particles (`particleLayers()`), oldest first. Particles
/// are not clipped to the layer's frame, but the frame must not be empty (a `CAEmitterLayer` is often zero-sized;
/// here leave the frame out to fill the parent, or give the area the particles fall through).
public struct ParticleEmitter: Equatable, Sendable {
    /// Where particles start (`CAEmitterLayerEmitterShape`): about `emitterPosition`, `emitterSize` wide and high.
    public enum Shape: String, CaseIterable, Sendable {
        /// At the position itself.
        case point
        /// On a horizontal line `emitterSize.width` long centred on the position.
        case line
        /// In or on a rectangle of `emitterSize` centred on the position (see `Mode`).
        case rectangle
    }

    /// Which part of the shape emits (`CAEmitterLayerEmitterMode`).
    public enum Mode: String, CaseIterable, Sendable {
        /// Its vertices: a line's two ends, a rectangle's four corners.
        case points
        /// Its edges: along a line, around a rectangle's perimeter.
        case outline
        /// Its inside (a 2D shape has no volume, so `volume` is the same).
        case surface
        /// Core Animation's default: as `surface` for these shapes.
        case volume
    }

    public var emitterPosition = Point.zero
    public var emitterSize = Size.zero
    public var emitterShape: Shape = .point
    public var emitterMode: Mode = .volume
    /// Multiplies every cell's birth rate.
    public var birthRate = 1.0
    /// Multiplies every cell's lifetime (and its range).
    public var lifetime = 1.0
    /// Chooses the particles' random draws; two emitters with the same numbers and seed draw the same particles.
    public var seed: UInt32 = 0
    public var emitterCells: [EmitterCell] = []
    /// The moment drawn, in seconds of the scene's time (`Scene.snapshot(at:)` sets it).
    public var time = 0.0
    /// How long the emitter has already run at time 0 (as a past `beginTime` or a `timeOffset` prewarms a
    /// `CAEmitterLayer`): with 0 the first frame is empty, as a new emitter's is.
    public var timeOffset = 0.0

    /// The most particles alive at once over all cells: an emitter that would keep more (birth rate times
    /// lifetime) has every birth rate scaled down in proportion, so a hostile one costs bounded work and memory.
    public static let maximumParticles = 10_000
    /// Numbers beyond ±10⁹ (and non-finite ones, which count as 0) are clamped there, so products stay finite.
    static let largestMagnitude = 1e9

    public init(cells: [EmitterCell] = []) {
        emitterCells = cells
    }
}

/// One kind of particle an emitter makes, as `CAEmitterCell`: every number has Core Animation's default, so a
/// new cell (birth rate 0, no contents) emits nothing. A `…Range` widens its number uniformly to ± the range.
public struct EmitterCell: Equatable, Sendable {
    /// What a particle shows.
    public enum Contents: Sendable {
        /// A picture, `width / contentsScale` × `height / contentsScale` points at scale 1, tinted by `color`.
        case image(Image)
        /// A filled circle of this diameter in points at scale 1, its colour times the cell's `color`.
        case circle(diameter: Double, color: RGBAColor)
    }

    /// Nil (Core Animation's default): particles are born and move but show nothing.
    public var contents: Contents?
    /// Image pixels per point (`contentsScale`).
    public var contentsScale = 1.0
    /// Particles per second (times the emitter's `birthRate`).
    public var birthRate = 0.0
    /// Seconds a particle lives (times the emitter's `lifetime`), ± `lifetimeRange`.
    public var lifetime = 0.0
    public var lifetimeRange = 0.0
    /// Points per second at birth, ± `velocityRange`.
    public var velocity = 0.0
    public var velocityRange = 0.0
    /// The direction of emission in radians: 0 along +x, π/2 along +y (down).
    public var emissionLongitude = 0.0
    /// The width of the cone of directions, in radians, centred on `emissionLongitude` (2π: every direction).
    public var emissionRange = 0.0
    /// Points per second squared.
    public var xAcceleration = 0.0
    public var yAcceleration = 0.0
    /// The size at birth relative to the contents, ± `scaleRange`, changing by `scaleSpeed` per second (never
    /// below 0).
    public var scale = 1.0
    public var scaleRange = 0.0
    public var scaleSpeed = 0.0
    /// Radians per second, ± `spinRange`; particles are born upright.
    public var spin = 0.0
    public var spinRange = 0.0
    /// Tints the contents; its alpha (± `alphaRange`, changing by `alphaSpeed` per second, clamped to 0...1) is
    /// the particle's opacity.
    public var color = RGBAColor.white
    public var alphaRange = 0.0
    public var alphaSpeed = 0.0
    /// A label for messages; not drawn.
    public var name: String?

    public init(contents: Contents? = nil) {
        self.contents = contents
    }
}
