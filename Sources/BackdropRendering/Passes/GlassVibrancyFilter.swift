import BackdropImageIO

/// Vibrant content over Liquid Glass: the CPU's form of the plan's vibrancy filter pass when the style is a glass. It
/// runs on the finished output after the glass face (``GlassFacePass``), inside the clipped content and the glass's
/// shape, with the style's blend or a level's matrix (``VibrantColorMatrix``), the same maths as over a material.
///
/// Per output pixel under content of alpha a (0…255) and straight colour c, with B the output's straight colour and
/// A_B its alpha as fractions of the sample's maximum, and s the glass's coverage of the pixel (the face's step 1:
/// clamp(½ − d, 0, 1), d the signed distance to the rounded rectangle, in `Float` as the face computes it):
/// - blend: ``VibrancyBlend/composite(color:alpha:over:one:)`` of c at alpha a/255 · s;
/// - level: `VibrancyMatrixFilter`'s mix at weight min(a/255 · coverage, max(coverage, 1)) · s.
/// Each result rounded to the nearest sample (halves up). Where a = 0 or s = 0 (outside the shape) the pixel is
/// untouched. Precision: it reads the quantised face, so it adds at most half a level of rounding to the face's.
/// In `Float`, the same operations for every pixel: the same bytes for any thread count.
struct GlassVibrancyFilter: Sendable {
    /// How the content mixes: the style's blend, or a level's matrix.
    enum Mix: Sendable {
        case blend(VibrancyBlend)
        case level(VibrancyMatrixFilter)
    }

    let mix: Mix
    /// Where the content lies and its clip (pixels of the input picture).
    let content: VibrantContentPass
    /// The glass's frame (pixels of the input picture) and its shape.
    let frame: PixelRect
    let outline: GlassShape

    /// The filter of `passes` over the face `glass` drew.
    init(_ passes: (content: VibrantContentPass, filter: VibrancyFilterPass), over glass: GlassFacePass) {
        content = passes.content
        mix =
            passes.filter.matrix.map { .level(VibrancyMatrixFilter(matrix: $0, content: passes.content)) }
            ?? .blend(passes.filter.blend)
        frame = glass.frame
        outline = GlassShape(width: glass.frame.width, height: glass.frame.height, radius: glass.cornerRadiusPixels)
    }

    /// Applies the content to `output` (the picture after the face, the input picture's size) from `picture`, the
    /// content placed by ``content``. Specialised for both sample types, as ``GlassFacePass``'s run is.
    @_specialize(where Sample == UInt8)
    @_specialize(where Sample == UInt16)
    func run<Sample: PixelSample>(
        content picture: RGBAImage<UInt8>, over output: inout RGBAImage<Sample>, parallelism: Parallelism
    ) {
        content.mixUnderContent(picture, over: &output, parallelism: parallelism) { b, pixel, x, y in
            let s = outline.coverage(x: x - frame.x, y: y - frame.y)
            guard s > 0 else { return nil }
            let a = pixel[3]
            switch mix {
            case .blend(let blend):
                let c = SIMD3(Float(pixel[0]), Float(pixel[1]), Float(pixel[2])) / 255
                return blend.composite(color: c, alpha: Float(a) / 255 * s, over: b)
            case .level(let filter):
                return filter.apply(b, weight: min(Float(a) * filter.coverage, filter.largestWeight) * s)
            }
        }
    }
}
