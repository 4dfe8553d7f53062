import BackdropImageIO
import BackdropRendering

/// An effect as a user asks for it — a style, perhaps a frame, a scale, a device, a path, vibrant content at a
/// corner — turned into an ``Effect`` in one place, for `backdrop render`, golden manifests and anything else that
/// takes the same options: the same options give the same picture everywhere.
public struct EffectOptions: Sendable {
    /// The style.
    public var style: BlurStyle
    /// The view's frame in pixels of the input (nil: the whole picture).
    public var frame: PixelRect?
    /// Pixels per point (nil: the device's, or 1).
    public var scale: Double?
    /// Render as this device would: its scale, and when `path` is `auto` its path: Apple's shipped iOS 7 policy
    /// (seed B4), or the cost model's decision for a device that never ran iOS 7.
    public var device: Device?
    /// Fast or exact.
    public var quality: Effect.Quality
    /// Blur, tint-only, or the device's path (`auto`: blur without a device).
    public var path: Estimator.PathChoice
    /// The vibrant content's size, when there is vibrant content.
    public var vibrantContentSize: PixelSize?
    /// Where its top-left corner goes, "x,y" in pixels of the input (nil: the frame's corner), and the option's name
    /// for errors ("--at", "at").
    public var vibrancyCorner: String?
    public var cornerOptionName: String

    /// Options for `style`; every other option at its default.
    public init(
        style: BlurStyle, frame: PixelRect? = nil, scale: Double? = nil, device: Device? = nil,
        quality: Effect.Quality = .fast, path: Estimator.PathChoice = .auto, vibrantContentSize: PixelSize? = nil,
        vibrancyCorner: String? = nil, cornerOptionName: String = "--at"
    ) {
        self.style = style
        self.frame = frame
        self.scale = scale
        self.device = device
        self.quality = quality
        self.path = path
        self.vibrantContentSize = vibrantContentSize
        self.vibrancyCorner = vibrancyCorner
        self.cornerOptionName = cornerOptionName
    }

    /// The effect, and a note saying why the path was chosen when a device chose it ("" otherwise). Throws a usage
    /// error for a corner without content or content wholly outside the frame.
    public func effect(estimator: Estimator = Estimator()) throws(BackdropError) -> (effect: Effect, note: String) {
        var chosen: Effect.Path = .blur
        var note = ""
        switch (path, device) {
        case (.blur, _): chosen = .blur
        case (.tintOnly, _): chosen = .tintOnly
        case (.auto, nil): chosen = .blur
        case (.auto, let device?) where style.material != nil || style.glass != nil:
            // A material blurs where it shipped and, as a what-if, elsewhere (its tint-only look is Reduce
            // Transparency's),
            // and glass likewise (its tint-only look: its face over the backdrop's average colour).
            chosen = .blur
            note = "; \(device.id): blur, \(Estimator.whatIf(style, on: device) ?? "as iOS 13 draws it")"
        case (.auto, let device?):
            // What the device showed: Apple's shipped iOS 7 policy where seed B4 gives it (the iPad 2 blurred
            // nothing, whatever a cost rule says), the model's decision for devices that never ran iOS 7.
            let decision = estimator.decision(for: device)
            switch device.iOS7Blur {
            case .blur, .tintOnly:
                chosen = device.iOS7Blur == .blur ? .blur : .tintOnly
                note = "; \(device.id): \(chosen.rawValue), as Apple's iOS 7 shipped it (seed B4)"
                if decision.path != chosen { note += "; the cost model alone would choose \(decision.path.rawValue)" }
            case .noIOS7:
                chosen = decision.path
                note = "; \(device.id): \(decision.reason)"
            }
        }
        if vibrancyCorner != nil, vibrantContentSize == nil {
            throw BackdropError(.badOption, "\(cornerOptionName) goes with vibrant content")
        }
        let placement = try vibrantContentSize.map { size throws(BackdropError) in
            try Vibrancy(contentSize: size, corner: vibrancyCorner, as: cornerOptionName, frame: frame)
        }
        let effect = Effect(
            style: style, frame: frame, scale: scale ?? device?.scale ?? 1, quality: quality, path: chosen,
            vibrancy: placement)
        if style.glass != nil { note += "; \(GlassParameters.approximationNote)" }
        return (effect, note)
    }
}
