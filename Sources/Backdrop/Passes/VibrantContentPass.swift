/// Pass 6, vibrant content: the content layer rendered into a texture of its own, for the filter to read.
///
/// - Input: the content picture, straight RGBA8, drawn 1:1 with its top-left corner at the placement's origin.
/// - Output: the part of it inside the view's frame (`clip`, in pixels of the input picture), as rows of straight
///   RGBA in [0, 1] (every sample divided by 255). Straight, not premultiplied: the vibrancy blend works on
///   straight colours.
/// - Edges: none; what lies outside the frame is not drawn (clipped), and the plan refuses content that lies
///   wholly outside it.
/// - Work: 1 texel read per pixel written, not blended, offscreen (a render-target switch follows it).
public struct VibrantContentPass: Sendable {
    /// Where the content lies, in pixels of the input picture.
    public let placement: Vibrancy
    /// The content's rectangle clipped to the frame, in pixels of the input picture.
    public let clip: PixelRect
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor

    /// The content pass of `placement` clipped to `clip` (non-empty, inside the content rectangle).
    public init(placement: Vibrancy, clip: PixelRect) {
        self.placement = placement
        self.clip = clip
        descriptor = PassDescriptor(name: "vibrant content", kind: .vibrantContent, inputSize: placement.contentSize,
                                    outputSize: clip.size, texelsPerPixel: 1, blends: false, offscreen: true,
                                    gpuTexelsFromMemory: clip.size.area)
    }

    /// Row y of the clipped content (`clip.width` pixels), straight RGBA in [0, 1].
    public func rows(content: RGBAImage<UInt8>) -> RowFunction {
        precondition(content.size == placement.contentSize, "VibrantContentPass: the content is not the planned size")
        let firstColumn = clip.x - placement.x, firstRow = clip.y - placement.y, width = clip.width
        return { y, out in
            content.samples.withUnsafeBufferPointer { samples in
                let row = samples.baseAddress! + ((firstRow + y) * content.width + firstColumn) * 4
                for x in 0..<width {
                    out[x] = SampleConversion.floats(row + 4 * x) * (1 / 255)
                }
            }
        }
    }
}
