import Compositor

/// Why a scene was not drawn.
public enum SceneRenderError: Error, Equatable, CustomStringConvertible {
    /// The pixels it would hold at once (canvas, nested isolation pictures, a layer's intermediate) exceed
    /// the limit, in bytes.
    case tooMuchMemory(needed: Int, limit: Int)
    /// The pixel work it would take exceeds the limit (see `SceneRenderer.Cost.work`).
    case tooMuchWork(needed: Double, limit: Double)
    /// The system refused memory for the canvas or an isolated group's picture.
    case outOfMemory(PixelMemory.Failure)
    /// An animation with more frames than `AnimationRenderer.Limits.maximumFrames`.
    case tooManyFrames(count: Int, limit: Int)
    /// An animation whose frames' work together exceed the limit (`AnimationRenderer.Limits.workFactor` times one
    /// scene's), counted before any is drawn.
    case tooMuchAnimationWork(frames: Int, limit: Double)
    /// An animation whose one frame in flight, with the frames waiting their turn and the cache of what does not
    /// move, needs more pixel memory than the limit, in bytes.
    case tooMuchAnimationMemory(needed: Int, limit: Int)

    public var description: String {
        func mebibytes(_ bytes: Int) -> String { "\(bytes >> 20) MiB" }
        switch self {
        case .tooMuchMemory(let needed, let limit):
            return "the scene needs \(mebibytes(needed)) of pixels at once (canvas, nested isolated groups and "
                + "layer pictures); the limit is \(mebibytes(limit))"
        case .tooMuchWork(let needed, let limit):
            return "the scene would take \(Int(needed / 1e6)) million pixel operations to draw (its layers' "
                + "areas weighted by what each costs, its layers and particles); the limit is \(Int(limit / 1e6)) "
                + "million"
        case .outOfMemory(let failure):
            return "the scene could not be drawn: \(failure)"
        case .tooManyFrames(let count, let limit):
            return "the animation has \(count) frames; the limit is \(limit) (give a shorter duration or fewer "
                + "frames per second)"
        case .tooMuchAnimationWork(let frames, let limit):
            return "the animation's \(frames) frames would take more than \(Int(limit / 1e6)) million pixel "
                + "operations to draw and encode (its layers' areas, layers, particles and animations, and the "
                + "encoder's work, frame by frame); give a shorter duration, fewer frames per second or a faster "
                + "encoding"
        case .tooMuchAnimationMemory(let needed, let limit):
            return "the animation needs \(mebibytes(needed)) of pixels at once (a frame being drawn, the frames "
                + "waiting their turn and the cache of what does not move); the limit is \(mebibytes(limit))"
        }
    }
}

extension SceneRenderer {
    /// What drawing a scene takes, worked out from its geometry before any pixel is allocated.
    public struct Cost: Equatable, Sendable {
        /// The most bytes of pixels held at once: the canvas, every isolation picture along the deepest chain of
        /// nested isolated groups, and the largest intermediate one layer makes inside them (a resampled image,
        /// a backdrop's material and its blur's scratch).
        public var peakBytes = 0
        /// Pixel operations, each layer's drawn area weighted by its kind: 1 for a fill (2 with an
        /// anti-aliased mask), 4 to 980 for an image (by how it is resampled, see `operationsPerPixel`) plus
        /// the picture's own pixels, 6 for a backdrop (blur, tint and the margin it reads), 2 more for each
        /// isolated group's composite; and what drawing costs besides pixels: `operationsPerLayer` for every layer,
        /// drawn or not, and `operationsPerParticle` for every particle an emitter evaluates, on the canvas or off
        /// it. The weights are costs relative to a fill's pixel, measured on one core of the project's machines,
        /// so `work` compares scenes by drawing time without depending on the machine.
        public var work = 0.0
    }

    /// Bounds on what a scene may cost, checked before drawing: a hostile or mistaken scene (9,999
    /// full-screen layers, 30 nested groups that each isolate a 16× canvas) is refused at once, not drawn for
    /// minutes or until memory runs out.
    public struct Limits: Equatable, Sendable {
        /// Bytes of pixels held at once (default 4 GiB: 30 canvases of 1170×2532 pixels, or a 100 MP canvas
        /// with two nested isolated groups).
        public var peakBytes: Int
        /// Weighted pixel operations (default 10¹⁰: 250 times the review screen at 1170×2532, or 3,300
        /// full-screen dims or 560 full-screen backdrops there).
        public var work: Double

        public init(peakBytes: Int = 4 << 30, work: Double = 1e10) {
            self.peakBytes = peakBytes
            self.work = work
        }

        /// No limits: for callers that bound their scenes themselves.
        public static let unlimited = Limits(peakBytes: .max, work: .infinity)

        func check(_ cost: Cost) throws(SceneRenderError) {
            guard cost.peakBytes <= peakBytes else {
                throw .tooMuchMemory(needed: cost.peakBytes, limit: peakBytes)
            }
            guard cost.work <= work else { throw .tooMuchWork(needed: cost.work, limit: work) }
        }
    }

    /// What the layers and particles of `scene` cost before any pixel is touched, from their numbers alone (no
    /// layer placed, no particle evaluated): a scene they put over the work limit is refused at once.
    static func evaluationWork(of scene: Scene) -> Double {
        let layers = scene.layers.reduce(0) { $0 + $1.layerAndAnimationCounts.layers }
        let particles = scene.layers.flatMap(\.emitters).reduce(0) { $0 + $1.particlesEvaluated }
        return Double(layers) * operationsPerLayer + Double(particles) * operationsPerParticle
    }

    /// What drawing `scene` would take (the renderer's `limits` are not applied): its frame planned as
    /// drawing plans it (`FramePlan`).
    public func cost(of scene: Scene) -> Cost { plan(scene).cost }

    /// What placing and drawing one layer costs besides its pixels, in fills' pixels: 9,999 one-pixel colour
    /// layers took 12.8 ms on one core (1.28 µs a layer, about 1,000 fill pixels at 1.22 ns: 200 full 1000×1000
    /// translucent fills took 245 ms); off the canvas, 1.03 µs.
    public static let operationsPerLayer = 1_000.0
    /// What evaluating one particle costs, in fills' pixels (besides the layer it is drawn as): 200,000
    /// particles falling off a 10×10 canvas took 440 ms on one core, 2.2 µs a particle.
    public static let operationsPerParticle = 2_000.0
    /// What one element of a path layer costs to flatten and accumulate, in fills' pixels, beyond the pixels it
    /// covers: on one core (release, the AVX2 machine), 200,000 line segments took 19 ms (95 ns each) and 100,000
    /// small cubics 29–37 ms (about 300 ns, a few lines each); counted as the cubic's 250 fill pixels.
    public static let operationsPerPathElement = 250.0
    /// What a gradient's colour costs per pixel, in fills' pixels (its parameter and stops in Double, one pixel
    /// at a time): a 1000 × 1000 path under a three-stop linear gradient took 35–40 ms against 6 ms with a colour,
    /// one core, release (about 25 fill pixels a pixel).
    public static let operationsPerGradientPixel = 30.0

    /// Pixel operations per drawn pixel of an image layer, relative to a fill's 1 as measured on one core: a
    /// separable resize about 4; an affine warp through the fixed-point bilinear kernel about 6; through the general
    /// Float kernel about 5 per filter tap (a magnified 10° rotation with Lanczos-3 spans up to 8 × 8 taps: about
    /// 320 a pixel). A minifying warp shrinks the picture first, so its filter spans at most about two source
    /// pixels an axis.
    static func operationsPerPixel(resampling t: AffineTransform2D, filter: ResampleFilter) -> Double {
        if t.b == 0, t.c == 0, t.a > 0, t.d > 0 { return 4 }
        guard let inverse = t.inverted() else { return 0 }
        let stretch = AffineWarp.stretch(inverse)
        if filter == .bilinear, stretch == (1, 1) { return 6 }
        let tapsX = (2 * filter.support * min(stretch.x, 2)).rounded(.down) + 2
        let tapsY = (2 * filter.support * min(stretch.y, 2)).rounded(.down) + 2
        return tapsX * tapsY * 5
    }
}

