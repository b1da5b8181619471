/// A straight-alpha sRGB colour with components from 0 to 1, as CSS and SwiftUI write colours.
public struct RGBAColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey with all three components equal, as `Color(white:opacity:)` writes it.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from 8-bit sRGB components, the way design tools and CSS `rgb()` give them.
    public init(red8: Int, green8: Int, blue8: Int, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }

    /// A colour from a 0xRRGGBB literal.
    public init(rgbHex: UInt32, alpha: Double = 1) {
        self.init(
            red8: Int(rgbHex >> 16 & 0xFF), green8: Int(rgbHex >> 8 & 0xFF), blue8: Int(rgbHex & 0xFF),
            alpha: alpha)
    }

    /// A colour from a 0xAARRGGBB literal, as Flutter and Android write them.
    public init(argbHex: UInt32) {
        self.init(rgbHex: argbHex & 0xFF_FFFF, alpha: Double(argbHex >> 24) / 255)
    }

    public static let black = RGBAColor(white: 0)
    public static let white = RGBAColor(white: 1)
    public static let clear = RGBAColor(white: 0, alpha: 0)

    /// The same colour with another opacity, as SwiftUI's `Color.opacity(_:)`.
    public func opacity(_ alpha: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Parses CSS hex notation (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, the `#` optional), `clear` /
    /// `transparent`, or one of CSS's basic colour keywords (`black`, `white`, `red`, `gray`/`grey`, `orange`
    /// …: the 16 of CSS 1 plus orange). Returns nil for anything else.
    public init?(css text: String) {
        let lowered = text.lowercased()
        if lowered == "clear" || lowered == "transparent" {
            self = .clear
            return
        }
        if let hex = RGBAColor.keywords[lowered] {
            self.init(rgbHex: hex)
            return
        }
        var digits = Substring(lowered)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        // ASCII only: Character.isHexDigit also accepts full-width digits (U+FF10…), which Int(_:radix:) refuses.
        var values: [Int] = []
        for scalar in digits.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39: values.append(Int(scalar.value) - 0x30)
            case 0x61...0x66: values.append(Int(scalar.value) - 0x61 + 10)
            default: return nil
            }
        }
        switch values.count {
        case 3, 4: values = values.map { $0 * 17 }  // #abc means #aabbcc
        case 6, 8: values = stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] }
        default: return nil
        }
        self.init(
            red8: values[0], green8: values[1], blue8: values[2],
            alpha: values.count == 4 ? Double(values[3]) / 255 : 1)
    }

    private static let keywords: [String: UInt32] = [
        "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "grey": 0x808080, "white": 0xFFFFFF,
        "maroon": 0x800000, "red": 0xFF0000, "purple": 0x800080, "fuchsia": 0xFF00FF, "green": 0x008000,
        "lime": 0x00FF00, "olive": 0x808000, "yellow": 0xFFFF00, "navy": 0x000080, "blue": 0x0000FF,
        "teal": 0x008080, "aqua": 0x00FFFF, "orange": 0xFFA500,
    ]

    /// `#rrggbbaa` (or `#rrggbb` when opaque).
    public var description: String {
        func hex(_ component: Double) -> String {
            let value = Int((min(max(component, 0), 1) * 255).rounded())
            return (value < 16 ? "0" : "") + String(value, radix: 16)
        }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha < 1 ? hex(alpha) : "")
    }

    /// The premultiplied 8-bit pixel closest to this colour.
    public var premultipliedPixel: Pixel {
        func byte(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        let a = min(max(alpha, 0), 1)
        return Pixel(red: byte(red * a), green: byte(green * a), blue: byte(blue * a), alpha: byte(a))
    }
}
