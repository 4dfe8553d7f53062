import BackdropImageIO
import BackdropRendering

/// What a device's GPU would spend on one effect view: a scene of that one view, priced by the ``CostModel``,
/// the path taken and why, and what is left of the 60 Hz frame.
public struct Estimate: Sendable {
    /// The device.
    public let device: Device
    /// The style.
    public let style: BlurStyle
    /// Whether vibrant content covers the view.
    public let vibrancy: Bool
    /// The view in pixels of the device's screen.
    public let view: PixelSize
    /// The path priced: the model's decision, or the one forced with `--path`.
    public let path: Effect.Path
    /// The model's blur decision for the device, with Apple's policy beside it.
    public let decision: BlurDecision
    /// The frame on the GPU's renderer.
    public let frame: FrameTimeline

    public typealias Verdict = FrameTimeline.Verdict
    /// The 60 Hz frame, ms (seed F1).
    public static let budgetMs = FrameTimeline.budgetMs
    /// Below this much time left in the frame the verdict is "tight".
    public static let tightBelowMs = FrameTimeline.tightBelowMs

    /// Idle GPU time in the frame, ms.
    public var idleMs: Double { frame.idleMs }
    /// The frame's GPU time, ms.
    public var totalMs: Double { frame.totalMs }
    /// The budget, ms.
    public var budgetMs: Double { Self.budgetMs }
    /// What the frame leaves for the rest of the UI, ms (negative when it does not fit).
    public var leftMs: Double { frame.leftMs }
    /// The frame rate: min(60, 1000 / frame ms) (`scenes.md`).
    public var fps: Double { frame.fps }
    /// fits, tight or drops frames.
    public var verdict: Verdict { frame.verdict }
}

/// Blur or tint-only on a device: the model's decision from its budget rule, beside Apple's shipped policy.
public struct BlurDecision: Sendable {
    /// The path the model chooses.
    public let path: Effect.Path
    /// The predicted cost the rule looked at: the full-screen light blur without vibrancy, ms.
    public let referenceMs: Double
    /// The most the rule allows, ms.
    public let limitMs: Double
    /// Apple's iOS 7 policy (seed B4).
    public let applePolicy: Device.BlurPolicy
    /// One sentence: the rule applied, and why it differs from Apple where it does.
    public let reason: String

    /// Whether Apple's shipped policy is the same (devices without iOS 7 have none to differ from).
    public var agreesWithApple: Bool {
        switch applePolicy {
        case .noIOS7: return true
        case .blur: return path == .blur
        case .tintOnly: return path == .tintOnly
        }
    }
}
