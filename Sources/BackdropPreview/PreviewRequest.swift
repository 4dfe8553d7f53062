import Backdrop

/// The options of a preview request, as the query of `/render.png` and `/estimate.json` names them: the CLI's
/// option names without their dashes — `style`, `sigma`, `saturation`, `tint=r,g,b`, `tint-alpha`,
/// `fallback-alpha`, `vibrancy-blend`, `frame=x,y,w,h`, `scale`, `device`, `path`, `exact=1`, `at=x,y` — read by
/// the same code as the CLI's (``StyleChoice``, ``EffectOptions``), so a query and the command line it copies give
/// the same picture. Unknown names and bad values are one-line errors naming them.
public struct PreviewRequest: Sendable {
    /// The effect's options (without the vibrant content's size, which the server knows).
    public var options: EffectOptions
    /// The device to price on: one, or `all`; nil when the query names none.
    public var deviceID: String?
    /// `/render.rgba` only: the width in pixels the page shows the frame at (``FrameView``).
    public var displayWidth: Int?
    /// `algorithm=image-effects`: Apple's `UIImage+ImageEffects` with this style (`style` may then be `tint`);
    /// nil for the system blur.
    public var imageEffects: ImageEffectsStyle?

    static let names: Set<String> = [
        "style", "sigma", "saturation", "tint", "tint-alpha", "fallback-alpha", "vibrancy-blend", "frame", "scale",
        "device", "path", "exact", "at", "display-width", "algorithm",
    ]

    /// Reads `query` (name → value).
    public init(query: [String: String]) throws(BackdropError) {
        if let unknown = query.keys.sorted().first(where: { !Self.names.contains($0) }) {
            throw BackdropError(.badOption, "unknown parameter '\(unknown)'")
        }
        func number(_ name: String) throws(BackdropError) -> Double? {
            guard let text = query[name] else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw BackdropError(.badOption, "\(name) '\(text)' is not a number")
            }
            return value
        }
        func choice<T: RawRepresentable<String>>(_ name: String, _: T.Type) throws(BackdropError) -> T? {
            guard let text = query[name] else { return nil }
            guard let value = T(rawValue: text) else { throw BackdropError(.badOption, "unknown \(name) '\(text)'") }
            return value
        }
        let styleChoice = StyleChoice(
            name: query["style"] ?? "light", sigma: try number("sigma"), saturation: try number("saturation"),
            tint: query["tint"], tintAlpha: try number("tint-alpha"),
            fallbackAlpha: try number("fallback-alpha") ?? 0.9,
            vibrancyBlend: try choice("vibrancy-blend", VibrancyBlend.self) ?? .plusDarker)
        switch query["algorithm"] ?? "system" {
        case "system": imageEffects = nil
        case "image-effects": imageEffects = try ImageEffectsStyle.resolve(styleChoice, optionPrefix: "")
        case let other: throw BackdropError(.badOption, "unknown algorithm '\(other)' (known: system, image-effects)")
        }
        // The system blur's style; image-effects reads the same names its own way.
        let style = imageEffects == nil ? try styleChoice.resolve(optionPrefix: "") : BlurStyle.light
        let frame = try query["frame"].map { text throws(BackdropError) in try PixelRect.parsed(text, as: "frame") }
        deviceID = query["device"]
        let device = try deviceID.flatMap { id throws(BackdropError) in id == "all" ? nil : try Device.lookup(id) }
        let exact: Bool
        switch query["exact"] {
        case nil, "0", "false": exact = false
        case "1", "true": exact = true
        case let text?: throw BackdropError(.badOption, "exact '\(text)' is not 1 or 0")
        }
        if let text = query["display-width"] {
            guard let width = Int(text), width > 0 else {
                throw BackdropError(.badOption, "display-width '\(text)' is not a positive whole number")
            }
            displayWidth = width
        }
        options = EffectOptions(
            style: style, frame: frame, scale: try number("scale"), device: device, quality: exact ? .exact : .fast,
            path: try choice("path", Estimator.PathChoice.self) ?? .auto, vibrancyCorner: query["at"],
            cornerOptionName: "at")
    }
}
