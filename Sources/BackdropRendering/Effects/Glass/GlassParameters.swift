import BackdropImageIO

/// iOS 26's Liquid Glass (`UIGlassEffect`, `.regular` and `.clear`) as Backdrop approximates it: a blur, then per
/// pixel of the view's shape a rim refraction, a soft luma ceiling, a face matrix in YCbCr, a white fill, an optional
/// tint and a specular rim highlight (``GlassFacePass``). The numbers live in ``GlassParameters/regular(_:)`` and
/// ``GlassParameters/clear(_:)`` with their sources; what is Backdrop's own choice is marked there. An
/// approximation: nothing public measures iOS's glass pixel by pixel.
public struct GlassParameters: Sendable, Equatable, Codable {
    /// The view's shape: a rounded rectangle of the frame's size.
    public enum Shape: Sendable, Equatable, Codable {
        /// Corners of this radius in points (clamped to half the shorter side).
        case roundedRectangle(cornerRadiusPoints: Double)
        /// Half the shorter side: a capsule (the default, UIKit's for glass buttons and bars).
        case capsule
    }

    /// The Gaussian's σ in points (the blur before everything else).
    public var blurSigmaPoints: Double
    /// The face's luma levels: Y ← black + (white − black)·Y.
    public var faceBlack: Double
    public var faceWhite: Double
    /// The face's chroma factor (Cb and Cr are multiplied by it).
    public var faceSaturation: Double
    /// The white drawn over the face, source-over, at this opacity.
    public var fillAlpha: Double
    /// The soft ceiling on luma before the face: Y ← m·Y / (m + (1 − m)·Y) (1: none).
    public var maxLuma: Double
    /// The rim refraction: within `refractionHeightPoints` of the edge, the blurred backdrop is read
    /// `refractionAmountPoints`·(1 − t/h)² points further inside (t the distance to the edge).
    public var refractionAmountPoints: Double
    public var refractionHeightPoints: Double
    /// The specular highlight on the rim: its strength (0…1) and the half-angle around the vertical within which
    /// the rim's normal catches it (top and bottom edges).
    public var highlightAmount: Double
    public var highlightSpread: Double
    /// The view's shape.
    public var shape: Shape = .capsule
    /// A tint colour (straight sRGB, 0…1) drawn over the face at ``tintAlpha``; nil for none.
    public var tint: SIMD3<Double>? = nil

    /// What the CLI prints beside a glass render, and the preview beside its picker.
    public static let approximationNote =
        "Liquid Glass is an approximation: macOS 26's glass numbers, not measured on iOS (see docs/styles.md)"

    /// The tint's opacity: Backdrop's choice (the tint layer's blend and opacity are not public).
    public static let tintAlpha = 0.3
    /// The highlight's band: the rim's outer 1.5 points. Backdrop's choice.
    public static let highlightWidthPoints = 1.5

    /// The σ in points that one pyramid level of radius r means: S10 fits σ ≈ 8 pt to regular glass, whose
    /// `BlurRadius` is 5 (S2), so σ = 1.6·r; Backdrop's reading.
    static func sigma(forRadius radius: Double) -> Double { 1.6 * radius }
}

/// Sources (figures only; `docs/styles.md` gathers them):
/// - **S2** (herclyon1/transit, `MATERIALS.md` @df00cd40): the `glassBackground` filter's inputs that AppKit's
///   `NSGlassEffectView` and UIKit's `UIGlassEffect` (Mac Catalyst) set, read from live layer trees of macOS 26/27,
///   and the shader's order (blur, refraction, luma ceiling, face matrix and fill, highlight, clamp). Every number
///   below but the σ and the tint's, highlight band's and refraction curve's forms.
/// - **S10** (medfa12/liquid-glass-react-native, `README.md` @485acf78): its shader fitted to an `NSGlassEffectView`
///   capture (MAE 15.0/255) blurs with σ ≈ 8 pt for regular glass: our σ.
/// Left out: edge bleed, the wider BlurFill, the ring shadow, the highlight's colour bias, the adaptive tint's
/// logistic over luma (all in S2 or S10, not built). Apple's files, not iOS: macOS's values, unmeasured on iOS.
extension GlassParameters {
    /// `UIGlassEffect.Style.regular`: blur radius 5, face 0.40 → 0.96 (light) or 0.08 → 1.125 (dark), saturation
    /// 1.2 / 1.3, fill white 0.20 / none, MaxLuma 0.94 / 0.35, refraction −60 over 20 pt, highlight 0.5 over 2π/3.
    public static func regular(_ dark: Bool) -> GlassParameters {
        GlassParameters(
            blurSigmaPoints: sigma(forRadius: 5), faceBlack: dark ? 0.08 : 0.40, faceWhite: dark ? 1.125 : 0.96,
            faceSaturation: dark ? 1.3 : 1.2, fillAlpha: dark ? 0 : 0.20, maxLuma: dark ? 0.35 : 0.94,
            refractionAmountPoints: 60, refractionHeightPoints: 20, highlightAmount: 0.5,
            highlightSpread: 2 * Double.pi / 3 / 2)
    }

    /// `UIGlassEffect.Style.clear`: blur radius 10, face 0.20 → 0.95 (light) or 0.05 → 0.80 (dark), saturation 1,
    /// fill white 0.10 / 0.05, no luma ceiling, refraction as regular, highlight 0.4 over 1.309 rad.
    public static func clear(_ dark: Bool) -> GlassParameters {
        GlassParameters(
            blurSigmaPoints: sigma(forRadius: 10), faceBlack: dark ? 0.05 : 0.20, faceWhite: dark ? 0.80 : 0.95,
            faceSaturation: 1, fillAlpha: dark ? 0.05 : 0.10, maxLuma: 1, refractionAmountPoints: 60,
            refractionHeightPoints: 20, highlightAmount: 0.4, highlightSpread: 1.309 / 2)
    }
}

extension BlurStyle {
    /// The style of a Liquid Glass called `name`: `glass`'s blur (no saturation, no tint: the face pass colours it).
    public init(name: String, glass: GlassParameters) {
        self.init(
            name: name, sigmaPoints: glass.blurSigmaPoints, saturation: 1, tintColor: .zero, tintAlpha: 0,
            fallbackAlpha: 0, vibrancyBlend: .plusDarker)
        self.glass = glass
    }
}
