/// The faces one text uses: the primary (index 0) and the fallbacks found for characters it lacks, so that a
/// shaped glyph names its face by a small index.
final class FaceSet {
    private(set) var faces: [FontFace]
    private let fallbacks: FallbackList
    private var chosen: [UInt32: Int?] = [:]

    init(primary: FontFace, fallbacks: FallbackList) {
        faces = [primary]
        self.fallbacks = fallbacks
    }

    subscript(index: Int) -> FontFace { faces[index] }

    /// The index of the face fontconfig sorts first for a character the primary face lacks; nil when no installed
    /// face has it.
    func fallback(for scalar: Unicode.Scalar) -> Int? {
        if let known = chosen[scalar.value] { return known }
        var result: Int?
        if let face = fallbacks.face(for: scalar) {
            if let index = faces.firstIndex(where: { $0 === face }) {
                result = index
            } else if faces.count < Int(UInt16.max) {
                faces.append(face)
                result = faces.count - 1
            }
        }
        chosen[scalar.value] = result
        return result
    }
}
