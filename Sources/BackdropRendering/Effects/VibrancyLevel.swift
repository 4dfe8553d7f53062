import BackdropImageIO

/// iOS 13's vibrancy levels (`UIVibrancyEffectStyle`): how strongly vibrant content shows over a system material.
/// Each level over each material is one ``VibrantColorMatrix`` (``VibrantColorMatrix/forLevel(_:over:)``, the table
/// with its sources). The system materials have levels, and Liquid Glass takes those of the material recipe its
/// ``GlassParameters/levelRecipe`` names (derived); iOS 7's styles blend their content instead (``VibrancyBlend``).
public enum VibrancyLevel: String, Sendable, Codable, CaseIterable {
    case label, secondaryLabel, tertiaryLabel, quaternaryLabel
    case fill, secondaryFill, tertiaryFill, separator

    /// The level's matrix over `style`'s material, or over its glass (the glass's level recipe). Throws a one-line
    /// `.badOption` for a style with neither.
    public func matrix(over style: BlurStyle) throws(BackdropError) -> VibrantColorMatrix {
        guard let recipe = style.material ?? style.glass?.levelRecipe else {
            throw BackdropError(
                .badOption,
                "vibrancy level \(rawValue) goes with a system material (systemMaterial, systemThinMaterialDark, …) or glass: \(style.name) has no levels"
            )
        }
        return VibrantColorMatrix.forLevel(self, over: recipe)
    }
}

/// One vibrancy level over one material: CoreMaterial's `vibrantColorMatrix` filter, or for `label` a plain colour.
///
/// For content of alpha a (0…1) over the finished material's straight colour B (gamma-encoded, 0…1), per pixel:
/// X = clamp(M·B + bias, 0, 1) per channel, then colour B + (X − B)·a·``coverage`` and alpha
/// A_B + (1 − A_B)·a·``coverage``. The content's own colour is not read (Apple's header: the levels use only the
/// content's alpha). `label` is M = 0 with bias the label colour (black on light, white on dark) at coverage 0.96:
/// ordinary source-over of that colour.
public struct VibrantColorMatrix: Sendable, Equatable, Codable {
    /// Apple's name for the style this matrix comes from (`platformFillLightPrimary`), or the label's colour.
    public var name: String
    /// The 3×3 matrix, rows R, G, B, columns R, G, B.
    public var rows: [[Double]]
    /// Added to every colour channel after the matrix.
    public var bias: Double
    /// The fraction of the content's alpha the result is mixed by: 1, or 0.96 for `label`; above 1 under Increase
    /// Contrast (``increasingContrast(for:dark:)``), where the level's change from the backdrop grows by it for
    /// opaque content too (the colour then clamped to 0…1).
    public var coverage: Double

    /// A matrix from its numbers.
    public init(name: String, bias: Double, rows: [[Double]], coverage: Double = 1) {
        self.name = name
        self.rows = rows
        self.bias = bias
        self.coverage = coverage
    }

    /// X = clamp(M·b + bias, 0, 1) for a straight colour b (0…1), in `Float`.
    @inline(__always) func target(_ b: SIMD3<Float>) -> SIMD3<Float> {
        let m = rows.map { SIMD3<Float>(Float($0[0]), Float($0[1]), Float($0[2])) }
        let x = SIMD3<Float>((m[0] * b).sum(), (m[1] * b).sum(), (m[2] * b).sum()) + SIMD3(repeating: Float(bias))
        return x.clamped(lowerBound: .zero, upperBound: .one)
    }
}
