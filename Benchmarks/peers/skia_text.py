"""Our scene format's text layer as a Linux user would draw it with skia-python: laid out as UILabel does.

The face comes from fontconfig (`fc-match`) for the family, weight and slant, or from a font file; Inter stands
in for the system face, else DejaVu Sans, as ours. The string is wrapped greedily at spaces to the frame's width
(inside a word only when the word alone is wider), limited to `lineLimit` lines or as many as the frame's height
holds, the last shown line cut at its tail with "…" when text is left over, each line aligned in the width and
the block centred in the height; line height is the font's ascent + descent + leading, the first baseline an
ascent below the block's top. Lines are measured and drawn as one-line SkParagraphs (HarfBuzz shaping, with
letter spacing for `tracking`; `paint` draws them with drawTextBlob), made once per layer and colour.
"""
import math
import os
import subprocess

import skia

KEYS = {"text", "font", "size", "style", "weight", "italic", "color", "alignment", "lineLimit", "lineSpacing",
        "tracking"}
STYLES = {"largeTitle": 34, "title1": 28, "title2": 22, "title3": 20, "headline": 17, "body": 17, "callout": 16,
          "subheadline": 15, "footnote": 13, "caption1": 12, "caption2": 11}
# UIFont weights with their OpenType value and fontconfig's (FcWeightFromOpenType, which ours calls).
WEIGHTS = {"ultraLight": (100, 0), "thin": (200, 40), "light": (300, 50), "regular": (400, 80),
           "medium": (500, 100), "semibold": (600, 180), "bold": (700, 200), "heavy": (800, 205), "black": (900, 210)}
SYSTEM_FAMILIES = ["Inter", "DejaVu Sans"]
FONT_FILE_EXTENSIONS = (".ttf", ".otf", ".ttc", ".otc", ".pfb", ".woff", ".woff2")
ELLIPSIS = "\u2026"


class TextError(Exception):
    """A text layer this peer cannot draw; the message says why (the caller adds the JSON path)."""


class Fonts:
    """Typefaces by (family or file, weight, italic), and one font collection that resolves them by alias."""

    def __init__(self):
        self.provider = skia.textlayout_TypefaceFontProvider()
        self.collection = skia.textlayout_FontCollection()
        self.collection.setDefaultFontManager(self.provider)
        self.unicode = skia.Unicode.ICU_Make()
        self.typefaces = {}

    def typeface(self, font, weight, italic, folder):
        """(alias, typeface) for a layer's `font` (None: the system face)."""
        if font is not None and ("/" in font or font.lower().endswith(FONT_FILE_EXTENSIONS)):
            key = (os.path.join(folder, font), None, False)
        else:
            key = (font, weight, italic)
        if key not in self.typefaces:
            if key[1] is None:
                if not os.path.isfile(key[0]):
                    raise TextError(f"font file {key[0]} not found")
                typeface = skia.Typeface.MakeFromFile(key[0])
            else:
                typeface = None
                for family in [font] if font is not None else SYSTEM_FAMILIES:
                    path = fc_match(family, weight, italic)
                    if path is not None:
                        typeface = skia.Typeface.MakeFromFile(path)
                        break
                if typeface is None and font is None:
                    raise TextError(f"neither of {', '.join(SYSTEM_FAMILIES)} is installed")
                if typeface is None:
                    raise TextError(f"font family {font!r} is not installed (fc-match)")
            if typeface is None:
                raise TextError(f"{key[0]}: Skia cannot read it as a font")
            alias = f"face{len(self.typefaces)}"
            self.provider.registerTypeface(typeface, alias)
            self.typefaces[key] = (alias, typeface)
        return self.typefaces[key]


def fc_match(family, weight, italic):
    """fontconfig's file for the family at a UIFont weight name and slant, if its match is that family."""
    pattern = f"{family}:weight={WEIGHTS[weight][1]}:slant={100 if italic else 0}"
    try:
        done = subprocess.run(["fc-match", "-f", "%{file}\n%{family}", pattern], capture_output=True, text=True)
    except OSError:
        return None
    file, _, names = done.stdout.partition("\n")
    matches = [name.lower() for name in names.split(",")]
    return file if done.returncode == 0 and file and family.lower() in matches else None


class TextLayer:
    """One text layer laid out in its frame: lines as (one-line paragraph per colour, x, baseline) in points."""

    def __init__(self, item, frame, folder, fonts, colour):
        """`colour(opacity)` is the layer's colour (a skia.Color4f) with its opacity multiplied in."""
        style = item.get("style")
        if style is not None and style not in STYLES:
            raise TextError(f"style {style!r} is not one of {', '.join(STYLES)}")
        weight = item.get("weight", "semibold" if style == "headline" else "regular")
        if weight not in WEIGHTS:
            raise TextError(f"weight {weight!r} is not one of {', '.join(WEIGHTS)}")
        self.size = float(item.get("size", STYLES.get(style, 17)))
        if not 0 < self.size <= 16384:
            raise TextError(f"size {self.size} is not above 0 and at most 16384 points")
        self.alias, self.typeface = fonts.typeface(item.get("font"), weight, bool(item.get("italic")), folder)
        self.fonts, self.colour = fonts, colour
        self.tracking = float(item.get("tracking", 0))
        self.spacing = float(item.get("lineSpacing", 0))
        alignment = item.get("alignment", "natural")
        if alignment not in ("leading", "center", "trailing", "natural"):
            raise TextError(f"alignment {alignment!r} is not leading, center, trailing or natural")
        metrics = skia.Font(self.typeface, self.size).getMetrics()
        self.ascent, self.descent = -metrics.fAscent, metrics.fDescent
        line_height = self.ascent + self.descent + metrics.fLeading
        x, y, width, height = frame
        step = line_height + self.spacing
        fitting = max(math.floor((max(height, 0) + self.spacing) / step), 1) if step > 0 else 1 << 30
        limit = int(item.get("lineLimit", 0))
        lines = self.wrap(str(item["text"]), width, min(limit, fitting) if limit > 0 else fitting)
        top = (height - len(lines) * line_height - max(len(lines) - 1, 0) * self.spacing) / 2
        self.lines, self.paragraphs = [], {}
        for number, line in enumerate(lines):
            used = self.width(line)
            pen = {"center": (width - used) / 2, "trailing": width - used}.get(alignment, 0.0)
            self.lines.append((line, pen, top + self.ascent + number * step))
        # Where ink may fall, in frame points (an isolated group's layer is made to hold it): the line boxes
        # widened by a quarter of the size for overhanging glyphs.
        margin = self.size / 4
        self.ink = (min((pen for _, pen, _ in self.lines), default=0) - margin, top - margin,
                    max((pen + self.width(line) for line, pen, _ in self.lines), default=0) + margin,
                    top + len(lines) * step + margin) if self.lines else None

    def paragraph(self, text, colour=None):
        """A one-line SkParagraph of `text` in the layer's face, size and tracking, laid out unwrapped."""
        style = skia.textlayout_TextStyle()
        style.setFontFamilies([self.alias])
        style.setFontStyle(self.typeface.fontStyle())
        style.setFontSize(self.size)
        style.setLetterSpacing(self.tracking)
        style.setColor(colour if colour is not None else skia.ColorBLACK)
        paragraph_style = skia.textlayout_ParagraphStyle()
        paragraph_style.setTextStyle(style)
        builder = skia.textlayout_ParagraphBuilder(paragraph_style, self.fonts.collection, self.fonts.unicode)
        builder.addText(text)
        paragraph = builder.Build()
        paragraph.layout(1e9)
        return paragraph

    def width(self, text):
        """The shaped advance of `text` (letter spacing included, trailing spaces not)."""
        text = text.rstrip(" ")
        return self.paragraph(text).MaxIntrinsicWidth if text else 0.0

    def wrap(self, text, width, limit):
        """At most `limit` lines, greedy at spaces; the last one tail-truncated with "…" when text is left."""
        lines, left = [], ""  # left: what of its paragraph did not fit on the last line
        for paragraph in text.split("\n"):
            rest = paragraph
            while True:
                if len(lines) == limit:  # more text than lines: the last holds the rest of its paragraph, cut
                    lines[-1] = self.truncate(lines[-1] + (" " + left if left else ""), width)
                    return lines
                line, rest = self.fill(rest, width)
                lines.append(line)
                left = rest
                if not rest:
                    break
        return lines

    def fill(self, text, width):
        """(the longest run of whole words that fits, the rest); a word too wide alone is cut between characters."""
        words = text.split(" ")
        line = words[0]
        if self.width(line) > width:
            cut = self.fitting_prefix(line, width, "")
            return line[:cut], text[cut:]
        count = 1
        while count < len(words) and self.width(" ".join(words[:count + 1])) <= width:
            count += 1
        return " ".join(words[:count]), " ".join(words[count:]).lstrip(" ") if count < len(words) else ""

    def fitting_prefix(self, text, width, mark):
        """The most characters of `text` (at least one) that fit with `mark` after them (widths grow with length)."""
        low, high = 1, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            if self.width(text[:middle].rstrip(" ") + mark) <= width:
                low = middle
            else:
                high = middle - 1
        return low

    def truncate(self, text, width):
        """The text cut at its tail to fit with "…" after it, trailing spaces dropped before the mark; the mark
        alone when not even one character fits with it."""
        text = text.rstrip(" ")
        if self.width(text + ELLIPSIS) <= width:
            return text + ELLIPSIS
        if not text or self.width(text[:1] + ELLIPSIS) > width:
            return ELLIPSIS
        return text[:self.fitting_prefix(text, width, ELLIPSIS)].rstrip(" ") + ELLIPSIS

    def draw(self, canvas, frame, opacity):
        """The lines at the frame's origin, in the layer's colour times `opacity` (paragraphs kept per alpha)."""
        colour = self.colour(opacity)
        key = colour.toColor()
        if key not in self.paragraphs:
            self.paragraphs[key] = [(self.paragraph(line, key), pen, baseline) for line, pen, baseline in self.lines]
        for paragraph, pen, baseline in self.paragraphs[key]:
            paragraph.paint(canvas, frame[0] + pen, frame[1] + baseline - paragraph.AlphabeticBaseline)

