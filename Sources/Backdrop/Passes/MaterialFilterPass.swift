/// A material's colour filters (``MaterialRecipe``): luminance curve, saturation, brightness, per pixel of the
/// captured backdrop, before the blur (the recipes' "blur at end").
///
/// - Input and output: the same size, premultiplied RGBA rows (the small image on the fast path, the frame in
///   exact mode).
/// - Maths, on the straight colour c = C / A (a pixel with A = 0 stays 0):
///   L = clamp(0.2126 r + 0.7152 g + 0.0722 b, 0, 1); y = clamp(v0·(1−L)³ + 3·v1·(1−L)²·L + 3·v2·(1−L)·L² + v3·L³,
///   0, 1); c ← c + (y − c)·amount; c ← s·c + (1 − s)·luma(c); c ← clamp(c + brightness, 0, 1); then C = c·A.
///   Alpha is unchanged.
/// - Rounding: none; `Float`, every pixel by the same operations in the same order (any thread count gives the
///   same values).
/// - Work: 1 texel read per pixel written; offscreen on the GPU (the blur reads its output).
public struct MaterialFilterPass: RowPass {
    /// The recipe whose filters run.
    public let recipe: MaterialRecipe
    /// The pass as data.
    public let descriptor: PassDescriptor
    /// Each output row reads its own input row.
    public var inputAccess: RowAccess { .sameRow }
    /// The curve's control values and the mixing numbers, as `Float`.
    let curve: SIMD4<Float>
    let amount: Float
    let saturation: Float
    let brightness: Float

    /// The filters of `recipe` over an image of `size`.
    public init(recipe: MaterialRecipe, size: PixelSize) {
        self.recipe = recipe
        let v = recipe.luminanceValues.map(Float.init)
        curve = SIMD4(v[0], v[1], v[2], v[3])
        amount = Float(recipe.luminanceAmount)
        saturation = Float(recipe.saturation)
        brightness = Float(recipe.brightness)
        descriptor = PassDescriptor(
            name: "material filters", kind: .materialFilters, inputSize: size, outputSize: size,
            texelsPerPixel: 1, blends: false, offscreen: true)
    }

    /// Rec. 709 luma weights.
    static let luma = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

    /// The filters applied to one premultiplied pixel.
    @inline(__always) public func apply(_ pixel: SIMD4<Float>) -> SIMD4<Float> {
        let alpha = pixel.w
        guard alpha > 0 else { return .zero }
        var c = pixel / alpha
        c.w = 0
        let l = min(max((c * Self.luma).sum(), 0), 1), m = 1 - l
        let bernstein = SIMD4<Float>(m * m * m, 3 * m * m * l, 3 * m * l * l, l * l * l)
        let y = min(max((bernstein * curve).sum(), 0), 1)
        c += (SIMD4(repeating: y) - c) * amount
        let grey = (c * Self.luma).sum()
        c = c * saturation + SIMD4(repeating: grey * (1 - saturation) + brightness)
        c = c.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1)) * alpha
        c.w = alpha
        return c
    }

    /// Computes any output row from `input`.
    public func rows(reading input: Stage, parallelism: Parallelism) -> RowFunction {
        let width = descriptor.outputSize.width, pass = self
        return { y, out in
            let row = input.row(y, orInto: out)
            for x in 0..<width { out[x] = pass.apply(row[x]) }
        }
    }
}
