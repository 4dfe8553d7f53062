import BackdropImageIO

/// What Backdrop draws over Liquid Glass besides its face: vibrant content at a level, and the look under Reduce
/// Transparency. Both are Backdrop's derivations (`docs/styles.md`, "Text on glass" and "Glass under Reduce
/// Transparency"): Apple publishes neither.
///
/// - Levels: content over glass takes the vibrancy levels (``VibrantColorMatrix/forLevel(_:over:)``) of the system
///   material recipe ``GlassParameters/levelRecipe`` names, run over the finished glass face: regular glass the
///   `platformContent` recipe of its appearance (`systemMaterial`'s), clear glass `platformContentUltraThin`'s (the
///   thinnest material; its label levels read the thin stroke set). Derived: S2 (herclyon1/transit `MATERIALS.md`)
///   shows that glass carries a `vibrantColorMatrix` for its content, as the materials do, but publishes one matrix
///   per glass, not one per level, and only regular glass's in full.
/// - Reduce Transparency (and the tint-only path, as for a material): no blur; the glass face drawn over the
///   backdrop's average colour under the view (``MaterialRecipe/glassAverageColour``), so the content behind is
///   obscured wholly. An approximation of Apple's HIG, which says only that the setting makes glass frostier and
///   obscure more of what lies behind it.
extension GlassParameters {
    /// The system material recipe whose vibrancy levels content over this glass takes: `platformContentLight` or
    /// `…Dark` for regular glass, `platformContentUltraThinLight` or `…Dark` for clear glass, compared on every
    /// number but the shape and the tint; nil for glass numbers that are none of the catalogue's four.
    public var levelRecipe: MaterialRecipe? {
        var plain = self
        plain.shape = .capsule
        plain.tint = nil
        let known: [(GlassParameters, String)] = [
            (.regular(false), "platformContentLight"), (.regular(true), "platformContentDark"),
            (.clear(false), "platformContentUltraThinLight"), (.clear(true), "platformContentUltraThinDark"),
        ]
        return known.first { $0.0 == plain }.flatMap { MaterialRecipe.named($0.1) }
    }
}

extension MaterialRecipe {
    /// Liquid Glass's average colour under Reduce Transparency: the backdrop's mean colour unchanged (luminance
    /// amount 0, saturation 1, brightness 0, no blur), over which the glass face is drawn. Backdrop's choice.
    public static let glassAverageColour = MaterialRecipe(
        name: "glass average colour", blurRadiusPoints: 0, saturation: 1, brightness: 0, luminanceAmount: 0,
        luminanceValues: [0, 0, 0, 0])
}
