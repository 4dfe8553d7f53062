import BackdropImageIO

/// `UIImage+ImageEffects` as a plan (Apple's WWDC 2013 sample, v1.0; v1.1 gives the same widths): the second kind of
/// plan Backdrop runs beside the system blur's ``RenderPlan``, for the pixels iOS 7 apps actually shipped.
///
/// Its steps, in order, each in 8-bit premultiplied RGBA (gamma-encoded sRGB, no linearisation):
/// 1. the frame's crop of the picture, premultiplied (⌊(c · a + 127) / 255⌋): an app snapshots the region behind
///    its view, so edges extend at the crop's border;
/// 2. when the radius × scale is above 0, three box passes of ``boxWidth`` (`BoxBlur8`);
/// 3. when the saturation is not 1, the integer saturation matrix (`SaturationMatrix8`);
/// 4. the crop, then — when blurred — the effect over it source-over, through the mask's coverage where one is
///    given, then the tint filled source-over over the whole crop (transparent pixels included);
/// 5. unpremultiplied (⌊(c · 255 + ⌊a/2⌋) / a⌋) and put back into the frame; outside it the output is the input.
/// Source-over is ⌊src + (dst · (255 − src.a) + 127) / 255⌋ for 8-bit sources and the tint's exact float value
/// rounded half up (Core Graphics does not document either).
public struct ImageEffectsPlan: Sendable, Equatable {
    public let style: ImageEffectsStyle
    /// Pixels per point.
    public let scale: Double
    /// The frame in pixels of the picture, clipped to it (``RenderPlan/clippedFrame(_:in:)``).
    public let frame: PixelRect
    /// The box width of each of the three passes; nil when there is no blur.
    public let boxWidth: Int?
    /// The saturation step; nil when the saturation is 1.
    let saturationMatrix: SaturationMatrix8?

    /// The plan of `style` at `scale` over `frame` (nil: the whole picture; clipped to the picture) of a picture of
    /// `imageSize`.
    public init(style: ImageEffectsStyle, scale: Double, frame: PixelRect?, imageSize: PixelSize) throws(BackdropError)
    {
        try RenderPlan.validate(scale: scale)
        let frame = try RenderPlan.frame(frame, in: imageSize)
        self.style = style
        self.scale = scale
        self.frame = frame
        let radius = style.radiusPoints * scale
        boxWidth = radius > Double(Float.ulpOfOne) ? BoxBlur8.width(radiusPixels: radius) : nil
        if let boxWidth, boxWidth > BoxBlur8.maximumWidth {
            throw BackdropError(
                .badOption,
                "a radius of \(style.radiusPoints) pt at scale \(scale) needs a box \(boxWidth) pixels wide; the sums hold \(BoxBlur8.maximumWidth) (radius × scale up to 1540)"
            )
        }
        saturationMatrix =
            abs(style.saturation - 1) > Double(Float.ulpOfOne) ? SaturationMatrix8(saturation: style.saturation) : nil
    }

    /// The steps' names, in order, as `--explain`-style listings show them.
    public var steps: [String] {
        ["crop \(frame) and premultiply"]
            + (boxWidth.map { width in (1...3).map { "box blur \(width)×\(width) (pass \($0))" } } ?? [])
            + (saturationMatrix == nil ? [] : ["saturation × \(style.saturation) (integer matrix, divisor 256)"])
            + [
                (boxWidth == nil ? "" : "effect over the crop, ") + "tint \(style.tintAlpha) over it",
                "unpremultiply into the frame",
            ]
    }
}
