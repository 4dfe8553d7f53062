import BackdropImageIO

/// A system material under Reduce Transparency (or on the tint-only path): no blur; the frame filled with one colour,
/// the backdrop's average under the view put through the recipe's filters (CoreMaterial's "average colour").
///
/// - Input: the frame's premultiplied rows (the capture). Output: every pixel the same colour.
/// - Maths: the mean of the premultiplied pixels, Ā = ΣA / n, c = ΣC / ΣA (straight; 0 when ΣA = 0), then the
///   recipe's filters on c in `Double` (``MaterialRecipe/filtered(_:)``), drawn at alpha Ā.
/// - Rounding: each row's sum in `Double` left to right, the rows' sums added top to bottom: the same value for any
///   thread count.
/// - Work: 1 texel read per pixel; on the GPU a solid colour drawn on screen (the average is priced as the tint-only
///   fallback's fill: Apple's cost of it is not public).
public struct MaterialAverageColourPass: ColorPass {
    /// The recipe whose filters run (already the reduced-transparency one).
    public let recipe: MaterialRecipe
    /// Liquid Glass's face colour, applied to the flat colour at output scale (nil but for glass).
    public let face: GlassFaceColour?
    /// The pass as data.
    public let descriptor: PassDescriptor
    /// Each row is read once, to sum it.
    public var inputAccess: RowAccess { .sameRow }

    /// The average colour of a frame of `size` through `recipe`, then through `face` if given.
    public init(recipe: MaterialRecipe, size: PixelSize, face: GlassFaceColour? = nil) {
        self.recipe = recipe
        self.face = face
        descriptor = PassDescriptor(
            name: "average colour", kind: .tintOnly, inputSize: size, outputSize: size,
            texelsPerPixel: 1, blends: true, offscreen: false,
            gpuFetchesPerPixel: 0, gpuTexelsFromMemory: 0)  // a solid colour, like the tint-only fallback
    }

    /// The flat colour as a premultiplied pixel, from the frame's rows.
    func colour(of input: Stage, parallelism: Parallelism) -> SIMD4<Float> {
        let size = input.size
        guard size.width > 0, size.height > 0 else { return .zero }
        let sums = UnsafeMutablePointer<SIMD4<Double>>.allocate(capacity: size.height)
        defer { sums.deallocate() }
        let shared = SendablePointer(sums)
        parallelism.forEachBand(of: size.height) { band in
            withScratchRow(size.width) { scratch in
                for y in band {
                    let row = input.row(y, orInto: scratch)
                    var sum = SIMD4<Double>.zero
                    for x in 0..<size.width {
                        let p = row[x]
                        sum += SIMD4(Double(p.x), Double(p.y), Double(p.z), Double(p.w))
                    }
                    shared.pointer[y] = sum
                }
            }
        }
        var total = SIMD4<Double>.zero
        for y in 0..<size.height { total += sums[y] }
        guard total.w > 0 else { return .zero }
        let straight = SIMD3(total.x, total.y, total.z) / total.w
        let filtered = recipe.filtered(straight)
        let alpha = min(1, total.w / Double(size.width * size.height))
        return SIMD4(Float(filtered.x * alpha), Float(filtered.y * alpha), Float(filtered.z * alpha), Float(alpha))
    }

    /// Every row the flat colour, as the composite reads it.
    public func outputRows(reading input: Stage, maximum: Float, parallelism: Parallelism) -> OutputRows {
        let blurred = CompositePass.outputScaled(colour(of: input, parallelism: parallelism), maximum: maximum)
        var flat = blurred
        face?.applyOutputScaled(&flat, count: 1, maximum: maximum)
        let scaled = flat
        let width = input.size.width
        // Glass: the flat colour before the face's, as a surface of one pixel for the rim's highlight.
        let surface = face.map { _ in
            let table = FloatImage(width: 1, height: 1)
            table[0, 0] = blurred
            return GlassBlurredSurface(table: table, factor: 1, maximum: maximum)
        }
        return OutputRows(
            width: width, columns: nil,
            row: { _, out in
                for x in 0..<width { out[x] = scaled }
            }, glassSurface: surface)
    }
}

extension MaterialRecipe {
    /// The recipe's filters on one straight colour `c` (gamma-encoded, 0…1), in `Double`: the luminance curve mixed
    /// by the amount, the saturation, the brightness, each channel clamped to [0, 1] (``MaterialRecipe``'s steps).
    public func filtered(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let weights = SIMD3<Double>(0.2126, 0.7152, 0.0722)
        let l = min(max((c * weights).sum(), 0), 1), m = 1 - l
        let v = luminanceValues
        let curve = v[0] * m * m * m + 3 * v[1] * m * m * l + 3 * v[2] * m * l * l + v[3] * l * l * l
        let y = min(max(curve, 0), 1)
        let mixed = c + (SIMD3(repeating: y) - c) * luminanceAmount
        let grey = (mixed * weights).sum()
        let saturated = mixed * saturation + SIMD3(repeating: grey * (1 - saturation) + brightness)
        return saturated.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
    }
}
