import CVectorKernels

/// Liquid Glass's face colour (``GlassParameters``): the colour function of a pixel's own blurred value that
/// ``GlassFacePass`` leaves to the colour pass, applied to the blurred small image before the upscale (and, without
/// an upscale, to each pixel as it is read).
///
/// - Input and output: straight pixels at output scale, v = s·maximum + offset (the composite's
///   `CompositePass.outputScaled(_:maximum:)`, offset ``CompositePass/roundingOffset``); alpha is left as it is.
/// - Maths, per pixel, in this order, each step one `Float` rounding: s = (v − offset) / maximum; in Rec. 709
///   YCbCr, Y = 0.2126 R + 0.7152 G + 0.0722 B, Cb = (B − Y) / 1.8556 · saturation, Cr = (R − Y) / 1.5748 ·
///   saturation; Y ← max(Y, 0); the luma ceiling Y ← m·Y / (m + (1 − m)·Y); the face Y ← black + (white − black)·Y;
///   back to RGB; white source-over at the fill alpha, then the tint at ``GlassParameters/tintAlpha``; each channel
///   clamped to [0, 1]; v ← c·maximum + offset.
/// - Precision: the face is not linear, so applying it before the bilinear upscale rather than after differs from
///   applying it per output pixel by the curvature of the face over one small pixel's footprint: on the test renders
///   at most one or two levels in the smooth middle (docs/styles.md, "Liquid Glass"); the upscale's weights are
///   convex, so the result stays within [0, 1].
/// - On CPUs with AVX2 and FMA the C twin `bd_glass_face_pixels_v3` runs, with the same values bit for bit.
public struct GlassFaceColour: Sendable, Equatable {
    let saturation: Float, maxLuma: Float, black: Float, white: Float, fill: Float
    let tint: SIMD3<Float>?, tintAlpha: Float

    /// The face colour of `glass`.
    public init(_ glass: GlassParameters) {
        (black, white, saturation) = (Float(glass.faceBlack), Float(glass.faceWhite), Float(glass.faceSaturation))
        (maxLuma, fill) = (Float(glass.maxLuma), Float(glass.fillAlpha))
        tint = glass.tint.map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) }
        tintAlpha = Float(GlassParameters.tintAlpha)
    }

    /// The constants of `bd_glass_face_pixels_v3`, in its order.
    func constants(maximum: Float) -> [Float] {
        let (wr, wg, wb): (Float, Float, Float) = (0.2126, 0.7152, 0.0722)
        let (kb, kr): (Float, Float) = (1.8556, 1.5748)
        let tinted = tint.map { $0 * tintAlpha } ?? .zero
        return [
            wr, wg, wb, kb, kr, saturation, maxLuma, 1 - maxLuma, black, white - black, 1 - fill, fill,
            tint == nil ? 0 : 1, 1 - tintAlpha, tinted.x, tinted.y, tinted.z, maximum, CompositePass.roundingOffset,
        ]
    }

    /// The face's colour of the first `count` pixels of `row` (straight, at output scale for `maximum`), in place.
    func applyOutputScaled(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, maximum: Float) {
        let k = constants(maximum: maximum)
        var x = 0
        if VectorKernels.available {
            k.withUnsafeBufferPointer { k in
                bd_glass_face_pixels_v3(
                    UnsafeMutableRawPointer(row).assumingMemoryBound(to: Float.self), count, k.baseAddress!)
            }
            x = count & ~7
        }
        while x < count {
            row[x] = Self.pixel(row[x], k)
            x += 1
        }
    }

    /// One pixel, as `bd_glass_face_pixels_v3` computes each lane (`k`: its constants).
    @inline(__always) static func pixel(_ v: SIMD4<Float>, _ k: [Float]) -> SIMD4<Float> {
        let (maximum, offset) = (k[17], k[18])
        var c = unclamped(SIMD3((v.x - offset) / maximum, (v.y - offset) / maximum, (v.z - offset) / maximum), k)
        // c ≥ 0 ? c : 0, then c < 1 ? c : 1, lane by lane (a NaN becomes 0).
        c = SIMD3<Float>.zero.replacing(with: c, where: c .>= .zero)
        c = SIMD3<Float>.one.replacing(with: c, where: c .< .one)
        c = c * maximum + SIMD3(repeating: offset)
        return SIMD4(c, v.w)
    }

    /// The face's colour of the straight colour `s` (0…1) before the clamp: every step of the contract's between
    /// the conversion from output scale and the clamp (`k`: ``constants(maximum:)``).
    @inline(__always) static func unclamped(_ s: SIMD3<Float>, _ k: [Float]) -> SIMD3<Float> {
        let (wr, wg, wb, kb, kr, saturation) = (k[0], k[1], k[2], k[3], k[4], k[5])
        let (maxLuma, oneMinusMaxLuma, black, whiteMinusBlack, keepFill, fill) = (k[6], k[7], k[8], k[9], k[10], k[11])
        let (keepTint, tint) = (k[13], SIMD3(k[14], k[15], k[16]))
        let (r, g, b) = (s.x, s.y, s.z)
        var luma = wr * r + wg * g + wb * b
        let cb = (b - luma) / kb * saturation, cr = (r - luma) / kr * saturation
        luma = 0 >= luma ? 0 : luma
        luma = maxLuma * luma / (maxLuma + oneMinusMaxLuma * luma)
        luma = black + whiteMinusBlack * luma
        let red = luma + kr * cr, blue = luma + kb * cb
        let green = (luma - wr * red - wb * blue) / wg
        var c = SIMD3(red, green, blue) * keepFill + SIMD3(repeating: fill)
        if k[12] != 0 { c = c * keepTint + tint }
        return c
    }
}

/// The blurred frame before the face's colour, as a continuous surface the rim's highlight reads
/// (``GlassFacePass``): the colour pass's small table of straight pixels at output scale (``GlassFaceColour``'s
/// input), read bilinearly with the upscale's geometry (output pixel x at small u = (x + ½)/k − ½, clamped), so that
/// the highlight lifts the face's colour before it is clamped, as the contract's order says, where the composite's
/// picture holds it clamped.
struct GlassBlurredSurface: Sendable {
    /// The small table (a 1 × 1 table for a flat colour) and the factor k.
    let table: FloatImage
    let factor: Int
    /// The output scale's maximum and offset (`CompositePass.outputScaled(_:maximum:)`).
    let maximum: Float

    /// Whether the rim's vector kernels (`bd_glass_rim_run8_v3`, `bd_glass_refract_run_v3`) read this surface: they
    /// run on this CPU, the table's sample offsets fit in 32 bits (their gathers' indices), and the frame is under
    /// 2²³ pixels wide (the table's width times k): the kernels add a lane's index to a column already a float, which
    /// rounds as Swift's integer sum does only while the sums are exact in a float's 24 bits.
    var kernelsRun: Bool {
        VectorKernels.available && 4 * table.rowStride * table.height <= Int(Int32.max)
            && table.width * factor < 1 << 23
    }

    /// The straight colour and alpha (0…1) at `p`, a position in the frame's pixels (pixel centres at +½).
    @inline(__always) func value(at p: SIMD2<Float>) -> SIMD4<Float> {
        (outputScaled(at: p) - CompositePass.roundingOffset) / maximum
    }

    /// The table's bilinear read at `p`, at output scale (as the table holds it).
    @inline(__always) func outputScaled(at p: SIMD2<Float>) -> SIMD4<Float> {
        let k = Float(factor)
        let u = min(max(p.x / k - 0.5, 0), Float(table.width - 1))
        let v = min(max(p.y / k - 0.5, 0), Float(table.height - 1))
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, table.width - 1), y1 = min(y0 + 1, table.height - 1)
        let fx = u - Float(x0), fy = v - Float(y0)
        let top = table[x0, y0] * (1 - fx) + table[x1, y0] * fx
        let bottom = table[x0, y1] * (1 - fx) + table[x1, y1] * fx
        return top * (1 - fy) + bottom * fy
    }
}
