import Compositor

/// A page curled about a cylinder, as UIKit's `.transitionCurlUp`/`.transitionCurlDown` and the modal
/// `.partialCurl` show a view: the page rolls up from one edge around a cylinder lying on it, its back (the page's
/// own pixels mirrored, greyed as paper seen from behind) showing on the roll and on the part folded over, a soft
/// shadow cast under the roll onto what lies beneath, and the uncovered part transparent.
///
/// Geometry (in the page's pixels, y down): the cylinder's axis is a line across the page, tilted by `angle`
/// from the page's horizontal edges, moving in `direction` (up: from the bottom edge towards the top) as
/// `progress` goes from 0 (the page flat, untouched) to 1 (rolled off the far edge: nothing left). Each output
/// pixel is mapped back onto the flat page (an inverse mapping, no forward splatting), the two surfaces above it
/// (the back, on top, and the front beneath) sampled bilinearly and layered by their coverage, which is also what
/// anti-aliases the silhouette and the page's folded edges. Results are identical for every thread count.
public struct PageCurl: Equatable, Sendable {
    public enum Direction: String, CaseIterable, Sendable {
        /// From the bottom edge upwards (`.transitionCurlUp`, `.partialCurl`).
        case up
        /// From the top edge downwards (`.transitionCurlDown`).
        case down
    }

    /// 0 (flat: the page exactly) to 1 (gone: transparent); NaN counts as 0, the value is clamped.
    public var progress: Double
    public var direction: Direction
    /// The axis's tilt from the page's horizontal edges in radians (positive: the right-hand corner leads, as
    /// iOS curls from the corner); clamped to ±60°, NaN counts as 0.
    public var angle: Double
    /// The cylinder's radius as a fraction of the page's shorter side, clamped to 0.01...1 (NaN: the default),
    /// so a curl looks the same at any resolution.
    public var radius: Double

    /// About 15°: iOS's curl starts at the lower right corner at a slight angle (reconstructed from recordings;
    /// UIKit does not document it).
    public static let defaultAngle = 15 * Double.pi / 180
    /// A roll about a tenth of the page's shorter side across (reconstructed, as the angle).
    public static let defaultRadius = 0.1

    public init(
        progress: Double = 0, direction: Direction = .up, angle: Double = PageCurl.defaultAngle,
        radius: Double = PageCurl.defaultRadius
    ) {
        self.progress = progress
        self.direction = direction
        self.angle = angle
        self.radius = radius
    }

    /// Draws `page` curled into `target`, replacing every pixel of it.
    ///
    /// - Precondition: `target` has the page's size and shares no pixels with it.
    public func draw(_ page: Image, into target: Image, threads: Int = Parallel.processorCount) {
        precondition(target.width == page.width && target.height == page.height, "a curl keeps the page's size")
        precondition(!target.overlaps(page), "a curl cannot draw into its page")
        guard target.pixelCount > 0 else { return }
        let geometry = CurlGeometry(self, width: page.width, height: page.height)
        guard let geometry else {
            // Flat or gone: the page to the bit, or nothing.
            let rowBytes = page.width * Image.bytesPerPixel
            let flat = clampedProgress <= 0
            Parallel.forEach(page.height, threads: threads) { y, _ in
                if flat {
                    target.row(y).update(from: page.row(y), count: rowBytes)
                } else {
                    target.row(y).update(repeating: 0, count: rowBytes)
                }
            }
            return
        }
        // A copy with its last column and row repeated, so every bilinear neighbourhood lies inside it (a sample
        // at the last column reads its right-hand neighbour with weight 0).
        let padded = Image(uninitializedWidth: page.width + 1, height: page.height + 1)
        let rowBytes = page.width * Image.bytesPerPixel
        for y in 0...page.height {
            let source = page.row(min(y, page.height - 1))
            let row = padded.row(y)
            row.update(from: source, count: rowBytes)
            (row + rowBytes).update(from: source + rowBytes - 4, count: 4)
        }
        Parallel.forEach(page.height, threads: threads) { y, _ in
            geometry.drawRow(y, from: padded, into: target.row(y))
        }
    }

    /// A new image: `page` curled (see `draw(_:into:threads:)`).
    public func curled(_ page: Image, threads: Int = Parallel.processorCount) -> Image {
        let target = Image(uninitializedWidth: page.width, height: page.height)  // every pixel is written
        draw(page, into: target, threads: threads)
        return target
    }

    var clampedProgress: Double { progress > 0 ? min(progress, 1) : 0 }
    var clampedAngle: Double { angle.isNaN ? 0 : min(max(angle, -Double.pi / 3), Double.pi / 3) }
    var clampedRadius: Double { radius.isNaN ? PageCurl.defaultRadius : min(max(radius, 0.01), 1) }
}
