/// What each tool means by a blur or shadow radius, as a Gaussian's standard deviation σ in points, the unit of
/// ``BlurStyle/sigmaPoints`` and of a scene shadow's `radius` (CALayer.shadowRadius taken as σ). This is the one
/// place the importers take these conventions from; `docs/import.md` cites the same sources, and
/// `ImportTests` checks each.
///
/// - CSS `filter`/`backdrop-filter: blur(r)`: σ = r. MDN, `blur()`: the radius "defines the value of the standard
///   deviation to the Gaussian function".
/// - CSS `box-shadow` blur B: σ = B / 2. CSS Backgrounds and Borders Level 3, §7.1.1: the shadow's edge is as if
///   blurred by "a Gaussian blur with a standard deviation equal to half the blur radius".
/// - Figma `DROP_SHADOW`/`INNER_SHADOW` `radius`: σ = radius / 2. Figma's REST spec says only "radius of the blur";
///   Figma, Sketch and CSS draw the same shadow for the same number (Bjango, "Matching drop shadows across design
///   tools"), so the radius is a CSS box-shadow blur.
/// - Figma `LAYER_BLUR`/`BACKGROUND_BLUR` `radius`: σ = radius / 2. Measured, not documented: "Figma matches CSS
///   box-shadow best and all three blur effects in Figma are the same" (Bjango's blur comparison), and Figma's Dev
///   Mode exports a background blur of 32 as `backdrop-blur-[16px]` (GLips/Figma-Context-MCP PR #392).
/// - Sketch `shadows[]`/`innerShadows[]` `blurRadius`: σ = blurRadius / 2 (Bjango, as for Figma).
/// - Sketch `style.blur.radius` (Gaussian and background): σ = radius / 2, an assumption: no source found maps it
///   ("background blurs are a different story", Bjango); taken as Sketch's shadows are.
/// - `CALayer.shadowRadius`: σ = shadowRadius. Apple documents only "the blur radius (in points)"; the common
///   Sketch-to-iOS conversion `shadowRadius = blur / 2` (StackOverflow answer 48489506) together with the CSS rule
///   above makes shadowRadius the σ.
/// - Android `RenderEffect.createBlurEffect(radiusX, …)`: σ = 0.57735 · radius + 0.5, in the view's units, the
///   conversion of Skia (`SkBlurMask::ConvertRadiusToSigma`), which draws Android's blurs.
public enum BlurUnits {
    /// CSS `blur(r)`: σ = r.
    public static func sigma(cssBlur radius: Double) -> Double { radius }
    /// CSS `box-shadow` blur B: σ = B / 2.
    public static func sigma(cssBoxShadowBlur blur: Double) -> Double { blur / 2 }
    /// Figma's shadow `radius`: σ = radius / 2.
    public static func sigma(figmaShadowRadius radius: Double) -> Double { radius / 2 }
    /// Figma's layer and background blur `radius`: σ = radius / 2 (measured, not documented).
    public static func sigma(figmaBlurRadius radius: Double) -> Double { radius / 2 }
    /// Sketch's shadow `blurRadius`: σ = blurRadius / 2.
    public static func sigma(sketchShadowBlurRadius radius: Double) -> Double { radius / 2 }
    /// Sketch's Gaussian and background blur `radius`: σ = radius / 2 (an assumption; see above).
    public static func sigma(sketchBlurRadius radius: Double) -> Double { radius / 2 }
    /// `CALayer.shadowRadius`: σ = shadowRadius.
    public static func sigma(caLayerShadowRadius radius: Double) -> Double { radius }
    /// Android's `RenderEffect` blur radius: σ = 0.57735 · radius + 0.5 (Skia), 0 for no blur.
    public static func sigma(androidBlurRadius radius: Double) -> Double { radius > 0 ? 0.57735 * radius + 0.5 : 0 }
}
