import BackdropImageIO

/// Pass 7, the vibrancy filter: the content texture composited over the finished effect with the style's blend.
///
/// - Inputs: the finished effect as the composite reads it (straight colour and alpha at output scale: blur,
///   saturation and tint done, or the tint-only fallback) and the clipped content (straight RGBA8).
/// - Output: the same values. Inside the clipped content rectangle each pixel becomes
///   `VibrancyBlend/composite(colour:alpha:over:one:)`: straight colour b·(1 − a) + blend(c, b)·a, alpha
///   a + A_b·(1 − a). Where the content's alpha is 0, and outside the rectangle, the effect's value is not touched.
/// - Schedule: the composite calls it on each group of four output pixels between the upscale and the
///   quantisation, in registers (one pass over the output), in the composite's arithmetic: ``FixedPoint`` for 8-bit
///   output with an upscale (`composite(_:over:_:)-(FixedPoint.Lanes,_,_)`), `Float` otherwise.
/// - Work (GPU): over the clipped rectangle only, 2 texels read per pixel written (content and backdrop), blended
///   into the framebuffer. On the tile-based GPU the backdrop is the framebuffer's own pixel, read in the tile
///   (PowerVR's framebuffer fetch): one texture fetch and one texture read from memory per pixel.
public struct VibrancyFilterPass: Sendable {
    /// The blend the style uses.
    public let blend: VibrancyBlend
    /// The clipped content rectangle, relative to the frame's top-left corner.
    public let clipInFrame: PixelRect
    /// The pass as data: sizes, taps, blending, offscreen.
    public let descriptor: PassDescriptor
    /// Which rows of the effect an output row reads (decides whether the effect is stored).
    public var inputAccess: RowAccess { .sameRow }
    /// How many columns of the clip can start a group of four inside it: max(clip width − 3, 0). A group starting
    /// at clip column f lies inside exactly when UInt(bitPattern: f) < this (one compare: a negative f reads as a
    /// huge unsigned number).
    let wholeGroupStarts: UInt

    /// A vibrancy level's matrix, which replaces the blend (`VibrancyMatrixFilter`: run on the output after the
    /// composite); nil for the blend.
    public let matrix: VibrantColorMatrix?

    /// The filter for content clipped to `clipInFrame` (frame coordinates): the blend, or with `matrix` a level's
    /// matrix (priced as the blend: 2 texels read per pixel written, blended).
    public init(blend: VibrancyBlend, clipInFrame: PixelRect, matrix: VibrantColorMatrix? = nil) {
        self.blend = blend
        self.clipInFrame = clipInFrame
        self.matrix = matrix
        wholeGroupStarts = UInt(max(clipInFrame.width - 3, 0))
        descriptor = PassDescriptor(
            name: matrix == nil ? "vibrancy filter" : "vibrancy filter (level matrix)", kind: .vibrancyFilter,
            inputSize: clipInFrame.size,
            outputSize: clipInFrame.size, texelsPerPixel: 2, blends: true, offscreen: false,
            gpuFetchesPerPixel: 1, gpuTexelsFromMemory: clipInFrame.size.area)
    }

    /// The filter's constants in `Float` at output scale (1.0 stands as `maximum`; the composite uses them for
    /// 16-bit output, and for 8-bit output without an upscale), two pixels wide: each half of a four-pixel group uses the same eight lanes, so that they
    /// stay in registers.
    ///
    /// The effect's values v carry ``CompositePass/roundingOffset`` (v = b + offset, b the backdrop), which the
    /// blend must not see. Rather than subtract it, the clamp's bounds carry it too: clamp(c' + v, lower + offset,
    /// upper + offset) − v = clamp(c' + b, lower, upper) − b. The spacing of v near 65535 is coarser than the
    /// offset, so the two forms can round apart in the last bit (one level of 65535 on 96 of 12.6 million samples
    /// of a full-screen dark render).
    struct Lanes {
        /// Content bytes → c' = c·max/255 − subtrahend·max on colour (the blend's addend), a/255 on alpha (the
        /// content's coverage, shuffled from this lane to the others).
        let scale: SIMD8<Float>, shift: SIMD8<Float>
        /// The blend's clamp, plus the offset: [0, max] on colour; [max, max] on alpha, so that the alpha lane's
        /// blend is max and the mix gives A_b + (max − A_b)·a there.
        let lower: SIMD8<Float>, upper: SIMD8<Float>
    }

    /// The constants for samples whose 1.0 is `maximum`. Not inlined, on purpose: constants the compiler can see
    /// (0 in the alpha lanes of `shift`) make it split the vectors into colour and alpha parts with shuffles.
    @inline(never) func lanes(maximum: Float) -> Lanes {
        func two(_ color: Float, _ alpha: Float) -> SIMD8<Float> {
            SIMD8(repeatingPixel: SIMD4(color, color, color, alpha))
        }
        let offset = CompositePass.roundingOffset
        return Lanes(
            scale: two(maximum / 255, 1 / 255), shift: two(-blend.subtrahend * maximum, 0),
            lower: two(offset, maximum + offset), upper: two(maximum + offset, maximum + offset))
    }

    /// The filter's constants in ``FixedPoint`` (8-bit output, 1.0 = 255 levels = 32 640 units), four pixels wide.
    struct FixedPointLanes {
        /// Added to content·128 on colour: −subtrahend·32 640 (the blend's addend); 0 on alpha.
        let shift: FixedPoint.Lanes
        /// The blend's clamp: [0, 32 640] on colour; [32 640, 32 640] on alpha, so that the alpha lane's blend is
        /// 1.0 and the mix gives A_b + (1 − A_b)·a there.
        let lower: FixedPoint.Lanes, upper: FixedPoint.Lanes
    }

    /// The constants for 8-bit output. Not inlined, for the reason ``lanes(maximum:)`` gives.
    @inline(never) func fixedPointLanes() -> FixedPointLanes {
        let one = Int16(255 * FixedPoint.unitsPerLevel)
        func four(_ color: Int16, _ alpha: Int16) -> FixedPoint.Lanes {
            FixedPoint.Lanes(repeatingPixel: SIMD4(color, color, color, alpha))
        }
        return FixedPointLanes(
            shift: four(-Int16(blend.subtrahend) * one, 0), lower: four(0, one),
            upper: four(one, one))
    }

    /// The filter over frame columns x ..< x + count of one row (`count` = 4, or 1 in lanes 0–3), as the composite
    /// hands them: the finished effect's values in the composite's arithmetic `A`. `content` is the row's clipped
    /// content (straight RGBA8, its first pixel at frame column `clipInFrame.x`). Columns outside the clip keep
    /// their values.
    @inline(__always) func apply<A: CompositeArithmetic>(
        content: UnsafePointer<UInt8>, columns x: Int, count: Int,
        over values: A.Group, _ constants: A.BlendConstants,
        _: A.Type
    ) -> A.Group {
        let first = x &- clipInFrame.x
        if count == 4 && UInt(bitPattern: first) < wholeGroupStarts {
            return A.blend(UnsafeRawPointer(content + 4 &* first), over: values, constants)
        }
        // The clip's left and right edges, and single pixels: one pixel at a time, in lanes 0–3.
        var result = values
        for i in 0..<count where first &+ i >= 0 && first &+ i < clipInFrame.width {
            let bytes = UnsafeRawPointer(content + 4 &* (first &+ i)).loadUnaligned(as: SIMD4<UInt8>.self)
            var pixel = A.Group()
            for lane in 0..<4 { pixel[lane] = values[4 &* i &+ lane] }
            let mixed = A.blend(
                SIMD16(lowHalf: SIMD8(lowHalf: bytes, highHalf: .zero), highHalf: .zero),
                over: pixel, constants)
            for lane in 0..<4 { result[4 &* i &+ lane] = mixed[lane] }
        }
        return result
    }

    /// Four content pixels (straight RGBA8) over four effect pixels at output scale:
    /// ``VibrancyBlend/composite(colour:alpha:over:one:)`` on each, two pixels per 8-lane half.
    @inline(__always) static func composite(
        _ bytes: SIMD16<UInt8>, over values: SIMD16<Float>,
        _ lanes: Lanes
    ) -> SIMD16<Float> {
        let c = SampleConversion.floats(bytes)  // 0 … 255
        return SIMD16(
            lowHalf: composite(c.lowHalf, over: values.lowHalf, lanes),
            highHalf: composite(c.highHalf, over: values.highHalf, lanes))
    }

    /// Four content pixels read at `bytes` (16 bytes, any alignment) over four effect pixels, as above: each
    /// half's eight bytes are widened straight from memory.
    @inline(__always) static func composite(
        _ bytes: UnsafeRawPointer, over values: SIMD16<Float>,
        _ lanes: Lanes
    ) -> SIMD16<Float> {
        SIMD16(
            lowHalf: composite(SampleConversion.floats(eightBytesAt: bytes), over: values.lowHalf, lanes),
            highHalf: composite(SampleConversion.floats(eightBytesAt: bytes + 8), over: values.highHalf, lanes))
    }

    /// Two content pixels (straight, 0 … 255) over two effect pixels v at output scale: v + (blend − b)·a, with
    /// the offset carried by the clamp's bounds (``Lanes``), so that a pixel whose content alpha is 0 keeps its
    /// value v bit for bit. The alpha a = c_a·(1/255) comes out of the same multiply-add as the colour's addend.
    @inline(__always) static func composite(_ c: SIMD8<Float>, over values: SIMD8<Float>, _ lanes: Lanes) -> SIMD8<
        Float
    > {
        let addend = lanes.shift.addingProduct(c, lanes.scale)
        // Each pixel's alpha in its four lanes: one in-lane shuffle.
        let alpha = SIMD8(addend[3], addend[3], addend[3], addend[3], addend[7], addend[7], addend[7], addend[7])
        let blended = SampleConversion.limited(addend + values, from: lanes.lower, upTo: lanes.upper)
        return values.addingProduct(blended - values, alpha)
    }
}

extension VibrancyFilterPass {
    /// Four content pixels (0 … 255 in each lane) over four effect pixels q in ``FixedPoint``: the same blend and
    /// mix as the float form, q + (clamp(c·128 + shift + q, lower, upper) − q)·a, written as
    /// q + scaledProduct(clamp(c·128 + shift, lower − q, upper − q), a·257/2), so that no sum leaves an `Int16`.
    /// The coverage a·257/2 (integer division) is a/255 within 2⁻¹⁶ of its 2¹⁵: 0 for a = 0, which keeps the value
    /// exactly, and 32 767 for a = 255, which gives the blend within one unit (1/128 of a level; exactly where it
    /// moves the value by less than 128 levels). Plus-darker's clamp is ≤ 0 and plus-lighter's ≥ 0, and so is the
    /// product: the blends never lighten and never darken, as in `Float`.
    @inline(__always) static func composite(
        _ c: FixedPoint.Lanes, over q: FixedPoint.Lanes,
        _ lanes: FixedPointLanes
    ) -> FixedPoint.Lanes {
        let difference = FixedPoint.limited((c &<< 7) &+ lanes.shift, from: lanes.lower &- q, upTo: lanes.upper &- q)
        let alphas = unsafeBitCast(FixedPoint.alphas(c), to: SIMD16<UInt16>.self)
        let coverage = unsafeBitCast((alphas &* 257) &>> 1, to: FixedPoint.Lanes.self)
        return q &+ FixedPoint.scaledProduct(difference, coverage)
    }
}
