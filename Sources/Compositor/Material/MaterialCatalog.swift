/// Every material the tool knows, as data. Apple publishes no numbers, so each number below comes from an
/// open-source project that imitates the materials; `sources` names it (see shared/MATERIALS.md).
///
/// The default set for SwiftUI's materials takes its tints from the iOS 18 Figma kit as transcribed by
/// chrisbanes/haze (a colour-dodge or overlay layer, then a grey at an opacity), its blur σ from
/// TokamakUI/Tokamak's SwiftUI-to-CSS mapping (CSS `blur(r)` is σ, in points), and the saturation boost
/// of 1.8 that Apple's own UIImageEffects sample applies to every style.
public enum MaterialCatalog {
    static let saturation = 1.8
    static let sourceNotes = [
        "haze": "tints: chrisbanes/haze CupertinoMaterials.kt (iOS 18 Figma kit)",
        "tokamak": "blur: TokamakUI/Tokamak SwiftUI-to-CSS blur(20/25/30/40/50px), CSS blur r = σ in points",
        "uiie": "saturation 1.8: Apple UIImageEffects sample (WWDC 2013)",
    ]

    static func swiftUIMaterial(
        _ name: String, summary: String, blur: Double,
        light: (dodge: UInt32, grey: UInt32, opacity: Double),
        dark: (overlay: UInt32, grey: UInt32, opacity: Double),
        extraSource: String = ""
    ) -> Material {
        Material(
            name: name, summary: summary,
            light: MaterialRecipe(
                blurPoints: blur, saturation: saturation,
                tints: [
                    TintLayer(RGBAColor(rgbHex: light.dodge), blendMode: .colorDodge),
                    TintLayer(RGBAColor(rgbHex: light.grey, alpha: light.opacity)),
                ]),
            dark: MaterialRecipe(
                blurPoints: blur, saturation: saturation,
                tints: [
                    TintLayer(RGBAColor(rgbHex: dark.overlay), blendMode: .overlay),
                    TintLayer(RGBAColor(rgbHex: dark.grey, alpha: dark.opacity)),
                ]),
            sources: [sourceNotes["haze"]!, sourceNotes["tokamak"]!, sourceNotes["uiie"]!].joined(separator: "; ")
                + extraSource)
    }

    /// SwiftUI's materials from thinnest to thickest: each hides at least as much of the backdrop as the one
    /// before it.
    public static let thicknessOrder = ["ultraThin", "thin", "regular", "thick", "ultraThick"]

    /// Every material, thinnest SwiftUI material first.
    public static let all: [Material] = [
        .ultraThin, .thin, .regular, .thick, .ultraThick, .bar, .chrome, .extraLight, .legacyLight, .legacyDark,
    ]

    static func legacyMaterial(
        _ name: String, summary: String, blur: Double, tint: RGBAColor,
        appearance: Appearance
    ) -> Material {
        let recipe = MaterialRecipe(blurPoints: blur, saturation: saturation, tints: [TintLayer(tint)])
        return Material(
            name: name, summary: summary, light: recipe, dark: recipe, fixedAppearance: appearance,
            sources: "Apple UIImageEffects sample (WWDC 2013): blur, saturation 1.8 and tint")
    }

    public static func material(named canonicalName: String) -> Material? {
        all.first { $0.name == canonicalName }
    }

    /// Canonical names and, for UIKit's `…Light`/`…Dark` styles, the appearance they force.
    private static let aliases: [String: (name: String, appearance: Appearance?)] = {
        var table: [String: (String, Appearance?)] = [:]
        for material in all {
            table[normalized(material.name)] = (material.name, nil)
            table[normalized(material.name) + "material"] = (material.name, nil)
        }
        let uiKit = [
            "systemultrathinmaterial": "ultraThin", "systemthinmaterial": "thin",
            "systemmaterial": "regular", "systemthickmaterial": "thick",
            "systemchromematerial": "chrome",
        ]
        for (uiKitName, canonical) in uiKit {
            table[uiKitName] = (canonical, nil)
            table[uiKitName + "light"] = (canonical, .light)
            table[uiKitName + "dark"] = (canonical, .dark)
        }
        table["prominent"] = ("thick", nil)
        return table
    }()

    /// Finds a material by any of the names SwiftUI and UIKit use, in any case, with or without a leading
    /// dot, in camel case or kebab case (`ultraThin`, `.ultraThinMaterial`, `ultra-thin`,
    /// `systemThinMaterialDark`). Returns the material and the appearance the name forces, if any.
    public static func lookup(_ name: String) -> (material: Material, appearance: Appearance?)? {
        guard let entry = aliases[normalized(name)], let material = material(named: entry.name) else { return nil }
        return (material, entry.appearance ?? material.fixedAppearance)
    }

    /// Every accepted spelling's canonical form, for error messages and help.
    public static var knownNames: [String] {
        all.map(\.name) + [
            "systemUltraThinMaterial", "systemThinMaterial", "systemMaterial", "systemThickMaterial",
            "systemChromeMaterial", "prominent",
        ]
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " && $0 != "." })
    }
}

/// The catalogue's materials by name, as SwiftUI and UIKit name them (each one's `summary` says which style it
/// stands for, `sources` where its numbers come from). UIKit's iOS 7 `.light` and `.dark` styles are
/// `legacyLight` and `legacyDark` here, so that the names never read as an appearance.
extension Material {
    public static let ultraThin = MaterialCatalog.swiftUIMaterial(
        "ultraThin", summary: "SwiftUI .ultraThinMaterial, UIKit .systemUltraThinMaterial", blur: 20,
        light: (0x0D0D0D, 0xBFBFBF, 0.44), dark: (0x9C9C9C, 0x252525, 0.55))
    public static let thin = MaterialCatalog.swiftUIMaterial(
        "thin", summary: "SwiftUI .thinMaterial, UIKit .systemThinMaterial", blur: 25,
        light: (0x333333, 0xA6A6A6, 0.70), dark: (0x9C9C9C, 0x252525, 0.70))
    public static let regular = MaterialCatalog.swiftUIMaterial(
        "regular", summary: "SwiftUI .regularMaterial, UIKit .systemMaterial and .regular",
        blur: 30, light: (0x383838, 0xB3B3B3, 0.82), dark: (0x8C8C8C, 0x252525, 0.82))
    public static let thick = MaterialCatalog.swiftUIMaterial(
        "thick", summary: "SwiftUI .thickMaterial, UIKit .systemThickMaterial and .prominent",
        blur: 40, light: (0x5C5C5C, 0x999999, 0.97), dark: (0x7C7C7C, 0x252525, 0.90))
    public static let ultraThick = MaterialCatalog.swiftUIMaterial(
        "ultraThick", summary: "SwiftUI .ultraThickMaterial", blur: 50,
        light: (0x5C5C5C, 0x999999, 0.97), dark: (0x7C7C7C, 0x252525, 0.90),
        extraSource: "; no published tint: thick's tints, as Tokamak gives both opacity 0.6")
    public static let bar = Material(
        name: "bar", summary: "SwiftUI .bar (navigation and tab bars)",
        light: MaterialRecipe(
            blurPoints: 10, saturation: MaterialCatalog.saturation, tints: [TintLayer(RGBAColor(argbHex: 0xCCF8_F8F8))]),
        dark: MaterialRecipe(
            blurPoints: 10, saturation: MaterialCatalog.saturation, tints: [TintLayer(RGBAColor(argbHex: 0xB721_2121))]),
        sources: "flutter/flutter cupertino/nav_bar.dart (σ 10, 0xCCF8F8F8 light, 0xB7212121 dark); "
            + MaterialCatalog.sourceNotes["uiie"]!)
    public static let chrome = Material(
        name: "chrome", summary: "UIKit .systemChromeMaterial",
        light: MaterialRecipe(
            blurPoints: 10, saturation: MaterialCatalog.saturation, tints: [TintLayer(RGBAColor(white: 1, alpha: 0.75))]
        ),
        dark: MaterialRecipe(
            blurPoints: 10, saturation: MaterialCatalog.saturation, tints: [TintLayer(RGBAColor(white: 0, alpha: 0.75))]
        ),
        sources:
            "tints: expo/expo expo-blur getBackgroundColor.ts (iOS 14 Sketch kit: rgb 255 @ 0.75, rgb 0 @ 0.75); "
            + "blur: as bar (flutter nav_bar.dart σ 10); " + MaterialCatalog.sourceNotes["uiie"]!)
    public static let extraLight = MaterialCatalog.legacyMaterial(
        "extraLight", summary: "UIKit .extraLight (iOS 7 style)", blur: 20,
        tint: RGBAColor(white: 0.97, alpha: 0.82), appearance: .light)
    public static let legacyLight = MaterialCatalog.legacyMaterial(
        "light", summary: "UIKit .light (iOS 7 style)", blur: 30,
        tint: RGBAColor(white: 1, alpha: 0.30), appearance: .light)
    public static let legacyDark = MaterialCatalog.legacyMaterial(
        "dark", summary: "UIKit .dark (iOS 7 style)", blur: 20,
        tint: RGBAColor(white: 0.11, alpha: 0.73), appearance: .dark)
}
