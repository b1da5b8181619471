import TestSupport
import XCTest

@testable import Compositor

final class CompositeTests: XCTestCase {
    /// Pixels at the limits: alpha 0, 1, 128, 254, 255, each with colour 0, 1, half and full (= alpha).
    private func limitPixels() -> [Pixel] {
        var pixels: [Pixel] = []
        for alpha: UInt8 in [0, 1, 128, 254, 255] {
            for colour in Set([0, min(1, alpha), alpha / 2, alpha]) {
                pixels.append(Pixel(red: colour, green: alpha - colour, blue: alpha / 3, alpha: alpha))
                pixels.append(Pixel(red: colour, green: colour, blue: colour, alpha: alpha))
            }
        }
        return pixels
    }

    /// Every pair of limit pixels, then random ones: source and backdrop images of the same size.
    private func pairs() -> (source: Image, backdrop: Image) {
        let limits = limitPixels()
        let randomCount = 4_000
        let count = limits.count * limits.count + randomCount
        let source = Image(width: count, height: 1)
        let backdrop = Image(width: count, height: 1)
        for (i, s) in limits.enumerated() {
            for (j, b) in limits.enumerated() {
                source[i * limits.count + j, 0] = s
                backdrop[i * limits.count + j, 0] = b
            }
        }
        let randomSource = TestImages.randomPremultiplied(width: randomCount, height: 1, seed: 11)
        let randomBackdrop = TestImages.randomPremultiplied(width: randomCount, height: 1, seed: 12)
        for x in 0..<randomCount {
            source[limits.count * limits.count + x, 0] = randomSource[x, 0]
            backdrop[limits.count * limits.count + x, 0] = randomBackdrop[x, 0]
        }
        return (source, backdrop)
    }

    /// The SIMD kernel against the spec's formulas (the scalar twin), within ±1 LSB, for every operator, both
    /// working spaces, with and without opacity and a mask.
    func testEveryOperatorMatchesTheSpecWithinOneLSB() {
        let (source, backdrop) = pairs()
        let count = source.width
        var random = SeededGenerator(seed: 5)
        let mask = Plane(width: count, height: 1)
        for x in 0..<count { mask[x, 0] = [0, 255, UInt8.random(in: 0...255, using: &random)][x % 3] }
        for space in WorkingSpace.allCases {
            for op in CompositeOperator.allCases {
                for (opacity, masked) in [(Float(1), false), (0.37, true)] {
                    let fast = backdrop.copy()
                    let reference = backdrop.copy()
                    CompositeKernel(op).compositeRow(
                        source: source.row(0), solid: UnitPixel(red: 0, green: 0, blue: 0, alpha: 0),
                        mask: masked ? mask.row(0) : nil, destination: fast.row(0), count: count, opacity: opacity,
                        space: space)
                    ReferenceCompositing.compositeRow(
                        op, source: source.row(0), solid: UnitPixel(red: 0, green: 0, blue: 0, alpha: 0),
                        mask: masked ? mask.row(0) : nil, destination: reference.row(0), count: count,
                        opacity: opacity, space: space)
                    let difference = ImageDifference(fast, reference)
                    XCTAssertLessThanOrEqual(
                        difference.maxError, 1, "\(op) \(space) opacity \(opacity): \(difference)")
                    XCTAssertTrue(isPremultiplied(fast), "\(op) \(space)")
                }
            }
        }
    }

    /// Four colourings of one alpha, holding c = α (alone and as white), c = 0 (as black too), c = α − 1 and
    /// halves.
    private func alphaVariants(_ a: UInt8) -> [Pixel] {
        let below = a == 0 ? 0 : a - 1
        return [
            Pixel(red: a, green: a, blue: a, alpha: a), Pixel(red: a, green: 0, blue: a / 2, alpha: a),
            Pixel(red: below, green: a - a / 2, blue: a, alpha: a), Pixel(red: 0, green: 0, blue: 0, alpha: a),
        ]
    }

    /// The kernel against the twin for every pair of alphas (source and backdrop, 0...255 each), one pixel a
    /// pair, in every operator. The colourings are chosen so that each colouring of each alpha, on either side,
    /// meets 64 alphas of the other side in all four of its colourings. (Un-premultiplying by `c * (1/α)`
    /// failed this at 30 alphas: a white backdrop came out 0.99999994 and color-burn took it to black.)
    /// Every pair in every colouring would be 16× the pixels, a minute in debug builds.
    func testEveryOperatorMatchesTheSpecForEveryPairOfAlphas() {
        let count = 256 * 256
        let source = Image(width: count, height: 1)
        let backdrop = Image(width: count, height: 1)
        let table = (0...255).map { alphaVariants(UInt8($0)) }
        for sourceAlpha in 0...255 {
            for backdropAlpha in 0...255 {
                let x = sourceAlpha * 256 + backdropAlpha
                source[x, 0] = table[sourceAlpha][(sourceAlpha + backdropAlpha / 4) % 4]
                backdrop[x, 0] = table[backdropAlpha][(backdropAlpha + sourceAlpha / 4) % 4]
            }
        }
        let none = UnitPixel(red: 0, green: 0, blue: 0, alpha: 0)
        for op in CompositeOperator.allCases {
            let fast = backdrop.copy()
            let reference = backdrop.copy()
            CompositeKernel(op).compositeRow(
                source: source.row(0), solid: none, mask: nil, destination: fast.row(0), count: count, opacity: 1,
                space: .srgb)
            ReferenceCompositing.compositeRow(
                op, source: source.row(0), solid: none, mask: nil, destination: reference.row(0), count: count,
                opacity: 1, space: .srgb)
            let difference = ImageDifference(fast, reference)
            XCTAssertLessThanOrEqual(difference.maxError, 1, "\(op): \(difference)")
        }
    }

    /// The case: straight white at alpha 60 under opaque black color-burn stays white (Cb = 1 ⇒ B = 1).
    func testColorBurnKeepsAWhiteBackdropAtEveryAlpha() {
        for alpha in 1...255 {
            let a = UInt8(alpha)
            let destination = Image(width: 20, height: 1, fill: Pixel(red: a, green: a, blue: a, alpha: a))
            destination.draw(Image(width: 20, height: 1, fill: Pixel(red: 0, green: 0, blue: 0)), operator: .colorBurn)
            XCTAssertEqual(destination[0, 0], Pixel(red: a, green: a, blue: a), "alpha \(alpha)")
        }
    }

    /// The material shader's tints un-premultiply the same way: a black color-burn tint leaves translucent white
    /// white (Cb = 1 ⇒ B = 1) at every alpha.
    func testMaterialColorBurnTintKeepsAWhiteBackdropAtEveryAlpha() {
        let tint = TintLayer(RGBAColor(red: 0, green: 0, blue: 0), blendMode: .colorBurn)
        let shader = MaterialShader(recipe: MaterialRecipe(blurPoints: 1, tints: [tint]), dim: 0)
        for alpha in 1...255 {
            var pixel = [Float](repeating: Float(alpha), count: 4)
            pixel.withUnsafeMutableBufferPointer { shader.shade($0.baseAddress!, count: 1) }
            XCTAssertEqual(pixel[0], Float(alpha), accuracy: 1e-3, "alpha \(alpha)")
            XCTAssertEqual(pixel[3], 255, accuracy: 1e-3, "alpha \(alpha)")
        }
    }

    /// Colour above alpha (a borrowed buffer that is not validly premultiplied): source-over's fast path, the
    /// general loop (taken with a mask) and the twin all clamp; the fast path wrapped 255 + 200 to 199.
    func testSourceOverClampsInvalidPremultipliedInputOnEveryPath() {
        let count = 32
        let source = Image(width: count, height: 1)
        let backdrop = Image(width: count, height: 1)
        for x in 0..<count {
            let a = UInt8(x * 8)
            source[x, 0] = Pixel(red: 255, green: 255 - a, blue: a | 1, alpha: a / 4)
            backdrop[x, 0] = Pixel(red: 200, green: 250, blue: 100, alpha: 255 - a / 2)
        }
        let opaque = Plane(width: count, height: 1)
        for x in 0..<count { opaque[x, 0] = 255 }
        let none = UnitPixel(red: 0, green: 0, blue: 0, alpha: 0)
        let fast = backdrop.copy()
        let general = backdrop.copy()
        let reference = backdrop.copy()
        CompositeKernel(.sourceOver).compositeRow(
            source: source.row(0), solid: none, mask: nil, destination: fast.row(0), count: count, opacity: 1,
            space: .srgb)
        CompositeKernel(.sourceOver).compositeRow(
            source: source.row(0), solid: none, mask: opaque.row(0), destination: general.row(0), count: count,
            opacity: 1, space: .srgb)
        ReferenceCompositing.compositeRow(
            .sourceOver, source: source.row(0), solid: none, mask: nil, destination: reference.row(0), count: count,
            opacity: 1, space: .srgb)
        XCTAssertEqual(fast[0, 0], Pixel(red: 255, green: 255, blue: 101))
        XCTAssertLessThanOrEqual(ImageDifference(fast, general).maxError, 1, "fast against general")
        XCTAssertLessThanOrEqual(ImageDifference(fast, reference).maxError, 1, "fast against twin")
        XCTAssertTrue(isPremultiplied(fast))
    }

    private func isPremultiplied(_ image: Image) -> Bool {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                if p.red > p.alpha || p.green > p.alpha || p.blue > p.alpha { return false }
            }
        }
        return true
    }

    /// The twin itself, on values worked out by hand from the spec.
    func testReferenceSpotValues() {
        func run(_ op: CompositeOperator, _ s: Pixel, _ b: Pixel) -> Pixel {
            let source = Image(width: 1, height: 1, fill: s)
            let destination = Image(width: 1, height: 1, fill: b)
            ReferenceCompositing.compositeRow(
                op, source: source.row(0), solid: UnitPixel(red: 0, green: 0, blue: 0, alpha: 0), mask: nil,
                destination: destination.row(0), count: 1, opacity: 1, space: .srgb)
            return destination[0, 0]
        }
        let halfRed = Pixel(red: 128, green: 0, blue: 0, alpha: 128)
        let blue = Pixel(red: 0, green: 0, blue: 255)
        XCTAssertEqual(run(.sourceOver, halfRed, blue), Pixel(red: 128, green: 0, blue: 127))
        XCTAssertEqual(run(.destinationOver, halfRed, blue), blue)
        XCTAssertEqual(run(.sourceIn, halfRed, blue), halfRed)
        XCTAssertEqual(run(.sourceOut, halfRed, blue), .transparent)
        XCTAssertEqual(run(.destinationOut, halfRed, blue), Pixel(red: 0, green: 0, blue: 127, alpha: 127))
        XCTAssertEqual(run(.sourceAtop, halfRed, blue), Pixel(red: 128, green: 0, blue: 127))
        XCTAssertEqual(run(.xor, halfRed, blue), Pixel(red: 0, green: 0, blue: 127, alpha: 127))
        XCTAssertEqual(run(.clear, halfRed, blue), .transparent)
        XCTAssertEqual(
            run(.plusLighter, halfRed, Pixel(red: 200, green: 0, blue: 0)), Pixel(red: 255, green: 0, blue: 0))
        let a = Pixel(red: 200, green: 100, blue: 50)
        let b = Pixel(red: 128, green: 255, blue: 0)
        XCTAssertEqual(run(.multiply, a, b), Pixel(red: 100, green: 100, blue: 0))
        XCTAssertEqual(run(.plusDarker, a, b), Pixel(red: 73, green: 100, blue: 0))
        XCTAssertEqual(run(.plusDarker, .transparent, a), a)
        XCTAssertEqual(run(.plusDarker, a, .transparent), a)
        let grey = Pixel(red: 128, green: 128, blue: 128)
        let red = Pixel(red: 255, green: 0, blue: 0)
        XCTAssertEqual(run(.hue, red, grey), grey)  // grey has no saturation to give red's hue
        XCTAssertEqual(run(.luminosity, grey, red), Pixel(red: 255, green: 74, blue: 74))  // ClipColor at work
        XCTAssertEqual(run(.color, red, grey), run(.luminosity, grey, red))  // colour keeps the source's hue
    }

    func testOpacityZeroAndOneIdentities() {
        let source = TestImages.randomPremultiplied(width: 37, height: 5, seed: 1)
        let backdrop = TestImages.randomPremultiplied(width: 37, height: 5, seed: 2)
        for op in CompositeOperator.allCases where op.isBlendMode || op == .sourceOver || op == .plusLighter {
            let drawn = backdrop.copy()
            drawn.draw(source, operator: op, opacity: 0)
            XCTAssertTrue(drawn.hasSamePixels(as: backdrop), "\(op) at opacity 0 changed the backdrop")
        }
        let copied = backdrop.copy()
        copied.draw(source, operator: .copy, opacity: 1)
        XCTAssertTrue(copied.hasSamePixels(as: source), "copy at opacity 1")
        let kept = backdrop.copy()
        kept.draw(source, operator: .destination, opacity: 0.5)
        XCTAssertTrue(kept.hasSamePixels(as: backdrop), "destination")
        let opaque = Image(width: 37, height: 5, fill: Pixel(red: 10, green: 20, blue: 30))
        let over = backdrop.copy()
        over.draw(opaque, opacity: 1)
        XCTAssertTrue(over.hasSamePixels(as: opaque), "opaque source-over at opacity 1")
        let transparent = backdrop.copy()
        transparent.draw(Image(width: 37, height: 5), operator: .sourceOver)
        XCTAssertTrue(transparent.hasSamePixels(as: backdrop), "transparent source-over")
    }

    func testDrawingPartlyOutsideClipsAndLeavesTheRestAlone() {
        let source = TestImages.randomPremultiplied(width: 20, height: 10, seed: 3)
        let backdrop = TestImages.randomPremultiplied(width: 30, height: 12, seed: 4)
        let clipped = backdrop.copy()
        clipped.draw(source, x: -5, y: 7, operator: .multiply, opacity: 0.8)
        let expected = backdrop.copy()
        expected.region(x: 0, y: 7, width: 15, height: 5).draw(
            source.region(x: 5, y: 0, width: 15, height: 5), operator: .multiply, opacity: 0.8)
        XCTAssertTrue(clipped.hasSamePixels(as: expected))
        let untouched = backdrop.copy()
        untouched.draw(source, x: 40, y: 0)
        untouched.draw(source, x: 0, y: -10, operator: .clear)
        XCTAssertTrue(untouched.hasSamePixels(as: backdrop))
    }

    func testDrawingAnImageOntoItselfReadsItBeforeWriting() {
        let image = TestImages.randomPremultiplied(width: 40, height: 40, seed: 8)
        let expected = image.copy()
        expected.draw(image.copy(), x: 3, y: 2, operator: .screen, threads: 3)
        image.draw(image, x: 3, y: 2, operator: .screen, threads: 3)
        XCTAssertTrue(image.hasSamePixels(as: expected))
    }

    func testThreadCountsGiveTheSamePixels() {
        let source = TestImages.randomPremultiplied(width: 61, height: 70, seed: 5)
        let backdrop = TestImages.randomPremultiplied(width: 61, height: 70, seed: 6)
        let one = backdrop.copy()
        one.draw(source, operator: .softLight, opacity: 0.7, threads: 1)
        let three = backdrop.copy()
        three.draw(source, operator: .softLight, opacity: 0.7, threads: 3)
        XCTAssertTrue(one.hasSamePixels(as: three))
    }

    func testColourThroughAMask() {
        let backdrop = TestImages.randomPremultiplied(width: 19, height: 3, seed: 7)
        let full = Plane(width: 19, height: 3)
        for y in 0..<3 { for x in 0..<19 { full[x, y] = 255 } }
        let throughMask = backdrop.copy()
        throughMask.fill(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.6), mask: full)
        let rectangle = backdrop.copy()
        rectangle.fill(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0.6), width: 19, height: 3)
        XCTAssertTrue(throughMask.hasSamePixels(as: rectangle))
        let none = backdrop.copy()
        none.fill(.black, mask: Plane(width: 19, height: 3), operator: .copy)
        XCTAssertTrue(none.hasSamePixels(as: backdrop), "coverage 0 is a full clip, even for copy")
    }

    /// The interpolated transfer tables against the exact curves: far below one LSB.
    func testTransferTablesStayWithinOneHundredthOfAnLSB() {
        var worst: Float = 0
        for i in 0...100_000 {
            let v = Float(i) / 100_000
            worst = max(worst, abs(TransferTable.linearFromSRGB(v) - ReferenceCompositing.linearFromSRGB(v)) * 255)
            worst = max(worst, abs(TransferTable.srgbFromLinear(v) - ReferenceCompositing.srgbFromLinear(v)) * 255)
        }
        XCTAssertLessThan(worst, 0.01)
    }

    func testLinearSpaceMixesLight() {
        // Half-covering white over black: 50% light is sRGB 188 in linear space, 128 (half the code) in sRGB.
        let backdrop = Image(width: 16, height: 1, fill: Pixel(red: 0, green: 0, blue: 0))
        backdrop.fill(.white, width: 16, height: 1, opacity: 0.5, space: .linear)
        XCTAssertEqual(backdrop[3, 0], Pixel(red: 188, green: 188, blue: 188))
        let encoded = Image(width: 16, height: 1, fill: Pixel(red: 0, green: 0, blue: 0))
        encoded.fill(.white, width: 16, height: 1, opacity: 0.5)
        XCTAssertEqual(encoded[3, 0], Pixel(red: 128, green: 128, blue: 128))
    }

    func testOperatorNames() {
        XCTAssertEqual(CompositeOperator(name: "source-over"), .sourceOver)
        XCTAssertEqual(CompositeOperator(name: "sourceOver"), .sourceOver)
        XCTAssertEqual(CompositeOperator(name: "over"), .sourceOver)
        XCTAssertEqual(CompositeOperator(name: "COLOR_DODGE"), .colorDodge)
        XCTAssertEqual(CompositeOperator(name: "lighter"), .plusLighter)
        XCTAssertEqual(CompositeOperator(name: "plusDarker"), .plusDarker)
        XCTAssertNil(CompositeOperator(name: "overlayish"))
        XCTAssertEqual(CompositeOperator.allCases.count, 30)
        XCTAssertEqual(CompositeOperator.allCases.filter(\.isBlendMode).count, 16)
    }
}
