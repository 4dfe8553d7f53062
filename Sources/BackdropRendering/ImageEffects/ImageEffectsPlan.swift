import BackdropImageIO

/// `UIImage+ImageEffects` as a plan (Apple's WWDC 2013 sample, v1.0; v1.1 gives the same widths): the second kind of
/// plan Backdrop runs beside the system blur's ``RenderPlan``, for the pixels iOS 7 apps actually shipped.
///
/// Its passes, in order, each on 8-bit premultiplied RGBA (gamma-encoded sRGB, no linearisation), each a file of its
/// own with its contract:
/// 1. when the radius × scale is above 0, the frame's crop of the picture, premultiplied (`PremultiplyPass`): an app
///    snapshots the region behind its view, so edges extend at the crop's border;
/// 2. then three box passes of ``boxWidth`` (`BoxBlurPass`);
/// 3. then, when the saturation is not 1, the integer saturation matrix (`SaturationPass`);
/// 4. the picture outside the frame, copied (`CopyOutsideFramePass`);
/// 5. inside the frame, the crop, then — when blurred — the effect over it source-over, through the mask's coverage
///    where one is given, then the tint filled source-over over the whole crop (transparent pixels included),
///    unpremultiplied (`ImageEffectsCompositePass`).
/// `Renderer.render(_:imageEffects:mask:)` executes them; ``steps`` lists them.
public struct ImageEffectsPlan: Sendable, Equatable {
    public let style: ImageEffectsStyle
    /// Pixels per point.
    public let scale: Double
    /// The frame in pixels of the picture, clipped to it (``RenderPlan/clippedFrame(_:in:)``).
    public let frame: PixelRect
    /// The box width of each of the three passes; nil when there is no blur.
    public let boxWidth: Int?
    /// The saturation step; nil when the saturation is 1.
    let saturation: SaturationPass?

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
        boxWidth = radius > Double(Float.ulpOfOne) ? BoxBlurPass.width(radiusPixels: radius) : nil
        if let boxWidth, boxWidth > BoxBlurPass.maximumWidth {
            throw BackdropError(
                .badOption,
                "a radius of \(style.radiusPoints) pt at scale \(scale) needs a box \(boxWidth) pixels wide; the sums hold \(BoxBlurPass.maximumWidth) (radius × scale up to 1540)"
            )
        }
        saturation =
            abs(style.saturation - 1) > Double(Float.ulpOfOne) ? SaturationPass(saturation: style.saturation) : nil
    }

    /// The buffers a pass reads and writes, which the executor provides.
    enum Buffer: Sendable {
        /// The whole source picture, straight.
        case source
        /// The frame of the source picture.
        case sourceFrame
        /// A frame-sized picture (the output's first samples until the composite writes them).
        case crop
        /// A frame-sized picture of its own, absent when the plan does not blur.
        case effect
        /// The mask, absent when none is given.
        case mask
        /// The whole output picture.
        case output
        /// The frame of the output picture.
        case outputFrame
    }

    /// A pass of the plan with the buffers it reads and the one it writes.
    struct Step: Sendable {
        let pass: any ImageEffectsPass
        let reads: [Buffer]
        let writes: Buffer
        /// Whether a later pass computes this one's values in its own loop, so that it runs as no pass of its own:
        /// the saturation, inside the composite's vector kernel (the schedule's choice, the same values).
        var isFused = false
    }

    /// The passes in order.
    var passes: [Step] {
        var passes: [Step] = []
        let composite = ImageEffectsCompositePass(style: style, saturation: saturation, blurred: boxWidth != nil)
        if let box = boxWidth {
            passes.append(Step(pass: PremultiplyPass(frame: frame), reads: [.sourceFrame], writes: .crop))
            for (number, (from, to)) in zip(1..., [(Buffer.crop, Buffer.effect), (.effect, .crop), (.crop, .effect)]) {
                passes.append(Step(pass: BoxBlurPass(box: box, number: number), reads: [from], writes: to))
            }
            if let saturation {
                passes.append(
                    Step(pass: saturation, reads: [.effect], writes: .effect, isFused: composite.fusesSaturation))
            }
        }
        passes.append(Step(pass: CopyOutsideFramePass(frame: frame), reads: [.source], writes: .output))
        passes.append(Step(pass: composite, reads: [.sourceFrame, .effect, .mask], writes: .outputFrame))
        return passes
    }

    /// The passes' names, in order, as `--explain`-style listings show them.
    public var steps: [String] { passes.map(\.pass.name) }
}
