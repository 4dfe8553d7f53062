import CVectorKernels

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
///   normal of the nearest edge or corner: the upscale interpolates them into the shape's edge pixels. Those more
///   than 2k outside (`unseenDistance`) are left unrefracted: no pixel of the output shows them.
/// - Precision: the displacement field and the blurred image are both smooth over a small pixel, so reading at the
///   small pixels and interpolating differs from reading at every output pixel by the interpolation's error of a
///   smooth field (a few levels at most on the test renders: docs/styles.md, "Liquid Glass"); at t = h the
///   displacement is 0, so the band meets the middle without a seam.
/// - Work: per small row, the run of pixels at t ≥ h and the pixels more than 2k outside are found by bisection
///   and skipped; the rest cost one shape evaluation and one bilinear read each (1/k² of the rim's output pixels;
///   `bd_glass_refract_run_v3` where the vector kernels run, the same values).
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

    /// How far outside the shape (d, in the frame's pixels) a small pixel's point may lie and still be read by an
    /// output pixel that shows the composite's picture: 2k. Such a pixel has coverage 1 (``GlassFacePass`` draws
    /// every other one from the source and the blurred small image), so d ≤ −½ at its centre, and the upscale reads
    /// small pixels whose points lie within k of it on each axis (k√2 away at most; clamped reads at the border are
    /// nearer); d changes by at most the distance moved, so those points have d < k√2 < 2k. Small pixels further
    /// out are left as they are: no output pixel shows them.
    var unseenDistance: Float { 2 * Float(factor) }

    /// The point small pixel (i, j) stands for, in the frame's pixels.
    @inline(__always) func centre(_ i: Int, _ j: Int) -> SIMD2<Float> {
        SIMD2(Float(2 * i + 1), Float(2 * j + 1)) * (Float(factor) / 2)
    }

    /// `bd_glass_refract_run_v3`'s constants for `blurred` (its header's order), as the Swift loop computes them.
    func kernelConstants(_ blurred: GlassBlurredSurface) -> [Float] {
        let inner = outline.halfSize - SIMD2(repeating: outline.radius)
        return [
            outline.halfSize.x, outline.halfSize.y, inner.x, inner.y, outline.radius, amount, height,
            Float(factor) / 2, Float(blurred.factor), Float(blurred.table.width - 1), Float(blurred.table.height - 1),
        ]
    }

    /// Replaces the pixels of small row `j` (`width` pixels in `row`) in the rim's band by `blurred`'s refracted
    /// read. `constants`: ``kernelConstants(_:)`` where the vector kernels run (`bd_glass_refract_run_v3`, the same
    /// values), else nil.
    func refract(
        row j: Int, width: Int, of blurred: GlassBlurredSurface, into row: UnsafeMutablePointer<SIMD4<Float>>,
        constants: [Float]?
    ) {
        // The pixels an output pixel the face leaves as the composite wrote it can read (``unseenDistance``).
        let limit = unseenDistance
        let seen = GlassShape.run(in: width, around: width / 2) { i in outline.place(centre: centre(i, j)).d <= limit }
        guard !seen.isEmpty else { return }
        let unrefracted = GlassShape.run(in: width, around: width / 2) { i in
            -outline.place(centre: centre(i, j)).d >= height
        }
        func refract(_ run: Range<Int>) {
            if let constants, !run.isEmpty {
                let table = blurred.table
                constants.withUnsafeBufferPointer { k in
                    bd_glass_refract_run_v3(
                        UnsafeMutableRawPointer(row).assumingMemoryBound(to: Float.self), j, run.lowerBound,
                        run.upperBound, UnsafeRawPointer(table.row(0)).assumingMemoryBound(to: Float.self),
                        table.rowStride, table.width, table.height, k.baseAddress!)
                }
                return
            }
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
        refract(seen.lowerBound..<(unrefracted.isEmpty ? seen.upperBound : unrefracted.lowerBound))
        refract((unrefracted.isEmpty ? seen.upperBound : unrefracted.upperBound)..<seen.upperBound)
    }
}
