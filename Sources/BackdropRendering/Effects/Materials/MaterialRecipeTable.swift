import BackdropImageIO

/// The ten CoreMaterial recipes of iOS 13's system materials, every number in one place with its source.
///
/// Sources (figures only; `docs/styles.md` gathers them):
/// - **A**: nguyenduy1412/react-native-blur, `android/src/main/java/…/BlurView.kt`; its test states the table equals
///   the `.materialrecipe` files (`baseMaterial.materialFiltering`) of Apple's iOS simulator runtime. All ten rows.
/// - **B**: spcx0701/liquid-glass-react-native, `src/engine/recipes.ts`, read from macOS 26.4.1's recipe files.
///   Second source for `platformContentLight`, `platformContentDark`, `platformChromeLight` and
///   `platformChromeDark`; it agrees with A on all their numbers. B also gives the filters' order (luminance curve,
///   saturation, brightness, then the blur: "blurAtEnd") and the capture scale 0.25 ("backdropScale").
/// - The curve's form (a cubic Bernstein curve over Rec. 709 luma, mixed by the amount) and σ = the radius in
///   points: public probes quoted by A and B (medium-high confidence); flat colours cannot check the blur.
/// - Which UIKit style takes which recipe: WebKit's `RemoteLayerTreePropertyApplier.mm`
///   (`materialRecipeForAppleVisualEffect`), see ``StyleCatalogue``.
///
/// Confidence: high for the numbers (two readings of Apple's files where B has the row), for iOS 26/27's files;
/// iOS 13.0's own files are not public.
extension MaterialRecipe {
    /// Every recipe, light ones first, in UIKit's order (ultra-thin, thin, regular, thick, chrome).
    public static let all: [MaterialRecipe] = [
        // name, radius (pt), saturation, brightness, luminance amount, v0…v3            source
        recipe("platformContentUltraThinLight", 22.5, 1.1, 0.12, 0.5, [0.45, 0.55, 0.65, 0.68]),  // A
        recipe("platformContentThinLight", 30, 1.35, 0.12, 0.6, [0.725, 0.825, 0.76, 0.73]),  // A
        recipe("platformContentLight", 30, 1.5, 0.10, 0.75, [0.9, 0.83, 0.925, 0.815]),  // A, B
        recipe("platformContentThickLight", 45, 1.5, 0.045, 0.88, [0.99, 0.95, 0.98, 0.905]),  // A
        recipe("platformChromeLight", 22.5, 1.1, 0.10, 0.75, [0.8, 0.9, 1.1, 0.825]),  // A, B
        recipe("platformContentUltraThinDark", 22.5, 1.1, 0, 0.5, [0.24, 0.24, 0.3, 0.39]),  // A
        recipe("platformContentThinDark", 30, 1.35, 0, 0.6, [0.2, 0.21, 0.1, 0.15]),  // A
        recipe("platformContentDark", 30, 1.5, 0, 0.75, [0.16, 0.26, 0.1, 0.1]),  // A, B
        recipe("platformContentThickDark", 45, 1.5, 0, 0.88, [0.14, 0.16, 0.1, 0.03]),  // A
        recipe("platformChromeDark", 22.5, 2.0, -0.10, 0.75, [0.23, 0.52, 0.27, 0.255]),  // A, B
    ]

    /// The sources of each recipe's numbers, as ``MaterialRecipe/all``'s comments give them.
    public var sources: String {
        let second = ["platformContentLight", "platformContentDark", "platformChromeLight", "platformChromeDark"]
        let a = "nguyenduy1412/react-native-blur BlurView.kt (the simulator runtime's recipe files)"
        return second.contains(name) ? a + "; spcx0701/liquid-glass-react-native recipes.ts (macOS 26.4.1)" : a
    }

    private static func recipe(
        _ name: String, _ radius: Double, _ saturation: Double, _ brightness: Double, _ amount: Double,
        _ values: [Double]
    ) -> MaterialRecipe {
        MaterialRecipe(
            name: name, blurRadiusPoints: radius, saturation: saturation, brightness: brightness,
            luminanceAmount: amount, luminanceValues: values, captureScale: 0.25)
    }
}
