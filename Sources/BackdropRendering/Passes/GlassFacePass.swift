import BackdropImageIO
import Foundation

/// Liquid Glass's face (``GlassParameters``): after the blur, inside the view's shape, per pixel of the frame.
///
/// - Input: the glass as the composite wrote it into the output (the blurred small image with the rim's refraction,
///   `GlassRefraction`, and the face's colour, ``GlassFaceColour``, applied by the colour pass before the upscale:
///   luma ceiling, face, saturation, fill and tint), the blurred small image before the face (`GlassBlurredSurface`,
///   for the highlight) and the source picture (for the pixels outside the shape and the shape's anti-aliased edge).
/// - Per pixel, centre p, in the frame's pixels (σ, radii and widths in points × the scale):
///   1. Shape: d = the signed distance from p to the rounded rectangle (negative inside); coverage = clamp(½ − d,
///      0, 1); outside (coverage 0) the source's pixel, untouched. n = the outward normal; t = max(0, −d).
///   2. Highlight: lift = amount·band·g, band = clamp(1 − t/1.5 pt, 0, 1), g = clamp((|n_y| − cos s) / (1 − cos s),
///      0, 1) for the half-spread s (top and bottom rims).
///   3. The face's colour c: the composite's own pixel (refracted and face coloured on the small image, clamped),
///      except where lift ≠ 0: there the blurred small image before the face (`GlassBlurredSurface`, bilinearly) at
///      p − n·a·(1 − t/h)² (within h of the edge; p elsewhere) with its face's colour unclamped, so that the
///      highlight comes before the clamp as in the sources' order (a clamped colour under the highlight would change
///      the rim's tone by up to 44 levels over saturated colours).
///   4. c ← c + (1 − c)·lift; clamp to [0, 1]; mix with the source by the coverage; round to the nearest sample
///      (halves up).
/// - So in the middle (coverage 1, outside the highlight's band) the pass changes nothing: the output there is the
///   blurred small image, refracted within h of the edge and face coloured, upscaled.
/// - No trigonometry per pixel (cos s once): the same bytes for any thread count and CPU.
/// - Work (CPU): only the anti-aliased edge, the highlight's band (1.5 pt) and the outside run per output pixel; the
///   rest costs what the composite costs.
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

    /// Refuses glass numbers the face cannot draw: a corner radius that is not a number of points ≥ 0, and any of
    /// ``GlassParameters``'s numbers outside the range below (a library caller can set them; the catalogue's are well
    /// inside): a NaN or an infinity would reach the rim's bilinear read as a pixel position. (The tint-only path
    /// draws the face over the backdrop's average colour, and vibrant content runs after the face: both are
    /// ``RenderPlan``'s.)
    static func validate(_ effect: Effect) throws(BackdropError) {
        guard let glass = effect.style.glass else { return }
        if case .roundedRectangle(let radius) = glass.shape, !(radius.isFinite && radius >= 0) {
            throw BackdropError(.badOption, "the corner radius \(radius) is not a number of points ≥ 0")
        }
        let ranges: [(name: String, value: Double, range: ClosedRange<Double>)] = [
            ("face black", glass.faceBlack, -4...4), ("face white", glass.faceWhite, -4...4),
            ("face saturation", glass.faceSaturation, 0...16), ("fill alpha", glass.fillAlpha, 0...1),
            ("luma ceiling", glass.maxLuma, 0.001...1),
            ("refraction amount (points)", glass.refractionAmountPoints, 0...1000),
            ("refraction height (points)", glass.refractionHeightPoints, 0.001...1000),
            ("highlight amount", glass.highlightAmount, 0...1),
            ("highlight spread", glass.highlightSpread, 0...(.pi / 2)),
        ]
        for (name, value, range) in ranges where !range.contains(value) {  // a NaN is in no range
            throw BackdropError(
                .badOption, "the glass's \(name) \(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        if let tint = glass.tint, !(0...1).contains(tint.x) || !(0...1).contains(tint.y) || !(0...1).contains(tint.z) {
            throw BackdropError(.badOption, "the glass's tint \(tint.x),\(tint.y),\(tint.z) is not three numbers 0…1")
        }
    }

    /// Draws the face over `output` (the composite's picture: the glass, rim refracted and face coloured) from
    /// `source`. Specialised for both sample types: the renderer calls it from generic code, where each conversion
    /// between `Sample` and `Float` would otherwise go through the generic integer protocols (a full frame took
    /// seconds).
    ///
    /// One sweep, in row bands on all threads. Each row is five runs, maybe empty: outside the shape (coverage 0),
    /// edge and highlight band, middle (`Face.unlit(ofRow:)`: coverage 1 and outside the highlight's band, left as
    /// the composite wrote it), edge and highlight band, outside (`Face.covered(ofRow:)`). Each pixel of the edge and
    /// band runs is `Face.pixel(x:y:source:own:surface:)`, which reads only its own pixel of `output` (and
    /// `surface`); outside the shape the face writes its source's sample, by a table of the 256 bytes.
    @_specialize(where Sample == UInt8)
    @_specialize(where Sample == UInt16)
    func run<Sample: PixelSample>(
        source: RGBAImage<UInt8>, over output: inout RGBAImage<Sample>, surface: GlassBlurredSurface?,
        parallelism: Parallelism
    ) {
        let width = frame.width, height = frame.height
        let face = Face(
            glass, scale: Float(scale), radius: cornerRadiusPixels, width: width, height: height,
            exactWidth: surface.map { Float($0.factor) / 2 } ?? 0)
        // What the face writes outside the shape (`pixel` returns the source there), for each source byte.
        let outside = (0...255).map { byte in
            var lanes = [Sample](repeating: 0, count: 4)
            let pixel = [UInt8](repeating: UInt8(byte), count: 4)
            pixel.withUnsafeBufferPointer { pixel in
                lanes.withUnsafeMutableBufferPointer {
                    Self.store(Self.source(pixel.baseAddress!), into: $0.baseAddress!)
                }
            }
            return lanes[0]
        }
        let outsideIsTheSource = Sample.self == UInt8.self && outside.indices.allSatisfy { Int(outside[$0]) == $0 }
        let rowStride = output.width * 4, origin = (frame.y * output.width + frame.x) * 4
        source.samples.withUnsafeBufferPointer { sourceSamples in
            output.samples.withUnsafeMutableBufferPointer { samples in
                let input = SendableConstPointer(sourceSamples.baseAddress! + origin)
                let pixels = SendablePointer(samples.baseAddress! + origin)
                parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                    for y in rows {
                        let shape = face.covered(ofRow: y), row = y * rowStride
                        // An empty middle sits at the covered run's start: the rim is then that whole run.
                        let unlit = face.unlit(ofRow: y)
                        let middle = unlit.isEmpty ? shape.lowerBound..<shape.lowerBound : unlit
                        func draw(_ run: Range<Int>) {
                            for x in run {
                                let i = row + x * 4
                                guard
                                    let v = face.pixel(
                                        x: x, y: y, source: input.pointer + i,
                                        own: Self.unit(pixels.pointer + i), surface: surface)
                                else { continue }
                                Self.store(v, into: pixels.pointer + i)
                            }
                        }
                        draw(shape.lowerBound..<middle.lowerBound)
                        draw(middle.upperBound..<shape.upperBound)
                        for run in [0..<shape.lowerBound, shape.upperBound..<width] where !run.isEmpty {
                            let from = input.pointer + row + run.lowerBound * 4
                            let to = pixels.pointer + row + run.lowerBound * 4
                            if outsideIsTheSource {
                                UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: run.count * 4)
                            } else {
                                for i in 0..<(run.count * 4) { to[i] = outside[Int(from[i])] }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A pixel of the composite's picture (straight samples) as 0…1.
    @inline(__always) static func unit<Sample: PixelSample>(_ p: UnsafePointer<Sample>) -> SIMD4<Float> {
        SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / Sample.maximumValue
    }

    /// The source's straight RGBA8 pixel at `pixel`, 0…1.
    @inline(__always) static func source(_ pixel: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3])) / 255
    }

    /// `v` (0…1) as samples: ⌊v·maximum + ½⌋ limited to 0…maximum.
    @inline(__always) static func store<Sample: PixelSample>(_ v: SIMD4<Float>, into out: UnsafeMutablePointer<Sample>)
    {
        let maximum = Sample.maximumValue
        let q = (v * maximum + 0.5).rounded(.down)
        // Through Int32: `Sample(_: Float)` in generic code is the standard library's generic conversion, a call.
        for lane in 0..<4 { out[lane] = Sample(truncatingIfNeeded: Int32(max(0, min(maximum, q[lane])))) }
    }
}

/// The face's constants in `Float` and its per-pixel maths (``GlassFacePass``'s steps).
private struct Face: Sendable {
    let outline: GlassShape
    var halfSize: SIMD2<Float> { outline.halfSize }
    var radius: Float { outline.radius }
    let refractionAmount: Float, refractionHeight: Float
    let highlight: Float, highlightWidth: Float, cosSpread: Float
    /// The band, from the shape's edge inward, drawn from the blurred small image at each pixel: at least the
    /// highlight's band, and half a small pixel (along the frame's border the upscale clamps to the table's first
    /// pixel rather than interpolating the refraction's field).
    let exactWidth: Float
    let width: Int, height: Int

    /// ``GlassFaceColour``'s constants, for the face's colour where the highlight lifts it.
    let colour: [Float]

    init(_ g: GlassParameters, scale: Float, radius: Float, width: Int, height: Int, exactWidth: Float) {
        outline = GlassShape(width: width, height: height, radius: radius)
        colour = GlassFaceColour(g).constants(maximum: 1)
        refractionAmount = Float(g.refractionAmountPoints) * scale
        refractionHeight = max(Float(g.refractionHeightPoints) * scale, 1e-6)
        highlight = Float(g.highlightAmount)
        highlightWidth = max(Float(GlassParameters.highlightWidthPoints) * scale, 1e-6)
        cosSpread = Float(cos(g.highlightSpread))
        self.exactWidth = max(highlightWidth, exactWidth)
        (self.width, self.height) = (width, height)
    }

    /// Pixel (x, y)'s place in the shape (``GlassShape/place(x:y:)``).
    @inline(__always) func shape(x: Int, y: Int) -> (
        centre: SIMD2<Float>, sign: SIMD2<Float>, q: SIMD2<Float>, outside: SIMD2<Float>, outsideLength: Float,
        d: Float
    ) { outline.place(x: x, y: y) }

    /// Whether highlight · band · caught is ±0 wherever the band is +0: a finite amount, and caught finite.
    var highlightVanishesOutsideItsBand: Bool { highlight.isFinite && cosSpread.isFinite && 1 - cosSpread != 0 }

    /// The pixels of row `y` outside the exact band and the anti-aliased edge: coverage exactly 1 and t ≥ the
    /// exact band's width (at least the highlight's, so the highlight adds (1 − c)·±0 and
    /// ``pixel(x:y:source:own:surface:)`` leaves the pixel as it is), as one run around width / 2, maybe empty; empty too when the highlight need not vanish outside
    /// its band. In `Float` as in exact arithmetic, d is a non-decreasing function of |p.x| along a row (every step
    /// of ``shape(x:y:)`` is monotonic and rounding keeps that), |p.x| is smallest at x = width / 2 and grows either
    /// side, and the test holds for every d below one that holds: so the run is found by bisection either side.
    func unlit(ofRow y: Int) -> Range<Int> {
        guard highlightVanishesOutsideItsBand else { return 0..<0 }
        return GlassShape.run(in: width, around: width / 2) { x in
            let d = shape(x: x, y: y).d
            return GlassShape.coverage(d) == 1 && max(-d, 0) >= exactWidth
        }
    }

    /// The pixels of row `y` the shape covers (coverage not 0; outside it ``pixel(x:y:source:own:surface:)`` returns the
    /// source): one run, maybe empty, around width / 2 (``unlit(ofRow:)``'s reasoning: the coverage is a
    /// non-increasing function of d).
    func covered(ofRow y: Int) -> Range<Int> {
        func isCovered(_ x: Int) -> Bool { GlassShape.coverage(shape(x: x, y: y).d) != 0 }
        return GlassShape.run(in: width, around: width / 2, where: isCovered)
    }

    /// Pixel (x, y): the steps of ``GlassFacePass``, or nil where they leave the pixel as it is (coverage 1 outside
    /// the exact band and unlit). The face's colour is the composite's picture's own pixel (`own`: refracted, face
    /// coloured, upscaled and clamped), except within the exact band or where the highlight lifts it (amount · band ·
    /// g ≠ 0), when `surface` is given: there it is the face's colour of `surface`'s blurred value at the refracted
    /// place, before the clamp.
    @inline(__always)
    func pixel(
        x: Int, y: Int, source: UnsafePointer<UInt8>, own: SIMD4<Float>, surface: GlassBlurredSurface?
    ) -> SIMD4<Float>? {
        let (centre, sign, q, outside, outsideLength, d) = shape(x: x, y: y)
        let coverage = GlassShape.coverage(d)
        if coverage == 0 { return GlassFacePass.source(source) }
        let normal = GlassShape.normal(sign: sign, q: q, outside: outside, outsideLength: outsideLength)
        let t = max(-d, 0)
        let band = min(max(1 - t / highlightWidth, 0), 1)
        let caught = min(max((abs(normal.y) - cosSpread) / (1 - cosSpread), 0), 1)
        let lift = highlight * band * caught
        let exact = t < exactWidth || lift != 0
        if coverage == 1 && !exact { return nil }
        var b = own, c = SIMD3(own.x, own.y, own.z)
        if let surface, exact {
            var at = centre
            if t < refractionHeight {
                let falloff = 1 - t / refractionHeight
                at -= normal * (refractionAmount * falloff * falloff)
            }
            b = surface.value(at: at)
            c = GlassFaceColour.unclamped(SIMD3(b.x, b.y, b.z), colour)
        }
        c += (SIMD3(repeating: 1) - c) * lift
        // c.clamped(lowerBound: 0, upperBound: 1) lane by lane as selects (the standard library's is a call per
        // vector): pointwiseMax(0, c) keeps c where c ≥ 0 (−0 too) and gives 0 elsewhere and for NaN; then
        // pointwiseMin(1, c) keeps c where c < 1.
        c = SIMD3<Float>.zero.replacing(with: c, where: c .>= .zero)
        c = SIMD3<Float>.one.replacing(with: c, where: c .< .one)
        let glass = SIMD4(c, b.w)
        if coverage == 1 { return glass }  // source + (glass − source)·1 = glass for samples 0…1
        let under = GlassFacePass.source(source)
        return under + (glass - under) * coverage
    }
}
