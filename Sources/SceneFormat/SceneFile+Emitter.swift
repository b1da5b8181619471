import Compositor
import Scenes

/// Emitter layers: particles as a `CAEmitterLayer` makes them (`ParticleEmitter`), with Core Animation's names.
///
///     { "type": "emitter", "preset": "snow", "seed": 7 }
///     { "type": "emitter", "emitterShape": "line", "emitterPosition": [195, -10], "emitterSize": [390, 0],
///       "emitterCells": [ { "image": "flake.png", "birthRate": 10, "lifetime": 20, "velocity": 40,
///                           "emissionLongitude": 90, "emissionRange": 30, "scale": 0.3, "scaleRange": 0.1 } ] }
///
/// Layer keys: `preset` ("snow": `ParticleEmitter.snow` over the layer's frame, which the other keys then
/// override; `emitterCells` replaces its flake), `emitterPosition` and `emitterSize` ([x, y] and [width, height]
/// points in the layer's frame), `emitterShape` (point, line, rectangle), `emitterMode` (points, outline,
/// surface, volume), `birthRate` and `lifetime` (multipliers), `seed` (a whole number below 2³²), `timeOffset`
/// (seconds already run at time 0). A cell takes `image` (a path) or `shape` ("circle", `diameter` points,
/// default 8), `contentsScale`, `name`, `color` and Core Animation's numbers; angles are in degrees (spins in
/// degrees a second). Numbers beyond what a screen could use are refused, and so is an emitter that would keep
/// more than `ParticleEmitter.maximumParticles` alive at once.
extension SceneFile {
    static let emitterKeys = [
        "preset", "emitterPosition", "emitterSize", "emitterShape", "emitterMode", "birthRate", "lifetime", "seed",
        "timeOffset", "emitterCells",
    ]
    /// Cells in one emitter.
    static let maximumEmitterCells = 64

    /// A cell's numbers: key, lowest and highest value, and where it goes (angles converted from degrees).
    private static let cellNumbers:
        [(key: String, range: ClosedRange<Double>, set: @Sendable (inout EmitterCell, Double) -> Void)] = [
            ("birthRate", 0...10_000, { $0.birthRate = $1 }),
            ("lifetime", 0...3_600, { $0.lifetime = $1 }),
            ("lifetimeRange", 0...3_600, { $0.lifetimeRange = $1 }),
            ("velocity", -100_000...100_000, { $0.velocity = $1 }),
            ("velocityRange", 0...100_000, { $0.velocityRange = $1 }),
            ("emissionLongitude", -3_600...3_600, { $0.emissionLongitude = $1 * .pi / 180 }),
            ("emissionRange", 0...360, { $0.emissionRange = $1 * .pi / 180 }),
            ("xAcceleration", -100_000...100_000, { $0.xAcceleration = $1 }),
            ("yAcceleration", -100_000...100_000, { $0.yAcceleration = $1 }),
            ("scale", 0...1_000, { $0.scale = $1 }),
            ("scaleRange", 0...1_000, { $0.scaleRange = $1 }),
            ("scaleSpeed", -1_000...1_000, { $0.scaleSpeed = $1 }),
            ("spin", -36_000...36_000, { $0.spin = $1 * .pi / 180 }),
            ("spinRange", 0...36_000, { $0.spinRange = $1 * .pi / 180 }),
            ("alphaRange", 0...1, { $0.alphaRange = $1 }),
            ("alphaSpeed", -1_000...1_000, { $0.alphaSpeed = $1 }),
            ("contentsScale", 0.01...100, { $0.contentsScale = $1 }),
        ]
    private static let cellKeys = cellNumbers.map(\.key) + ["name", "image", "shape", "diameter", "color"]

    /// - Parameter bounds: the layer's own bounds (its frame's size, or the parent's), which a preset fills.
    func emitter(_ object: JSONObject, path: String, bounds: Rect) throws(SceneFileError) -> ParticleEmitter {
        var emitter = ParticleEmitter()
        if try object.optionalString("preset", oneOf: ["snow"]) != nil {
            emitter = .snow(width: bounds.width, height: bounds.height)
        }
        if let position = try pair(object, "emitterPosition", atLeast: -1e6) {
            emitter.emitterPosition = Point(x: position.0, y: position.1)
        }
        if let size = try pair(object, "emitterSize", atLeast: 0) { emitter.emitterSize = Size(width: size.0, height: size.1) }
        emitter.emitterShape = try object.choice("emitterShape", ParticleEmitter.Shape.self) ?? emitter.emitterShape
        emitter.emitterMode = try object.choice("emitterMode", ParticleEmitter.Mode.self) ?? emitter.emitterMode
        emitter.birthRate = try object.optionalNumber("birthRate", atLeast: 0, atMost: 1_000) ?? emitter.birthRate
        emitter.lifetime = try object.optionalNumber("lifetime", atLeast: 0, atMost: 1_000) ?? emitter.lifetime
        emitter.timeOffset =
            try object.optionalNumber("timeOffset", atLeast: 0, atMost: SceneFile.maximumSeconds) ?? emitter.timeOffset
        if let seed = try object.optionalNumber("seed", atLeast: 0, atMost: Double(UInt32.max)) {
            guard seed == seed.rounded() else {
                throw SceneFileError.invalid(path: object.at("seed"), message: "expected a whole number, found \(seed)")
            }
            emitter.seed = UInt32(seed)
        }
        if let cells = object.value("emitterCells") {
            emitter.emitterCells = try emitterCells(cells, path: object.at("emitterCells"))
        }
        let alive = emitter.liveParticleBound
        guard alive <= Double(ParticleEmitter.maximumParticles) else {
            throw SceneFileError.invalid(
                path: path,
                message: "the emitter would keep \(Int(alive.rounded(.up))) particles alive at once (birth rate times "
                    + "lifetime); at most \(ParticleEmitter.maximumParticles)")
        }
        return emitter
    }

    private func emitterCells(_ json: JSONValue, path: String) throws(SceneFileError) -> [EmitterCell] {
        guard case .array(let elements) = json, elements.count <= SceneFile.maximumEmitterCells else {
            throw SceneFileError.invalid(
                path: path,
                message: "expected an array of at most \(SceneFile.maximumEmitterCells) cells, found "
                    + json.kindDescription)
        }
        var cells: [EmitterCell] = []
        for (index, element) in elements.enumerated() {
            cells.append(try emitterCell(element, path: "\(path)[\(index)]"))
        }
        return cells
    }

    private func emitterCell(_ json: JSONValue, path: String) throws(SceneFileError) -> EmitterCell {
        let object = try JSONObject(json, path: path)
        try object.allowKeys(SceneFile.cellKeys)
        var cell = EmitterCell()
        cell.name = try object.optionalString("name")
        for number in SceneFile.cellNumbers {
            if let value = try object.optionalNumber(
                number.key, atLeast: number.range.lowerBound, atMost: number.range.upperBound)
            {
                number.set(&cell, value)
            }
        }
        cell.color = try object.color("color") ?? cell.color
        let file = try object.optionalString("image")
        let shape = try object.optionalString("shape", oneOf: ["circle"])
        switch (file, shape) {
        case (let file?, nil):
            if object.value("diameter") != nil {
                throw SceneFileError.invalid(path: object.at("diameter"), message: "only a circle has a diameter")
            }
            cell.contents = .image(try image(file, path: object.at("image")))
        case (nil, _?):
            let diameter = try object.optionalNumber("diameter", above: 0, atMost: 10_000) ?? 8
            cell.contents = .circle(diameter: diameter, color: .white)
        case (_?, _?):
            throw SceneFileError.invalid(
                path: object.at("shape"), message: "a cell shows an image or a shape, not both")
        case (nil, nil):
            throw SceneFileError.invalid(path: path, message: "missing image or shape (what the particles show)")
        }
        return cell
    }

    /// A pair `[a, b]` of numbers, each from `floor` to 10⁶.
    private func pair(
        _ object: JSONObject, _ key: String, atLeast floor: Double
    ) throws(SceneFileError)
        -> (Double, Double)?
    {
        guard let json = object.value(key) else { return nil }
        guard case .array(let items) = json, items.count == 2, case .number(let a) = items[0],
            case .number(let b) = items[1], a >= floor, b >= floor, a <= 1e6, b <= 1e6
        else {
            throw SceneFileError.invalid(
                path: object.at(key),
                message: "expected [a, b] in points, each from \(floor.plainDescription) to 1000000, found "
                    + object.describe(json))
        }
        return (a, b)
    }
}
