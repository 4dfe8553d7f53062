import BackdropImageIO
import Foundation

/// Liquid Glass's face (``GlassParameters``): after the blur, inside the view's shape, per pixel of the frame.
///
/// - Input: the blurred frame (straight, as the composite wrote it into the output: no saturation, no tint) and the
///   source picture (for the pixels outside the shape and the shape's anti-aliased edge).
/// - Per pixel, centre p, in the frame's pixels (σ, radii and widths in points × the scale):
///   1. Shape: d = the signed distance from p to the rounded rectangle (negative inside); coverage = clamp(½ − d,
///      0, 1); outside (coverage 0) the source's pixel, untouched. n = the outward normal; t = max(0, −d).
///   2. Refraction: within h of the edge the blurred frame is read bilinearly at p − n·a·(1 − t/h)² (clamped to the
///      frame), elsewhere at p.
///   3. Luma ceiling, face and fill, in Rec. 709 YCbCr: Y ← m·Y/(m + (1 − m)·Y); Y ← black + (white − black)·Y;
///      Cb, Cr × saturation; back to RGB; then white source-over at the fill alpha, then the tint at 0.3.
///   4. Highlight: c ← c + (1 − c)·amount·band·g, band = clamp(1 − t/1.5 pt, 0, 1), g = clamp((|n_y| − cos s) /
///      (1 − cos s), 0, 1) for the half-spread s (top and bottom rims).
///   5. Clamp to [0, 1]; mix with the source by the coverage; round to the nearest sample (halves up).
/// - No trigonometry per pixel (cos s once): the same bytes for any thread count and CPU.
/// - Work (GPU): one fetch per pixel (bilinear) of the blurred texture, written to the frame, not blended.
public struct GlassFacePass: Sendable {
    public let glass: GlassParameters
    /// The frame in pixels of the input picture, and the pixels per point.
    public let frame: PixelRect
    public let scale: Double
    /// The pass as data.
    public let descriptor: PassDescriptor

    /// The face of `glass` over `frame` at `scale`.
    public init(glass: GlassParameters, frame: PixelRect, scale: Double) {
        self.glass = glass
        self.frame = frame
        self.scale = scale
        descriptor = PassDescriptor(
            name: "glass face", kind: .glassFace, inputSize: frame.size, outputSize: frame.size, texelsPerPixel: 4,
            blends: false, offscreen: false, gpuFetchesPerPixel: 1)
    }

    /// The corner radius in pixels: the shape's, at most half the shorter side.
    var cornerRadiusPixels: Float {
        let half = Double(min(frame.width, frame.height)) / 2
        switch glass.shape {
        case .capsule: return Float(half)
        case .roundedRectangle(let radius): return Float(min(max(radius, 0) * scale, half))
        }
    }

    /// Refuses glass numbers the face cannot draw: a corner radius that is not a number of points ≥ 0. (The tint-only
    /// path draws the face over the backdrop's average colour, and vibrant content runs after the face: both are
    /// ``RenderPlan``'s.)
    static func validate(_ effect: Effect) throws(BackdropError) {
        guard effect.style.glass != nil else { return }
        if case .roundedRectangle(let radius) = effect.style.glass!.shape, !(radius.isFinite && radius >= 0) {
            throw BackdropError(.badOption, "the corner radius \(radius) is not a number of points ≥ 0")
        }
    }

    /// Draws the face over `output` (the composite's picture: the blurred frame) from `source`. Specialised for both
    /// sample types: the renderer calls it from generic code, where each conversion between `Sample` and `Float`
    /// would otherwise go through the generic integer protocols (a full frame took seconds).
    @_specialize(where Sample == UInt8)
    @_specialize(where Sample == UInt16)
    func run<Sample: PixelSample>(
        source: RGBAImage<UInt8>, over output: inout RGBAImage<Sample>, parallelism: Parallelism
    ) {
        let width = frame.width, height = frame.height, pictureWidth = output.width
        let maximum = Sample.maximumValue
        // The blurred frame, straight, 0…1: the refraction reads it at other pixels than it writes. Every element is
        // written once, in row bands on all threads (no zeroing first: a full frame is 50 MB).
        let blurred = output.samples.withUnsafeBufferPointer { samples in
            let input = SendableConstPointer(samples.baseAddress!)
            return [SIMD4<Float>](unsafeUninitializedCapacity: width * height) { buffer, initialized in
                let copy = SendablePointer(buffer.baseAddress!)
                parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                    for y in rows {
                        for x in 0..<width {
                            let i = ((frame.y + y) * pictureWidth + frame.x + x) * 4
                            copy.pointer[y * width + x] =
                                SIMD4(
                                    Float(input.pointer[i]), Float(input.pointer[i + 1]), Float(input.pointer[i + 2]),
                                    Float(input.pointer[i + 3])) / maximum
                        }
                    }
                }
                initialized = width * height
            }
        }
        let face = Face(glass, scale: Float(scale), radius: cornerRadiusPixels, width: width, height: height)
        blurred.withUnsafeBufferPointer { blurredPixels in
            source.samples.withUnsafeBufferPointer { sourceSamples in
                output.samples.withUnsafeMutableBufferPointer { samples in
                    let out = SendablePointer(samples.baseAddress!)
                    let input = SendableConstPointer(sourceSamples.baseAddress!)
                    let image = SendableConstPointer(blurredPixels.baseAddress!)
                    parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                        for y in rows {
                            for x in 0..<width {
                                let i = ((frame.y + y) * pictureWidth + frame.x + x) * 4
                                let s =
                                    SIMD4(
                                        Float(input.pointer[i]), Float(input.pointer[i + 1]),
                                        Float(input.pointer[i + 2]),
                                        Float(input.pointer[i + 3])) / 255
                                let v = face.pixel(x: x, y: y, source: s, blurred: image.pointer)
                                let q = (v * maximum + 0.5).rounded(.down)
                                for lane in 0..<4 { out.pointer[i + lane] = Sample(max(0, min(maximum, q[lane]))) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The face's constants in `Float` and its per-pixel maths (``GlassFacePass``'s steps).
private struct Face: Sendable {
    let halfSize: SIMD2<Float>, radius: Float
    let refractionAmount: Float, refractionHeight: Float
    let black: Float, white: Float, saturation: Float, maxLuma: Float, fill: Float
    let tint: SIMD3<Float>?, tintAlpha: Float
    let highlight: Float, highlightWidth: Float, cosSpread: Float
    let width: Int, height: Int

    init(_ g: GlassParameters, scale: Float, radius: Float, width: Int, height: Int) {
        halfSize = SIMD2(Float(width), Float(height)) / 2
        self.radius = radius
        refractionAmount = Float(g.refractionAmountPoints) * scale
        refractionHeight = max(Float(g.refractionHeightPoints) * scale, 1e-6)
        (black, white, saturation) = (Float(g.faceBlack), Float(g.faceWhite), Float(g.faceSaturation))
        (maxLuma, fill) = (Float(g.maxLuma), Float(g.fillAlpha))
        tint = g.tint.map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) }
        tintAlpha = Float(GlassParameters.tintAlpha)
        highlight = Float(g.highlightAmount)
        highlightWidth = max(Float(GlassParameters.highlightWidthPoints) * scale, 1e-6)
        cosSpread = Float(cos(g.highlightSpread))
        (self.width, self.height) = (width, height)
    }

    /// The bilinear sample of `image` (width × height, straight) at pixel position p (centres at +0.5), clamped.
    @inline(__always) func sample(_ image: UnsafePointer<SIMD4<Float>>, at p: SIMD2<Float>) -> SIMD4<Float> {
        let x = min(max(p.x - 0.5, 0), Float(width - 1)), y = min(max(p.y - 0.5, 0), Float(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = image[y0 * width + x0] * (1 - fx) + image[y0 * width + x1] * fx
        let bottom = image[y1 * width + x0] * (1 - fx) + image[y1 * width + x1] * fx
        return top * (1 - fy) + bottom * fy
    }

    @inline(__always)
    func pixel(x: Int, y: Int, source: SIMD4<Float>, blurred: UnsafePointer<SIMD4<Float>>) -> SIMD4<Float> {
        let centre = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
        let p = centre - halfSize
        let sign = SIMD2<Float>(p.x < 0 ? -1 : 1, p.y < 0 ? -1 : 1)
        let q = SIMD2(abs(p.x), abs(p.y)) - (halfSize - SIMD2(repeating: radius))
        let outside = SIMD2(max(q.x, 0), max(q.y, 0))
        let outsideLength = (outside * outside).sum().squareRoot()
        let d = outsideLength + min(max(q.x, q.y), 0) - radius
        let coverage = min(max(0.5 - d, 0), 1)
        if coverage == 0 { return source }
        let normal: SIMD2<Float> =
            q.x > 0 && q.y > 0
            ? outside / outsideLength * sign : q.x > q.y ? SIMD2(sign.x, 0) : SIMD2(0, sign.y)
        let t = max(-d, 0)
        var at = centre
        if t < refractionHeight {
            let falloff = 1 - t / refractionHeight
            at -= normal * (refractionAmount * falloff * falloff)
        }
        let b = t < refractionHeight ? sample(blurred, at: at) : blurred[y * width + x]
        // Luma ceiling and face in Rec. 709 YCbCr.
        var luma = 0.2126 * b.x + 0.7152 * b.y + 0.0722 * b.z
        let cb = (b.z - luma) / 1.8556 * saturation, cr = (b.x - luma) / 1.5748 * saturation
        luma = max(luma, 0)
        luma = maxLuma * luma / (maxLuma + (1 - maxLuma) * luma)
        luma = black + (white - black) * luma
        let red = luma + 1.5748 * cr, blue = luma + 1.8556 * cb
        let green = (luma - 0.2126 * red - 0.0722 * blue) / 0.7152
        var c = SIMD3(red, green, blue)
        c = c * (1 - fill) + SIMD3(repeating: fill)
        if let tint { c = c * (1 - tintAlpha) + tint * tintAlpha }
        let band = min(max(1 - t / highlightWidth, 0), 1)
        let caught = min(max((abs(normal.y) - cosSpread) / (1 - cosSpread), 0), 1)
        c += (SIMD3(repeating: 1) - c) * (highlight * band * caught)
        // c.clamped(lowerBound: 0, upperBound: 1) lane by lane as selects (the standard library's is a call per
        // vector): pointwiseMax(0, c) keeps c where c ≥ 0 (−0 too) and gives 0 elsewhere and for NaN; then
        // pointwiseMin(1, c) keeps c where c < 1.
        c = SIMD3<Float>.zero.replacing(with: c, where: c .>= .zero)
        c = SIMD3<Float>.one.replacing(with: c, where: c .< .one)
        let glass = SIMD4(c, b.w)
        return source + (glass - source) * coverage
    }
}
