import BackdropImageIO

/// One effect view to render: which style, where, at what scale, how exactly, whether it blurs at all, and the
/// vibrant content over it.
public struct Effect: Sendable, Equatable {
    /// Fast runs the GPU's pipeline (downscale, blur small, upscale); exact runs the full-resolution Gaussian.
    public enum Quality: String, Sendable, Codable, CaseIterable {
        case fast
        case exact
    }

    /// Blur, or the tint-only fallback a device draws when its GPU cannot afford the blur.
    public enum Path: String, Sendable, Codable, CaseIterable {
        case blur
        case tintOnly = "tint-only"
    }

    /// The style: blur, saturation, tint.
    public var style: BlurStyle
    /// The view's frame in pixels of the input picture; nil for the whole picture.
    public var frame: PixelRect?
    /// Pixels per point: converts the style's σ from points to pixels.
    public var scale: Double
    /// Fast (GPU-style) or exact.
    public var quality: Quality
    /// Blur, or the tint-only fallback.
    public var path: Path
    /// Where vibrant content is drawn over the effect; nil for none.
    public var vibrancy: Vibrancy?
    /// Increase Contrast: the vibrancy level drawn with its raised alpha
    /// (``VibrantColorMatrix/increasingContrast(for:dark:)``); false by default.
    public var increaseContrast = false

    /// An effect; defaults: the whole picture, scale 1, fast, blur, no vibrancy.
    public init(
        style: BlurStyle, frame: PixelRect? = nil, scale: Double = 1, quality: Quality = .fast,
        path: Path = .blur, vibrancy: Vibrancy? = nil
    ) {
        self.style = style
        self.frame = frame
        self.scale = scale
        self.quality = quality
        self.path = path
        self.vibrancy = vibrancy
    }

    /// The Gaussian's σ in pixels: σ (points) × scale.
    public var sigmaPixels: Double { style.sigmaPoints * scale }
}
