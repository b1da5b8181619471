import Compositor

extension AnimationRenderer {
    /// A renderer's frames of one scene on demand, at any times and in any order (a game loop's or a scrubber's),
    /// with what does not move drawn once and kept for the later frames, as `renderFrames` keeps it: each frame
    /// equals `frame(of:at:)` for the same time, to the bit.
    ///
    /// One thread at a time (it holds a workspace); frames are drawn on `renderer.threads` threads. Each frame is
    /// checked against the renderer's limits, as a still is.
    public final class FrameSource {
        public let scene: Scene
        public private(set) var renderer: AnimationRenderer
        private let workspace = Workspace()

        /// The threads each frame is drawn on; changing it keeps what is cached (the pixels do not depend on it).
        public var threads: Int {
            get { renderer.renderer.threads }
            set { renderer.renderer.threads = newValue }
        }
        private var cache: FrameCache?

        public init(scene: Scene, renderer: AnimationRenderer = AnimationRenderer()) {
            self.scene = scene
            self.renderer = renderer
        }

        /// The scene as it shows at `time` seconds.
        /// - Throws: `SceneRenderError` when the frame is over the renderer's limits.
        public func frame(at time: Double) throws(SceneRenderError) -> Image {
            if cache == nil { cache = try renderer.makeCache(for: scene) }
            return try renderer.renderer.render(scene.snapshot(at: time), workspace: workspace, cache: cache)
        }
    }
}
