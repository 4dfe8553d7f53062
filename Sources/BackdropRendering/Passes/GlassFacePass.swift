import BackdropImageIO
import CVectorKernels
import Foundation

/// Liquid Glass's face (``GlassParameters``): after the blur, inside the view's shape, per pixel of the frame.
///
/// - Input: the face's frame (straight, as the composite wrote it into the output: the blurred frame with the face's
///   colour, ``GlassFaceColour``, already applied by the colour pass to the blurred small image before the upscale:
///   luma ceiling, face, saturation, fill and tint) and the source picture (for the pixels outside the shape and the
///   shape's anti-aliased edge).
/// - Per pixel, centre p, in the frame's pixels (σ, radii and widths in points × the scale):
///   1. Shape: d = the signed distance from p to the rounded rectangle (negative inside); coverage = clamp(½ − d,
///      0, 1); outside (coverage 0) the source's pixel, untouched. n = the outward normal; t = max(0, −d).
///   2. Refraction: within h of the edge the face's frame is read bilinearly at p − n·a·(1 − t/h)² (clamped to the
///      frame), elsewhere at p.
///   3. The face's colour is the composite's: so in the middle (coverage 1, no refraction, no highlight) the pass
///      changes nothing, and the output is the face's colour of the blurred small image, upscaled. At the rim the
///      refraction reads the composite's picture (the face's colour interpolated, clamped), except where the
///      highlight lifts the colour (step 4 ≠ 0): there it reads the blurred small image before the face
///      (`GlassBlurredSurface`, bilinearly at the same place) and takes its face's colour unclamped, so that the
///      highlight comes before the clamp as in the sources' order (a clamped colour under the highlight would
///      change the rim's tone by up to 44 levels over saturated colours).
///   4. Highlight: c ← c + (1 − c)·amount·band·g, band = clamp(1 − t/1.5 pt, 0, 1), g = clamp((|n_y| − cos s) /
///      (1 − cos s), 0, 1) for the half-spread s (top and bottom rims).
///   5. Clamp to [0, 1]; mix with the source by the coverage; round to the nearest sample (halves up).
/// - No trigonometry per pixel (cos s once): the same bytes for any thread count and CPU.
/// - Work (CPU): only the rim and the outside run per output pixel; the middle costs what the composite costs.
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

    /// Draws the face over `output` (the composite's picture: the blurred frame) from `source`. Specialised for both
    /// sample types: the renderer calls it from generic code, where each conversion between `Sample` and `Float`
    /// would otherwise go through the generic integer protocols (a full frame took seconds).
    ///
    /// Two sweeps, each in row bands on all threads. Each row is five runs, maybe empty: outside the shape (coverage
    /// 0), rim, middle (`Face.middle(ofRow:)`), rim, outside (`Face.covered(ofRow:)`). The refraction reads the
    /// blurred frame up to its amount plus its height away, across rows, so the first sweep computes every rim pixel
    /// into a buffer of its own (`bd_glass_rim_row8_v3` for 8-bit samples where `VectorKernels.available`) before
    /// any pixel changes (then, with `surface`, the pixels of the highlight's band again in Swift,
    /// `Face.unlit(ofRow:)`'s complement); the second leaves each row's middle as the composite wrote it (the face's
    /// colour is already there), copies the rim in, and outside the shape writes what the face gives a pixel there, its
    /// source's sample, by a table of the 256 bytes. Elsewhere the per-pixel maths is
    /// `Face.pixel(x:y:source:blurred:)`: the same samples either way.
    @_specialize(where Sample == UInt8)
    @_specialize(where Sample == UInt16)
    func run<Sample: PixelSample>(
        source: RGBAImage<UInt8>, over output: inout RGBAImage<Sample>, surface: GlassBlurredSurface?,
        parallelism: Parallelism
    ) {
        let width = frame.width, height = frame.height
        let face = Face(glass, scale: Float(scale), radius: cornerRadiusPixels, width: width, height: height)
        let covered = (0..<height).map { face.covered(ofRow: $0) }
        // Inside the highlight's band (and at the edge) the face's colour comes from `surface`, unclamped.
        let unlit = surface == nil ? [] : (0..<height).map { face.unlit(ofRow: $0) }
        // An empty middle sits at the covered run's start: the rim is then that whole run.
        let middles = (0..<height).map { y in
            let middle = face.middle(ofRow: y)
            return middle.isEmpty ? covered[y].lowerBound..<covered[y].lowerBound : middle
        }
        var rimStarts = [Int](repeating: 0, count: height + 1)
        for y in 0..<height { rimStarts[y + 1] = rimStarts[y] + covered[y].count - middles[y].count }
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
        let rimOffsets = rimStarts
        // Zeroed: a cancelled first sweep leaves nothing undefined for the second to copy.
        var rim = [Sample](repeating: 0, count: rimOffsets[height] * 4)
        let rowStride = output.width * 4, origin = (frame.y * output.width + frame.x) * 4
        // The rim's kernel indexes the frame's pixels in 32 bits.
        let rimKernel = VectorKernels.available && (frame.y + height) * output.width < Int(Int32.max)
        let rimConstants = face.rimConstants
        source.samples.withUnsafeBufferPointer { sourceSamples in
            output.samples.withUnsafeMutableBufferPointer { samples in
                rim.withUnsafeMutableBufferPointer { rimSamples in
                    let input = SendableConstPointer(sourceSamples.baseAddress! + origin)
                    let pixels = SendablePointer(samples.baseAddress! + origin)
                    let rimOut = SendablePointer(rimSamples.baseAddress!)
                    parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                        let blurred = BlurredFrame(samples: UnsafePointer(pixels.pointer), rowStride: rowStride)
                        for y in rows {
                            let middle = middles[y]
                            var r = rimOffsets[y] * 4
                            for runOfRim in [
                                covered[y].lowerBound..<middle.lowerBound, middle.upperBound..<covered[y].upperBound,
                            ] {
                                var x = runOfRim.lowerBound
                                if rimKernel, Sample.self == UInt8.self {
                                    Self.rimKernel(
                                        blurred: pixels.pointer, rowStride: rowStride / 4, source: input.pointer,
                                        into: rimOut.pointer + r, y: y, run: runOfRim, face: face,
                                        constants: rimConstants)
                                    // A run's last count mod 8 pixels: the kernel again over its last eight, which
                                    // writes the pixels it shares with the first call with the same samples.
                                    let last = runOfRim.upperBound - 8
                                    if runOfRim.count & 7 != 0 && runOfRim.count >= 8 {
                                        Self.rimKernel(
                                            blurred: pixels.pointer, rowStride: rowStride / 4, source: input.pointer,
                                            into: rimOut.pointer + r + (last - x) * 4, y: y, run: last..<(last + 8),
                                            face: face, constants: rimConstants)
                                    }
                                    let done = runOfRim.count >= 8 ? runOfRim.count : runOfRim.count & ~7
                                    (x, r) = (x + done, r + done * 4)
                                }
                                while x < runOfRim.upperBound {
                                    let i = y * rowStride + x * 4
                                    let v = face.pixel(
                                        x: x, y: y, source: Self.source(input.pointer + i), blurred: blurred)
                                    Self.store(v, into: rimOut.pointer + r)
                                    (x, r) = (x + 1, r + 4)
                                }
                                guard let surface else { continue }
                                // The run's pixels outside the unlit run, again, with the face's colour unclamped.
                                let lit = unlit[y]
                                let first = r - runOfRim.count * 4
                                for x in runOfRim where !lit.contains(x) {
                                    let i = y * rowStride + x * 4
                                    let v = face.pixel(
                                        x: x, y: y, source: Self.source(input.pointer + i), blurred: blurred,
                                        surface: surface)
                                    Self.store(v, into: rimOut.pointer + first + (x - runOfRim.lowerBound) * 4)
                                }
                            }
                        }
                    }
                    parallelism.forEachBand(of: height, minimumBandSize: Parallelism.minimumRowsPerBand) { rows in
                        for y in rows {
                            let middle = middles[y], row = y * rowStride
                            let shape = covered[y], rimPixels = rimOffsets[y] * 4
                            let left = (middle.lowerBound - shape.lowerBound) * 4
                            let right = (shape.upperBound - middle.upperBound) * 4
                            (pixels.pointer + row + shape.lowerBound * 4).update(
                                from: rimOut.pointer + rimPixels, count: left)
                            (pixels.pointer + row + middle.upperBound * 4).update(
                                from: rimOut.pointer + rimPixels + left, count: right)
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

    /// The C twin of a run of rim pixels with 8-bit samples (its first ⌊count/8⌋·8 pixels) into `out`.
    @inline(__always) private static func rimKernel<Sample: PixelSample>(
        blurred: UnsafeMutablePointer<Sample>, rowStride: Int, source: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<Sample>, y: Int, run: Range<Int>, face: Face, constants: [Float]
    ) {
        constants.withUnsafeBufferPointer { constants in
            bd_glass_rim_row8_v3(
                UnsafeRawPointer(blurred).assumingMemoryBound(to: UInt8.self), rowStride,
                source + y * rowStride * 4, UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt8.self), y,
                run.lowerBound, run.count, face.width, face.height, constants.baseAddress!)
        }
    }
}

/// The blurred frame in the output picture (straight samples, rows `rowStride` samples apart), read as 0…1.
private struct BlurredFrame<Sample: PixelSample> {
    let samples: UnsafePointer<Sample>
    let rowStride: Int

    @inline(__always) subscript(x: Int, y: Int) -> SIMD4<Float> {
        let p = samples + y * rowStride + x * 4
        return SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / Sample.maximumValue
    }
}

/// The face's constants in `Float` and its per-pixel maths (``GlassFacePass``'s steps).
private struct Face: Sendable {
    let outline: GlassShape
    var halfSize: SIMD2<Float> { outline.halfSize }
    var radius: Float { outline.radius }
    let refractionAmount: Float, refractionHeight: Float
    let highlight: Float, highlightWidth: Float, cosSpread: Float
    let width: Int, height: Int

    /// ``GlassFaceColour``'s constants, for the face's colour where the highlight lifts it.
    let colour: [Float]

    init(_ g: GlassParameters, scale: Float, radius: Float, width: Int, height: Int) {
        outline = GlassShape(width: width, height: height, radius: radius)
        colour = GlassFaceColour(g).constants(maximum: 1)
        refractionAmount = Float(g.refractionAmountPoints) * scale
        refractionHeight = max(Float(g.refractionHeightPoints) * scale, 1e-6)
        highlight = Float(g.highlightAmount)
        highlightWidth = max(Float(GlassParameters.highlightWidthPoints) * scale, 1e-6)
        cosSpread = Float(cos(g.highlightSpread))
        (self.width, self.height) = (width, height)
    }

    /// The bilinear sample of `image` (width × height, straight) at pixel position p (centres at +0.5), clamped.
    @inline(__always) func sample<Sample>(_ image: BlurredFrame<Sample>, at p: SIMD2<Float>) -> SIMD4<Float> {
        let x = min(max(p.x - 0.5, 0), Float(width - 1)), y = min(max(p.y - 0.5, 0), Float(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = image[x0, y0] * (1 - fx) + image[x1, y0] * fx
        let bottom = image[x0, y1] * (1 - fx) + image[x1, y1] * fx
        return top * (1 - fy) + bottom * fy
    }

    /// Pixel (x, y)'s place in the shape (``GlassShape/place(x:y:)``).
    @inline(__always) func shape(x: Int, y: Int) -> (
        centre: SIMD2<Float>, sign: SIMD2<Float>, q: SIMD2<Float>, outside: SIMD2<Float>, outsideLength: Float,
        d: Float
    ) { outline.place(x: x, y: y) }

    /// Whether a pixel at signed distance `d` is in the middle: fully covered (coverage exactly 1), not refracted
    /// (t ≥ the refraction's height) and outside the highlight's band (t ≥ its width, so t / width ≥ 1 and the band
    /// is +0: the highlight adds (1 − c)·±0, which changes no sample). There ``pixel(x:y:source:blurred:)`` returns
    /// the pixel's own value, which the pass leaves as it is.
    /// Without a finite highlight amount and a spread of more than 0, the highlight could be NaN (∞ · 0, 0 / 0):
    /// then no pixel is in the middle.
    @inline(__always) func isMiddle(_ d: Float) -> Bool {
        let coverage = GlassShape.coverage(d), t = max(-d, 0)
        return coverage == 1 && t >= refractionHeight && t >= highlightWidth && highlightVanishesOutsideItsBand
    }

    /// Whether highlight · band · caught is ±0 wherever the band is +0: a finite amount, and caught finite.
    var highlightVanishesOutsideItsBand: Bool { highlight.isFinite && cosSpread.isFinite && 1 - cosSpread != 0 }

    /// The pixels of row `y` in the middle (``isMiddle(_:)``): one run, maybe empty. In `Float` as in exact
    /// arithmetic, d is a non-decreasing function of |p.x| along a row (every step of ``shape(x:y:)`` is monotonic
    /// and rounding keeps that), |p.x| is smallest at x = width / 2 and grows either side, and ``isMiddle(_:)`` holds
    /// for every d below one that holds: so the middle is a run around width / 2, found by bisection either side.
    func middle(ofRow y: Int) -> Range<Int> {
        run(around: width / 2) { isMiddle(shape(x: $0, y: y).d) }
    }

    /// The pixels of row `y` outside the highlight's band and the anti-aliased edge: coverage exactly 1 and t ≥ the
    /// band's width (so the highlight adds (1 − c)·±0), as one run around width / 2 (``middle(ofRow:)``'s
    /// reasoning), maybe empty; empty too when the highlight need not vanish outside its band.
    func unlit(ofRow y: Int) -> Range<Int> {
        guard highlightVanishesOutsideItsBand else { return 0..<0 }
        return run(around: width / 2) { x in
            let d = shape(x: x, y: y).d
            return GlassShape.coverage(d) == 1 && max(-d, 0) >= highlightWidth
        }
    }

    /// The pixels of row `y` the shape covers (coverage not 0; outside it ``pixel(x:y:source:blurred:)`` returns the
    /// source): one run, maybe empty, around width / 2 (``middle(ofRow:)``'s reasoning: the coverage is a
    /// non-increasing function of d).
    func covered(ofRow y: Int) -> Range<Int> {
        func isCovered(_ x: Int) -> Bool { GlassShape.coverage(shape(x: x, y: y).d) != 0 }
        return run(around: width / 2, where: isCovered)
    }

    /// The run of x in 0..<width around `centre` where `holds`, which holds for every x between `centre` and an x
    /// where it holds (empty when it fails at `centre`), by bisection either side.
    private func run(around centre: Int, where holds: (Int) -> Bool) -> Range<Int> {
        guard holds(centre) else { return 0..<0 }
        var low = 0, high = centre  // the first x that holds lies in low...high
        while low < high {
            let x = (low + high) / 2
            if holds(x) { high = x } else { low = x + 1 }
        }
        var first = centre, last = width - 1  // the last x that holds lies in first...last
        while first < last {
            let x = (first + last + 1) / 2
            if holds(x) { first = x } else { last = x - 1 }
        }
        return low..<(first + 1)
    }

    /// The constants `bd_glass_rim_row8_v3` takes, as ``shape(x:y:)`` and ``pixel(x:y:source:blurred:)`` compute
    /// them.
    var rimConstants: [Float] {
        let inner = halfSize - SIMD2(repeating: radius)
        return [
            halfSize.x, halfSize.y, inner.x, inner.y, radius, refractionAmount, refractionHeight, highlight,
            highlightWidth, cosSpread, 1 - cosSpread,
        ]
    }

    /// Pixel (x, y): the steps of ``GlassFacePass``. The face's colour is the composite's picture's (`blurred`,
    /// clamped), except where the highlight lifts it (amount · band · g ≠ 0) and `surface` is given: there it is the
    /// face's colour of `surface`'s blurred value at the same place, before the clamp.
    @inline(__always)
    func pixel<Sample>(
        x: Int, y: Int, source: SIMD4<Float>, blurred: BlurredFrame<Sample>, surface: GlassBlurredSurface? = nil
    ) -> SIMD4<Float> {
        let (centre, sign, q, outside, outsideLength, d) = shape(x: x, y: y)
        let coverage = GlassShape.coverage(d)
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
        let band = min(max(1 - t / highlightWidth, 0), 1)
        let caught = min(max((abs(normal.y) - cosSpread) / (1 - cosSpread), 0), 1)
        let lift = highlight * band * caught
        // The face's colour: the composite's (``GlassFaceColour``, applied before the upscale, clamped), or where the
        // highlight lifts it and `surface` is given, `surface`'s before the clamp.
        var b: SIMD4<Float>, c: SIMD3<Float>
        if let surface, lift != 0 {
            b = surface.value(at: t < refractionHeight ? at : centre)
            c = GlassFaceColour.unclamped(SIMD3(b.x, b.y, b.z), colour)
        } else {
            b = t < refractionHeight ? sample(blurred, at: at) : blurred[x, y]
            c = SIMD3(b.x, b.y, b.z)
        }
        c += (SIMD3(repeating: 1) - c) * lift
        // c.clamped(lowerBound: 0, upperBound: 1) lane by lane as selects (the standard library's is a call per
        // vector): pointwiseMax(0, c) keeps c where c ≥ 0 (−0 too) and gives 0 elsewhere and for NaN; then
        // pointwiseMin(1, c) keeps c where c < 1.
        c = SIMD3<Float>.zero.replacing(with: c, where: c .>= .zero)
        c = SIMD3<Float>.one.replacing(with: c, where: c .< .one)
        let glass = SIMD4(c, b.w)
        return source + (glass - source) * coverage
    }
}
