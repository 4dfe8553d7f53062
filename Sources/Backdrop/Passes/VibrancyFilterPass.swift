/// Pass 7, the vibrancy filter: the content texture composited over the finished effect with the style's blend.
///
/// - Inputs: the finished effect as the composite reads it (straight colour and alpha at output scale: blur,
///   saturation and tint done, or the tint-only fallback) and the clipped content (straight RGBA8).
/// - Output: the same values, in place. Inside the clipped content rectangle each pixel becomes
///   ``VibrancyBlend/composite(_:alpha:over:one:)``: straight colour b·(1 − a) + blend(c, b)·a, alpha
///   a + A_b·(1 − a). Where the content's alpha is 0, and outside the rectangle, the effect's value is not touched.
/// - Schedule: the composite runs it on each output row while it writes the row (one pass over the output).
/// - Work (GPU): over the clipped rectangle only, 2 texels read per pixel written (content and backdrop), blended
///   into the framebuffer.
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

    /// `count` content pixels (straight RGBA8 at `content`) over the finished effect's values at output scale
    /// (``CompositePass/outputScaled(_:maximum:)``), in place. A pixel whose content alpha is 0 keeps its value
    /// bit for bit.
    @inline(__always) func apply(content: UnsafePointer<UInt8>, over values: UnsafeMutablePointer<SIMD4<Float>>,
                                 count: Int, maximum: Float) {
        // One loop per blend, so that the blend is not chosen again for every pixel.
        switch blend {
        case .plusDarker: Self.apply(.plusDarker, content: content, over: values, count: count, maximum: maximum)
        case .plusLighter: Self.apply(.plusLighter, content: content, over: values, count: count, maximum: maximum)
        }
    }

    @inline(__always) static func apply(_ blend: VibrancyBlend, content: UnsafePointer<UInt8>,
                                        over values: UnsafeMutablePointer<SIMD4<Float>>, count: Int, maximum: Float) {
        let offset = SIMD4<Float>(repeating: CompositePass.roundingOffset)
        // Content bytes (c, a) → (c·max/255, 2·max): see ``VibrancyBlend/composite(colour:alpha:over:one:)``.
        let scale = SIMD4<Float>(maximum / 255, maximum / 255, maximum / 255, 0)
        let alphaLane = SIMD4<Float>(0, 0, 0, 2 * maximum)
        for x in 0..<count {
            let c = SampleConversion.floats(content + 4 &* x)  // 0 … 255
            let alpha = SIMD4<Float>(repeating: c.w)
            let backdrop = values[x]
            let mixed = blend.composite(c * scale + alphaLane, alpha: alpha * (1 / 255), over: backdrop - offset,
                                        one: maximum) + offset
            values[x] = mixed.selected(whereAboveZero: alpha, else: backdrop)
        }
    }
}
