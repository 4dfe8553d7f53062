import ArgumentParser
import Backdrop

/// Options that choose a style, shared by the commands that render or price one.
struct StyleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The blur style: extraLight, light, dark, or custom (then give --sigma, --saturation, --tint, --tint-alpha).",
            valueName: "name"))
    var style: String = "light"

    @Option(help: ArgumentHelp("Custom style: Gaussian σ in points, e.g. --sigma 25.", valueName: "points"))
    var sigma: Double?

    @Option(
        help: ArgumentHelp(
            "Custom style: saturation factor (1 = unchanged), e.g. --saturation 1.8.", valueName: "factor"))
    var saturation: Double?

    @Option(help: ArgumentHelp("Custom style: tint colour as r,g,b in 0…1, e.g. --tint 1,0.8,0.6.", valueName: "r,g,b"))
    var tint: String?

    @Option(
        name: .customLong("tint-alpha"),
        help: ArgumentHelp("Custom style: tint opacity in 0…1, e.g. --tint-alpha 0.4.", valueName: "alpha"))
    var tintAlpha: Double?

    @Option(
        name: .customLong("fallback-alpha"),
        help: ArgumentHelp("Custom style: tint opacity of the tint-only fallback (default 0.9).", valueName: "alpha"))
    var fallbackAlpha: Double = 0.9

    @Option(
        name: .customLong("vibrancy-blend"),
        help: ArgumentHelp("Custom style: plusDarker or plusLighter (default plusDarker).", valueName: "blend"))
    var vibrancyBlend: VibrancyBlend = .plusDarker

    /// Whether any style option was given (the style is not the default light).
    var isGiven: Bool {
        style != "light" || sigma != nil || saturation != nil || tint != nil || tintAlpha != nil
    }

    /// The chosen style. Throws a usage error naming the problem.
    func resolve() throws(BackdropError) -> BlurStyle {
        let customOptions = [sigma != nil, saturation != nil, tint != nil, tintAlpha != nil]
        if style.lowercased() != "custom" {
            guard let builtIn = BlurStyle.named(style) else {
                throw BackdropError(
                    .badOption,
                    "unknown style '\(style)' (known: \(BlurStyle.builtIn.map(\.name).joined(separator: ", ")), custom)"
                )
            }
            guard !customOptions.contains(true) else {
                throw BackdropError(.badOption, "--sigma, --saturation, --tint and --tint-alpha go with --style custom")
            }
            return builtIn
        }
        guard let sigma, let saturation, let tint, let tintAlpha else {
            throw BackdropError(.badOption, "--style custom needs --sigma, --saturation, --tint and --tint-alpha")
        }
        let parts = tint.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3 else {
            throw BackdropError(.badOption, "--tint '\(tint)' is not r,g,b (three numbers in 0…1)")
        }
        return BlurStyle(
            name: "custom", sigmaPoints: sigma, saturation: saturation,
            tintColor: SIMD3(parts[0], parts[1], parts[2]), tintAlpha: tintAlpha,
            fallbackAlpha: fallbackAlpha, vibrancyBlend: vibrancyBlend)
    }
}
