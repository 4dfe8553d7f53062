import BackdropImageIO

/// The arguments of Apple's WWDC 2013 sample category `UIImage+ImageEffects`
/// (`applyBlurWithRadius:tintColor:saturationDeltaFactor:maskImage:`), and its four named effects.
public struct ImageEffectsStyle: Sendable, Equatable {
    /// The style's name: light, extraLight, dark, tint or custom.
    public var name: String
    /// The blur radius in points (0: no blur).
    public var radiusPoints: Double
    /// The tint colour, straight, each channel in 0…1, and its alpha.
    public var tint: SIMD3<Double>
    public var tintAlpha: Double
    /// The saturation factor (1: unchanged; negative inverts the hue).
    public var saturation: Double

    public init(name: String, radiusPoints: Double, tint: SIMD3<Double>, tintAlpha: Double, saturation: Double) {
        self.name = name
        self.radiusPoints = radiusPoints
        self.tint = tint
        self.tintAlpha = tintAlpha
        self.saturation = saturation
    }

    /// `applyLightEffect`: radius 30, white 1.0 at 0.3, saturation 1.8.
    public static let light = ImageEffectsStyle(
        name: "light", radiusPoints: 30, tint: SIMD3(repeating: 1), tintAlpha: 0.3, saturation: 1.8)
    /// `applyExtraLightEffect`: radius 20, white 0.97 at 0.82, saturation 1.8.
    public static let extraLight = ImageEffectsStyle(
        name: "extraLight", radiusPoints: 20, tint: SIMD3(repeating: 0.97), tintAlpha: 0.82, saturation: 1.8)
    /// `applyDarkEffect`: radius 20, white 0.11 at 0.73, saturation 1.8.
    public static let dark = ImageEffectsStyle(
        name: "dark", radiusPoints: 20, tint: SIMD3(repeating: 0.11), tintAlpha: 0.73, saturation: 1.8)

    /// `applyTintEffectWithColor:`: radius 10, the colour at 0.6, saturation −1.
    public static func tint(_ colour: SIMD3<Double>) -> ImageEffectsStyle {
        ImageEffectsStyle(name: "tint", radiusPoints: 10, tint: colour, tintAlpha: 0.6, saturation: -1)
    }

    /// The style a command line or a manifest names, by `backdrop render`'s options: the three named effects,
    /// `tint` (with `tint`), or `custom` (with `sigma` as the radius in points, `saturation`, `tint` and `tint-alpha`).
    public static func resolve(_ choice: StyleChoice, optionPrefix: String = "--") throws(BackdropError)
        -> ImageEffectsStyle
    {
        let custom = [choice.sigma != nil, choice.saturation != nil, choice.tintAlpha != nil]
        switch choice.name {
        case "light", "extraLight", "dark":
            guard !custom.contains(true), choice.tint == nil else {
                throw BackdropError(
                    .badOption,
                    "\(optionPrefix)sigma, \(optionPrefix)saturation, \(optionPrefix)tint and \(optionPrefix)tint-alpha go with \(optionPrefix)style custom or tint"
                )
            }
            return choice.name == "light" ? .light : choice.name == "dark" ? .dark : .extraLight
        case "tint":
            guard let text = choice.tint else {
                throw BackdropError(.badOption, "\(optionPrefix)style tint needs \(optionPrefix)tint r,g,b")
            }
            guard !custom.contains(true) else {
                throw BackdropError(.badOption, "\(optionPrefix)style tint takes only \(optionPrefix)tint")
            }
            return .tint(try StyleChoice.colour(text, as: optionPrefix + "tint"))
        case "custom":
            guard let radius = choice.sigma, let saturation = choice.saturation, let text = choice.tint,
                let alpha = choice.tintAlpha
            else {
                throw BackdropError(
                    .badOption,
                    "\(optionPrefix)style custom needs \(optionPrefix)sigma (the radius in points), \(optionPrefix)saturation, \(optionPrefix)tint and \(optionPrefix)tint-alpha"
                )
            }
            guard radius.isFinite, (0...500).contains(radius) else {
                throw BackdropError(.badOption, "\(optionPrefix)sigma \(radius) is out of range (0…500 points)")
            }
            guard saturation.isFinite, (-100...100).contains(saturation) else {
                throw BackdropError(.badOption, "\(optionPrefix)saturation \(saturation) is out of range (−100…100)")
            }
            guard alpha.isFinite, (0...1).contains(alpha) else {
                throw BackdropError(.badOption, "\(optionPrefix)tint-alpha \(alpha) is out of range (0…1)")
            }
            return ImageEffectsStyle(
                name: "custom", radiusPoints: radius, tint: try StyleChoice.colour(text, as: optionPrefix + "tint"),
                tintAlpha: alpha, saturation: saturation)
        default:
            throw BackdropError(
                .badOption,
                "unknown style '\(choice.name)' for the image-effects algorithm (known: light, extraLight, dark, tint, custom)"
            )
        }
    }
}
