import BackdropImageIO
import BackdropScenes

/// A ``SceneEstimate`` as plain data, for JSON: the keys `docs/scene-format.md` names (`device`, `scene`,
/// `passes`, `gapsMs`, `busyMs`, `idleMs`, `totalMs`, `fps`, `gpuPercent`, `offscreenPasses`,
/// `renderTargetSwitches`, `verdict`) and a few more. Every figure is a prediction (`predicted` is always true).
public struct SceneRecord: Codable, Sendable, Equatable {
    /// One priced pass.
    public struct Pass: Codable, Sendable, Equatable {
        public let name: String
        /// The scene layer it comes from.
        public let layer: String
        public let kind: String
        /// "screen" or "offscreen".
        public let target: String
        public let startMs: Double
        public let ms: Double
        /// Its time as [low, high] over the device's interval (``FrameTimeline/Ranges``).
        public let msRange: [Double]
        /// What limits it: fill, alu or memory.
        public let bound: String
        public let pixelsWritten: Int
        public let fetches: Int
        /// Bytes moved to and from memory, framebuffer stores and loads at switches included.
        public let bytes: Int
    }

    public let device: String
    public let deviceName: String
    public let scene: String
    /// scrolling or static.
    public let redraw: String
    /// Always true: the model predicts; the seed talks measured only the iPad 3 and the iPad Air, and scenes only
    /// through the case studies of `scenes.md`.
    public let predicted: Bool
    public let deviceMeasuredInSeedTalk: Bool
    /// measured, scaled or extrapolated: how much of the price rests on a measurement of the device or its GPU
    /// generation (``Device/Evidence``); the ranges of an extrapolated device are wider.
    public let evidence: String
    /// The path the scene's effect views take.
    public let path: String
    /// The model's decision for the device, and Apple's iOS 7 policy.
    public let modelDecision: String
    public let applePolicy: String
    /// The steady frame (for a static scene at rest: what animates).
    public let passes: [Pass]
    public let gapsMs: [Double]
    public let busyMs: Double
    public let idleMs: Double
    public let totalMs: Double
    /// The first frame, every layer drawn.
    public let firstFrameMs: Double
    public let fps: Double
    /// 0–100.
    public let gpuPercent: Double
    public let offscreenPasses: Int
    public let renderTargetSwitches: Int
    public let rasterCacheBytes: Int
    public let rasterCacheLimitBytes: Int
    /// fits, tight or drops frames.
    public let verdict: String
    /// The device's screen in pixels: why devices with the same GPU differ.
    public let screen: PixelSize
    /// What bounds the frame: fill, alu, memory or idle (``FrameTimeline/bound``).
    public let bound: String
    /// The frame time, frame rate and GPU use as [low, high]: the ranges the model claims to cover 80 % of the
    /// figures it is checked against (``PredictionInterval``); the busy and idle times' over the same interval
    /// (``FrameTimeline/Ranges``).
    public let totalMsRange: [Double]
    public let fpsRange: [Double]
    public let gpuPercentRange: [Double]
    public let busyMsRange: [Double]
    public let idleMsRange: [Double]
    /// Where the scene goes far past what the evidence covers (``EvidenceCoverage``).
    public let warnings: [String]
    /// What the price says about the scene's effect styles: a style the device never ran (a what-if), Liquid Glass
    /// (an approximation) (``SceneEstimate/styleNotes``).
    public let styleNotes: [String]
    /// Whether the price is a what-if: the device never ran the iOS that shipped the style (of one of the scene's
    /// effect views), so no shipped behaviour stands behind it (``Estimator/isWhatIf(_:on:)``).
    public let whatIf: Bool

    /// The record of `estimate`.
    public init(_ estimate: SceneEstimate) {
        let frame = estimate.frame
        device = estimate.device.id
        deviceName = estimate.device.name
        scene = estimate.scene.name
        redraw = estimate.scene.redraw.rawValue
        predicted = true
        deviceMeasuredInSeedTalk = estimate.device.hasSeedMeasurements
        evidence = estimate.device.evidence.rawValue
        path = estimate.path.rawValue
        modelDecision = estimate.decision.path.rawValue
        applePolicy = estimate.decision.applePolicy.rawValue
        let ranges = frame.ranges()
        passes = zip(frame.passes, ranges.passMs).map { priced, range in
            Pass(
                name: priced.pass.name, layer: priced.gpuPass.layer, kind: priced.pass.kind.rawValue,
                target: priced.isOffscreen ? "offscreen" : "screen", startMs: priced.startMs, ms: priced.ms,
                msRange: range,
                bound: priced.bound.rawValue, pixelsWritten: priced.pass.pixelsWritten,
                fetches: Int(priced.pass.gpuFetches.rounded()), bytes: priced.bytes)
        }
        gapsMs = frame.gaps.map(\.ms)
        busyMs = frame.busyMs
        idleMs = frame.idleMs
        totalMs = frame.totalMs
        firstFrameMs = estimate.firstFrame.totalMs
        fps = frame.fps
        gpuPercent = frame.gpuPercent
        offscreenPasses = frame.offscreenPasses
        renderTargetSwitches = frame.renderTargetSwitches
        rasterCacheBytes = estimate.rasterCacheBytes
        rasterCacheLimitBytes = estimate.rasterCacheLimitBytes
        verdict = frame.verdict.rawValue
        screen = estimate.device.screen
        bound = frame.bound.rawValue
        totalMsRange = ranges.totalMs
        fpsRange = ranges.fps
        gpuPercentRange = ranges.gpuPercent
        busyMsRange = ranges.busyMs
        idleMsRange = ranges.idleMs
        warnings = estimate.warnings
        styleNotes = estimate.styleNotes
        whatIf = estimate.scene.effectStyles.contains { Estimator.isWhatIf($0, on: estimate.device) }
    }
}
