/// The per-pixel colour steps of a style, on premultiplied RGBA: saturation, then a tint drawn over.
///
/// 1. Saturation with Rec. 709 luma weights: c' = s·c + (1 − s)·(0.2126 R + 0.7152 G + 0.0722 B), each channel
///    then clamped to [0, A] so the pixel stays a valid premultiplied colour.
/// 2. Tint, source-over: C = tint·a + C·(1 − a), A = a + A·(1 − a).
///
/// Both steps are affine apart from the clamp, which is why the renderer may apply them before an upscale whose
/// weights are convex (see ``UpscaleTintPass``).
public struct ColorTransform: Sendable {
    /// Row i of the 3×3 saturation matrix, padded with 0 for alpha.
    let matrixRows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The tint as premultiplied RGBA: (tint·a, tint·a, tint·a, a).
    let tintPremultiplied: SIMD4<Float>
    /// 1 − a.
    let keep: Float
    /// Whether the saturation step is there at all (false for the tint-only fallback).
    let saturates: Bool

    /// Saturation `saturation`, then the tint colour at `tintAlpha`.
    public init(saturation: Double, tintColor: SIMD3<Double>, tintAlpha: Double) {
        let s = Float(saturation)
        let luma = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0) * (1 - s)
        matrixRows = (luma + SIMD4(s, 0, 0, 0), luma + SIMD4(0, s, 0, 0), luma + SIMD4(0, 0, s, 0))
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
        var c = p
        if saturates {
            let r = (matrixRows.0 * p).sum(), g = (matrixRows.1 * p).sum(), b = (matrixRows.2 * p).sum()
            c = SIMD4(r, g, b, p.w)
            c = c.limited(upTo: SIMD4(repeating: p.w))
        }
        return tintPremultiplied + c * keep
    }
}

extension ColorTransform {
    /// The rows of `input` (frame-sized, premultiplied) with the steps applied to every pixel, at output scale:
    /// all a per-pixel colour pass needs.
    func outputRows(of input: Stage, maximum: Float) -> OutputRows {
        OutputRows(width: input.size.width, columns: nil, row: { y, out in
            input.readRow(y, into: out)
            for x in 0..<input.size.width { out[x] = CompositePass.outputScaled(self.apply(out[x]), maximum: maximum) }
        })
    }
}
