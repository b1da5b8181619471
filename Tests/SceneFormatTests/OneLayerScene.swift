import Compositor
import Scenes

@testable import SceneFormat

/// A 40 × 30 point scene file holding one layer, read as the library reads one (every image a blank picture of
/// `imageSize`, never decoded): the helper the per-layer-type suites share.
enum OneLayerScene {
    static func read(_ layer: String, imageSize: (Int, Int) = (2, 2)) throws -> Scene {
        var file = SceneFile(
            directory: "", maxPixels: 1_000_000, loadImage: { _ in Image(width: imageSize.0, height: imageSize.1) })
        return try file.scene(fromJSON: Array(#"{"canvas": {"width": 40, "height": 30}, "layers": [\#(layer)]}"#.utf8))
    }

    /// The error the layer gives, as a user reads it; nil when it is read without one.
    static func error(_ layer: String, imageSize: (Int, Int) = (2, 2)) -> String? {
        do {
            _ = try read(layer, imageSize: imageSize)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
