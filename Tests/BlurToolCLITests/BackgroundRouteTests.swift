import BlurToolCLI
import Compositor
import Foundation
import ImageCodecs
import TestSupport
import XCTest

/// `blurtool photo.jpg --material thin --size WxH` decodes small and blurs the frame without making it (the
/// pyramid's cells are resampled from the decode: `MaterialEffect.apply(toResized:)`).
/// Against the full-resolution route (material at full size, σ scaled by the shrink, then resampled):
final class BackgroundRouteTests: XCTestCase {
    func testSizedBackgroundMatchesTheFullResolutionRoute() throws {
        let directory = NSTemporaryDirectory() + "blurtool-background-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let photo = TestImages.photoLike(width: 2000, height: 1500, seed: 61)
        let jpeg = try ImageEncoder.encode(photo, as: .jpeg, options: EncodeOptions(quality: 95))
        try Data(jpeg).write(to: URL(fileURLWithPath: directory + "photo.jpg"))

        let status = BlurTool.run(
            [
                "blurtool", directory + "photo.jpg", "--material", "thin", "--size", "300x400",
                "-o", directory + "out.png",
            ],
            console: BlurTool.Console(out: { _ in }, err: { _ in }))
        XCTAssertEqual(status, 0)
        let fast = try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "out.png"))))

        // The reference: crop what the frame shows at full resolution, apply the material there (σ scaled by
        // the shrink; edges mirrored at the frame, as the backdrop a screen shows), then resample.
        let full = try ImageDecoder.decode(jpeg).image
        let layout = FitLayout(sourceWidth: 2000, sourceHeight: 1500, frameWidth: 300, frameHeight: 400, mode: .fill)
        let rect = layout.sourceRect
        let shown = full.region(
            x: Int(rect.x.rounded()), y: Int(rect.y.rounded()), width: Int(rect.width.rounded()),
            height: Int(rect.height.rounded()))
        let shrink = rect.height / 400
        let effect = MaterialEffect(
            recipe: Material.thin.recipe(for: .light),
            pixelsPerPoint: 300 / MaterialEffect.screenPoints * shrink)
        let reference = Resampler().resize(effect.apply(to: shown), width: 300, height: 400)
        let difference = ImageDifference(fast.image, reference)
        // Measured: PSNR 55.0 dB, max error 2, with the fast route decoding at 1/4 (the same before the frame
        // stopped being made).
        XCTAssertGreaterThanOrEqual(difference.psnr, 52, "\(difference)")
        XCTAssertLessThanOrEqual(difference.maxError, 3, "\(difference)")
    }
}
