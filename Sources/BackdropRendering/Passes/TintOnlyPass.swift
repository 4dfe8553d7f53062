import BackdropImageIO

/// The blur-disabled fallback: the style's tint alone, more opaque, drawn over the content.
///
/// - Input and output: frame-sized premultiplied rows.
/// - Maths: source-over of the tint at the fallback opacity f: C = tint·f + C·(1 − f), A = f + A·(1 − f)
///   (``ColorTransform/init(fallbackOf:)``; no saturation).
/// - Work: 1 texel read per pixel written on the CPU; on the GPU a solid colour blended on screen over the content.
public struct TintOnlyPass: ColorPass {
    /// The colour steps applied to every pixel.
    public let transform: ColorTransform
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which input rows an output row reads (decides whether the input is stored).
    public var inputAccess: RowAccess { .sameRow }

    /// The fallback over a frame of `size`.
    public init(size: PixelSize, transform: ColorTransform) {
        self.transform = transform
        descriptor = PassDescriptor(
            name: "tint only", kind: .tintOnly, inputSize: size, outputSize: size,
            texelsPerPixel: 1, blends: true, offscreen: false,
            gpuFetchesPerPixel: 0, gpuTexelsFromMemory: 0)  // a solid colour blended over the content
    }

    /// The frame rows with the tint applied, as the composite reads them.
    public func outputRows(reading input: Stage, maximum: Float, parallelism: Parallelism) -> OutputRows {
        transform.outputRows(of: input, maximum: maximum)
    }
}
