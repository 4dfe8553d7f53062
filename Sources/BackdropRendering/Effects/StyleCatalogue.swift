import BackdropImageIO

/// Every blur style Backdrop draws, in one place: its UIKit name, the iOS that shipped it, its parameters per
/// appearance, where they come from and how sure they are. `backdrop styles` prints it; ``StyleChoice`` (the CLI,
/// the preview, manifests, `BackdropTesting`) and scene files resolve names through it. A style is added here.
public enum StyleCatalogue {
    /// How the parameters of a style are known.
    public enum Evidence: String, Sendable, Codable, CaseIterable {
        /// Measured from what iOS renders.
        case measured
        /// Read from Apple's own files (published sample code, headers, the system's recipe files).
        case fromAppleFiles = "from Apple's files"
        /// Derived by Backdrop from Apple's statements and other styles' numbers.
        case derived
        /// An approximation of a look whose numbers are not public.
        case approximation
    }

    /// A system appearance (UIKit's user interface style).
    public enum Appearance: String, Sendable, Codable, CaseIterable {
        case light
        case dark
    }

    /// One style of the catalogue.
    public struct Entry: Sendable, Codable, Equatable {
        /// UIKit's name (`UIBlurEffect.Style`), as `--style` takes it.
        public var name: String
        /// The iOS version that shipped it (major).
        public var introducedInIOS: Int
        /// The style drawn in the light appearance, and in the dark one; the same for a fixed style.
        public var light: BlurStyle
        public var dark: BlurStyle
        /// How its parameters are known, and from where.
        public var evidence: Evidence
        public var source: String
        /// A system material's or a glass's vibrancy levels: the matrix each takes in light and in dark (nil for a
        /// style with none).
        public var vibrancyLevels: [LevelMatrices]? = nil
        /// How the levels' matrices are known, and from where (nil without levels): a material's are
        /// ``StyleCatalogue/vibrancyLevelEvidence`` and ``StyleCatalogue/vibrancyLevelSource``, glass's
        /// ``StyleCatalogue/glassLevelEvidence`` and ``StyleCatalogue/glassLevelSource``.
        public var vibrancyLevelEvidence: Evidence? = nil
        public var vibrancyLevelSource: String? = nil

        /// Whether it follows the appearance (`--appearance` applies).
        public var isAdaptive: Bool { light != dark }

        /// The style drawn in `appearance`.
        public func style(_ appearance: Appearance) -> BlurStyle { appearance == .dark ? dark : light }
    }

    /// One vibrancy level over a style: the names of the matrices it takes (``VibrantColorMatrix``).
    public struct LevelMatrices: Sendable, Codable, Equatable {
        public var level: VibrancyLevel
        public var light: String
        public var dark: String
    }

    /// How the vibrancy levels' matrices are known.
    public static let vibrancyLevelEvidence = Evidence.fromAppleFiles
    /// Where the vibrancy levels' matrices come from (``VibrantColorMatrix/forLevel(_:over:)`` has the detail).
    public static let vibrancyLevelSource =
        "CoreMaterial's .visualstyleset files (macOS 26/27, dumped by herclyon1/transit corematerial-recipes.json); the level's slot from WebKit's RemoteLayerTreePropertyApplier.mm; a runtime reading on iOS (dominicstop/VisualEffectBlurView ColorMatrixRGBAPreset.swift) agrees on 38 of 41 cells; label: black or white at α 0.96, no matrix"

    /// How glass's vibrancy levels are known: derived (``GlassParameters/levelRecipe``).
    public static let glassLevelEvidence = Evidence.derived
    /// Where glass's vibrancy levels come from.
    public static let glassLevelSource =
        "a material recipe's levels over the finished glass face, regular glass platformContent{Light,Dark}'s (systemMaterial), clear glass platformContentUltraThin{Light,Dark}'s; glass carries a content vibrantColorMatrix as materials do (herclyon1/transit MATERIALS.md), one per glass, not per level; Apple publishes no per-level glass matrices"

    /// Every style, in UIKit's order: iOS 7's three, iOS 10's two, iOS 13's adaptive materials, then their fixed
    /// light and dark variants, then iOS 26's two glasses.
    public static let all: [Entry] = iOS7 + iOS10 + materials + liquidGlass

    /// iOS 26's Liquid Glass, `UIGlassEffect.Style.regular` (`glass`) and `.clear` (`clearGlass`), both adaptive:
    /// an approximation (``GlassParameters``).
    /// Vibrant content over a glass blends plus-darker in light and plus-lighter in dark, as over a material.
    static let liquidGlass: [Entry] = [
        glassEntry(
            "glass", .regular(false), .regular(true),
            source:
                "UIGlassEffect.Style.regular: macOS 26/27's glassBackground inputs (herclyon1/transit MATERIALS.md); σ from a fit to an NSGlassEffectView capture (medfa12/liquid-glass-react-native); shape, refraction curve, highlight band and tint opacity Backdrop's choice"
        ),
        glassEntry(
            "clearGlass", .clear(false), .clear(true),
            source:
                "UIGlassEffect.Style.clear: macOS 26/27's glassBackground inputs (herclyon1/transit MATERIALS.md); σ scaled from regular's fit; shape, refraction curve, highlight band and tint opacity Backdrop's choice"
        ),
    ]

    /// A glass's entry: its light and dark styles (dark content blends plus-lighter) and its derived levels.
    private static func glassEntry(_ name: String, _ light: GlassParameters, _ dark: GlassParameters, source: String)
        -> Entry
    {
        var darkStyle = BlurStyle(name: name, glass: dark)
        darkStyle.vibrancyBlend = .plusLighter
        let levels = VibrancyLevel.allCases.map { level in
            LevelMatrices(
                level: level, light: VibrantColorMatrix.forLevel(level, over: light.levelRecipe!).name,
                dark: VibrantColorMatrix.forLevel(level, over: dark.levelRecipe!).name)
        }
        return Entry(
            name: name, introducedInIOS: 26, light: BlurStyle(name: name, glass: light), dark: darkStyle,
            evidence: .approximation, source: source, vibrancyLevels: levels, vibrancyLevelEvidence: glassLevelEvidence,
            vibrancyLevelSource: glassLevelSource)
    }

    /// The three iOS 7 styles (``BlurStyle/builtIn``).
    /// extraLight's tint alpha is the system's (``BlurStyle/systemExtraLightTintAlpha``), not the sample's.
    static let iOS7: [Entry] = BlurStyle.builtIn.map { style in
        let sample = "Apple's UIImage+ImageEffects sample (WWDC 2013), written to mimic the system blur"
        let alpha =
            style.name == "extraLight"
            ? ", except the tint alpha 0.80 (the sample's 0.82): UIKit's layer tree (herclyon1/transit catalyst-materials.json) and iOS 27 screenshots over flat colours (nguyenduy1412/react-native-blur check-material-recipes.py)"
            : "; iOS 27 screenshots over flat colours agree (nguyenduy1412/react-native-blur check-material-recipes.py)"
        return Entry(
            name: style.name, introducedInIOS: 7, light: style, dark: style, evidence: .fromAppleFiles,
            source: sample + alpha + "; fallback opacity Backdrop's choice")
    }

    /// `regular` and `prominent` (iOS 10): UIBlurEffect.h says regular "displays either Light or Dark" and prominent
    /// "either ExtraLight, Dark (on iOS)"; iOS 18's UIKit draws both with the legacy (iOS 7) implementation.
    static let iOS10: [Entry] = [
        Entry(
            name: "regular", introducedInIOS: 10, light: renamed(.light, "regular"), dark: renamed(.dark, "regular"),
            evidence: .derived,
            source: "UIBlurEffect.h: \"Regular displays either Light or Dark\"; light's and dark's parameters"),
        Entry(
            name: "prominent", introducedInIOS: 10, light: renamed(.extraLight, "prominent"),
            dark: renamed(.dark, "prominent"), evidence: .derived,
            source: "UIBlurEffect.h: \"Prominent displays either ExtraLight, Dark (on iOS)\"; their parameters"),
    ]

    /// UIKit's five material thicknesses and the CoreMaterial recipe family each takes (WebKit's
    /// `RemoteLayerTreePropertyApplier.mm`, `materialRecipeForAppleVisualEffect`).
    static let thicknesses: [(uikit: String, recipe: String)] = [
        ("UltraThin", "platformContentUltraThin"), ("Thin", "platformContentThin"), ("", "platformContent"),
        ("Thick", "platformContentThick"), ("Chrome", "platformChrome"),
    ]

    /// The fifteen system materials (iOS 13): five adaptive, five always light, five always dark.
    static let materials: [Entry] = {
        func entry(_ name: String, _ family: String, fixed: Appearance?) -> Entry {
            let light = BlurStyle(name: name, material: MaterialRecipe.named(family + "Light")!)
            let dark = BlurStyle(name: name, material: MaterialRecipe.named(family + "Dark")!)
            let recipe = fixed.map { family + ($0 == .dark ? "Dark" : "Light") } ?? family + "{Light,Dark}"
            let shown = (light: fixed == .dark ? dark : light, dark: fixed == .light ? light : dark)
            let levels = VibrancyLevel.allCases.map { level in
                LevelMatrices(
                    level: level, light: VibrantColorMatrix.forLevel(level, over: shown.light.material!).name,
                    dark: VibrantColorMatrix.forLevel(level, over: shown.dark.material!).name)
            }
            return Entry(
                name: name, introducedInIOS: 13, light: shown.light, dark: shown.dark, evidence: .fromAppleFiles,
                source: "CoreMaterial recipe \(recipe) (see MaterialRecipe.all); the style's recipe from WebKit",
                vibrancyLevels: levels, vibrancyLevelEvidence: vibrancyLevelEvidence,
                vibrancyLevelSource: vibrancyLevelSource)
        }
        let names = thicknesses.map { ("system\($0.uikit)Material", $0.recipe) }
        return names.map { entry($0.0, $0.1, fixed: nil) } + names.map { entry($0.0 + "Light", $0.1, fixed: .light) }
            + names.map { entry($0.0 + "Dark", $0.1, fixed: .dark) }
    }()

    /// Every name `--style` takes from the catalogue.
    public static var names: [String] { all.map(\.name) }

    /// The entry called `name` (any case), or nil.
    public static func entry(named name: String) -> Entry? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The style `name` draws in `appearance` (nil: light). Throws a usage error for an unknown name (with the
    /// nearest known one) or an appearance given to a fixed style; `prefix` spells the options in errors.
    public static func style(named name: String, appearance: String?, optionPrefix prefix: String = "--")
        throws(BackdropError) -> BlurStyle
    {
        guard let entry = entry(named: name) else {
            throw BackdropError(
                .badOption,
                "unknown style '\(name)'\(Suggestion.clause(for: name, in: names + ["custom"])) (see 'backdrop styles')"
            )
        }
        guard let appearance else { return entry.light }
        guard let chosen = Appearance(rawValue: appearance) else {
            throw BackdropError(.badOption, "unknown \(prefix)appearance '\(appearance)' (known: light, dark)")
        }
        guard entry.isAdaptive else {
            throw BackdropError(
                .badOption, "\(prefix)appearance goes with an adaptive style; \(entry.name) does not follow it")
        }
        return entry.style(chosen)
    }

    private static func renamed(_ style: BlurStyle, _ name: String) -> BlurStyle {
        var style = style
        style.name = name
        return style
    }
}

extension BlurStyle {
    /// The style of a system material called `name`: `recipe`'s filters and blur, no tint. Vibrant content over it
    /// blends plus-darker on a light recipe and plus-lighter on a dark one (Backdrop's model, as for iOS 7's styles).
    public init(name: String, material recipe: MaterialRecipe) {
        self.init(
            name: name, sigmaPoints: recipe.blurRadiusPoints, saturation: recipe.saturation, tintColor: .zero,
            tintAlpha: 0, fallbackAlpha: 0, vibrancyBlend: recipe.isDark ? .plusLighter : .plusDarker)
        material = recipe
    }
}
