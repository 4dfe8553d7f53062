import BackdropImageIO

/// One CoreMaterial recipe of iOS 13's system materials: the backdrop filters that make the look (no tint layer,
/// no colour matrix: `docs/styles.md`). The numbers live in ``MaterialRecipe/all``, with their sources.
///
/// The filters, per pixel of the captured backdrop, on straight gamma-encoded colour, in this order:
/// 1. Luminance curve: L = clamp(0.2126 R + 0.7152 G + 0.0722 B, 0, 1); y = clamp(the cubic Bernstein curve through
///    v0…v3 at L, 0, 1); each channel c ← c + (y − c)·amount.
/// 2. Saturation with Rec. 709 weights: c ← s·c + (1 − s)·(0.2126 R + 0.7152 G + 0.0722 B).
/// 3. Brightness: c ← c + b; then each channel clamped to [0, 1], as the GPU's 8-bit texture would store it.
///
/// Then the blur, a Gaussian of σ = the radius in points × the scale, on the backdrop captured at
/// ``captureScale`` of the screen's resolution (the render plan's material passes).
public struct MaterialRecipe: Sendable, Equatable, Codable {
    /// CoreMaterial's name for the recipe (`platformContentLight`).
    public var name: String
    /// The blur's radius in points, used as the Gaussian's σ.
    public var blurRadiusPoints: Double
    /// The saturation factor s (1 = unchanged).
    public var saturation: Double
    /// Added to R, G and B after the saturation (−1…1).
    public var brightness: Double
    /// How much of the luminance curve's grey replaces the colour (0…1).
    public var luminanceAmount: Double
    /// The curve's four Bernstein control values v0…v3.
    public var luminanceValues: [Double]
    /// The fraction of the screen's resolution at which the backdrop is captured and blurred.
    public var captureScale: Double

    /// Whether the recipe is a dark appearance's: its name says so (`platformContentDark`,
    /// `platformChromeDarkReduceTransparency`).
    public var isDark: Bool {
        // A byte search: String.contains(_:) is Foundation's range(of:), and firstRange(of:) a generic searcher, whose
        // first uses cost a render's serial start more than the search.
        let bytes = Array(name.utf8), word = Array("Dark".utf8)
        guard bytes.count >= word.count else { return false }
        for start in 0...(bytes.count - word.count) where bytes[start..<start + word.count].elementsEqual(word) {
            return true
        }
        return false
    }

    /// A recipe from its numbers.
    public init(
        name: String, blurRadiusPoints: Double, saturation: Double, brightness: Double, luminanceAmount: Double,
        luminanceValues: [Double], captureScale: Double = 0.25
    ) {
        self.name = name
        self.blurRadiusPoints = blurRadiusPoints
        self.saturation = saturation
        self.brightness = brightness
        self.luminanceAmount = luminanceAmount
        self.luminanceValues = luminanceValues
        self.captureScale = captureScale
    }

    /// The downscale factor the capture scale means: 1 / ``captureScale``, rounded (4 for every recipe).
    public var captureFactor: Int { max(1, Int((1 / captureScale).rounded())) }

    /// The recipe called `name`, or nil.
    public static func named(_ name: String) -> MaterialRecipe? { all.first { $0.name == name } }
}
