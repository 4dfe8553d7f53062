import BackdropImageIO

/// Pass 5, upscale and tint: bilinear upscale by k back to the frame, with the style's saturation and tint.
///
/// - Input: the blurred small image (stored), premultiplied. Output: frame-sized premultiplied rows.
/// - Geometry: output pixel x samples small coordinate u = (x + ½)/k − ½, clamped to [0, w_small − 1]
///   (the inverse of ``DownscalePass``'s box centres); likewise for y.
/// - Colour: ``ColorTransform`` (saturation, clamp to [0, A], tint). It is applied to the small pixels before
///   interpolation: its affine part commutes with bilinear weights (they sum to 1), and convex weights keep the
///   clamped result valid (0 ≤ C ≤ A). Doing it on the small image costs 1/k² of doing it per output pixel; the
///   difference from clamping after interpolation is inside the fast path's measured PSNR.
/// - Liquid Glass (``face``): its face colour (``GlassFaceColour``) after the colour steps, at output scale, on the
///   small pixels too (a colour function of the pixel's own value, so ``GlassFacePass`` need not draw the face's
///   middle per output pixel); not linear, so this is an approximation of applying it after the upscale, within
///   the precision ``GlassFaceColour`` states.
/// - Liquid Glass's rim (`refraction`): before the face's colour, the small pixels in the rim's band are replaced by
///   the blurred small image read further inside (`GlassRefraction`), so the upscale carries the rim too.
/// - With k = 1 (exact mode) there is no upscale: the colour steps run on each pixel as it is read.
/// - Work: 4 texels read per pixel written (the bilinear footprint); written on screen.
public struct UpscaleTintPass: ColorPass {
    /// The resampling factor k.
    public let factor: Int
    /// The colour steps applied to every pixel.
    public let transform: ColorTransform
    /// Liquid Glass's face colour, applied after `transform` (nil for every style but glass).
    public let face: GlassFaceColour?
    /// Liquid Glass's rim refraction, applied before `face` (nil but for glass).
    let refraction: GlassRefraction?
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored): each is read once, row by
    /// row (k = 1) or into the small table (k > 1).
    public var inputAccess: RowAccess { .sameRow }
    /// The interpolation taps down the frame and along it, made with the plan rather than on every render.
    let rowTaps: BilinearTaps
    let columnTaps: BilinearTaps

    /// Upscale by `factor` from `inputSize` to `outputSize`, applying `transform` and then `face`; `tints` false
    /// names the pass without a tint (a material's, whose transform is the identity).
    public init(
        factor: Int, inputSize: PixelSize, outputSize: PixelSize, transform: ColorTransform, tints: Bool = true,
        face: GlassFaceColour? = nil
    ) {
        self.init(
            factor: factor, inputSize: inputSize, outputSize: outputSize, transform: transform, tints: tints,
            face: face, refraction: nil)
    }

    /// The same with Liquid Glass's rim refraction (`refraction`, applied before `face`).
    init(
        factor: Int, inputSize: PixelSize, outputSize: PixelSize, transform: ColorTransform, tints: Bool = true,
        face: GlassFaceColour?, refraction: GlassRefraction?
    ) {
        self.factor = factor
        self.transform = transform
        self.face = face
        self.refraction = refraction
        rowTaps = BilinearTaps(
            outputCount: factor == 1 ? 0 : outputSize.height, factor: factor, inputCount: inputSize.height,
            segmented: false)
        columnTaps = BilinearTaps(
            outputCount: factor == 1 ? 0 : outputSize.width, factor: factor, inputCount: inputSize.width)
        descriptor = PassDescriptor(
            name: factor == 1 ? (tints ? "tint" : "colour") : "upscale ×\(factor)" + (tints ? " + tint" : ""),
            kind: .upscaleTint,
            inputSize: inputSize, outputSize: outputSize,
            texelsPerPixel: factor == 1 ? 1 : 4, blends: false, offscreen: false,
            gpuFetchesPerPixel: 1)  // one bilinear fetch
    }

    /// Mean variance, in output pixels², that bilinear interpolation from a grid k apart adds over the k phases
    /// of the output grid: k²·mean(t(1 − t)) with t the fractional sample position of each phase.
    public static func addedVariance(factor k: Int) -> Double {
        let phases = (0..<k).map { x -> Double in
            let u = (Double(x) + 0.5) / Double(k) - 0.5
            let t = u - u.rounded(.down)
            return t * (1 - t)
        }
        return Double(k * k) * phases.reduce(0, +) / Double(k)
    }

    /// The upscaled rows as the composite reads them. With k > 1 the colour steps and the conversion to output
    /// scale run once per small pixel (a table of 1/k² of the frame's pixels, kept in cache); each frame row is
    /// then one vertical interpolation of two table rows, and the composite interpolates along the row. At 8-bit
    /// output scale (`maximum` 255) the table is also kept in ``FixedPoint``, and the rows are interpolated in it.
    public func outputRows(reading input: Stage, maximum: Float, parallelism: Parallelism) -> OutputRows {
        let transform = transform, face = face, refraction = refraction
        guard factor > 1 else {
            guard let face else { return transform.outputRows(of: input, maximum: maximum) }
            // Glass without an upscale: the frame before the face's colour, stored for the rim's highlight.
            let blurred = FloatImage(width: input.size.width, height: input.size.height)
            parallelism.forEachBand(of: blurred.height) { band in
                for y in band {
                    let row = blurred.row(y)
                    transform.applyOutputScaled(
                        input.row(y, orInto: row), into: row, count: blurred.width, maximum: maximum)
                }
            }
            let surface = GlassBlurredSurface(table: blurred, factor: 1, maximum: maximum)
            let constants = surface.kernelsRun ? refraction?.kernelConstants(surface) : nil
            return OutputRows(
                width: blurred.width, columns: nil,
                row: { y, out in
                    out.update(from: blurred.row(y), count: blurred.width)
                    refraction?.refract(row: y, width: blurred.width, of: surface, into: out, constants: constants)
                    face.applyOutputScaled(out, count: blurred.width, maximum: maximum)
                }, glassSurface: surface)
        }
        // Each input row is read once, into its table row: straight from a stored image, or computed into it.
        let table = FloatImage(width: input.size.width, height: input.size.height)
        let fixedPointTable = maximum == 255 ? FixedPointImage(width: table.width, height: table.height) : nil
        // Glass: the table before the face's colour too, for the rim's highlight.
        let blurred = face == nil ? nil : FloatImage(width: table.width, height: table.height)
        let surface = blurred.map { GlassBlurredSurface(table: $0, factor: factor, maximum: maximum) }
        parallelism.forEachBand(of: table.height) { band in
            for y in band {
                let row = table.row(y)
                transform.applyOutputScaled(input.row(y, orInto: row), into: row, count: table.width, maximum: maximum)
                if let face, let blurred {
                    blurred.row(y).update(from: row, count: table.width)
                    // The rim reads other rows of `blurred`: refracted in a second sweep.
                    if refraction == nil { face.applyOutputScaled(row, count: table.width, maximum: maximum) }
                }
                if refraction == nil { fixedPointTable?.quantise(row, intoRow: y) }
            }
        }
        if let refraction, let face, let surface {
            let constants = surface.kernelsRun ? refraction.kernelConstants(surface) : nil
            parallelism.forEachBand(of: table.height) { band in
                for y in band {
                    let row = table.row(y)
                    refraction.refract(row: y, width: table.width, of: surface, into: row, constants: constants)
                    face.applyOutputScaled(row, count: table.width, maximum: maximum)
                    fixedPointTable?.quantise(row, intoRow: y)
                }
            }
        }
        let rows = rowTaps, width = table.width
        let fixedPointRow = fixedPointTable.map { fixed -> OutputRows.FixedPointRowFunction in
            { y, out in
                let tap = rows.tap(y)
                fixed.interpolate(
                    between: tap.lower, and: tap.upper, multiplier: FixedPoint.multiplier(tap.fraction), into: out)
            }
        }
        return OutputRows(
            width: width, columns: columnTaps,
            row: { y, out in
                let tap = rows.tap(y)
                let top = table.row(tap.lower), bottom = table.row(tap.upper)
                // a + (b − a)·f rather than a·(1 − f) + b·f: exact where a = b, so flat areas keep their exact value
                // (and the exact ties of the tint round as in the references).
                // Two pixels per 8-lane vector (the compiler keeps 4-lane SIMD values in 4-lane registers).
                let weight = SIMD8<Float>(repeating: tap.fraction)
                var x = 0
                while x &+ 2 <= width {
                    let a = (top + x).pixelPair, b = (bottom + x).pixelPair
                    (out + x).pixelPair = a + (b - a) * weight
                    x &+= 2
                }
                if x < width { out[x] = top[x] + (bottom[x] - top[x]) * weight.lowHalf }
            }, fixedPointRow: fixedPointRow, glassSurface: surface)
    }
}
