import BackdropRendering

/// What a device's GPU spends on a whole screen: a frame of the scene priced by the ``CostModel``
/// (`docs/scene-format.md`, "What `backdrop estimate --scene` reports"). Every figure is a prediction.
public struct SceneEstimate: Sendable {
    /// The scene.
    public let scene: Scene
    /// The device.
    public let device: Device
    /// The path its effect views take.
    public let path: Effect.Path
    /// The effect views of its first frame on the blur path (on the tint-only path: materials and glass, which
    /// still blur unless tint-only is asked for outright).
    public let blurredEffectViews: Int
    /// The model's blur decision for the device, with Apple's policy beside it.
    public let decision: BlurDecision
    /// A frame of the steady scroll or animation; for a static scene at rest, only what animates.
    public let frame: FrameTimeline
    /// The first frame: every layer drawn, and rasterized layers rendered into the cache.
    public let firstFrame: FrameTimeline
    /// Bytes of rasterized layers in the cache, and its limit (2.5 screens, seed O2).
    public let rasterCacheBytes: Int
    public let rasterCacheLimitBytes: Int

    /// The frame a table shows for the scene: the steady frame of a scrolling scene; a static scene's first frame,
    /// when it appears (at rest it draws only what animates, often nothing: a row of zeros tells nobody anything).
    public var tableFrame: FrameTimeline { scene.redraw == .static ? firstFrame : frame }
    /// Where the scene goes far past what the evidence covers (``EvidenceCoverage``): its range is then an
    /// extrapolation.
    public var warnings: [String] { EvidenceCoverage.warnings(for: scene, passes: tableFrame.passes.map(\.gpuPass)) }
    /// What the price says beside it about the scene's effect styles (``Estimator/styleNotes(_:on:)``): a style the
    /// device never ran (a what-if), Liquid Glass (an approximation).
    public var styleNotes: [String] { Estimator.styleNotes(scene.effectStyles, on: device) }
    /// Whether one of the scene's effect styles shipped in an iOS the device never ran.
    public var isWhatIf: Bool { scene.effectStyles.contains { Estimator.whatIf($0, on: device) != nil } }
}
