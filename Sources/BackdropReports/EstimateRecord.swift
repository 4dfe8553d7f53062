import BackdropImageIO
import BackdropScenes

/// An ``Estimate`` as plain data, for JSON: the schema `backdrop estimate --format json` keeps.
public struct EstimateRecord: Codable, Sendable, Equatable {
    /// One priced GPU pass.
    public struct Pass: Codable, Sendable, Equatable {
        public let name: String
        public let kind: String
        /// Predicted GPU time, ms.
        public let ms: Double
        /// Its time as [low, high] over the device's interval (``FrameTimeline/Ranges``).
        public let msRange: [Double]
        /// When the renderer starts it, ms from the start of the frame.
        public let startMs: Double
        /// What limits it: fill, alu or memory.
        public let bound: String
        public let pixelsWritten: Int
        /// Texels the pass's maths reads (taps × pixels).
        public let texelsRead: Int
        /// GPU texture fetches (a bilinear fetch counts once).
        public let fetches: Int
        /// Bytes moved to and from memory, the framebuffer's stores and loads charged to it included.
        public let bytes: Int
        public let offscreen: Bool
        /// Offscreen texture memory, bytes (0 on screen).
        public let textureBytes: Int
    }

    /// Device id.
    public let device: String
    public let deviceName: String
    public let style: String
    public let vibrancy: Bool
    /// The view, pixels.
    public let view: PixelSize
    /// The path priced: blur or tint-only.
    public let path: String
    /// The model's decision for the device.
    public let modelDecision: String
    /// Apple's iOS 7 policy: blur, tint-only or "no iOS 7".
    public let applePolicy: String
    /// The rule applied, and why it differs from Apple's where it does.
    public let decisionReason: String
    /// False for a device the seed talk did not measure: every figure is a prediction either way, but these have
    /// nothing measured to compare with.
    public let deviceMeasuredInSeedTalk: Bool
    /// measured, scaled or extrapolated: how much of the price rests on a measurement of the device or its GPU
    /// generation (``Device/Evidence``); the ranges of an extrapolated device are wider.
    public let evidence: String
    public let passes: [Pass]
    /// The renderer's idle gaps between renders, ms (one where it waits for the tiler).
    public let gapsMs: [Double]
    public let idleMs: Double
    /// The renderer's work, ms: the passes.
    public let busyMs: Double
    /// The tiler's lead before the first pass, ms.
    public let tilerMs: Double
    public let totalMs: Double
    public let budgetMs: Double
    public let leftMs: Double
    public let fps: Double
    /// The renderer's busy share of the frame interval, 0–100 (``FrameTimeline/gpuPercent``).
    public let gpuPercent: Double
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
    /// What the price says about its style: the device never ran the iOS that shipped it (a what-if), Liquid Glass
    /// (an approximation) (``Estimator/styleNotes(_:on:)``).
    public let styleNotes: [String]
    /// Whether the price is a what-if: the device never ran the iOS that shipped the style (of one of the scene's
    /// effect views), so no shipped behaviour stands behind it (``Estimator/isWhatIf(_:on:)``).
    public let whatIf: Bool

    /// The record of `estimate`.
    public init(_ estimate: Estimate) {
        device = estimate.device.id
        deviceName = estimate.device.name
        style = estimate.style.name
        vibrancy = estimate.vibrancy
        view = estimate.view
        path = estimate.path.rawValue
        modelDecision = estimate.decision.path.rawValue
        applePolicy = estimate.decision.applePolicy.rawValue
        decisionReason = estimate.decision.reason
        deviceMeasuredInSeedTalk = estimate.device.hasSeedMeasurements
        evidence = estimate.device.evidence.rawValue
        let ranges = estimate.frame.ranges()
        passes = zip(estimate.frame.passes, ranges.passMs).map { priced, range in
            Pass(
                name: priced.pass.name, kind: priced.pass.kind.rawValue, ms: priced.ms, msRange: range,
                startMs: priced.startMs,
                bound: priced.bound.rawValue, pixelsWritten: priced.pass.pixelsWritten,
                texelsRead: priced.pass.texelsRead, fetches: Int(priced.pass.gpuFetches.rounded()),
                bytes: priced.bytes, offscreen: priced.isOffscreen, textureBytes: priced.pass.textureBytes)
        }
        gapsMs = estimate.frame.gaps.map(\.ms)
        idleMs = estimate.idleMs
        busyMs = estimate.frame.busyMs
        tilerMs = estimate.frame.tilerMs
        totalMs = estimate.totalMs
        budgetMs = estimate.budgetMs
        leftMs = estimate.leftMs
        fps = estimate.fps
        gpuPercent = estimate.frame.gpuPercent
        verdict = estimate.verdict.rawValue
        screen = estimate.device.screen
        bound = estimate.frame.bound.rawValue
        totalMsRange = ranges.totalMs
        fpsRange = ranges.fps
        gpuPercentRange = ranges.gpuPercent
        busyMsRange = ranges.busyMs
        idleMsRange = ranges.idleMs
        styleNotes = Estimator.styleNotes([estimate.style], on: estimate.device)
        whatIf = Estimator.isWhatIf(estimate.style, on: estimate.device)
    }
}
