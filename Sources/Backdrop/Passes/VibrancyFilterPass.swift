/// Pass 7, the vibrancy filter: the content texture composited over the finished effect with the style's blend.
///
/// - Inputs: the finished effect (frame-sized premultiplied rows: blur, saturation and tint done, or the tint-only
///   fallback) and the clipped content rows of ``VibrantContentPass`` (straight).
/// - Output: frame-sized premultiplied rows. Inside the clipped content rectangle each pixel is
///   ``VibrancyBlend/composite(_:over:)``: straight colour b·(1 − a) + blend(c, b)·a, alpha a + A_b·(1 − a).
///   Where the content's alpha is 0, and outside the rectangle, the effect's pixel passes through unchanged
///   (bit for bit, not recomputed).
/// - Work (GPU): over the clipped rectangle only, 2 texels read per pixel written (content and backdrop), blended
///   into the framebuffer. The CPU rows cover the whole frame so that the composite can read them as one stage.
public struct VibrancyFilterPass: Sendable {
    /// The blend the style uses.
    public let blend: VibrancyBlend
    /// The clipped content rectangle, relative to the frame's top-left corner.
    public let clipInFrame: PixelRect
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which rows of the effect an output row reads (decides whether the effect is stored).
    public var inputAccess: RowAccess { .sameRow }

    /// The filter for content clipped to `clipInFrame` (frame coordinates).
    public init(blend: VibrancyBlend, clipInFrame: PixelRect) {
        self.blend = blend
        self.clipInFrame = clipInFrame
        descriptor = PassDescriptor(name: "vibrancy filter", kind: .vibrancyFilter, inputSize: clipInFrame.size,
                                    outputSize: clipInFrame.size, texelsPerPixel: 2, blends: true, offscreen: false,
                                    gpuTexelsFromMemory: 2 * clipInFrame.size.area)
    }

    /// A function computing any frame row from the finished effect and the content's rows.
    public func rows(reading effect: Stage, content: Stage) -> RowFunction {
        let clip = clipInFrame, blend = blend
        return { y, out in
            effect.readRow(y, into: out)
            guard y >= clip.y && y < clip.maxY else { return }
            withScratchRow(clip.width) { contentRow in
                content.readRow(y - clip.y, into: contentRow)
                let backdrop = out + clip.x
                // One loop per blend, so that the blend is not chosen again for every pixel.
                switch blend {
                case .plusDarker: Self.composite(contentRow, over: backdrop, count: clip.width, blend: .plusDarker)
                case .plusLighter: Self.composite(contentRow, over: backdrop, count: clip.width, blend: .plusLighter)
                }
            }
        }
    }

    /// `count` content pixels over the backdrop pixels, in place; pixels of alpha 0 are left as they are.
    @inline(__always) static func composite(_ content: UnsafeMutablePointer<SIMD4<Float>>,
                                            over backdrop: UnsafeMutablePointer<SIMD4<Float>>, count: Int,
                                            blend: VibrancyBlend) {
        for x in 0..<count where content[x].w > 0 {
            backdrop[x] = blend.composite(content[x], over: backdrop[x])
        }
    }
}
