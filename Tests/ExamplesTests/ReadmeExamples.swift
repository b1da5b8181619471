// swift-format-ignore-file: the blocks below are the README's, verbatim.
import Compositor
import Foundation
import ImageCodecs
import Motion
import SceneFormat
import Scenes
import Typesetting

// The README's Swift blocks, verbatim, each the body of a function whose parameters are the names the README
// leaves to the reader (`bytes`, `pointer`, `stride`). `ReadmeExamplesTests` checks that every block of the
// README appears here line for line, and runs each function, so an example that no longer compiles or works
// fails the build or the tests.

func sceneExample(photo: Image) throws -> Image {
    let card = Rect(x: 20, y: 500, width: 350, height: 180)
    let scene = Scene(width: 390, height: 844, scale: 3, layers: [
        .image(photo),                                       // aspect fill of the whole canvas
        .backdrop(.thin, .dark),
        .color(.black, opacity: 0.6),
        .backdrop(.regular, .dark, cornerRadius: 24, frame: card),
        .shape(.rectangle(cornerRadius: 25), color: .white, frame: Rect(x: 45, y: 736, width: 300, height: 50)),
    ])
    let screen = try SceneRenderer().render(scene)   // 1170×2532; throws when over SceneRenderer.Limits
    return screen
}

func textExample() throws -> Image {
    let typesetter = FontTypesetter()                        // fontconfig, HarfBuzz, FreeType; GlyphCache.shared
    let title = try typesetter.typeset(
        "How was your coffee?", style: TextStyle(size: 28, weight: .bold, alignment: .center, lineLimit: 1))
    let label = Layer.text(title, color: .white, frame: Rect(x: 20, y: 18, width: 350, height: 44))
    let banner = try SceneRenderer().render(Scene(width: 390, height: 80, scale: 3, background: .black, layers: [label]))
    return banner
}

func sceneFileExample(folder: String) throws -> Image {
    func bytes(of path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    var reader = SceneFile(directory: folder, maxPixels: 50_000_000, typesetter: FontTypesetter()) { path in
        try ImageDecoder.decode(try bytes(of: path)).image     // called once per image layer, path resolved
    }
    let scene = try reader.scene(fromJSON: try bytes(of: folder + "/review-screen.json"))  // SceneFileError
    let screen = try SceneRenderer(threads: 2).render(scene)
    return screen
}

func libraryExample(bytes: [UInt8]) throws -> [UInt8] {
    let photo = try ImageDecoder.decode(bytes)                  // upright, premultiplied RGBA8
    let effect = MaterialEffect(
        recipe: Material.thin.recipe(for: .dark), dim: 0.6,
        pixelsPerPoint: MaterialEffect.pixelsPerPoint(fillingScreenWith: photo.image.width, photo.image.height))
    let background = effect.apply(to: photo.image)
    let jpeg = try ImageEncoder.encode(background, as: .jpeg,
                                       options: EncodeOptions(quality: 90, iccProfile: photo.info.iccProfile))
    return jpeg
}

func borrowedBufferExample(pointer: UnsafeMutablePointer<UInt8>, stride: Int) -> Image {
    let view = Image(borrowing: pointer, width: 1170, height: 2532, bytesPerRow: stride)
    let blurred = GaussianBlur(sigma: 30, edgeMode: .mirror).apply(to: view.region(x: 0, y: 1800, width: 1170, height: 732))
    return blurred
}

func resamplingExample(photo: DecodedImage) throws -> (Image, AffineTransform2D, Image?) {
    let screen = Resampler(filter: .lanczos3).fit(photo.image, width: 1170, height: 2532, mode: .fill)  // .scaledToFill()
    let turn = try AffineTransform2D(parsing: "translate(600,0) rotate(30deg)")   // or chain as with CGAffineTransform
    let moved = AffineWarp(transform: AffineTransform2D(translationX: 600, y: 0).rotatedBy(.pi / 6), filter: .bilinear)
        .apply(to: photo.image, width: 1170, height: 2532)   // nil when the transform is singular
    return (screen, turn, moved)
}

func animationExample(photo: Image) throws -> (apng: [UInt8], still: Image) {
    var face = Layer.shape(.capsule, color: .white, frame: Rect(x: 170, y: 400, width: 50, height: 50))
    face.opacity = 0
    face.transform = AffineTransform2D(scaleX: 5, y: 5).concatenating(AffineTransform2D(translationX: 600, y: 0))
    face.animations = [
        LayerAnimation(.opacity(to: 1), timing: AnimationTiming(duration: 0.4, delay: 0.1)),
        LayerAnimation(
            .transform(to: .identity),
            timing: AnimationTiming(
                curve: try .spring(dampingRatio: 0.2, initialVelocity: 0.3, duration: 0.8), delay: 0.1)),
    ]
    let scene = Scene(width: 390, height: 844, layers: [.image(photo), .backdrop(.thin, .dark), face])
    let animator = AnimationRenderer(framesPerSecond: 30)
    let encoder = AnimatedPNGEncoder(width: 390, height: 844, frameDelay: FrameDelay(1, 30), opaque: scene.staysOpaque)
    var frames: [AnimatedPNGFrame] = []
    try animator.renderFrames(
        of: scene, count: animator.frameCount(duration: scene.animationDuration),  // 28 frames, 0 … 0.9 s
        process: { _, frame, previous in try encoder.encodeFrame(frame, previous: previous) },  // on every core
        deliver: { _, encoded in frames.append(encoded) })                                   // in order
    let apng = encoder.assemble(frames)
    let still = try animator.frame(of: scene, at: 0.3)   // the same pixels as frame 9
    return (apng, still)
}
