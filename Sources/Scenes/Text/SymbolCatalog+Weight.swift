/// SF Symbols' nine weights drawn from the icon font's one: the outline grown or thinned until its strokes are as
/// much wider or narrower than regular as the system font's stems are at that weight.
///
/// The rule: Apple publishes no stem widths for SF Symbols, only that each weight matches SF Pro's, and SF Pro's
/// stand-in here is Inter (`FontDesign.default`). So a symbol's stroke at weight w is Material's regular stroke times
/// Inter's stem at w over Inter's regular stem. The stems are the widths of Inter's "I" (a plain vertical bar), in
/// its 2816-unit em, measured with FreeType on Debian's `fonts-inter` 4.0~beta7 static OTFs (Inter-Thin … -Black,
/// usWeightClass 100 … 900): 64, 125, 187, 248, 309, 371, 433, 495, 556, close to linear in the weight (about
/// 62 units a step). Material's regular stroke is 2 units of its 24-unit grid (Material Design's 2 dp stroke),
/// 1/12 em: the font's minus glyph is 42 of its 512 units tall.
extension SymbolCatalog {
    /// Inter's vertical stem at each weight, in units of its 2816-unit em (see above).
    static let interStemWidths: [FontWeight: Double] = [
        .ultraLight: 64, .thin: 125, .light: 187, .regular: 248, .medium: 309, .semibold: 371, .bold: 433,
        .heavy: 495, .black: 556,
    ]

    /// The icon font's stroke at its one (regular) weight, in ems: 2 of 24.
    static let regularStrokeWidth = 2.0 / 24

    /// How far each edge of a symbol's outline moves to draw it at `weight`, in ems (`TextStyle.outlineGrowth`):
    /// half the change in stroke width, since both edges of a stroke move. 0 for regular; semibold 0.0207 em
    /// (a 17-point symbol at 3× gains about 1 pixel a side), black 0.0518, ultraLight −0.0309.
    public static func outlineGrowth(for weight: FontWeight) -> Double {
        let ratio = interStemWidths[weight]! / interStemWidths[.regular]!
        return (ratio - 1) * regularStrokeWidth / 2
    }
}
