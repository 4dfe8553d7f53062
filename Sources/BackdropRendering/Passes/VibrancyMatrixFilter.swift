import BackdropImageIO

/// A vibrancy level's filter (``VibrantColorMatrix``) run on the finished output inside the clipped content: the
/// CPU's form of the plan's vibrancy filter pass when the effect's vibrancy has a ``VibrancyLevel``.
///
/// Per output pixel under content of alpha a (0…255), with B the output's straight colour and A_B its alpha, as
/// fractions of the sample's maximum: X = clamp(M·B + bias, 0, 1); colour clamp(B + (X − B)·w, 0, 1), alpha
/// min(A_B + (1 − A_B)·w, 1), w = min(a/255 · coverage, max(coverage, 1)); each result rounded to the nearest sample
/// (halves up). Where a = 0 the pixel is untouched. A coverage above 1 is Increase Contrast's raised alpha
/// (``VibrantColorMatrix/increasingContrast(for:dark:)``): the level's change from B grows by it, so opaque content
/// (w above 1) moves as translucent content does, rather than stopping at the level's ordinary colour.
/// Precision: it reads the quantised output, so it adds at most half a level of rounding to the composite's.
/// In `Float`, the same operations for every pixel: the same bytes for any thread count.
struct VibrancyMatrixFilter: Sendable {
    let rows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    let bias: SIMD3<Float>
    let coverage: Float
    /// The largest weight: 1, or the coverage when Increase Contrast raises it above 1.
    let largestWeight: Float
    /// Where the content lies and its clip (pixels of the input picture).
    let content: VibrantContentPass

    init(matrix: VibrantColorMatrix, content: VibrantContentPass) {
        func row(_ i: Int) -> SIMD3<Float> {
            SIMD3(Float(matrix.rows[i][0]), Float(matrix.rows[i][1]), Float(matrix.rows[i][2]))
        }
        rows = (row(0), row(1), row(2))
        bias = SIMD3(repeating: Float(matrix.bias))
        coverage = Float(matrix.coverage) / 255
        largestWeight = matrix.coverage > 1 ? Float(matrix.coverage) : 1
        self.content = content
    }

    /// One pixel: straight colour and alpha `b` (fractions of 1), the content's alpha byte `a`.
    @inline(__always) func apply(_ b: SIMD4<Float>, contentAlpha a: UInt8) -> SIMD4<Float> {
        apply(b, weight: min(Float(a) * coverage, largestWeight))
    }

    /// One pixel mixed by weight `w` (0…``largestWeight``): colour clamp(B + (X − B)·w, 0, 1), alpha
    /// min(A_B + (1 − A_B)·w, 1).
    @inline(__always) func apply(_ b: SIMD4<Float>, weight w: Float) -> SIMD4<Float> {
        let colour = SIMD3(b.x, b.y, b.z)
        let x = (SIMD3((rows.0 * colour).sum(), (rows.1 * colour).sum(), (rows.2 * colour).sum()) + bias)
            .clamped(lowerBound: .zero, upperBound: .one)
        let mixed = (colour + (x - colour) * w).clamped(lowerBound: .zero, upperBound: .one)
        return SIMD4(mixed, min(b.w + (1 - b.w) * w, 1))
    }

    /// Applies the filter to `output` (the composite's picture, the input picture's size) under `picture`, the
    /// content placed by ``content``. Specialised for both sample types, as ``GlassFacePass``'s run is: called from
    /// the renderer's generic code, each conversion would otherwise go through the generic integer protocols.
    @_specialize(where Sample == UInt8)
    @_specialize(where Sample == UInt16)
    func run<Sample: PixelSample>(
        content picture: RGBAImage<UInt8>, over output: inout RGBAImage<Sample>, parallelism: Parallelism
    ) {
        content.mixUnderContent(picture, over: &output, parallelism: parallelism) { b, pixel, _, _ in
            apply(b, contentAlpha: pixel[3])
        }
    }
}
