import BackdropImageIO
import BackdropRendering

/// Prices effect views and scenes on devices, and decides blur or tint-only per device.
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

    /// A view in points as pixels of the device's screen; an error when it does not fit on the screen.
    public func viewPixels(device: Device, viewPoints: (width: Double, height: Double)?) throws(BackdropError)
        -> PixelSize
    {
        guard let viewPoints else { return device.screen }
        let width = PixelRect.coordinate(viewPoints.width * device.scale) ?? 0
        let height = PixelRect.coordinate(viewPoints.height * device.scale) ?? 0
        guard width > 0, height > 0, width <= device.screen.width, height <= device.screen.height else {
            let points = device.screenPoints
            throw BackdropError(
                .badOption,
                "the view \(viewPoints.width)×\(viewPoints.height) pt does not fit on the \(device.name)'s \(Int(points.width))×\(Int(points.height)) pt screen"
            )
        }
        return PixelSize(width: width, height: height)
    }

    /// The scene of one effect view: `view` pixels in the top-left corner of `device`'s screen, with vibrant
    /// content over the whole view when `vibrancy` is set, and nothing else on screen.
    public static func effectViewScene(style: BlurStyle, vibrancy: Bool, view: PixelSize, on device: Device) -> Scene {
        let frame = PointRect(
            x: 0, y: 0, width: Double(view.width) / device.scale, height: Double(view.height) / device.scale)
        var layer = SceneLayer(name: "effect view", frame: frame)
        var content = SceneLayer(
            name: "vibrant content", frame: PointRect(x: 0, y: 0, width: frame.width, height: frame.height))
        content.content = .image
        layer.effect = SceneLayer.EffectView(style: style, vibrancy: vibrancy ? [content] : [])
        return Scene(name: "\(style.name)\(vibrancy ? " + vibrancy" : "") view", layers: [layer])
    }

    /// The GPU passes of one effect view on `device`, on `path`, under `accessibility` (``ScenePlanner/accessibility``).
    public static func effectViewPasses(
        style: BlurStyle, vibrancy: Bool, view: PixelSize, path: Effect.Path,
        on device: Device, accessibility: AccessibilitySettings = .none
    ) throws(BackdropError) -> [GPUPass] {
        let scene = effectViewScene(style: style, vibrancy: vibrancy, view: view, on: device)
        var planner = ScenePlanner(device: device, path: path)
        planner.accessibility = accessibility
        // `path` is this style's already (``path(of:_:decided:)``): a material on it too.
        planner.materialPath = path
        return try planner.frame(of: scene, steady: false).passes
    }

    /// The model's blur decision for `device`.
    public func decision(for device: Device) -> BlurDecision {
        let passes = try! Self.effectViewPasses(
            style: Self.referenceStyle, vibrancy: false, view: device.screen, path: .blur, on: device)
        let referenceMs = model.frame(of: passes, on: device).totalMs
        let limitMs = FrameTimeline.budgetMs * Self.maximumShareOfFrame
        let path: Effect.Path = referenceMs <= limitMs ? .blur : .tintOnly
        var reason = String(
            format: "full-screen light blur %.1f ms %@ %.1f ms (2/3 of the frame)", referenceMs,
            path == .blur ? "≤" : ">", limitMs)
        switch (device.iOS7Blur, path) {
        case (.noIOS7, _):
            reason += "; the device cannot run iOS 7"
        case (.blur, .blur), (.tintOnly, .tintOnly):
            reason += "; Apple's iOS 7 policy agrees"
        case (let apple, _):
            let twins = Device.all.filter {
                $0.id != device.id && $0.gpu == device.gpu && $0.gpuClockMHz == device.gpuClockMHz
                    && $0.screen == device.screen && $0.iOS7Blur != apple && $0.iOS7Blur != .noIOS7
            }
            reason += "; Apple ships \(apple.rawValue)"
            if let twin = twins.first {
                reason +=
                    ", yet gives the \(twin.name) (same GPU, clock and screen) \(twin.iOS7Blur.rawValue): no cost rule can split them"
            } else {
                reason += ": a policy decided on more than GPU cost"
            }
        }
        return BlurDecision(
            path: path, referenceMs: referenceMs, limitMs: limitMs, applePolicy: device.iOS7Blur, reason: reason)
    }

    /// The path `choice` gives on `device`.
    public func path(_ choice: PathChoice, on device: Device) -> Effect.Path {
        switch choice {
        case .auto: return decision(for: device).path
        case .blur: return .blur
        case .tintOnly: return .tintOnly
        }
    }

    /// The estimate of one effect view on `device`; under `accessibility`'s Reduce Transparency on the tint-only
    /// path with its reduced-transparency look (``ScenePlanner/accessibility``).
    public func estimate(
        device: Device, style: BlurStyle, vibrancy: Bool,
        viewPoints: (width: Double, height: Double)? = nil,
        path choice: PathChoice = .auto, accessibility: AccessibilitySettings = .none
    ) throws(BackdropError) -> Estimate {
        let decision = decision(for: device).noting(Self.whatIf(style, on: device))
        let path = accessibility.reduceTransparency ? .tintOnly : Self.path(of: style, choice, decided: decision.path)
        let view = try viewPixels(device: device, viewPoints: viewPoints)
        let passes = try Self.effectViewPasses(
            style: style, vibrancy: vibrancy, view: view, path: path, on: device, accessibility: accessibility)
        return Estimate(
            device: device, style: style, vibrancy: vibrancy, view: view, path: path,
            decision: decision, frame: model.frame(of: passes, on: device))
    }

    /// The estimate of `scene` on `device`, its effect views on the path `choice` gives; under `accessibility`'s
    /// Reduce Transparency every effect view is on the tint-only path (``ScenePlanner/accessibility``), the path the
    /// estimate reports.
    public func estimate(
        scene: Scene, device: Device, path choice: PathChoice = .auto, accessibility: AccessibilitySettings = .none
    ) throws(BackdropError) -> SceneEstimate {
        let decision = decision(for: device)
        let path =
            accessibility.reduceTransparency
            ? .tintOnly : choice == .auto ? decision.path : self.path(choice, on: device)
        var planner = ScenePlanner(device: device, choice: choice, estimator: self)
        planner.accessibility = accessibility
        let first = try planner.frame(of: scene, steady: false)
        let steady = try planner.frame(of: scene, steady: true)
        return SceneEstimate(
            scene: scene, device: device, path: path, blurredEffectViews: first.blurredEffectViews, decision: decision,
            frame: model.frame(of: steady.passes, on: device),
            firstFrame: model.frame(of: first.passes, on: device),
            rasterCacheBytes: steady.rasterCacheBytes, rasterCacheLimitBytes: planner.rasterCacheLimitBytes)
    }
}
