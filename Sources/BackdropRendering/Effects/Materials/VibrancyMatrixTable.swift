/// The vibrancy levels of iOS 13's system materials: which matrix each level takes over each recipe, and the
/// sixteen matrices, every number in one place with its source.
///
/// Sources (figures only; `docs/styles.md` gathers them):
/// - **S1**, the matrices and which set a recipe uses: the `.visualstyleset` files of macOS 26/27's
///   `CoreMaterial.framework` (filter `vibrantColorMatrix`, `inputColorMatrix`; alpha row identity), dumped by
///   herclyon1/transit, `materials/corematerial-recipes.json` @03349d4a. Each recipe names a fill set
///   (`platformFill{Light,Dark}`, the chrome recipes `platformChromeFill…`) and a stroke set
///   (`platformStrokeThin…` for the ultra-thin and thin recipes, `platformStroke…` for the others).
/// - **S6**, which slot a level takes: WebKit's `RemoteLayerTreePropertyApplier.mm`
///   (`materialVisualStyleForAppleVisualEffect`, `…CategoryForAppleVisualEffect`): label/fill → primary,
///   secondaryLabel/secondaryFill → secondary, tertiary… → tertiary, quaternaryLabel → quaternary, separator →
///   separator; the four label levels read the stroke set, the others the fill set. In the fill sets the quaternary
///   and separator slots both name the separator style; in the chrome fill sets the primary slot is
///   `platformChromeTabBarText`.
/// - **S4**, a second reading, from iOS at runtime (dominicstop/VisualEffectBlurView,
///   `Sources/Common/ColorMatrixRGBAPreset.swift` @67fcb367): agrees on 38 of the 41 level × recipe cells it lists.
///   It disagrees on secondaryLabel over the light content/thick/chrome recipes (S4 gives the chrome tab-bar matrix)
///   and over the dark ultra-thin/thin recipes (S4 gives the dark tertiary fill): in both, S4's value is a copy of
///   another of its presets. We follow S1.
/// - `label` has no matrix in S1 (only a tint colour: black, or white in dark, at α 0.96); S4 lists none.
/// - How the filter composites (``VibrantColorMatrix``): Apple's `UIVibrancyEffect.h` (the levels read only the
///   content's alpha) and QuartzCore's `vibrant_color_matrix_sover` (clamp per channel, mixed by the alpha), as
///   recovered in public notes: medium-high confidence. iOS 13.0's own files are not public (S1 is macOS 26/27,
///   S4 iOS 17–18).
extension VibrantColorMatrix {
    /// The matrix of `level` over `recipe` (one of ``MaterialRecipe/all``).
    public static func forLevel(_ level: VibrancyLevel, over recipe: MaterialRecipe) -> VibrantColorMatrix {
        let dark = recipe.isDark
        let thinStroke =
            recipe.name.hasPrefix("platformContentUltraThin") || recipe.name.hasPrefix("platformContentThin")
        let chrome = recipe.name.hasPrefix("platformChrome")
        switch level {
        case .label: return dark ? labelDark : labelLight
        case .secondaryLabel:
            return thinStroke
                ? (dark ? platformStrokeThinDarkSecondary : platformStrokeThinLightSecondary)
                : (dark ? platformStrokeDarkSecondary : platformStrokeLightSecondary)
        case .tertiaryLabel:
            return thinStroke
                ? (dark ? platformStrokeThinDarkTertiary : platformStrokeThinLightTertiary)
                : (dark ? platformDarkSeparator : platformLightSeparator)
        case .quaternaryLabel, .secondaryFill: return dark ? platformFillDarkSecondary : platformFillLightSecondary
        case .fill:
            return chrome
                ? (dark ? platformChromeTabBarTextDark : platformChromeTabBarTextLight)
                : (dark ? platformFillDarkPrimary : platformFillLightPrimary)
        case .tertiaryFill: return dark ? platformFillDarkTertiary : platformFillLightTertiary
        case .separator: return dark ? platformDarkSeparator : platformLightSeparator
        }
    }

    /// `label`: black at α 0.96 over a light material, white over a dark one (S1), no matrix.
    static let labelLight = VibrantColorMatrix(name: "black α 0.96", bias: 0, rows: zero, coverage: 0.96)
    static let labelDark = VibrantColorMatrix(name: "white α 0.96", bias: 1, rows: zero, coverage: 0.96)
    private static let zero: [[Double]] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]

    // The sixteen matrices of S1, by Apple's style name (the thin strokes' slots and the chrome text by their set).
    static let platformFillLightPrimary = VibrantColorMatrix(
        name: "platformFillLightPrimary", bias: 0.0625,
        rows: [[1.514125, -0.954751, -0.184374], [-0.485603, 1.046185, -0.185582], [-0.486811, -0.952939, 1.81475]])
    static let platformFillLightSecondary = VibrantColorMatrix(
        name: "platformFillLightSecondary", bias: 0,
        rows: [
            [1.23555, -0.3234631, -0.06208679], [-0.1642596, 1.077192, -0.06293241], [-0.1651052, -0.3221948, 1.3373],
        ])
    static let platformFillLightTertiary = VibrantColorMatrix(
        name: "platformFillLightTertiary", bias: -0.084,
        rows: [
            [1.177642, -0.1426014, -0.02704049], [-0.07218799, 1.107983, -0.0277955],
            [-0.07294299, -0.141469, 1.222412],
        ])
    static let platformLightSeparator = VibrantColorMatrix(
        name: "platformLightSeparator", bias: 0.019,
        rows: [
            [1.407578, -0.5748306, -0.1107474], [-0.2921908, 1.125965, -0.1117742], [-0.2932176, -0.5732903, 1.588508],
        ])
    static let platformStrokeLightSecondary = VibrantColorMatrix(
        name: "platformStrokeLightSecondary", bias: 0.04425,
        rows: [
            [1.551948, -0.8804954, -0.169953], [-0.4477795, 1.12044, -0.171161], [-0.4489875, -0.8786834, 1.829171],
        ])
    static let platformStrokeThinLightSecondary = VibrantColorMatrix(
        name: "platformStrokeThinLightSecondary", bias: 0.04875,
        rows: [
            [0.9362975, -0.3218643, -0.0619332], [-0.1635529, 0.7786505, -0.06259762],
            [-0.1642173, -0.3208677, 1.037585],
        ])
    static let platformStrokeThinLightTertiary = VibrantColorMatrix(
        name: "platformStrokeThinLightTertiary", bias: 0.0195,
        rows: [
            [0.922559, -0.152471, -0.029088], [-0.07730501, 0.847997, -0.02969201],
            [-0.07790902, -0.151565, 0.9704739],
        ])
    static let platformChromeTabBarTextLight = VibrantColorMatrix(
        name: "platformChromeTabBarTextLight", bias: 0.1,
        rows: [[1.201, -0.587657, -0.113343], [-0.298796, 0.913045, -0.114249], [-0.299702, -0.586298, 1.386]])
    static let platformFillDarkPrimary = VibrantColorMatrix(
        name: "platformFillDarkPrimary", bias: 0.5,
        rows: [[1.37625, -0.7345164, -0.1417335], [-0.373512, 1.016302, -0.1427905], [-0.374569, -0.732931, 1.6075]])
    static let platformFillDarkSecondary = VibrantColorMatrix(
        name: "platformFillDarkSecondary", bias: 0.18,
        rows: [
            [1.22658, -0.3410732, -0.06550679], [-0.1732296, 1.059582, -0.06635241], [-0.1740752, -0.3398048, 1.33388],
        ])
    static let platformFillDarkTertiary = VibrantColorMatrix(
        name: "platformFillDarkTertiary", bias: 0.12,
        rows: [
            [1.060532, -0.07796578, -0.0145662], [-0.03931839, 1.022549, -0.01523062],
            [-0.03998281, -0.07696921, 1.084952],
        ])
    static let platformDarkSeparator = VibrantColorMatrix(
        name: "platformDarkSeparator", bias: 0.298,
        rows: [
            [1.396216, -0.5971366, -0.1150794], [-0.3035528, 1.103659, -0.1161062], [-0.3045796, -0.5955964, 1.584176],
        ])
    static let platformStrokeDarkSecondary = VibrantColorMatrix(
        name: "platformStrokeDarkSecondary", bias: 0.556,
        rows: [[1.173492, -0.641661, -0.123831], [-0.326304, 0.859041, -0.124737], [-0.32721, -0.640302, 1.375512]])
    static let platformStrokeThinDarkSecondary = VibrantColorMatrix(
        name: "platformStrokeThinDarkSecondary", bias: 0.5375,
        rows: [
            [0.828075, -0.337963, -0.06511199], [-0.171789, 0.662505, -0.06571601], [-0.172393, -0.337057, 0.93445],
        ])
    static let platformStrokeThinDarkTertiary = VibrantColorMatrix(
        name: "platformStrokeThinDarkTertiary", bias: 0.3175,
        rows: [
            [1.040035, -0.3145706, -0.0604644], [-0.1598018, 0.885991, -0.06118922], [-0.1605266, -0.3134834, 1.13901],
        ])
    static let platformChromeTabBarTextDark = VibrantColorMatrix(
        name: "platformChromeTabBarTextDark", bias: 0.46,
        rows: [
            [0.6603, -0.1764285, -0.0338715], [-0.089598, 0.5739225, -0.03432451], [-0.090051, -0.175749, 0.7158],
        ])
}
