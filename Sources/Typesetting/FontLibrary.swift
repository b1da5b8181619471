import CFontconfig
import CFreeType
import Compositor
import Scenes

/// The process's fonts: one FreeType library, every face opened once (per file and index), and fontconfig,
/// whose calls are serialised by one lock (its configuration is shared state).
final class FontLibrary: @unchecked Sendable {
    static let shared = FontLibrary()

    /// The families `.system` tries, in order: the closest open designs to San Francisco.
    static let systemFamilies = ["Inter", "DejaVu Sans"]

    /// The families `.system` tries for a design (see `FontDesign`), in order, the last one required.
    static func systemFamilies(for design: FontDesign) -> [String] {
        switch design {
        case .default: systemFamilies
        case .rounded: ["Quicksand"] + systemFamilies
        case .serif: ["DejaVu Serif"]
        case .monospaced: ["DejaVu Sans Mono"]
        }
    }
    /// Names fontconfig resolves to a configured default rather than a family of that name.
    static let genericFamilies: Set<String> = ["sans-serif", "serif", "monospace", "system-ui", "sans", "mono"]

    private struct FaceKey: Hashable {
        var path: String
        var index: Int
    }

    private struct Request: Hashable {
        var family: String
        var weight: Int
        var italic: Bool
    }

    private struct State {
        /// The faces opened by path, with when each was last asked for.
        var faces: [FaceKey: (face: FontFace, lastUse: UInt64)] = [:]
        var families: [Request: FontFace] = [:]
        var nextID: Int32 = 1
        var clock: UInt64 = 0
    }

    /// Faces kept open by path, least recently asked for closed first: a long-running renderer fed user fonts
    /// keeps this many files mapped (plus those its typeset texts still hold), not every file it was ever given.
    static let maximumOpenFaces = 32

    private let state = Locked(State())
    private let fontconfig = Locked<OpaquePointer?>(nil)
    private let fallbacks = Locked<[Request: FallbackList]>([:])

    /// FreeType's library: faces are opened and closed under one lock (`FontFace.openingAndClosing`), as
    /// FreeType asks of a library shared between threads; rasterising with different faces on different threads
    /// is safe (the rasteriser's work area is on the stack).
    let freeType: FT_Library

    private init() {
        var library: FT_Library?
        let status = FT_Init_FreeType(&library)
        // Only memory exhaustion fails here; nothing a caller could do differently.
        precondition(status == 0 && library != nil, "FreeType could not start (error \(status))")
        freeType = library!
    }

    /// The face of a font file, opened once while it stays among the `maximumOpenFaces` last asked for.
    func face(path: String, index: Int = 0) throws(TypesettingError) -> FontFace {
        let key = FaceKey(path: path, index: index)
        // The face closed to make room is released after the lock: its deinit closes the FreeType face.
        var closed: FontFace?
        let result: Result<FontFace, TypesettingError> = state.withLock { state in
            state.clock += 1
            if let entry = state.faces[key] {
                state.faces[key]!.lastUse = state.clock
                return .success(entry.face)
            }
            do {
                let face = try FontFace(path: path, index: index, id: state.nextID, library: freeType)
                state.nextID += 1
                if state.faces.count >= Self.maximumOpenFaces,
                    let oldest = state.faces.min(by: { $0.value.lastUse < $1.value.lastUse })
                {
                    closed = oldest.value.face
                    state.faces[oldest.key] = nil
                    state.families = state.families.filter { $0.value !== closed }
                }
                state.faces[key] = (face, state.clock)
                return .success(face)
            } catch {
                return .failure(error as! TypesettingError)
            }
        }
        closed = nil
        return try result.get()
    }

    /// How many faces are open by path now (at most `maximumOpenFaces`).
    var openFaceCount: Int { state.withLock { $0.faces.count } }

    /// The installed face fontconfig matches for a family, weight and slant, if one of the match's family names
    /// is the one asked for (fontconfig substitutes some font for any name) or the name is a generic alias.
    func face(family: String, weight: FontWeight, italic: Bool) throws(TypesettingError) -> FontFace {
        let request = Request(family: family, weight: weight.rawValue, italic: italic)
        if let face = state.withLock({ $0.families[request] }) { return face }
        let match: (path: String, index: Int)? = withFontconfig { config in
            let pattern = Self.pattern(family: family, weight: weight, italic: italic)
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let matched = FcFontMatch(config, pattern, &result) else { return nil }
            defer { FcPatternDestroy(matched) }
            let wanted = family.lowercased()
            let names = Self.strings(matched, FC_FAMILY)
            guard Self.genericFamilies.contains(wanted) || names.contains(where: { $0.lowercased() == wanted }),
                let file = Self.strings(matched, FC_FILE).first
            else { return nil }
            var index: Int32 = 0
            _ = FcPatternGetInteger(matched, FC_INDEX, 0, &index)
            return (file, Int(index))
        }
        guard let match else { throw .familyNotInstalled(family, close: closeFamilies(to: family)) }
        let face = try face(path: match.path, index: match.index)
        state.withLock { $0.families[request] = face }
        return face
    }

    /// The face for `.system` in a design: the first of its families installed (for the default, Inter, else
    /// DejaVu Sans).
    func systemFace(design: FontDesign = .default, weight: FontWeight, italic: Bool) throws(TypesettingError)
        -> FontFace
    {
        let families = Self.systemFamilies(for: design)
        for family in families.dropLast() {
            if let face = try? face(family: family, weight: weight, italic: italic) { return face }
        }
        return try face(family: families.last!, weight: weight, italic: italic)
    }

    /// The fonts fontconfig sorts for a family, weight and slant, which fallback searches for a character.
    func fallbackList(family: String, weight: FontWeight, italic: Bool) -> FallbackList {
        let request = Request(family: family, weight: weight.rawValue, italic: italic)
        if let list = fallbacks.withLock({ $0[request] }) { return list }
        let candidates: [FallbackList.Candidate] = withFontconfig { config in
            let pattern = Self.pattern(family: family, weight: weight, italic: italic)
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let set = FcFontSort(config, pattern, FcFalse, nil, &result) else { return [] }
            defer { FcFontSetDestroy(set) }
            var candidates: [FallbackList.Candidate] = []
            for position in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[position], let file = Self.strings(font, FC_FILE).first else {
                    continue
                }
                var index: Int32 = 0
                _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
                var charset: OpaquePointer?
                guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset else {
                    continue
                }
                candidates.append(.init(path: file, index: Int(index), charset: FcCharSetCopy(charset)))
            }
            return candidates
        }
        let list = FallbackList(candidates: candidates, library: self)
        return fallbacks.withLock { lists in
            if let existing = lists[request] { return existing }
            lists[request] = list
            return list
        }
    }

    /// Runs `body` with fontconfig's configuration, loaded once, one thread at a time.
    func withFontconfig<Result>(_ body: (OpaquePointer?) -> Result) -> Result {
        fontconfig.withLock { config in
            if config == nil { config = FcInitLoadConfigAndFonts() }
            return body(config)
        }
    }

    /// Up to five installed families nearest to `family` by edit distance, ignoring case.
    func closeFamilies(to family: String) -> [String] {
        let installed: Set<String> = withFontconfig { config in
            let pattern = FcPatternCreate()
            let objects = FcObjectSetCreate()
            defer {
                FcPatternDestroy(pattern)
                FcObjectSetDestroy(objects)
            }
            _ = FcObjectSetAdd(objects, FC_FAMILY)
            guard let set = FcFontList(config, pattern, objects) else { return [] }
            defer { FcFontSetDestroy(set) }
            var names: Set<String> = []
            for position in 0..<Int(set.pointee.nfont) {
                if let font = set.pointee.fonts[position] { names.formUnion(Self.strings(font, FC_FAMILY)) }
            }
            return names
        }
        return family.closest(in: installed)
    }

    private static func pattern(family: String, weight: FontWeight, italic: Bool) -> OpaquePointer {
        let pattern = FcPatternCreate()!
        family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                _ = FcPatternAddString(pattern, FC_FAMILY, $0)
            }
        }
        _ = FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight.rawValue)))
        _ = FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        return pattern
    }

    private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var position: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, object, position, &value) == FcResultMatch, let value {
            values.append(String(cString: value))
            position += 1
        }
        return values
    }
}

/// The fonts fontconfig ranks for one request, searched in order for the first that has a character, with the
/// answer kept per code point (one sort per request, then a charset lookup per new character).
final class FallbackList: @unchecked Sendable {
    struct Candidate {
        var path: String
        var index: Int
        var charset: OpaquePointer?
    }

    /// No fallback at all (the ellipsis is shaped in the face it ends).
    static let empty = FallbackList(candidates: [], library: .shared)

    private let candidates: [Candidate]
    private unowned let library: FontLibrary
    private let chosen = Locked<[UInt32: FontFace?]>([:])

    fileprivate init(candidates: [Candidate], library: FontLibrary) {
        self.candidates = candidates
        self.library = library
    }

    /// The first sorted face that has `scalar`, or nil when none has it.
    func face(for scalar: Unicode.Scalar) -> FontFace? {
        if let known = chosen.withLock({ $0[scalar.value] }) { return known }
        let matches: [Candidate] = library.withFontconfig { _ in
            candidates.filter { FcCharSetHasChar($0.charset, scalar.value) != 0 }
        }
        var found: FontFace?
        for candidate in matches {
            // A font whose charset says yes may still fail to open or map the character: try the next.
            if let face = try? library.face(path: candidate.path, index: candidate.index),
                face.glyph(for: scalar) != nil
            {
                found = face
                break
            }
        }
        chosen.withLock { $0[scalar.value] = found }
        return found
    }
}
