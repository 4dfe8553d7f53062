import CVectorKernels

/// The per-pixel colour steps of a style, on premultiplied RGBA: saturation, then a tint drawn over.
///
/// 1. Saturation with Rec. 709 luma weights: c' = s·c + (1 − s)·(0.2126 R + 0.7152 G + 0.0722 B), each channel
///    then clamped to [0, A] so the pixel stays a valid premultiplied colour.
/// 2. Tint, source-over: C = tint·a + C·(1 − a), A = a + A·(1 − a).
///
/// Both steps are affine apart from the clamp, which is why the renderer may apply them before an upscale whose
/// weights are convex (see ``UpscaleTintPass``).
public struct ColorTransform: Sendable {
    /// Column j of the 3×3 saturation matrix (what channel j adds to R, G, B), padded with 0 for alpha.
    let matrixColumns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The tint as premultiplied RGBA: (tint·a, tint·a, tint·a, a).
    let tintPremultiplied: SIMD4<Float>
    /// 1 − a.
    let keep: Float
    /// Whether the saturation step is there at all (false for the tint-only fallback).
    let saturates: Bool

    /// Saturation `saturation`, then the tint colour at `tintAlpha`.
    public init(saturation: Double, tintColor: SIMD3<Double>, tintAlpha: Double) {
        let s = Float(saturation)
        // Every output channel takes (1 − s)·luma weight of each input channel, and s of its own.
        let luma = SIMD3<Float>(0.2126, 0.7152, 0.0722) * (1 - s)
        func column(_ j: Int) -> SIMD4<Float> {
            var column = SIMD4<Float>(repeating: luma[j])
            column[j] += s
            column.w = 0
            return column
        }
        matrixColumns = (column(0), column(1), column(2))
        let a = Float(tintAlpha)
        tintPremultiplied = SIMD4(Float(tintColor.x) * a, Float(tintColor.y) * a, Float(tintColor.z) * a, a)
        keep = 1 - a
        saturates = saturation != 1
    }

    /// The style's blur-path steps: its saturation and tint.
    public init(blurOf style: BlurStyle) {
        self.init(saturation: style.saturation, tintColor: style.tintColor, tintAlpha: style.tintAlpha)
    }

    /// The style's tint-only fallback: no saturation, the tint at the fallback opacity.
    public init(fallbackOf style: BlurStyle) {
        self.init(saturation: 1, tintColor: style.tintColor, tintAlpha: style.fallbackAlpha)
    }

    /// Applies the steps to one premultiplied pixel.
    @inline(__always) public func apply(_ p: SIMD4<Float>) -> SIMD4<Float> {
        apply(SIMD8(lowHalf: p, highHalf: p)).lowHalf
    }

    /// Applies the steps to two premultiplied pixels (lanes 0–3 and 4–7), each exactly as ``apply(_:)-(SIMD4<Float>)``
    /// does: the saturation as R·column₀ + G·column₁ + B·column₂ added to (0, 0, 0, A) in that order (a broadcast
    /// and a multiply-add per channel, no sums across lanes), the clamp to [0, A] as `vmaxps`/`vminps`.
    @inline(__always) public func apply(_ p: SIMD8<Float>) -> SIMD8<Float> {
        var c = p
        if saturates {
            let columns = (
                SIMD8(repeatingPixel: matrixColumns.0), SIMD8(repeatingPixel: matrixColumns.1),
                SIMD8(repeatingPixel: matrixColumns.2)
            )
            let red = SIMD8(p[0], p[0], p[0], p[0], p[4], p[4], p[4], p[4])
            let green = SIMD8(p[1], p[1], p[1], p[1], p[5], p[5], p[5], p[5])
            let blue = SIMD8(p[2], p[2], p[2], p[2], p[6], p[6], p[6], p[6])
            let alpha = SIMD8(p[3], p[3], p[3], p[3], p[7], p[7], p[7], p[7])
            let alphaOnly = p * SIMD8(repeatingPixel: SIMD4(0, 0, 0, 1))
            c = alphaOnly.addingProduct(red, columns.0).addingProduct(green, columns.1).addingProduct(blue, columns.2)
            c = SampleConversion.limited(c, from: .zero, upTo: alpha)
        }
        return SIMD8(repeatingPixel: tintPremultiplied).addingProduct(c, SIMD8(repeating: keep))
    }
}

extension ColorTransform {
    /// The rows of `input` (frame-sized, premultiplied) with the steps applied to every pixel, at output scale:
    /// all a per-pixel colour pass needs.
    func outputRows(of input: Stage, maximum: Float) -> OutputRows {
        OutputRows(
            width: input.size.width, columns: nil,
            row: { y, out in
                self.applyOutputScaled(input.row(y, orInto: out), into: out, count: input.size.width, maximum: maximum)
            })
    }
}

extension ColorTransform {
    /// `out[x]` ← ``CompositePass/outputScaled(_:maximum:)``(``apply(_:)-(SIMD4<Float>)``(`row[x]`)) for the first
    /// `count` pixels, two at a time (an odd last one alone, with the same values). `out` may be `row`. On CPUs
    /// with AVX2 and FMA its C twin runs, `bd_color_transform_row_v3`, with the same values bit for bit.
    @inline(__always) func applyOutputScaled(
        _ row: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>,
        count: Int, maximum: Float
    ) {
        if VectorKernels.available {
            var columns = matrixColumns, tint = tintPremultiplied
            return withUnsafeBytes(of: &columns) { columns in
                withUnsafeBytes(of: &tint) { tint in
                    bd_color_transform_row_v3(
                        UnsafeRawPointer(row).assumingMemoryBound(to: Float.self),
                        UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self), count,
                        columns.baseAddress!.assumingMemoryBound(to: Float.self),
                        tint.baseAddress!.assumingMemoryBound(to: Float.self), keep, saturates ? 1 : 0, maximum,
                        CompositePass.roundingOffset)
                }
            }
        }
        var x = 0
        while x &+ 2 <= count {
            (out + x).pixelPair = CompositePass.outputScaled(apply((row + x).pixelPair), maximum: maximum)
            x &+= 2
        }
        if x < count { out[x] = CompositePass.outputScaled(apply(row[x]), maximum: maximum) }
    }
}
