import ArgumentParser
import Backdrop

/// Options that choose a style, shared by the commands that render or price one.
struct StyleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The blur style, by UIKit's name (see 'backdrop styles': extraLight, light, dark, regular, prominent, systemMaterial, systemThinMaterialDark, …, glass, clearGlass), or custom (then give --sigma, --saturation, --tint, --tint-alpha).",
            valueName: "name"))
    var style: String = "light"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Custom style: Gaussian σ in points, e.g. --sigma 25.", valueName: "points"))
    var sigma: Double?

    // Unconditional, as every option holding numbers: a negative factor (`--saturation -1`, the tint effect's) is a
    // value, not an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Custom style: saturation factor (1 = unchanged), e.g. --saturation 1.8 or --saturation -1.",
            valueName: "factor"))
    var saturation: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Custom style, or glass: tint colour as r,g,b in 0…1, e.g. --tint 1,0.8,0.6.", valueName: "r,g,b"))
    var tint: String?

    @Option(
        name: .customLong("tint-alpha"), parsing: .unconditional,
        help: ArgumentHelp("Custom style: tint opacity in 0…1, e.g. --tint-alpha 0.4.", valueName: "alpha"))
    var tintAlpha: Double?

    @Option(
        name: .customLong("fallback-alpha"), parsing: .unconditional,
        help: ArgumentHelp("Custom style: tint opacity of the tint-only fallback (default 0.9).", valueName: "alpha"))
    var fallbackAlpha: Double = 0.9

    @Option(
        name: .customLong("vibrancy-blend"),
        help: ArgumentHelp("Custom style: plusDarker or plusLighter (default plusDarker).", valueName: "blend"))
    var vibrancyBlend: VibrancyBlend = .plusDarker

    @Option(
        help: ArgumentHelp(
            "An adaptive style's appearance: light (default) or dark, e.g. --style systemMaterial --appearance dark.",
            valueName: "light|dark"))
    var appearance: String?

    @Option(
        name: .customLong("corner-radius"), parsing: .unconditional,
        help: ArgumentHelp(
            "Glass (--style glass or clearGlass): a rounded rectangle of the frame with corners of this radius in points.",
            valueName: "points"))
    var cornerRadius: Double?

    @Flag(help: "Glass: a capsule (corners of half the frame's shorter side; the default shape).")
    var capsule = false

    /// The choice these options make.
    var choice: StyleChoice {
        StyleChoice(
            name: style, sigma: sigma, saturation: saturation, tint: tint, tintAlpha: tintAlpha,
            fallbackAlpha: fallbackAlpha, vibrancyBlend: vibrancyBlend, appearance: appearance,
            cornerRadius: cornerRadius, capsule: capsule)
    }

    /// Sets `request`'s style fields from these options, defaults left out (`--style light` is no style given).
    func fill(_ request: inout RenderRequest) {
        request.style = style == "light" ? nil : style
        (request.sigma, request.saturation, request.tint, request.tintAlpha) = (sigma, saturation, tint, tintAlpha)
        request.fallbackAlpha = fallbackAlpha == 0.9 ? nil : fallbackAlpha
        request.vibrancyBlend = vibrancyBlend == .plusDarker ? nil : vibrancyBlend.rawValue
        request.appearance = appearance
        (request.cornerRadius, request.capsule) = (cornerRadius, capsule ? true : nil)
    }

    /// Whether any style option was given (the style is not the default light).
    var isGiven: Bool { choice.isGiven }

    /// The chosen style. Throws a usage error naming the problem.
    func resolve() throws(BackdropError) -> BlurStyle { try choice.resolve() }
}
