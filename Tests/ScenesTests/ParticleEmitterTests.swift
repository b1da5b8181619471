import Motion
import TestSupport
import XCTest

@testable import Compositor
@testable import Scenes

/// The emitter's particles in closed form: reproducible from a seed, the same frame however it is reached.
final class ParticleEmitterTests: XCTestCase {
    /// Two cells from a line: soft dots falling and spinning squares of a tinted picture rising, fading.
    private func emitter(seed: UInt32 = 7) -> ParticleEmitter {
        var dots = EmitterCell(contents: .circle(diameter: 3, color: RGBAColor(red: 1, green: 0.9, blue: 0.8)))
        dots.birthRate = 40
        dots.lifetime = 1.5
        dots.lifetimeRange = 0.5
        dots.velocity = 20
        dots.velocityRange = 10
        dots.emissionLongitude = .pi / 2
        dots.emissionRange = .pi / 3
        dots.yAcceleration = 15
        dots.scaleRange = 0.5
        dots.alphaRange = 0.2
        var squares = EmitterCell(contents: .image(TestImages.photoLike(width: 6, height: 6, seed: 3)))
        squares.birthRate = 10
        squares.lifetime = 2
        squares.velocity = 15
        squares.emissionLongitude = -.pi / 2
        squares.emissionRange = .pi
        squares.spin = 2
        squares.spinRange = 1
        squares.scaleSpeed = -0.2
        squares.alphaSpeed = -0.4
        squares.color = RGBAColor(red: 0.5, green: 1, blue: 0.7)
        var emitter = ParticleEmitter(cells: [dots, squares])
        emitter.emitterShape = .line
        emitter.emitterPosition = Point(x: 40, y: 16)
        emitter.emitterSize = Size(width: 60, height: 0)
        emitter.seed = seed
        emitter.timeOffset = 1
        return emitter
    }

    /// The emitter at the bottom, a static dim and a backdrop above it.
    private func scene(_ emitter: ParticleEmitter, fadeIn: Bool = true) -> Scene {
        var layer = Layer.emitter(emitter, frame: Rect(x: 10, y: 0, width: 60, height: 32))
        if fadeIn {
            layer.animations = [
                LayerAnimation(.opacity(from: 0, to: 1), timing: AnimationTiming(curve: .linear, duration: 0.5))
            ]
        }
        return Scene(
            width: 80, height: 32, background: .black,
            layers: [
                layer, .color(.white, frame: Rect(x: 0, y: 0, width: 8, height: 8), opacity: 0.3),
                // Over particles that leave the emitter's frame: its material must not be served from the cache.
                .backdrop(
                    MaterialRecipe(blurPoints: 1.5, saturation: 1.2), frame: Rect(x: 0, y: 10, width: 16, height: 20)),
            ])
    }

    func testASeedDecidesTheParticles() throws {
        let renderer = SceneRenderer(threads: 1)
        var a = emitter()
        var b = emitter()
        var other = emitter(seed: 8)
        (a.time, b.time, other.time) = (0.7, 0.7, 0.7)
        XCTAssertGreaterThan(a.particles().count, 40)
        XCTAssertEqual(a.particles(), b.particles())
        XCTAssertNotEqual(a.particles(), other.particles())
        let first = try renderer.render(scene(a, fadeIn: false))
        XCTAssertTrue(first.hasSamePixels(as: try renderer.render(scene(b, fadeIn: false))))
        XCTAssertFalse(first.hasSamePixels(as: try renderer.render(scene(other, fadeIn: false))))
    }

    func testParticlesAreOldestFirstAndAlive() {
        var emitter = emitter()
        emitter.time = 2.25
        let particles = emitter.particles()
        XCTAssertEqual(particles.map(\.birthTime), particles.map(\.birthTime).sorted())
        for particle in particles {
            XCTAssertGreaterThanOrEqual(particle.age, 0)
            XCTAssertLessThan(particle.age, 2)
            XCTAssertEqual(particle.birthTime + particle.age, 3.25, accuracy: 1e-9, "born before now")
            XCTAssertTrue((0...1).contains(particle.opacity))
        }
        // At the emitter's own time 0 one particle per cell is being born; before it, none.
        emitter.timeOffset = 0
        emitter.time = 0
        XCTAssertEqual(emitter.particles().map(\.age), [0, 0])
        emitter.time = -1
        XCTAssertEqual(emitter.particles(), [])
    }

    /// A frame drawn alone equals that frame of the whole animation, on 1, 2 and 3 threads, although the
    /// emitter is the bottom layer (it must never be taken for a static base).
    func testFramesAloneEqualTheAnimationOnAnyThreadCount() throws {
        let scene = scene(emitter())
        XCTAssertTrue(scene.isAnimated)
        XCTAssertTrue(scene.staysOpaque)
        var copied = scene
        copied.layers[0].blend = .copy
        XCTAssertFalse(copied.staysOpaque, "copy replaces the canvas with the particles' transparent surround")
        XCTAssertEqual(scene.animationDuration, 0.5, "the emitter adds no duration of its own")
        let alone = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: 1))
        XCTAssertEqual(try alone.makeCache(for: scene).staticPrefix, 0)
        let count = alone.frameCount(duration: 1)
        var reference: [Image] = []
        for threads in 1...3 {
            let renderer = AnimationRenderer(framesPerSecond: 20, renderer: SceneRenderer(threads: threads))
            let frames = Locked<[Int: Image]>([:])
            try renderer.renderFrames(
                of: scene, count: count, process: { index, frame, _ in frames.withLock { $0[index] = frame.copy() } },
                deliver: { _, _ in })
            let drawn = frames.withLock { frames in (0..<count).map { frames[$0]! } }
            if reference.isEmpty {
                reference = try (0..<count).map { try alone.frame(of: scene, at: alone.time(ofFrame: $0)) }
            }
            for index in 0..<count {
                XCTAssertTrue(drawn[index].hasSamePixels(as: reference[index]), "frame \(index), \(threads) threads")
            }
        }
        XCTAssertFalse(reference[14].hasSamePixels(as: reference[15]), "the snow moves after the fade ends")
    }

    /// The closed form against stepping each particle forward from its birth (explicit Euler, step h), which
    /// lags the exact path by exactly a·h·age/2: the bound asserted, plus rounding.
    func testClosedFormMatchesStepByStepIntegration() {
        var cell = EmitterCell(contents: .circle(diameter: 2, color: .white))
        cell.birthRate = 5
        cell.lifetime = 3
        cell.velocity = 50
        cell.velocityRange = 20
        cell.emissionLongitude = 1
        cell.emissionRange = 2
        cell.xAcceleration = 7
        cell.yAcceleration = 30
        cell.scaleSpeed = 0.25
        cell.spin = 1.5
        cell.alphaSpeed = -0.2
        var emitter = ParticleEmitter(cells: [cell])
        emitter.emitterShape = .rectangle
        emitter.emitterSize = Size(width: 20, height: 10)
        emitter.emitterPosition = Point(x: 5, y: 5)
        let step = 1e-4
        var checked = 0
        for birthIndex in [0, 3, 7] {
            let birth = Double(birthIndex) / 5
            emitter.time = birth
            guard let newborn = emitter.particles().first(where: { $0.index == birthIndex }) else {
                return XCTFail("particle \(birthIndex) is born at \(birth)")
            }
            emitter.time = birth + 0.01
            let early = emitter.particles().first { $0.index == birthIndex }!
            // The velocity at birth, from two closed-form positions an instant apart (acceleration removed).
            var (vx, vy) = (
                (early.x - newborn.x - 7 * 0.01 * 0.01 / 2) / 0.01, (early.y - newborn.y - 30 * 0.01 * 0.01 / 2) / 0.01
            )
            var (x, y) = (newborn.x, newborn.y)
            let steps = 20_000
            for _ in 0..<steps {
                (x, y) = (x + vx * step, y + vy * step)
                (vx, vy) = (vx + 7 * step, vy + 30 * step)
            }
            let age = Double(steps) * step
            emitter.time = birth + age
            guard let later = emitter.particles().first(where: { $0.index == birthIndex }) else { continue }
            XCTAssertEqual(later.x, x + 7 * step * age / 2, accuracy: 1e-6, "particle \(birthIndex)")
            XCTAssertEqual(later.y, y + 30 * step * age / 2, accuracy: 1e-6, "particle \(birthIndex)")
            XCTAssertEqual(later.scale, newborn.scale + 0.25 * age, accuracy: 1e-9)
            XCTAssertEqual(later.rotation, 1.5 * age, accuracy: 1e-9)
            XCTAssertEqual(later.opacity, max(newborn.opacity - 0.2 * age, 0), accuracy: 1e-9)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0)
    }

    /// Birth velocities as Core Animation defines them, checked from positions alone (no acceleration, so a
    /// particle moves in a straight line at its birth velocity): every speed within `velocity ± velocityRange`,
    /// every direction within `emissionLongitude ± emissionRange / 2` (y down: π/2 falls), spread over both.
    func testBirthVelocitiesSpanTheCellsSpeedAndCone() {
        var cell = EmitterCell(contents: .circle(diameter: 2, color: .white))
        (cell.birthRate, cell.lifetime, cell.velocity, cell.velocityRange) = (400, 1, 50, 20)
        (cell.emissionLongitude, cell.emissionRange) = (1, 2)
        var emitter = ParticleEmitter(cells: [cell])
        emitter.emitterPosition = Point(x: 5, y: 5)
        emitter.time = 0.5
        let now = Dictionary(uniqueKeysWithValues: emitter.particles().map { ($0.index, $0) })
        emitter.time = 0.5 + 0.125
        var speeds: [Double] = []
        var directions: [Double] = []
        for later in emitter.particles() {
            guard let earlier = now[later.index] else { continue }
            let (vx, vy) = ((later.x - earlier.x) / 0.125, (later.y - earlier.y) / 0.125)
            speeds.append((vx * vx + vy * vy).squareRoot())
            directions.append(atan2(vy, vx))
        }
        XCTAssertGreaterThan(speeds.count, 150)
        XCTAssertTrue(speeds.allSatisfy { (30 - 1e-9...70 + 1e-9).contains($0) }, "\(speeds.min()!)...\(speeds.max()!)")
        XCTAssertTrue(directions.allSatisfy { (0 - 1e-9...2 + 1e-9).contains($0) })
        XCTAssertLessThan(speeds.min()!, 33)
        XCTAssertGreaterThan(speeds.max()!, 67)
        XCTAssertLessThan(directions.min()!, 0.1)
        XCTAssertGreaterThan(directions.max()!, 1.9)
        XCTAssertEqual(speeds.reduce(0, +) / Double(speeds.count), 50, accuracy: 3)
        // Falling snow: longitude π/2 moves down the screen.
        var snow = ParticleEmitter.snow(width: 100, height: 100)
        snow.time = 3
        let before = Dictionary(uniqueKeysWithValues: snow.particles().map { ($0.index, $0.y) })
        snow.time = 3.1
        XCTAssertTrue(snow.particles().allSatisfy { particle in before[particle.index].map { particle.y > $0 } ?? true })
    }

    func testShapesAndModesPlaceBirths() {
        var cell = EmitterCell()
        cell.birthRate = 200
        cell.lifetime = 1
        var emitter = ParticleEmitter(cells: [cell])
        emitter.emitterPosition = Point(x: 10, y: 20)
        emitter.emitterSize = Size(width: 8, height: 4)
        emitter.time = 0.999
        func births(_ shape: ParticleEmitter.Shape, _ mode: ParticleEmitter.Mode) -> [(x: Double, y: Double)] {
            emitter.emitterShape = shape
            emitter.emitterMode = mode
            return emitter.particles().map { ($0.x, $0.y) }  // no velocity: where each was born
        }
        XCTAssertTrue(births(.point, .volume).allSatisfy { $0 == (10, 20) })
        XCTAssertTrue(births(.line, .outline).allSatisfy { (6...14).contains($0.x) && $0.y == 20 })
        XCTAssertTrue(births(.line, .points).allSatisfy { ($0.x == 6 || $0.x == 14) && $0.y == 20 })
        XCTAssertEqual(
            Set(births(.rectangle, .points).map { "\($0.x),\($0.y)" }),
            ["6.0,18.0", "14.0,18.0", "6.0,22.0", "14.0,22.0"])
        let inside = births(.rectangle, .surface)
        XCTAssertTrue(inside.allSatisfy { (6...14).contains($0.x) && (18...22).contains($0.y) })
        XCTAssertTrue(inside.contains { (7...13).contains($0.x) && (19...21).contains($0.y) }, "inside, not only edges")
        XCTAssertTrue(
            births(.rectangle, .outline).allSatisfy {
                (abs($0.x - 6) < 1e-9 || abs($0.x - 14) < 1e-9 || abs($0.y - 18) < 1e-9 || abs($0.y - 22) < 1e-9)
            })
    }

    /// Birth rates and lifetimes of 1e300, NaN and infinities: at most `maximumParticles` (one more per cell for
    /// rounding), evaluated at once; a particle of a hostile size is refused by the cost limits, not drawn.
    func testHostileEmittersAreBounded() throws {
        var cell = EmitterCell(contents: .circle(diameter: 1, color: .white))
        (cell.birthRate, cell.lifetime, cell.velocity, cell.spin) = (1e300, .infinity, .nan, -.infinity)
        var emitter = ParticleEmitter(cells: [cell, cell])
        (emitter.birthRate, emitter.lifetime, emitter.time) = (1e300, 1e300, 1e300)
        XCTAssertLessThanOrEqual(emitter.particles().count, ParticleEmitter.maximumParticles + 2)
        // Short lives at a hostile rate: the cap itself decides how many live.
        emitter.emitterCells[0].lifetime = 2
        emitter.emitterCells[1].lifetime = 2
        (emitter.lifetime, emitter.time) = (1, 5)
        let particles = emitter.particles()
        XCTAssertGreaterThan(particles.count, ParticleEmitter.maximumParticles * 9 / 10)
        XCTAssertLessThanOrEqual(particles.count, ParticleEmitter.maximumParticles + 2)
        XCTAssertTrue(particles.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.rotation.isFinite })
        emitter.emitterCells[0].scale = 1e300
        let scene = Scene(width: 2000, height: 2000, layers: [.emitter(emitter)])
        XCTAssertThrowsError(try SceneRenderer(threads: 1).render(scene)) { error in
            guard case .tooMuchWork = error as? SceneRenderError else { return XCTFail("\(error)") }
        }
    }

    /// The cost model counts the particles: more of them, more work; none, only the canvas.
    func testCostCountsParticles() {
        var few = emitter()
        var many = emitter()
        few.time = 0.5
        many.time = 0.5
        many.birthRate = 4
        let renderer = SceneRenderer(threads: 1)
        let empty = renderer.cost(of: Scene(width: 80, height: 32, layers: [.emitter(ParticleEmitter())])).work
        // The canvas, the emitter layer and the group it expands to.
        XCTAssertEqual(empty, 80 * 32 + 2 * SceneRenderer.operationsPerLayer)
        let fewWork = renderer.cost(of: scene(few, fadeIn: false)).work
        XCTAssertGreaterThan(fewWork, empty + 100)
        XCTAssertGreaterThan(renderer.cost(of: scene(many, fadeIn: false)).work, fewWork * 2)
    }

    /// Particles are not clipped to the emitter's frame, also inside an isolated group: the group's picture holds
    /// every particle, as the half-opaque emitter's own does.
    func testParticlesOutsideTheFrameShowInsideAGroup() throws {
        var emitter = emitter()
        emitter.time = 1
        let frame = Rect(x: 30, y: 8, width: 12, height: 12)
        let renderer = SceneRenderer(threads: 1)
        let alone = try renderer.render(
            Scene(width: 80, height: 32, background: .black, layers: [.emitter(emitter, frame: frame, opacity: 0.5)]))
        let grouped = try renderer.render(
            Scene(
                width: 80, height: 32, background: .black,
                layers: [.group([.emitter(emitter, frame: frame)], opacity: 0.5)]))
        XCTAssertTrue(grouped.hasSamePixels(as: alone))
        var outside = 0
        for y in 0..<32 {
            for x in 0..<80 where !(30..<42).contains(x) || !(8..<20).contains(y) {
                outside += alone[x, y].red > 0 ? 1 : 0
            }
        }
        XCTAssertGreaterThan(outside, 20, "particles beyond the frame")
    }

    /// A white picture tinted by the cell's colour, a circle's colour times it: one particle at the centre.
    func testColorTintsTheContents() throws {
        var cell = EmitterCell(
            contents: .image(Image(width: 4, height: 4, fill: Pixel(red: 255, green: 255, blue: 255))))
        cell.birthRate = 1
        cell.lifetime = 10
        cell.color = RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        var emitter = ParticleEmitter(cells: [cell])
        emitter.emitterPosition = Point(x: 8, y: 8)
        var scene = Scene(width: 16, height: 16, background: .black, layers: [.emitter(emitter)])
        let tinted = try SceneRenderer(threads: 1).render(scene)
        XCTAssertEqual(tinted[8, 8], Pixel(red: 128, green: 64, blue: 0))
        XCTAssertEqual(tinted[2, 2], Pixel(red: 0, green: 0, blue: 0))
        emitter.emitterCells[0].contents = .circle(diameter: 6, color: RGBAColor(red: 0.5, green: 1, blue: 1))
        scene.layers = [.emitter(emitter)]
        XCTAssertEqual(try SceneRenderer(threads: 1).render(scene)[8, 8], Pixel(red: 64, green: 64, blue: 0))
    }

    func testSnowIsFullFromTheFirstFrame() throws {
        let snow = ParticleEmitter.snow(width: 390, height: 844)
        let particles = snow.particles()
        XCTAssertTrue((450...600).contains(particles.count), "\(particles.count) flakes alive")
        let onScreen = particles.filter { (0...390).contains($0.x) && (0...844).contains($0.y) }
        XCTAssertGreaterThan(onScreen.count, 150)
        XCTAssertGreaterThan(onScreen.filter { $0.y > 600 }.count, 35, "prewarmed: flakes already near the bottom")
        let drawn = try SceneRenderer(threads: 1).render(
            Scene(width: 390, height: 844, background: .black, layers: [.emitter(snow)]))
        var white = 0
        for y in stride(from: 0, to: 844, by: 2) {
            for x in stride(from: 0, to: 390, by: 2) where drawn[x, y].red > 128 { white += 1 }
        }
        XCTAssertGreaterThan(white, 100, "white dots")
    }
}
