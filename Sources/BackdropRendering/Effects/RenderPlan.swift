import BackdropImageIO

/// An effect turned into its ordered list of passes for one picture size: what the renderer executes and what the
/// cost model prices. One source of truth.
///
/// Blur path (fast):  capture → downscale ×1/k → horizontal blur → vertical blur → upscale ×k + tint → composite.
/// Blur path (exact): capture → horizontal blur → vertical blur → tint → composite (k = 1, no resampling).
/// Tint-only path:    capture → tint only → composite (a system material: capture → average colour through its
///                    reduced-transparency recipe → composite, ``MaterialAverageColourPass``; Liquid Glass: the
///                    average colour unchanged, ``MaterialRecipe/glassAverageColour``, then its face).
/// With vibrancy, two passes come before the composite on either path: vibrant content → vibrancy filter (a
/// vibrancy level's matrix runs on the output after the composite: `VibrancyMatrixFilter`).
/// Extra light's GPU plan has a tint layer after the upscale, which the CPU folds into it (``TintLayerPass``).
/// A system material's blur path: capture → downscale ×1/4 → material filters → blurs → upscale → composite.
/// Liquid Glass: the blur path without colour, then its face (``GlassFacePass``, run on the output after the
/// composite); vibrant content over glass, blend or level, runs after the face, inside the glass's shape
/// (`GlassVibrancyFilter`).
public struct RenderPlan: Sendable {
    /// The effect this plan renders.
    public let effect: Effect
    /// The size of the picture it renders over.
    public let imageSize: PixelSize
    /// The view's frame, clipped to the picture (``clippedFrame(_:in:)``).
    public let frame: PixelRect
    /// The downscale factor k (1 in exact mode and on the tint-only path).
    public let downscaleFactor: Int
    /// The Gaussian run on the small image (σ' in small pixels); nil on the tint-only path.
    public let blurKernel: GaussianKernel?

    let capture: CapturePass
    /// The passes between the capture and the colour pass (downscale and blurs; none on the tint-only path).
    let rowPasses: [any RowPass]
    /// The pass that finishes the colour: upscale and tint, or the tint-only fallback.
    let color: any ColorPass
    /// GPU passes that the CPU folds into the row pass before them (the extra-light tint layer).
    let foldedGPUPasses: [PassDescriptor]
    let vibrancy: (content: VibrantContentPass, filter: VibrancyFilterPass)?
    /// Liquid Glass's face, run on the output after the composite; nil for any other style.
    let glass: GlassFacePass?
    let composite: CompositePass

    /// The most passes a plan has: capture, downscale, two blurs, colour, tint layer or glass face (extra light's
    /// tint layer and glass never go together), vibrant content and filter, composite.
    public static let maximumPassCount = 9

    /// Every pass in order, as data.
    public var passes: [PassDescriptor] {
        [capture.descriptor] + rowPasses.map(\.descriptor) + [color.descriptor] + foldedGPUPasses
            + (glass.map { [$0.descriptor] } ?? [])
            + (vibrancy.map { [$0.content.descriptor, $0.filter.descriptor] } ?? []) + [composite.descriptor]
    }

    /// Plans `effect` over a picture of `imageSize`, its frame clipped to the picture (``clippedFrame(_:in:)``).
    /// Throws `.badOption` when the frame lies wholly outside the picture, when the scale or the style's numbers are
    /// out of range, or when the vibrant content lies wholly outside the clipped frame.
    public init(effect: Effect, imageSize: PixelSize) throws(BackdropError) {
        let frame = try Self.frame(effect.frame, in: imageSize)
        try Self.validate(scale: effect.scale)
        try Self.validate(effect.style)
        try GlassFacePass.validate(effect)
        self.effect = effect
        self.imageSize = imageSize
        self.frame = frame

        switch effect.path {
        case .tintOnly:
            downscaleFactor = 1
            blurKernel = nil
            capture = CapturePass(frame: frame, imageSize: imageSize, offscreen: false)
            rowPasses = []
            if let recipe = effect.style.material {
                color = MaterialAverageColourPass(recipe: recipe.reducedTransparency, size: frame.size)
            } else if effect.style.glass != nil {
                color = MaterialAverageColourPass(
                    recipe: .glassAverageColour, size: frame.size, face: effect.style.glass.map(GlassFaceColour.init))
            } else {
                color = TintOnlyPass(size: frame.size, transform: ColorTransform(fallbackOf: effect.style))
            }
            foldedGPUPasses = []
        case .blur where effect.style.material != nil:
            // A system material: its own passes (``MaterialPasses``).
            let material = MaterialPasses(
                recipe: effect.style.material!, sigmaPixels: effect.sigmaPixels, quality: effect.quality,
                frameSize: frame.size)
            downscaleFactor = material.factor
            blurKernel = material.kernel
            capture = CapturePass(frame: frame, imageSize: imageSize, offscreen: true)
            rowPasses = material.rowPasses
            color = material.color
            foldedGPUPasses = []
        case .blur:
            let sigma = effect.sigmaPixels
            let k =
                effect.quality == .exact
                ? 1
                : effect.style.glass == nil
                    ? Self.downscaleFactor(sigmaPixels: sigma) : Self.glassDownscaleFactor(sigmaPixels: sigma)
            let kernel = GaussianKernel(sigma: Self.smallImageSigma(sigmaPixels: sigma, factor: k))
            downscaleFactor = k
            blurKernel = kernel
            capture = CapturePass(frame: frame, imageSize: imageSize, offscreen: true)
            var passes: [any RowPass] = []
            var size = frame.size
            if k > 1 {
                let downscale = DownscalePass(factor: k, inputSize: size)
                passes.append(downscale)
                size = downscale.descriptor.outputSize
            }
            passes.append(HorizontalBlurPass(kernel: kernel, size: size))
            passes.append(VerticalBlurPass(kernel: kernel, size: size))
            rowPasses = passes
            let glassFace = effect.style.glass.map { GlassFacePass(glass: $0, frame: frame, scale: effect.scale) }
            color = UpscaleTintPass(
                factor: k, inputSize: size, outputSize: frame.size,
                transform: ColorTransform(blurOf: effect.style), face: effect.style.glass.map(GlassFaceColour.init),
                refraction: glassFace.map { GlassRefraction($0, factor: k) })
            foldedGPUPasses = effect.style.tintIsOwnLayer ? [TintLayerPass.descriptor(size: frame.size)] : []
        }
        vibrancy = try effect.vibrancy.map { placement throws(BackdropError) in
            let clip = try Self.clip(placement, to: frame)
            let clipInFrame = PixelRect(
                x: clip.x - frame.x, y: clip.y - frame.y, width: clip.width, height: clip.height)
            let matrix = try placement.level.map { level throws(BackdropError) in
                let matrix = try level.matrix(over: effect.style)
                guard effect.increaseContrast, let recipe = effect.style.material ?? effect.style.glass?.levelRecipe
                else { return matrix }
                return matrix.increasingContrast(for: level, dark: recipe.isDark)
            }
            return (
                VibrantContentPass(placement: placement, clip: clip),
                VibrancyFilterPass(blend: effect.style.vibrancyBlend, clipInFrame: clipInFrame, matrix: matrix)
            )
        }
        glass = effect.style.glass.map { GlassFacePass(glass: $0, frame: frame, scale: effect.scale) }
        composite = CompositePass(frame: frame, imageSize: imageSize)
    }

    /// The part of the content inside the frame; an error when there is none.
    static func clip(_ placement: Vibrancy, to frame: PixelRect) throws(BackdropError) -> PixelRect {
        let content = placement.contentRect
        guard content.isWithinLimits else {
            throw BackdropError(
                .badOption,
                "the vibrant content's corner \(placement.x),\(placement.y) lies beyond ±\(PixelRect.coordinateLimit)")
        }
        let x0 = max(content.x, frame.x), y0 = max(content.y, frame.y)
        let x1 = min(content.maxX, frame.maxX), y1 = min(content.maxY, frame.maxY)
        guard !content.isEmpty, x1 > x0, y1 > y0 else {
            throw BackdropError(
                .badOption,
                "the vibrant content (\(placement.contentSize) at \(placement.x),\(placement.y)) lies wholly outside the frame \(frame) (x,y,w,h)"
            )
        }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Small-image samples per σ that the fast path keeps.
    public static let samplesPerSigma = 5.0

    /// How k is chosen: the largest whole k that keeps at least ``samplesPerSigma`` small pixels per σ,
    /// k = max(1, ⌊σ / 5⌋). At 5 samples per σ the residual blur on the small image (σ' ≈ σ/k ≥ 5) is wide enough
    /// that the box downscale's aliasing and the bilinear upscale's phase-dependence stay below 1/255 on the test
    /// photos: the reference cases measure 45–68 dB against the 40 dB requirement (see `Tests/`). A larger k would
    /// be faster; the full-resolution work (one read, one write) does not depend on k.
    public static func downscaleFactor(sigmaPixels: Double) -> Int {
        max(1, Int((sigmaPixels / samplesPerSigma).rounded(.down)))
    }

    /// Liquid Glass's k: ``downscaleFactor(sigmaPixels:)``'s, rounded to the nearest multiple of 4 (halves up)
    /// once it is 3 or more, so that the composite's upscale runs take their vector kernel (which needs k a multiple
    /// of 4) as light's do: regular glass at scale 2 (σ = 16 px) takes k = 4 rather than 3, clear glass (σ = 32 px)
    /// 8 rather than 6; both keep 4 small pixels per σ rather than 5 (the rule's least is 3.75, at σ = 30 px).
    /// Below σ = 15 px, where that rule gives 1 or 2, k is the largest of 1 and 2 that keeps those 3.75 small
    /// pixels per σ: regular glass at scale 1 (σ = 8 px) takes k = 2, 4 small pixels per σ as at scale 2, rather
    /// than blurring at full size (docs/styles.md has the times); its upscale runs the Swift walk, k not being a
    /// multiple of 4. The face's colour is applied to the small image (``GlassFaceColour``) and its rim is drawn per
    /// output pixel, so the coarser grid shows only in the blur.
    public static func glassDownscaleFactor(sigmaPixels: Double) -> Int {
        let k = downscaleFactor(sigmaPixels: sigmaPixels)
        guard k < 3 else { return 4 * ((k + 2) / 4) }
        return sigmaPixels >= 2 * glassLeastSamplesPerSigma ? 2 : 1
    }

    /// The fewest small pixels per σ that glass's k keeps (``glassDownscaleFactor(sigmaPixels:)``).
    static let glassLeastSamplesPerSigma = 3.75

    /// σ' in small pixels such that the whole pipeline blurs by σ: independent blurs add their variances, so
    /// σ² = σ_down² + (k·σ')² + σ_up², with σ_down² from the k-box mean and σ_up² from bilinear interpolation.
    public static func smallImageSigma(sigmaPixels sigma: Double, factor k: Int) -> Double {
        guard k > 1 else { return sigma }
        let residual = sigma * sigma - DownscalePass.addedVariance(factor: k) - UpscaleTintPass.addedVariance(factor: k)
        return residual > 0 ? residual.squareRoot() / Double(k) : 0
    }

    /// `frame` (nil: the whole picture) clipped to a picture of `imageSize` (``clippedFrame(_:in:)``).
    public static func frame(_ frame: PixelRect?, in imageSize: PixelSize) throws(BackdropError) -> PixelRect {
        try clippedFrame(frame, in: imageSize).frame
    }

    /// `frame` (nil: the whole picture) cut to the part of it inside a picture of `imageSize`, and the one-line note
    /// a front end shows when that changed it ("the frame 500,0,300,200 (x,y,w,h) reaches past the 600×400
    /// picture: clipped to 500,0,100,200"; nil when the frame lay inside). Throws `.badOption` for a frame with no
    /// width or height, beyond ±``PixelRect/coordinateLimit``, or wholly outside the picture (no pixel to draw).
    public static func clippedFrame(_ frame: PixelRect?, in imageSize: PixelSize) throws(BackdropError) -> (
        frame: PixelRect, note: String?
    ) {
        let frame = frame ?? PixelRect(covering: imageSize)
        if frame.fits(in: imageSize) { return (frame, nil) }
        guard frame.isWithinLimits, !frame.isEmpty else {
            throw BackdropError(
                .badOption, "the frame \(frame) (x,y,w,h) is not a rectangle inside the \(imageSize) picture")
        }
        let inside = frame.intersection(PixelRect(covering: imageSize))
        guard !inside.isEmpty else {
            throw BackdropError(.badOption, "the frame \(frame) (x,y,w,h) lies wholly outside the \(imageSize) picture")
        }
        return (inside, "the frame \(frame) (x,y,w,h) reaches past the \(imageSize) picture: clipped to \(inside)")
    }

    /// Pixels per point: more than 0, at most 16.
    public static func validate(scale: Double) throws(BackdropError) {
        guard scale > 0, scale <= 16 else {
            throw BackdropError(.badOption, "the scale \(scale) is out of range (0 < scale ≤ 16)")
        }
    }

    static func validate(_ style: BlurStyle) throws(BackdropError) {
        func check(_ value: Double, _ range: ClosedRange<Double>, _ what: String) throws(BackdropError) {
            guard value.isFinite, range.contains(value) else {
                throw BackdropError(
                    .badOption,
                    "style \(style.name): \(what) \(value) is outside \(range.lowerBound)…\(range.upperBound)")
            }
        }
        try check(style.sigmaPoints, 0...500, "sigma")
        try check(style.saturation, 0...10, "saturation")
        try check(style.tintAlpha, 0...1, "tint alpha")
        try check(style.fallbackAlpha, 0...1, "fallback alpha")
        for channel in [style.tintColor.x, style.tintColor.y, style.tintColor.z] {
            try check(channel, 0...1, "tint colour channel")
        }
    }
}
