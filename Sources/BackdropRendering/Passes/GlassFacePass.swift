import BackdropImageIO
import CVectorKernels
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
///   rest costs what the composite costs. The renderer draws each row right after the composite wrote it, while it
///   is in cache (`FaceRows`).
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

    /// The face's rows over `source` (its frame's first sample; `rowStride` samples a row) with `surface` (the
    /// blurred small image before the face), each row's runs found on `parallelism`'s threads, for output samples of
    /// `Sample`'s type: `FaceRows.draw(row:pixels:)` draws one over the composite's picture (the glass, rim refracted
    /// and face coloured). The renderer has the composite call it on each row right after writing it.
    func rows<Sample: PixelSample>(
        source: SendableConstPointer<UInt8>, rowStride: Int, surface: GlassBlurredSurface?,
        parallelism: Parallelism, as: Sample.Type
    ) -> FaceRows<Sample> {
        FaceRows(
            face: Face(
                glass, scale: Float(scale), radius: cornerRadiusPixels, width: frame.width, height: frame.height,
                exactWidth: surface.map { Float($0.factor) / 2 } ?? 0),
            source: source, rowStride: rowStride, surface: surface, parallelism: parallelism)
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

/// ``GlassFacePass``'s face, one frame row at a time (each pixel reads only its own pixel of the output, of the source
/// and the surface, so a row can be drawn as soon as the composite wrote it). Specialised for both sample types: the
/// renderer calls it from generic code, where each conversion between `Sample` and `Float` would otherwise go through
/// the generic integer protocols (a full frame took seconds).
///
/// Each row is five runs, maybe empty: outside the shape (coverage 0), edge and highlight band, middle
/// (`Face.unlit(ofRow:)`: coverage 1 and outside the highlight's band, left as the composite wrote it), edge and
/// highlight band, outside (`Face.covered(ofRow:)`). Each pixel of the edge and band runs is
/// `Face.pixel(x:y:source:own:surface:)` (at 8 bits with a surface, on CPUs with AVX2, its C twin
/// `bd_glass_rim_run8_v3`, the same bytes); outside the shape the face writes its source's sample, by a table of the
/// 256 bytes.
struct FaceRows<Sample: PixelSample>: Sendable {
    fileprivate let face: Face
    let source: SendableConstPointer<UInt8>
    let rowStride: Int
    let surface: GlassBlurredSurface?
    /// What the face writes outside the shape (`pixel` returns the source there), for each source byte, and whether
    /// that is the byte itself.
    let outside: [Sample]
    let outsideIsTheSource: Bool
    /// `bd_glass_rim_run8_v3`'s constants, where it runs.
    let kernelConstants: [Float]?
    /// Each row's covered and unlit runs (`Face.runs(parallelism:)`).
    let runs: [Int]

    fileprivate init(
        face: Face, source: SendableConstPointer<UInt8>, rowStride: Int, surface: GlassBlurredSurface?,
        parallelism: Parallelism
    ) {
        self.face = face
        runs = face.runs(parallelism: parallelism)
        self.source = source
        self.rowStride = rowStride
        self.surface = surface
        // The table is the identity for 8-bit samples (checked, not assumed): then it is not kept.
        func written(_ byte: Int) -> Sample {
            withUnsafeTemporaryAllocation(of: Sample.self, capacity: 4) { lanes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { pixel in
                    pixel.initialize(repeating: UInt8(byte))
                    GlassFacePass.store(GlassFacePass.source(pixel.baseAddress!), into: lanes.baseAddress!)
                    return lanes[0]
                }
            }
        }
        outsideIsTheSource = Sample.self == UInt8.self && (0...255).allSatisfy { Int(written($0)) == $0 }
        outside = outsideIsTheSource ? [] : (0...255).map(written)
        kernelConstants =
            Sample.self == UInt8.self && surface?.kernelsRun == true
            ? surface.map { face.kernelConstants($0) } : nil
    }

    /// Draws the face over frame row `y`: `pixels` is the output's row at the frame's first column.
    @_specialize(where Sample == UInt8)
    @_specialize(where Sample == UInt16)
    func draw(row y: Int, pixels: UnsafeMutablePointer<Sample>) {
        let input = source.pointer + y * rowStride, width = face.width
        let shape = runs[4 * y]..<runs[4 * y + 1], unlit = runs[4 * y + 2]..<runs[4 * y + 3]
        // An empty middle sits at the covered run's start: the rim is then that whole run.
        let middle = unlit.isEmpty ? shape.lowerBound..<shape.lowerBound : unlit
        func draw(_ run: Range<Int>) {
            guard !run.isEmpty else { return }
            if let kernelConstants, let table = surface?.table {
                kernelConstants.withUnsafeBufferPointer { k in
                    bd_glass_rim_run8_v3(
                        UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self), input, y,
                        run.lowerBound, run.upperBound,
                        UnsafeRawPointer(table.row(0)).assumingMemoryBound(to: Float.self), table.rowStride,
                        table.width, table.height, k.baseAddress!, y + 2 < face.height ? 2 * rowStride : 0)
                }
                return
            }
            for x in run {
                let i = x * 4
                guard
                    let v = face.pixel(
                        x: x, y: y, source: input + i, own: GlassFacePass.unit(pixels + i), surface: surface)
                else { continue }
                GlassFacePass.store(v, into: pixels + i)
            }
        }
        draw(shape.lowerBound..<middle.lowerBound)
        draw(middle.upperBound..<shape.upperBound)
        for run in [0..<shape.lowerBound, shape.upperBound..<width] where !run.isEmpty {
            let from = input + run.lowerBound * 4
            let to = pixels + run.lowerBound * 4
            if outsideIsTheSource {
                UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: run.count * 4)
            } else {
                for i in 0..<(run.count * 4) { to[i] = outside[Int(from[i])] }
            }
        }
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

    /// `bd_glass_rim_run8_v3`'s constants for `surface` (its header's order), as the Swift loop computes them.
    func kernelConstants(_ surface: GlassBlurredSurface) -> [Float] {
        let inner = halfSize - SIMD2(repeating: radius)
        return colour + [
            halfSize.x, halfSize.y, inner.x, inner.y, radius, refractionAmount, refractionHeight, highlight,
            highlightWidth, cosSpread, 1 - cosSpread, exactWidth, Float(surface.factor), Float(surface.table.width - 1),
            Float(surface.table.height - 1), CompositePass.roundingOffset, surface.maximum,
        ]
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
    /// `near`: a guess at the run (``GlassShape/run(in:around:near:where:)``; the same run either way).
    func unlit(ofRow y: Int, near guess: Range<Int>? = nil) -> Range<Int> {
        guard highlightVanishesOutsideItsBand else { return 0..<0 }
        return GlassShape.run(in: width, around: width / 2, near: guess) { x in
            let d = shape(x: x, y: y).d
            return GlassShape.coverage(d) == 1 && max(-d, 0) >= exactWidth
        }
    }

    /// The pixels of row `y` the shape covers (coverage not 0; outside it ``pixel(x:y:source:own:surface:)`` returns the
    /// source): one run, maybe empty, around width / 2 (``unlit(ofRow:)``'s reasoning: the coverage is a
    /// non-increasing function of d).
    func covered(ofRow y: Int, near guess: Range<Int>? = nil) -> Range<Int> {
        func isCovered(_ x: Int) -> Bool { GlassShape.coverage(shape(x: x, y: y).d) != 0 }
        return GlassShape.run(in: width, around: width / 2, near: guess, where: isCovered)
    }

    /// ``covered(ofRow:near:)`` and ``unlit(ofRow:near:)`` of every row, by bands on all threads, each row's search
    /// starting from the row above's runs: `runs[4y ..< 4y + 4]` are row y's covered and unlit runs' bounds (all 0,
    /// empty runs, for the rows of a band a cancellation skipped).
    func runs(parallelism: Parallelism) -> [Int] {
        var runs = [Int](repeating: 0, count: 4 * height)
        runs.withUnsafeMutableBufferPointer { buffer in
            let runs = SendablePointer(buffer.baseAddress!)
            parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { band in
                var above: (covered: Range<Int>, unlit: Range<Int>)? = nil
                for y in band {
                    let covered = covered(ofRow: y, near: above?.covered)
                    // The unlit run lies inside the covered run: its bounds near the covered run's.
                    let unlit = unlit(ofRow: y, near: above.map { $0.unlit.isEmpty ? covered : $0.unlit } ?? covered)
                    let row = runs.pointer + 4 * y
                    (row[0], row[1], row[2], row[3]) = (
                        covered.lowerBound, covered.upperBound, unlit.lowerBound, unlit.upperBound
                    )
                    above = (covered, unlit)
                }
            }
        }
        return runs
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
