import Compositor
import Scenes

/// Curled layers: their `layers` drawn as one page in the frame, curled as UIKit's page curls show a view.
///
///     { "type": "curled", "progress": 0.3, "direction": "up", "angle": 15, "radius": 0.1, "layers": [ … ],
///       "animations": [{ "property": "curl", "from": 0, "to": 0.33, "duration": 0.4 }] }
///
/// `progress` 0 (flat, the default) to 1 (gone); `direction` up (from the bottom edge, the default) or down;
/// `angle` the axis's tilt in degrees, −60…60 (default 15: the right-hand corner leads); `radius` the roll's
/// radius as a fraction of the page's shorter side, 0.01…1 (default 0.1). The `curl` animation moves `progress`.
extension SceneFile {
    static let curlKeys = ["layers", "progress", "direction", "angle", "radius"]

    mutating func curled(_ object: JSONObject, path: String, bounds: Rect) throws(SceneFileError) -> Layer.Content {
        var curl = PageCurl(
            progress: try object.optionalNumber("progress", atLeast: 0, atMost: 1) ?? 0,
            direction: try object.choice("direction", PageCurl.Direction.self) ?? .up)
        if let degrees = try object.optionalNumber("angle", atLeast: -60, atMost: 60) {
            curl.angle = degrees * .pi / 180
        }
        if let radius = try object.optionalNumber("radius", atLeast: 0.01, atMost: 1) { curl.radius = radius }
        return .curled(try layers(try object.required("layers"), path: "\(path).layers", bounds: bounds), curl: curl)
    }
}
