import BackdropImageIO

/// A style as a user names it — a name of ``StyleCatalogue`` (with an appearance for an adaptive one), or `custom`
/// with its numbers — read in one place for `backdrop render`'s options and the preview's query, which share
/// these names.
public struct StyleChoice: Sendable {
    /// A built-in style's name (any case) or `custom`.
    public var name: String
    /// Custom style: σ in points, saturation factor, tint as "r,g,b" in 0…1, tint opacity.
    public var sigma: Double?
    public var saturation: Double?
    public var tint: String?
    public var tintAlpha: Double?
    /// Custom style: the tint-only fallback's opacity, and the vibrancy blend.
    public var fallbackAlpha: Double
    public var vibrancyBlend: VibrancyBlend
    /// An adaptive style's appearance, `light` (the default) or `dark`.
    public var appearance: String? = nil
    /// Glass: a rounded rectangle's corner radius in points, or a capsule (the default shape).
    public var cornerRadius: Double? = nil
    public var capsule: Bool = false

    public init(
        name: String = "light", sigma: Double? = nil, saturation: Double? = nil, tint: String? = nil,
        tintAlpha: Double? = nil, fallbackAlpha: Double = 0.9, vibrancyBlend: VibrancyBlend = .plusDarker,
        appearance: String? = nil, cornerRadius: Double? = nil, capsule: Bool = false
    ) {
        self.appearance = appearance
        self.cornerRadius = cornerRadius
        self.capsule = capsule
        self.name = name
        self.sigma = sigma
        self.saturation = saturation
        self.tint = tint
        self.tintAlpha = tintAlpha
        self.fallbackAlpha = fallbackAlpha
        self.vibrancyBlend = vibrancyBlend
    }

    /// Whether it names anything but the default light style.
    public var isGiven: Bool {
        name != "light" || sigma != nil || saturation != nil || tint != nil || tintAlpha != nil || appearance != nil
            || cornerRadius != nil || capsule
    }

    /// The style. Throws a usage error naming the problem, with the option names written as `prefix` + name
    /// (`--sigma` for the CLI, `sigma` for a query). The numbers' ranges are checked where the effect is planned.
    public func resolve(optionPrefix prefix: String = "--") throws(BackdropError) -> BlurStyle {
        let customNames = ["sigma", "saturation", "tint", "tint-alpha"].map { prefix + $0 }
        let customGiven = [sigma != nil, saturation != nil, tint != nil, tintAlpha != nil]
        let isGlass = StyleCatalogue.entry(named: name)?.light.glass != nil
        if !isGlass, cornerRadius != nil || capsule {
            throw BackdropError(
                .badOption, "\(prefix)corner-radius and \(prefix)capsule go with \(prefix)style glass or clearGlass")
        }
        if isGlass {
            guard !(customGiven[0] || customGiven[1] || customGiven[3]) else {
                throw BackdropError(
                    .badOption,
                    "\(Self.list([customNames[0], customNames[1], customNames[3]])) go with \(prefix)style custom, not glass"
                )
            }
            guard cornerRadius == nil || !capsule else {
                throw BackdropError(.badOption, "give \(prefix)corner-radius or \(prefix)capsule, not both")
            }
            var style = try StyleCatalogue.style(named: name, appearance: appearance, optionPrefix: prefix)
            if let cornerRadius {
                guard cornerRadius.isFinite, (0...10_000).contains(cornerRadius) else {
                    throw BackdropError(.badOption, "\(prefix)corner-radius \(cornerRadius) is outside 0…10000 points")
                }
                style.glass?.shape = .roundedRectangle(cornerRadiusPoints: cornerRadius)
            }
            style.glass?.tint = try tint.map { text throws(BackdropError) in try Self.colour(text, as: prefix + "tint")
            }
            return style
        }
        if name.lowercased() != "custom" {
            guard StyleCatalogue.entry(named: name) != nil else {
                let names = StyleCatalogue.names + ["custom"]
                throw BackdropError(
                    .badOption,
                    "unknown style '\(name)'\(Suggestion.clause(for: name, in: names)) (known: \(names.joined(separator: ", ")))"
                )
            }
            guard !customGiven.contains(true) else {
                throw BackdropError(.badOption, "\(Self.list(customNames)) go with \(prefix)style custom")
            }
            return try StyleCatalogue.style(named: name, appearance: appearance, optionPrefix: prefix)
        }
        guard appearance == nil else {
            throw BackdropError(
                .badOption, "\(prefix)appearance goes with an adaptive style, not \(prefix)style custom")
        }
        guard let sigma, let saturation, let tint, let tintAlpha else {
            throw BackdropError(.badOption, "\(prefix)style custom needs \(Self.list(customNames))")
        }
        return BlurStyle(
            name: "custom", sigmaPoints: sigma, saturation: saturation,
            tintColor: try Self.colour(tint, as: prefix + "tint", checkingRange: false), tintAlpha: tintAlpha,
            fallbackAlpha: fallbackAlpha, vibrancyBlend: vibrancyBlend)
    }

    /// The colour `text` spells as r,g,b (three numbers in 0…1); `what` names the option in the error. The range is
    /// checked here unless the caller checks it where the effect is planned.
    public static func colour(_ text: String, as what: String, checkingRange: Bool = true) throws(BackdropError)
        -> SIMD3<Double>
    {
        let parts = text.split(separator: ",").compactMap {
            DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 3, !checkingRange || parts.allSatisfy({ (0...1).contains($0) }) else {
            throw BackdropError(.badOption, "\(what) '\(text)' is not r,g,b (three numbers in 0…1)")
        }
        return SIMD3(parts[0], parts[1], parts[2])
    }

    /// "a, b, c and d".
    static func list(_ names: [String]) -> String {
        names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
