import Backdrop
import BackdropTestSupport
import Foundation
import Testing

/// The colour steps run two pixels per 8-lane vector on the small image and one pixel at a time elsewhere
/// (exact mode, tint-only); both forms must give every pixel the same floats, and those floats must be the style's
/// formula.
@Suite("Colour steps")
struct ColorStepTests {
    /// Premultiplied pixels (0 ≤ C ≤ A ≤ 1) from the noise generator, with some transparent and some opaque.
    static let pixels: [SIMD4<Float>] = {
        let noise = noiseImage(width: 64, height: 8, seed: 7, alpha: true)
        return (0..<(noise.width * noise.height)).map { i in
            let p = noise[i % noise.width, i / noise.width]
            let a: Float = i % 7 == 0 ? 0 : i % 5 == 0 ? 1 : Float(p.w) / 255
            return SIMD4(Float(p.x) / 255 * a, Float(p.y) / 255 * a, Float(p.z) / 255 * a, a)
        }
    }()

    static let transforms = BlurStyle.builtIn.flatMap { [ColorTransform(blurOf: $0), ColorTransform(fallbackOf: $0)] }

    @Test func twoPixelsAtOnceGetEachPixelsOwnValuesBitForBit() {
        for transform in Self.transforms {
            for (first, second) in zip(Self.pixels, Self.pixels.reversed()) {
                let both = transform.apply(SIMD8(lowHalf: first, highHalf: second))
                #expect(
                    both.lowHalf == transform.apply(first) && both.highHalf == transform.apply(second),
                    "\(first) \(second)")
                for maximum: Float in [255, 65535] {
                    let scaled = CompositePass.outputScaled(both, maximum: maximum)
                    #expect(scaled.lowHalf == CompositePass.outputScaled(both.lowHalf, maximum: maximum))
                    #expect(scaled.highHalf == CompositePass.outputScaled(both.highHalf, maximum: maximum))
                }
            }
        }
    }

    @Test(arguments: BlurStyle.builtIn)
    func theStepsAreSaturationClampedToAlphaThenTheTint(_ style: BlurStyle) {
        let transform = ColorTransform(blurOf: style)
        for p in Self.pixels {
            // The definition, in Double: Rec. 709 saturation, each channel clamped to [0, A], then source-over tint.
            let c = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z)), a = Double(p.w), s = style.saturation
            let luma = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
            let saturated = (c * s + SIMD3(repeating: (1 - s) * luma)).clamped(
                lowerBound: .zero,
                upperBound: SIMD3(repeating: a))
            let tinted = style.tintColor * style.tintAlpha + saturated * (1 - style.tintAlpha)
            let expected = SIMD4(tinted, style.tintAlpha + a * (1 - style.tintAlpha))
            let actual = transform.apply(p)
            for lane in 0..<4 {
                #expect(abs(Double(actual[lane]) - expected[lane]) < 1e-6, "\(style.name) lane \(lane) of \(p)")
            }
        }
    }
}
