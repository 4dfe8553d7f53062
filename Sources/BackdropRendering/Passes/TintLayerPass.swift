import BackdropImageIO

/// The tint drawn as a layer of its own over the upscaled blur: a GPU pass the CPU folds into the pass before it.
///
/// - Why it exists: seed figures B1 and B2 give extra light 3.65 ms more than light and dark on the iPad (3rd
///   generation), and V5 gives it 3.48 ms more on the iPad Air; F2 says dark has the fewest passes, five. Dark
///   and extra light share σ, so the blur passes cannot explain it: the difference behaves like one more
///   full-screen blended pass. Backdrop's reading is that extra light draws its tint as a separate blended
///   layer; light and dark fold it into the upscale, as the CPU always does.
/// - Maths: none of its own on the CPU. Source-over of the tint is affine, so applying it in
///   ``UpscaleTintPass`` (as the CPU does) or after it (as this GPU pass does) gives the same picture.
/// - Work (GPU): a solid colour blended over every pixel of the frame: no fetches, the destination read and
///   written. On screen, not offscreen.
public enum TintLayerPass {
    /// The pass as data, over a frame of `size`.
    public static func descriptor(size: PixelSize) -> PassDescriptor {
        PassDescriptor(
            name: "tint layer", kind: .tintLayer, inputSize: size, outputSize: size, texelsPerPixel: 0,
            blends: true, offscreen: false, isCPUStep: false, gpuFetchesPerPixel: 0, gpuTexelsFromMemory: 0)
    }
}
