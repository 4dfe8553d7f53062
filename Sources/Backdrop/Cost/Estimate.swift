/// What a device's GPU would spend on one effect view: the plan priced by the ``CostModel``, the path taken
/// and why, and what is left of the 60 Hz frame.
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

    /// The 60 Hz frame, ms (seed F1).
    public static let budgetMs = 1000.0 / 60
    /// Below this much time left in the frame the verdict is "tight": B2's 2 ms left "is not enough".
    public static let tightBelowMs = budgetMs / 4

    /// Idle GPU time in the frame, ms.
    public var idleMs: Double { frame.idleMs }
    /// The frame's GPU time, ms.
    public var totalMs: Double { frame.totalMs }
    /// The budget, ms.
    public var budgetMs: Double { Self.budgetMs }
    /// What the frame leaves for the rest of the UI, ms (negative when it does not fit).
    public var leftMs: Double { Self.budgetMs - totalMs }
    /// Frames per second the effect alone allows, vsync-locked: 60, 30, 20, …
    public var fps: Double { 60 / max(1, (totalMs / Self.budgetMs).rounded(.up)) }

    /// Whether the frame fits.
    public enum Verdict: String, Sendable, Codable {
        /// At least a quarter of the frame is left.
        case fits
        /// It fits, with less than a quarter of the frame left for everything else.
        case tight
        /// It takes longer than a frame.
        case dropsFrames = "drops frames"
    }

    /// fits, tight (under ``tightBelowMs`` left) or drops frames (over budget).
    public var verdict: Verdict {
        leftMs < 0 ? .dropsFrames : leftMs < Self.tightBelowMs ? .tight : .fits
    }
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

/// Builds the plan of an effect view on a device and prices it; decides blur or tint-only per device.
public struct Estimator: Sendable {
    /// The pricing model.
    public let model: CostModel

    /// The budget rule: a device blurs when its predicted full-screen blur in ``referenceStyle`` (without
    /// vibrancy) takes at most ``maximumShareOfFrame`` of the frame, leaving the rest for the app's own drawing.
    /// Applied to predicted cost only, never to device names.
    public static let referenceStyle = BlurStyle.light
    /// Two thirds of the 16.67 ms frame (11.1 ms), so that at least a third (5.6 ms) is left for the app's own
    /// drawing: B2's 14.5 ms, leaving about 2 ms, is "not enough".
    public static let maximumShareOfFrame = 2.0 / 3

    /// An estimator pricing with `model` (default: the model fitted to the seed figures).
    public init(model: CostModel = .fitted) {
        self.model = model
    }

    /// How the path is chosen.
    public enum PathChoice: String, Sendable, CaseIterable {
        /// The model's decision for the device.
        case auto
        /// The blur path, even where the device would not take it (seed B1 and B2 measure exactly that).
        case blur
        /// The tint-only fallback.
        case tintOnly = "tint-only"
    }

    /// The plan of a view of `viewPoints` (default: the whole screen) at the device's scale, in the top-left
    /// corner of its screen, with vibrant content covering the view when `vibrancy` is set.
    public func plan(device: Device, style: BlurStyle, vibrancy: Bool, viewPoints: (width: Double, height: Double)? = nil,
                     path: Effect.Path) throws(BackdropError) -> RenderPlan {
        let view = try viewPixels(device: device, viewPoints: viewPoints)
        let effect = Effect(style: style, frame: PixelRect(covering: view), scale: device.scale, path: path,
                            vibrancy: vibrancy ? Vibrancy(x: 0, y: 0, contentSize: view) : nil)
        return try RenderPlan(effect: effect, imageSize: device.screen)
    }

    /// A view in points as pixels of the device's screen; an error when it does not fit on the screen.
    public func viewPixels(device: Device, viewPoints: (width: Double, height: Double)?) throws(BackdropError) -> PixelSize {
        guard let viewPoints else { return device.screen }
        let size = PixelSize(width: Int((viewPoints.width * device.scale).rounded()),
                             height: Int((viewPoints.height * device.scale).rounded()))
        guard size.width > 0, size.height > 0, size.width <= device.screen.width, size.height <= device.screen.height else {
            let points = device.screenPoints
            throw BackdropError(.badOption, "the view \(viewPoints.width)×\(viewPoints.height) pt does not fit on the \(device.name)'s \(Int(points.width))×\(Int(points.height)) pt screen")
        }
        return size
    }

    /// The model's blur decision for `device`.
    public func decision(for device: Device) -> BlurDecision {
        let plan = try! self.plan(device: device, style: Self.referenceStyle, vibrancy: false, path: .blur)
        let referenceMs = model.frame(of: plan, on: device).totalMs
        let limitMs = Estimate.budgetMs * Self.maximumShareOfFrame
        let path: Effect.Path = referenceMs <= limitMs ? .blur : .tintOnly
        let rule = String(format: "full-screen light blur %.1f ms %@ %.1f ms (2/3 of the frame)", referenceMs,
                          path == .blur ? "≤" : ">", limitMs)
        var reason = rule
        switch (device.iOS7Blur, path) {
        case (.noIOS7, _):
            reason += "; the device cannot run iOS 7"
        case (.blur, .blur), (.tintOnly, .tintOnly):
            reason += "; Apple's iOS 7 policy agrees"
        case (let apple, _):
            let twins = Device.all.filter { $0.id != device.id && $0.gpu == device.gpu && $0.gpuClockMHz == device.gpuClockMHz
                                            && $0.screen == device.screen && $0.iOS7Blur != apple && $0.iOS7Blur != .noIOS7 }
            reason += "; Apple ships \(apple.rawValue)"
            if let twin = twins.first {
                reason += ", yet gives the \(twin.name) (same GPU, clock and screen) \(twin.iOS7Blur.rawValue): no cost rule can split them"
            } else {
                reason += ": a policy decided on more than GPU cost"
            }
        }
        return BlurDecision(path: path, referenceMs: referenceMs, limitMs: limitMs, applePolicy: device.iOS7Blur, reason: reason)
    }

    /// The estimate of one effect view on `device`.
    public func estimate(device: Device, style: BlurStyle, vibrancy: Bool,
                         viewPoints: (width: Double, height: Double)? = nil,
                         path choice: PathChoice = .auto) throws(BackdropError) -> Estimate {
        let decision = decision(for: device)
        let path: Effect.Path
        switch choice {
        case .auto: path = decision.path
        case .blur: path = .blur
        case .tintOnly: path = .tintOnly
        }
        let plan = try plan(device: device, style: style, vibrancy: vibrancy, viewPoints: viewPoints, path: path)
        return Estimate(device: device, style: style, vibrancy: vibrancy, view: plan.frame.size, path: path,
                        decision: decision, frame: model.frame(of: plan, on: device))
    }
}
