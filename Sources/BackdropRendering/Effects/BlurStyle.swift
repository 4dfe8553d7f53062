/// A blur style: how much to blur, how much to saturate, and what to tint with.
///
/// The built-in styles use the parameters of Apple's UIImage+ImageEffects sample (WWDC 2013), which Apple wrote
/// to mimic the iOS 7 system blur (`docs/effects.md`), except extraLight's tint alpha: the system draws 0.80, the
/// sample 0.82 (``StyleCatalogue``, `--algorithm image-effects` keeps 0.82). The tint-only fallback opacities are
/// Backdrop's documented choice; Apple did not publish its own.
public struct BlurStyle: Sendable, Equatable, Codable {
    /// The name the CLI takes.
    public var name: String
    /// Standard deviation of the Gaussian, in points (multiplied by the scale to get pixels).
    public var sigmaPoints: Double
    /// Saturation factor s of the Rec. 709 saturation matrix (1 = unchanged).
    public var saturation: Double
    /// Tint colour (straight sRGB-encoded R, G, B in [0, 1]).
    public var tintColor: SIMD3<Double>
    /// Opacity of the tint drawn over the blur.
    public var tintAlpha: Double
    /// Opacity of the tint when blur is disabled (the tint-only fallback).
    public var fallbackAlpha: Double
    /// How vibrant content blends with the backdrop.
    public var vibrancyBlend: VibrancyBlend
    /// Whether the GPU draws the tint as a blended layer of its own after the upscale (extra light; see
    /// ``TintLayerPass``) rather than in the upscale pass. Changes the cost, not the picture.
    public var tintIsOwnLayer: Bool
    /// The CoreMaterial recipe of an iOS 13 system material (its filters and capture scale), or nil for a style
    /// drawn as blur, saturation and tint (``StyleCatalogue``).
    public var material: MaterialRecipe? = nil
    /// iOS 26's Liquid Glass (its face, shape and tint: ``GlassFacePass``), or nil for any other style.
    public var glass: GlassParameters? = nil

    /// A style from its parameters (a custom style).
    public init(
        name: String, sigmaPoints: Double, saturation: Double, tintColor: SIMD3<Double>,
        tintAlpha: Double, fallbackAlpha: Double, vibrancyBlend: VibrancyBlend, tintIsOwnLayer: Bool = false
    ) {
        self.name = name
        self.sigmaPoints = sigmaPoints
        self.saturation = saturation
        self.tintColor = tintColor
        self.tintAlpha = tintAlpha
        self.fallbackAlpha = fallbackAlpha
        self.vibrancyBlend = vibrancyBlend
        self.tintIsOwnLayer = tintIsOwnLayer
    }

    /// σ 20 pt, saturation 1.8, white 0.97 at 80 % (the system's alpha; the 2013 sample's is 82 %); fallback 97 %;
    /// vibrancy plus-darker; the GPU draws the tint as a layer of its own.
    public static let extraLight = BlurStyle(
        name: "extraLight", sigmaPoints: 20, saturation: 1.8,
        tintColor: SIMD3(repeating: 0.97), tintAlpha: systemExtraLightTintAlpha,
        fallbackAlpha: 0.97, vibrancyBlend: .plusDarker, tintIsOwnLayer: true)
    /// σ 30 pt, saturation 1.8, white 1.0 at 30 %; fallback 90 %; vibrancy plus-darker.
    public static let light = BlurStyle(
        name: "light", sigmaPoints: 30, saturation: 1.8,
        tintColor: SIMD3(repeating: 1.0), tintAlpha: 0.30,
        fallbackAlpha: 0.90, vibrancyBlend: .plusDarker)
    /// σ 20 pt, saturation 1.8, white 0.11 at 73 %; fallback 90 %; vibrancy plus-lighter.
    public static let dark = BlurStyle(
        name: "dark", sigmaPoints: 20, saturation: 1.8,
        tintColor: SIMD3(repeating: 0.11), tintAlpha: 0.73,
        fallbackAlpha: 0.90, vibrancyBlend: .plusLighter)

    /// The tint alpha UIKit draws extraLight with: 0.80, not the 2013 sample's 0.82. Sources (figures only): UIKit's
    /// own layer tree of the style, grey 0.97 at α 0.80 (herclyon1/transit, `materials/catalyst-materials.json`
    /// @03349d4a); and iOS 27 simulator screenshots over eleven flat colours (nguyenduy1412/react-native-blur,
    /// `scripts/check-material-recipes.py` @457500a1, `Tests/Fixtures/ios/flat-colours.json`), which 0.80 meets
    /// within 1 level and 0.82 misses by 5 over black (`IOSFlatColourTests`). iOS 7.0's own value is not public.
    public static let systemExtraLightTintAlpha = 0.80

    /// iOS 7's three styles, the columns of the reports; every style the CLI takes is in ``StyleCatalogue``.
    public static let builtIn: [BlurStyle] = [.extraLight, .light, .dark]

    /// The built-in style called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> BlurStyle? {
        builtIn.first { $0.name.lowercased() == name.lowercased() }
    }
}

/// The blend of vibrant content over the finished backdrop (per channel, straight colours).
public enum VibrancyBlend: String, Sendable, Equatable, Codable, CaseIterable {
    /// max(0, c + b − 1): darkens; used by the light styles.
    case plusDarker
    /// min(1, c + b): lightens; used by the dark style.
    case plusLighter
}
