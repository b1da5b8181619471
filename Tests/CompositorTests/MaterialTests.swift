import Compositor
import TestSupport
import XCTest

final class MaterialTests: XCTestCase {
    func testThickerMaterialsHideMoreOfTheBackdropAndBlurMore() {
        for appearance in Appearance.allCases {
            let recipes = MaterialCatalog.thicknessOrder.map {
                MaterialCatalog.material(named: $0)!.recipe(for: appearance)
            }
            for (thinner, thicker) in zip(recipes, recipes.dropFirst()) {
                XCTAssertGreaterThanOrEqual(thicker.coverage, thinner.coverage, "\(appearance)")
                XCTAssertGreaterThan(thicker.blurPoints, thinner.blurPoints, "\(appearance)")
            }
            XCTAssertGreaterThan(recipes.last!.coverage, recipes.first!.coverage)
        }
    }

    func testThickerMaterialsShowLessOfAStripedBackdrop() {
        // Measured on pixels: the contrast left of black and white stripes shrinks as materials thicken.
        let stripes = Image(width: 60, height: 20)
        for y in 0..<20 {
            for x in 0..<60 {
                stripes[x, y] =
                    x / 15 % 2 == 0 ? Pixel(red: 0, green: 0, blue: 0) : Pixel(red: 255, green: 255, blue: 255)
            }
        }
        for appearance in Appearance.allCases {
            var previous = Int.max
            for name in MaterialCatalog.thicknessOrder {
                var recipe = MaterialCatalog.material(named: name)!.recipe(for: appearance)
                recipe.blurPoints = 0  // compare the tints alone
                let result = MaterialEffect(recipe: recipe, pixelsPerPoint: 1).apply(to: stripes)
                let contrast = abs(Int(result[22, 10].green) - Int(result[7, 10].green))
                XCTAssertLessThanOrEqual(contrast, previous, "\(name) \(appearance)")
                previous = contrast
            }
        }
    }

    func testEveryMaterialCitesItsSources() {
        for material in MaterialCatalog.all {
            XCTAssertFalse(material.sources.isEmpty, material.name)
            XCTAssertFalse(material.recipe(for: .light).tints.isEmpty, material.name)
            XCTAssertGreaterThan(material.recipe(for: .light).blurPoints, 0, material.name)
        }
    }

    func testNamesAreAcceptedAsSwiftUIAndUIKitWriteThemAndInKebabCase() {
        let cases: [(String, String, Appearance?)] = [
            ("ultraThin", "ultraThin", nil), (".ultraThinMaterial", "ultraThin", nil), ("ultra-thin", "ultraThin", nil),
            ("ULTRATHIN", "ultraThin", nil), ("ultra_thick", "ultraThick", nil), ("thin", "thin", nil),
            ("systemThinMaterialDark", "thin", .dark), ("system-thin-material-light", "thin", .light),
            ("systemMaterial", "regular", nil), ("systemChromeMaterialDark", "chrome", .dark),
            ("prominent", "thick", nil), ("extraLight", "extraLight", .light), ("dark", "dark", .dark),
            ("bar", "bar", nil),
        ]
        for (name, canonical, appearance) in cases {
            let found = MaterialCatalog.lookup(name)
            XCTAssertEqual(found?.material.name, canonical, name)
            XCTAssertEqual(found?.appearance, appearance, name)
        }
        XCTAssertNil(MaterialCatalog.lookup("frosted"))
        XCTAssertNil(MaterialCatalog.lookup(""))
    }

    func testMaterialOnAUniformImageGivesTheCompositedTint() {
        // White under the ultra-thin light material: saturation leaves grey alone; colour-dodge with
        // #0D0D0D on white is white; then #BFBFBF at 0.44 over white.
        let image = Image(width: 16, height: 16, fill: Pixel(red: 255, green: 255, blue: 255))
        let recipe = Material.ultraThin.recipe(for: .light)
        let result = MaterialEffect(recipe: recipe, pixelsPerPoint: 0.5).apply(to: image)
        let expected = 0.44 * 191 + 0.56 * 255.0
        // Dithered rounding: each pixel is within one LSB, and the mean keeps the fraction.
        XCTAssertEqual(Double(result[8, 8].red), expected, accuracy: 1)
        XCTAssertEqual(meanRed(result), expected, accuracy: 0.1)
        XCTAssertEqual(result[8, 8].alpha, 255)
    }

    func testDimDrawsBlackAtTheGivenOpacityLast() {
        let image = Image(width: 8, height: 8, fill: Pixel(red: 200, green: 100, blue: 50))
        let effect = MaterialEffect(recipe: MaterialRecipe(blurPoints: 0), dim: 0.6, pixelsPerPoint: 1)
        let result = effect.apply(to: image)
        XCTAssertEqual(Int(result[3, 3].red), 80, accuracy: 1)
        XCTAssertEqual(Int(result[3, 3].green), 40, accuracy: 1)
        XCTAssertEqual(Int(result[3, 3].blue), 20, accuracy: 1)
    }

    func testSaturationKeepsLumaAndZeroMakesGrey() {
        let image = Image(width: 16, height: 16, fill: Pixel(red: 200, green: 40, blue: 90))
        let grey = MaterialEffect(recipe: MaterialRecipe(blurPoints: 0, saturation: 0), pixelsPerPoint: 1).apply(
            to: image)
        let luma = 0.2126 * 200 + 0.7152 * 40 + 0.0722 * 90
        XCTAssertEqual(meanRed(grey), luma, accuracy: 0.2)
        XCTAssertEqual(grey[0, 0].red, grey[0, 0].green)
        XCTAssertEqual(grey[0, 0].green, grey[0, 0].blue)
    }

    func testPixelsPerPointFollowsTheShorterSide() {
        XCTAssertEqual(MaterialEffect.pixelsPerPoint(fillingScreenWith: 3024, 4032), 3024 / 390)
        XCTAssertEqual(MaterialEffect.pixelsPerPoint(fillingScreenWith: 4032, 3024), 3024 / 390)
    }

    func testMaterialOutputStaysPremultipliedOverTransparentPixels() {
        let image = TestImages.randomPremultiplied(width: 24, height: 24)
        for name in ["ultraThin", "thick"] {
            for appearance in Appearance.allCases {
                let recipe = MaterialCatalog.material(named: name)!.recipe(for: appearance)
                let result = MaterialEffect(recipe: recipe, dim: 0.3, pixelsPerPoint: 0.2).apply(to: image)
                for y in 0..<24 {
                    for x in 0..<24 {
                        let p = result[x, y]
                        XCTAssertTrue(p.red <= p.alpha && p.green <= p.alpha && p.blue <= p.alpha, "\(p)")
                    }
                }
            }
        }
    }

    private func meanRed(_ image: Image) -> Double {
        var sum = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width { sum += Double(image[x, y].red) }
        }
        return sum / Double(image.pixelCount)
    }
}
