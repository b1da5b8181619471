import Compositor
import Scenes
import XCTest

@testable import Typesetting

/// Wrapping, line limits, truncation, alignment and vertical centring, in DejaVu Sans Mono, whose characters
/// all advance by the same width, so that the expected lines can be counted in characters.
final class LayoutTests: XCTestCase {
    private var style = TextStyle(font: .family("DejaVu Sans Mono"), size: 10)
    /// One character's advance in points.
    private var advance = 0.0
    private var face: FontFace!

    override func setUpWithError() throws {
        face = try TextFixtures.face("DejaVu Sans Mono")
        let paragraph = try TextFixtures.typeset("x", style).paragraphs[0]
        advance = Double(paragraph.clusters[0].advance)
    }

    /// Greedy word wrap counted in characters: the reference the layout must match.
    private func referenceLines(_ text: String, columns: Int) -> [Int] {
        var lines: [Int] = []
        var current = 0
        for word in text.split(separator: " ").map(\.count) {
            var word = word
            if current > 0, current + 1 + word <= columns {
                current += 1 + word
                continue
            }
            if current > 0 { lines.append(current) }
            while word > columns {
                lines.append(columns)
                word -= columns
            }
            current = word
        }
        lines.append(current)
        return lines
    }

    func testWrapsAtWordsAndInsideWordsOnlyWhenAloneTooWide() throws {
        let text = "The quick brown fox jumps over the lazy dog; pneumonoultramicroscopic words wrap too"
        let shaped = try TextFixtures.typeset(text, style)
        for columns in [5, 9, 10, 15, 20, 43, 200] {
            // A hair more than the columns' width, so that rounding never decides.
            let layout = shaped.layout(width: (Double(columns) + 0.5) * advance, height: 1000)
            let counts = TextFixtures.lines(layout).map(\.count)
            XCTAssertEqual(counts, referenceLines(text, columns: columns), "\(columns) columns")
        }
    }

    func testParagraphSeparatorsAndEmptyParagraphs() throws {
        let layout = try TextFixtures.typeset("ab\ncd\r\n\nef\u{2029}g", style).layout(width: 100, height: 1000)
        // The empty paragraph keeps its line: five lines' baselines, four with glyphs.
        let lineHeight = face.lineHeight * style.size / face.unitsPerEm
        let baselines = TextFixtures.baselines(layout)
        XCTAssertEqual(baselines.count, 4)
        XCTAssertEqual(baselines[2] - baselines[1], 2 * lineHeight, accuracy: 1e-9)
        XCTAssertEqual(TextFixtures.lines(layout).map(\.count), [2, 2, 2, 1])
    }

    func testLineLimitTruncatesTheTailWithAnEllipsis() throws {
        let ellipsis = try TextFixtures.glyph(face, "\u{2026}")
        let shaped = try TextFixtures.typeset("aaa bbb ccc ddd", style)
        // (columns, lineLimit) → glyphs per line; the last line ends with "…" when text is left over.
        let cases: [(Double, Int, [Int], Bool)] = [
            (8, 1, [8], true),  // "aaa bbb…"
            (6.5, 1, [6], true),  // "aaa b…": byTruncatingTail cuts inside the word
            (8, 2, [7, 7], false),  // everything fits in two lines
            (4, 2, [3, 4], true),  // "aaa", "bbb…"
            (4.5, 3, [3, 3, 4], true),  // "aaa", "bbb", "ccc…"
            (100, 1, [15], false),
            (0.5, 1, [1], true),  // not even one character fits with the ellipsis: the ellipsis alone
        ]
        for (columns, limit, counts, truncated) in cases {
            var limited = style
            limited.lineLimit = limit
            let layout = try TextFixtures.typeset("aaa bbb ccc ddd", limited)
                .layout(width: (columns + 0.25) * advance, height: 1000)
            let lines = TextFixtures.lines(layout)
            XCTAssertEqual(lines.map(\.count), counts, "\(columns) columns, \(limit) lines")
            XCTAssertEqual(lines.last?.last?.id == ellipsis, truncated, "\(columns) columns, \(limit) lines")
        }
        XCTAssertEqual(TextFixtures.lines(shaped.layout(width: 8.25 * advance, height: 1000)).count, 2)
    }

    func testTheFrameHeightLimitsLinesToAtLeastOne() throws {
        let lineHeight = face.lineHeight * style.size / face.unitsPerEm
        let shaped = try TextFixtures.typeset("aaa bbb ccc ddd", style)
        for (height, expected) in [(lineHeight * 2.5, 2), (lineHeight * 0.3, 1), (lineHeight * 10, 4)] {
            let lines = TextFixtures.lines(shaped.layout(width: 3.5 * advance, height: height))
            XCTAssertEqual(lines.count, expected, "frame \(height) pt high")
        }
        var spaced = style
        spaced.lineSpacing = lineHeight
        // Two lines with one line's spacing between them need three line heights, not 2.5.
        let lines = try TextFixtures.typeset("aaa bbb ccc ddd", spaced).layout(
            width: 3.5 * advance, height: lineHeight * 2.9)
        XCTAssertEqual(TextFixtures.lines(lines).count, 1)
    }

    func testAlignmentAndVerticalCentring() throws {
        let lineHeight = face.lineHeight * style.size / face.unitsPerEm
        let ascender = face.ascender * style.size / face.unitsPerEm
        let (width, height) = (200.0, 100.0)
        for alignment in TextAlignment.allCases {
            var aligned = style
            aligned.alignment = alignment
            aligned.lineSpacing = 3
            // Trailing spaces count for neither wrapping nor alignment.
            let layout = try TextFixtures.typeset("abcd  \nab", aligned).layout(width: width, height: height)
            let lines = TextFixtures.lines(layout)
            for (line, count) in zip(lines, [4, 2]) {
                let lineWidth = Double(count) * advance
                let expected: Double
                switch alignment {
                case .leading, .natural: expected = 0
                case .center: expected = (width - lineWidth) / 2
                case .trailing: expected = width - lineWidth
                }
                XCTAssertEqual(line[0].x, expected, accuracy: 1e-6, "\(alignment)")
            }
            let top = (height - (2 * lineHeight + 3)) / 2
            XCTAssertEqual(TextFixtures.baselines(layout), [top + ascender, top + ascender + lineHeight + 3])
        }
    }

    func testBreakOpportunities() throws {
        // After the last of several spaces, after a hyphen, on both sides of a CJK character; not inside a word.
        let paragraph = try TextFixtures.typeset("ab  well-known 日本x", style).paragraphs[0]
        let breaks = paragraph.clusters.indices.filter { paragraph.clusters[$0].breaksAfter }
        // Clusters: a b ␠ ␠ w e l l - k n o w n ␠ 日 本 x (one per character in this font, ideographs or not).
        XCTAssertEqual(paragraph.clusters.count, 18)
        XCTAssertEqual(breaks, [3, 8, 14, 15, 16])
        // A no-break space joins its words.
        let joined = try TextFixtures.typeset("10\u{A0}km away", style).paragraphs[0]
        XCTAssertEqual(joined.clusters.indices.filter { joined.clusters[$0].breaksAfter }, [5])
    }

    func testLayoutsAreKeptPerFrameSize() throws {
        let shaped = try TextFixtures.typeset("aaa bbb", style)
        let narrow = shaped.layout(width: 4 * advance, height: 100)
        let wide = shaped.layout(width: 100, height: 100)
        XCTAssertEqual(TextFixtures.lines(narrow).count, 2)
        XCTAssertEqual(TextFixtures.lines(wide).count, 1)
        XCTAssertEqual(TextFixtures.lines(shaped.layout(width: 4 * advance, height: 100)).count, 2)
    }
}
