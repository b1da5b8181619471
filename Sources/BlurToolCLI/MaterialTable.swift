import Compositor

/// The text of `blurtool materials`.
enum MaterialTable {
    static func text() -> String {
        var lines = ["Materials (blur σ in points; tints drawn in order over the blurred, saturated photo):", ""]
        for material in MaterialCatalog.all {
            let only = material.fixedAppearance.map { " (\($0.rawValue) only)" } ?? ""
            lines.append("\(material.name)\(only): \(material.summary)")
            let appearances: [Appearance] = material.fixedAppearance.map { [$0] } ?? [.light, .dark]
            for appearance in appearances {
                let recipe = material.recipe(for: appearance)
                let tints = recipe.tints.map { tint in
                    let opacity = String(format2: tint.color.alpha)
                    return "\(tint.color.opacity(1)) @ \(opacity)"
                        + (tint.blendMode == .normal ? "" : " \(tint.blendMode.rawValue)")
                }.joined(separator: ", ")
                lines.append(
                    "  \(appearance.rawValue):".padding(9) + "blur \(String(format2: recipe.blurPoints)) pt, "
                        + "saturation \(String(format2: recipe.saturation)), tints \(tints)")
            }
            lines.append("  sources: \(material.sources)")
        }
        lines.append("")
        lines.append(
            "UIKit names map onto these: systemUltraThinMaterial → ultraThin, systemThinMaterial → thin, "
                + "systemMaterial → regular, systemThickMaterial and prominent → thick, "
                + "systemChromeMaterial → chrome; a Light or Dark suffix forces the appearance.")
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// A number with at most two decimals and no trailing zeros.
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        if fraction == 0 {
            self = String(whole)
        } else {
            self =
                "\(whole)."
                + (fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction))
        }
    }

    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
