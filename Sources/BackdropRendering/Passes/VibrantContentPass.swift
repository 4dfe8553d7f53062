import BackdropImageIO

/// Pass 6, vibrant content: the content layer rendered into a texture of its own, for the filter to read.
///
/// - Input: the content picture, straight RGBA8, drawn 1:1 with its top-left corner at the placement's origin.
/// - Output: the part of it inside the view's frame (`clip`, in pixels of the input picture), straight, as it is:
///   the CPU reads the content picture's bytes in place (``sampleOffset(ofRow:)``) rather than copy them.
///   Straight, not premultiplied: the vibrancy blend works on straight colours.
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
        descriptor = PassDescriptor(
            name: "vibrant content", kind: .vibrantContent, inputSize: placement.contentSize,
            outputSize: clip.size, texelsPerPixel: 1, blends: false, offscreen: true,
            gpuTexelsFromMemory: clip.size.area)
    }

    /// Where row y of the clipped content starts among the content picture's samples (straight RGBA8; the row
    /// is `clip.width` pixels long).
    public func sampleOffset(ofRow y: Int) -> Int {
        ((clip.y - placement.y + y) * placement.contentSize.width + clip.x - placement.x) * 4
    }
}
