import Compositor
import Motion
import Scenes

/// `blurtool transition FROM TO --style NAME …`: one photo turning into another, as ffmpeg's `xfade` draws it,
/// to the outputs `animate` writes (an animated PNG or WebP, numbered PNGs, YUV4MPEG2).
public struct TransitionRequest: Equatable, Sendable {
    /// FROM as `animation.render.input`; the output, frame rate, duration (1 s unless given), `--size`, threads,
    /// decoding limits and encoder options as `animate` takes them.
    public var animation: AnimationRequest
    public var to: String
    public var style: PhotoTransition.Style
    /// How progress moves over the duration (linear unless `--curve`).
    public var curve = TimingCurve.linear

    public var from: String { animation.render.input }
    public var duration: Double { animation.duration ?? 1 }

    public init(from: String, to: String, style: PhotoTransition.Style) {
        animation = AnimationRequest(render: RenderRequest(input: from))
        self.to = to
        self.style = style
    }
}

extension ArgumentParser {
    static func transitionRequest(positionals: [String], options: [(name: String, value: String?)])
        throws(UsageError) -> TransitionRequest
    {
        guard positionals.count == 2 else { throw UsageError("'transition' needs two images: FROM and TO") }
        if positionals == ["-", "-"] { throw UsageError("standard input can be FROM or TO, not both") }
        var style: PhotoTransition.Style?
        var curve = TimingCurve.linear
        var shared: [(name: String, value: String?)] = []
        for (name, value) in options {
            let value = value ?? ""
            switch name {
            case "--style":
                guard let named = PhotoTransition.Style(rawValue: value.lowercased()) else {
                    throw UsageError("unknown style \(value.quotedForMessage()); known: \(knownStyles)")
                }
                style = named
            case "--curve":
                do {
                    curve = try TimingCurve(parsing: value)
                } catch {
                    throw UsageError("--curve: " + error.description)
                }
            case "--at", "--scale": throw UsageError("option '\(name)' does not apply to 'transition'")
            default: shared.append((name, value))
            }
        }
        guard let style else { throw UsageError("'transition' needs --style NAME; known: \(knownStyles)") }
        var request = TransitionRequest(from: positionals[0], to: positionals[1], style: style)
        request.curve = curve
        request.animation = try animationRequest(scene: positionals[0], options: shared, command: "transition")
        if request.animation.duration == 0 { throw UsageError("--duration of a transition must be above 0") }
        let count = AnimationRenderer(framesPerSecond: request.animation.framesPerSecond)
            .frameCount(duration: request.duration)
        guard count <= AnimationRenderer.Limits().maximumFrames else {
            throw UsageError(
                "the transition has \(count) frames; the limit is \(AnimationRenderer.Limits().maximumFrames) "
                    + "(lower --duration or --fps)")
        }
        return request
    }

    private static var knownStyles: String { PhotoTransition.Style.allCases.map(\.rawValue).joined(separator: ", ") }
}
