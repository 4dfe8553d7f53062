import BackdropImageIO

/// iOS's two display settings that change how effect views look: Reduce Transparency and Increase Contrast
/// (`docs/accessibility.md` gives each effect, its source and what Backdrop chose where the values are not public).
///
/// - Reduce Transparency draws no blur: iOS 7's styles draw their tint opaque (``BlurStyle/reducingTransparency``),
///   a system material draws the backdrop's average colour through its recipe (``MaterialRecipe/reducedTransparency``,
///   the chrome recipes swapped for their own), Liquid Glass draws its face over the backdrop's average colour
///   (``MaterialRecipe/glassAverageColour``, an approximation); every effect view takes the tint-only path, so it is
///   priced without offscreen passes.
/// - Increase Contrast raises the alpha of iOS 13's vibrancy levels (``VibrantColorMatrix/increasingContrast(for:dark:)``);
///   nothing public changes the materials or iOS 7's blends, so nothing else changes.
public struct AccessibilitySettings: Sendable, Equatable, Codable {
    /// Settings → Accessibility → Display & Text Size → Reduce Transparency.
    public var reduceTransparency: Bool
    /// Settings → Accessibility → Display & Text Size → Increase Contrast.
    public var increaseContrast: Bool

    /// Both settings off, as iOS ships.
    public static let none = AccessibilitySettings()

    public init(reduceTransparency: Bool = false, increaseContrast: Bool = false) {
        self.reduceTransparency = reduceTransparency
        self.increaseContrast = increaseContrast
    }

    /// Whether either setting is on.
    public var isOn: Bool { reduceTransparency || increaseContrast }

    /// The settings in words for a summary line: ", reduce transparency, increase contrast", or "".
    public var summaryWords: String {
        (reduceTransparency ? ", reduce transparency" : "") + (increaseContrast ? ", increase contrast" : "")
    }
}

extension Effect {
    /// The effect as a device with `settings` draws it: under Reduce Transparency the style's reduced-transparency
    /// look (``BlurStyle/reducingTransparency``) on the tint-only path; under Increase Contrast the vibrancy level's
    /// raised alpha. (Throws nothing today; kept throwing for settings a style cannot draw.)
    public func applying(_ settings: AccessibilitySettings) throws(BackdropError) -> Effect {
        var effect = self
        if settings.reduceTransparency {
            effect.style = style.reducingTransparency
            effect.path = .tintOnly
        }
        if settings.increaseContrast { effect.increaseContrast = true }
        return effect
    }
}

extension BlurStyle {
    /// The style under Reduce Transparency, drawn on the tint-only path: a system material's recipe becomes its
    /// reduced-transparency recipe (``MaterialRecipe/reducedTransparency``); any other style draws its tint opaque
    /// (fallback alpha 1; Liquid Glass keeps its numbers: its tint-only path draws the face over the average colour).
    /// UIKit draws iOS 7's grey tints opaque under the setting (decompiled UIKit,
    /// `_UIBackdropViewSettings…`, quality 10); extraLight's grey 0.97 is UIKit's own, light's and dark's greys are
    /// not public: Backdrop keeps each style's tint colour (white 1.0, grey 0.11).
    public var reducingTransparency: BlurStyle {
        var style = self
        if let recipe = material {
            style.material = recipe.reducedTransparency
        } else if glass == nil {
            style.fallbackAlpha = 1
        }
        return style
    }
}

extension MaterialRecipe {
    /// The recipe iOS draws under Reduce Transparency, on the tint-only path: the chrome recipes are swapped for
    /// Apple's `platformChrome{Light,Dark}ReduceTransparency` (``reduceTransparencyChromeLight``,
    /// ``reduceTransparencyChromeDark``); every other recipe stays. Either way no blur is drawn and the filters run
    /// on the backdrop's average colour (``MaterialAverageColourPass``).
    public var reducedTransparency: MaterialRecipe {
        switch name {
        case "platformChromeLight": return Self.reduceTransparencyChromeLight
        case "platformChromeDark": return Self.reduceTransparencyChromeDark
        default: return self
        }
    }

    /// `platformChromeLightReduceTransparency`: saturation 0.8, brightness +0.10, luminance amount 0.75, values
    /// 0.95 0.9 1.1 0.825, average colour on, no blur. Source (figures only): macOS 26/27's CoreMaterial recipe
    /// files, dumped by herclyon1/transit, `materials/corematerial-recipes.tsv` @d160335f.
    public static let reduceTransparencyChromeLight = MaterialRecipe(
        name: "platformChromeLightReduceTransparency", blurRadiusPoints: 0, saturation: 0.8, brightness: 0.10,
        luminanceAmount: 0.75, luminanceValues: [0.95, 0.9, 1.1, 0.825])

    /// `platformChromeDarkReduceTransparency`: no saturation (1), brightness −0.10, luminance amount 0.85, values
    /// 0.225 0.31 0.25 0.2, average colour on, no blur. Same source. (Its `…Layer1` variant, brightness −0.04, is
    /// for the elevated interface level, which Backdrop does not draw.)
    public static let reduceTransparencyChromeDark = MaterialRecipe(
        name: "platformChromeDarkReduceTransparency", blurRadiusPoints: 0, saturation: 1, brightness: -0.10,
        luminanceAmount: 0.85, luminanceValues: [0.225, 0.31, 0.25, 0.2])
}

extension VibrantColorMatrix {
    /// The level's matrix under Increase Contrast: its ``coverage`` multiplied by the rise of the iOS 13 system
    /// colour of the same name (raised alpha ÷ alpha), the dark figures over dark recipes; the filter scales the
    /// level's change from the backdrop by that rise, for opaque content as for translucent (`VibrancyMatrixFilter`),
    /// as the system colour's own change over a backdrop grows with its alpha.
    /// `label` is opaque and does not change. The rises (RGBA alphas 0–255, light → raised; dark where it differs):
    /// secondaryLabel 153 → 173, tertiaryLabel 76 → 96, quaternaryLabel 45 → 66 (dark 40 → 61), fill 51 → 71
    /// (dark 91 → 112), secondaryFill 40 → 61 (81 → 102), tertiaryFill 30 → 51 (61 → 81), separator 73 → 94
    /// (153 → 173). Source (figures only): UIKit's colours with their high-contrast variants as flutter/flutter
    /// copies them, `packages/flutter/lib/src/cupertino/colors.dart` @028212b5. That the levels rise as the colours
    /// do is Backdrop's choice: no public recipe or visual style set changes under the setting.
    public func increasingContrast(for level: VibrancyLevel, dark: Bool) -> VibrantColorMatrix {
        let (from, to) = Self.increaseContrastAlphas(level, dark: dark)
        var matrix = self
        matrix.coverage = coverage * to / from
        return matrix
    }

    /// The level's system colour alpha and its raised alpha (0–255), light or dark.
    static func increaseContrastAlphas(_ level: VibrancyLevel, dark: Bool) -> (Double, Double) {
        switch level {
        case .label: return (255, 255)
        case .secondaryLabel: return (153, 173)
        case .tertiaryLabel: return (76, 96)
        case .quaternaryLabel: return dark ? (40, 61) : (45, 66)
        case .fill: return dark ? (91, 112) : (51, 71)
        case .secondaryFill: return dark ? (81, 102) : (40, 61)
        case .tertiaryFill: return dark ? (61, 81) : (30, 51)
        case .separator: return dark ? (153, 173) : (73, 94)
        }
    }
}
