import BackdropImageIO

/// A material's blur-path passes between the capture and the composite, for ``RenderPlan``:
///
/// Fast:  downscale ×1/c (c = 1 / the recipe's capture scale, 4) → material filters and a further box downscale
///        ×1/f → horizontal blur → vertical blur → upscale ×k, k = c·f. The filters run on the captured image; f
///        (``RenderPlan/downscaleFactor(sigmaPixels:)`` of σ/c) only spares the blur pixels, as iOS 7's fast path does.
///        Two box means of c and f are one box of c·f, so the upscale's geometry and the variances are those of k.
/// Exact: material filters → horizontal blur → vertical blur (full resolution, k = 1).
///
/// The blur's σ is the recipe's radius in points × the scale; on the small image it is the σ' that, with the
/// downscale's and the upscale's own blur, makes σ in all (``RenderPlan/smallImageSigma(sigmaPixels:factor:)``).
/// The upscale applies no colour (the recipes have no tint).
struct MaterialPasses {
    let factor: Int
    let kernel: GaussianKernel
    let rowPasses: [any RowPass]
    let color: UpscaleTintPass

    /// The passes of `recipe` over a frame of `frameSize`, blurring by `sigmaPixels`.
    init(recipe: MaterialRecipe, sigmaPixels: Double, quality: Effect.Quality, frameSize: PixelSize) {
        let capture = quality == .exact ? 1 : recipe.captureFactor
        let further = quality == .exact ? 1 : RenderPlan.downscaleFactor(sigmaPixels: sigmaPixels / Double(capture))
        let k = capture * further
        var passes: [any RowPass] = []
        var size = frameSize
        if capture > 1 {
            let downscale = DownscalePass(factor: capture, inputSize: size)
            passes.append(downscale)
            size = downscale.descriptor.outputSize
        }
        let kernel = GaussianKernel(sigma: RenderPlan.smallImageSigma(sigmaPixels: sigmaPixels, factor: k))
        let filters = MaterialFilterPass(recipe: recipe, size: size, factor: further)
        passes.append(filters)
        size = filters.descriptor.outputSize
        passes.append(HorizontalBlurPass(kernel: kernel, size: size))
        passes.append(VerticalBlurPass(kernel: kernel, size: size))
        factor = k
        self.kernel = kernel
        rowPasses = passes
        color = UpscaleTintPass(
            factor: k, inputSize: size, outputSize: frameSize,
            transform: ColorTransform(saturation: 1, tintColor: .zero, tintAlpha: 0), tints: false)
    }
}
