/// Liquid Glass's rim refraction (``GlassParameters``), on the blurred small image before the upscale: the colour
/// pass (``UpscaleTintPass``) replaces each small pixel in the rim's band by the blurred small image read further
/// inside, so that the composite upscales the whole glass, rim and middle, in one sweep, and ``GlassFacePass`` draws
/// only the anti-aliased edge, the highlight's band and the outside at full resolution.
///
/// - Geometry, in the frame's pixels (radii and widths in points × the scale): small pixel (i, j) of a table
///   upscaled by k stands for the point c = ((i + ½)·k, (j + ½)·k) (the inverse of the upscale's u = (x + ½)/k − ½);
///   d = c's signed distance to the rounded rectangle (``GlassShape/place(centre:)``), n its outward normal, t =
///   max(0, −d). Where t < h (the refraction's height) the pixel becomes the blurred small image's bilinear read at
///   c − n·a·(1 − t/h)² (``GlassBlurredSurface/outputScaled(at:)``: small position p/k − ½, clamped); elsewhere it
///   is left as it is. The face's colour (``GlassFaceColour``) is applied afterwards, to every pixel alike.
/// - Edge rule: small pixels whose point lies outside the shape (t = 0) are displaced by the full amount, along the
///   normal of the nearest edge or corner: the upscale interpolates them into the shape's edge pixels.
/// - Precision: the displacement field and the blurred image are both smooth over a small pixel, so reading at the
///   small pixels and interpolating differs from reading at every output pixel by the interpolation's error of a
///   smooth field (a few levels at most on the test renders: docs/styles.md, "Liquid Glass"); at t = h the
///   displacement is 0, so the band meets the middle without a seam.
/// - Work: per small row, the run of pixels at t ≥ h is found by bisection and skipped; the rest cost one shape
///   evaluation and one bilinear read each (1/k² of the rim's output pixels).
struct GlassRefraction: Sendable {
    let outline: GlassShape
    let amount: Float, height: Float
    let factor: Int

    /// The refraction of `face`'s glass for a table upscaled by `factor` to `face`'s frame.
    init(_ face: GlassFacePass, factor: Int) {
        outline = GlassShape(width: face.frame.width, height: face.frame.height, radius: face.cornerRadiusPixels)
        amount = Float(face.glass.refractionAmountPoints * face.scale)
        height = max(Float(face.glass.refractionHeightPoints * face.scale), 1e-6)
        self.factor = factor
    }

    /// The point small pixel (i, j) stands for, in the frame's pixels.
    @inline(__always) func centre(_ i: Int, _ j: Int) -> SIMD2<Float> {
        SIMD2(Float(2 * i + 1), Float(2 * j + 1)) * (Float(factor) / 2)
    }

    /// Replaces the pixels of small row `j` (`width` pixels in `row`) in the rim's band by `blurred`'s refracted
    /// read.
    func refract(row j: Int, width: Int, of blurred: GlassBlurredSurface, into row: UnsafeMutablePointer<SIMD4<Float>>)
    {
        let unrefracted = GlassShape.run(in: width, around: width / 2) { i in
            -outline.place(centre: centre(i, j)).d >= height
        }
        func refract(_ run: Range<Int>) {
            for i in run {
                let place = outline.place(centre: centre(i, j))
                let t = max(-place.d, 0)
                guard t < height else { continue }
                let falloff = 1 - t / height
                let normal = GlassShape.normal(
                    sign: place.sign, q: place.q, outside: place.outside, outsideLength: place.outsideLength)
                row[i] = blurred.outputScaled(at: place.centre - normal * (amount * falloff * falloff))
            }
        }
        refract(0..<(unrefracted.isEmpty ? width : unrefracted.lowerBound))
        refract((unrefracted.isEmpty ? width : unrefracted.upperBound)..<width)
    }
}
