import BackdropImageIO

/// The arithmetic the composite interpolates a row of the effect in (``BilinearTaps``): `Float`, or 8.7 fixed
/// point (``FixedPoint``). The walks over a row's segments are written once, for both.
protocol InterpolationArithmetic {
    /// One pixel of a row of the effect.
    associatedtype Pixel
    /// Four pixels' lanes (R, G, B, A of each, in order).
    associatedtype Group: SIMD
    /// One output index's weight, in its pixel's four lanes.
    associatedtype Weight

    /// `body` with the taps' weights in this arithmetic (``BilinearTaps/weights``).
    static func withWeights<R>(of taps: BilinearTaps, _ body: (UnsafePointer<Weight>) -> R) -> R
    /// One pixel in each of the four pixels' lanes.
    static func group(repeating pixel: Pixel) -> Group
    /// b − a.
    static func difference(_ b: Pixel, _ a: Pixel) -> Pixel
    /// left + delta·w for four consecutive output indices, whose weights are `weights[0 ..< 4]`.
    static func interpolated(_ left: Group, _ delta: Group, _ weights: UnsafePointer<Weight>) -> Group
    /// The same with `weights[0]` in every pixel's lanes: one output index, read from lanes 0–3.
    static func interpolated(_ left: Group, _ delta: Group, weightOf weights: UnsafePointer<Weight>) -> Group
}

/// How the composite turns the effect's values into output samples of one depth: its interpolation arithmetic,
/// the vibrancy filter in that arithmetic, and the quantisation.
protocol CompositeArithmetic: InterpolationArithmetic {
    /// The output sample.
    associatedtype Sample: PixelSample
    /// The vibrancy filter's constants in this arithmetic.
    associatedtype BlendConstants

    /// Row `y` of the effect in this arithmetic, made in `values` (room for the row's floats) or `scratch` (room
    /// for the row's pixels in this arithmetic, rounded up to a group of four).
    static func row(
        _ y: Int, of effect: OutputRows, _ values: UnsafeMutablePointer<SIMD4<Float>>,
        scratch: UnsafeMutableRawPointer
    ) -> UnsafePointer<Pixel>
    /// The filter's constants.
    static func constants(_ filter: VibrancyFilterPass) -> BlendConstants
    /// Four content pixels (16 bytes at `content`, straight RGBA8, any alignment) over four values.
    static func blend(_ content: UnsafeRawPointer, over values: Group, _ constants: BlendConstants) -> Group
    /// One content pixel (lanes 0–3 of `content`) over the value in lanes 0–3.
    static func blend(_ content: SIMD16<UInt8>, over values: Group, _ constants: BlendConstants) -> Group
    /// Eight pixels' values (`first`, then `second`) as samples at `out`.
    static func store(_ first: Group, _ second: Group, to out: UnsafeMutablePointer<Sample>)
    /// The first `count` (4, or 1 in lanes 0–3) pixels' values as samples at `out`.
    static func store(_ values: Group, count: Int, to out: UnsafeMutablePointer<Sample>)
}

/// `Float` values at output scale, rounded to nearest, ties to even, as they are stored (the values carry
/// ``CompositePass/roundingOffset``, so that the maths' exact ties round up): 16-bit output, and 8-bit output
/// without an upscale (exact mode, the tint-only fallback), where one rounding keeps the result as close to the
/// maths as it can be.
enum FloatArithmetic<Sample: PixelSample>: CompositeArithmetic {
    @inline(__always) static func withWeights<R>(of taps: BilinearTaps, _ body: (UnsafePointer<SIMD4<Float>>) -> R) -> R
    {
        taps.weights.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    @inline(__always) static func group(repeating pixel: SIMD4<Float>) -> SIMD16<Float> {
        SIMD16(repeatingPixel: pixel)
    }

    @inline(__always) static func difference(_ b: SIMD4<Float>, _ a: SIMD4<Float>) -> SIMD4<Float> { b - a }

    /// One fused multiply-add per value.
    @inline(__always) static func interpolated(
        _ left: SIMD16<Float>, _ delta: SIMD16<Float>,
        _ weights: UnsafePointer<SIMD4<Float>>
    ) -> SIMD16<Float> {
        left.addingProduct(delta, UnsafeRawPointer(weights).loadUnaligned(as: SIMD16<Float>.self))
    }

    @inline(__always) static func interpolated(
        _ left: SIMD16<Float>, _ delta: SIMD16<Float>,
        weightOf weights: UnsafePointer<SIMD4<Float>>
    ) -> SIMD16<Float> {
        left.addingProduct(delta, SIMD16(repeatingPixel: weights[0]))
    }

    /// ``OutputRows/row``.
    @inline(__always) static func row(
        _ y: Int, of effect: OutputRows, _ values: UnsafeMutablePointer<SIMD4<Float>>,
        scratch: UnsafeMutableRawPointer
    ) -> UnsafePointer<SIMD4<Float>> {
        effect.row(y, values)
        return UnsafePointer(values)
    }

    static func constants(_ filter: VibrancyFilterPass) -> VibrancyFilterPass.Lanes {
        filter.lanes(maximum: Sample.maximumValue)
    }

    @inline(__always) static func blend(
        _ content: UnsafeRawPointer, over values: SIMD16<Float>,
        _ constants: VibrancyFilterPass.Lanes
    ) -> SIMD16<Float> {
        VibrancyFilterPass.composite(content, over: values, constants)
    }

    @inline(__always) static func blend(
        _ content: SIMD16<UInt8>, over values: SIMD16<Float>,
        _ constants: VibrancyFilterPass.Lanes
    ) -> SIMD16<Float> {
        VibrancyFilterPass.composite(content, over: values, constants)
    }

    @inline(__always) static func store(
        _ first: SIMD16<Float>, _ second: SIMD16<Float>,
        to out: UnsafeMutablePointer<Sample>
    ) {
        store(first, count: 4, to: out)
        store(second, count: 4, to: out + 16)
    }

    /// ``SampleConversion/bytesRoundedToNearest(_:)`` or ``SampleConversion/wordsRoundedToNearest(_:)``, or
    /// ``SampleConversion/roundedToNearest(_:)`` for one pixel.
    @inline(__always) static func store(_ values: SIMD16<Float>, count: Int, to out: UnsafeMutablePointer<Sample>) {
        let raw = UnsafeMutableRawPointer(out)
        if Sample.bitDepth == 8 {
            guard count == 4 else {
                return raw.storeBytes(
                    of: SIMD4<UInt8>(
                        truncatingIfNeeded: SampleConversion.roundedToNearest(
                            values.lowHalf.lowHalf)), as: SIMD4<UInt8>.self)
            }
            raw.storeBytes(of: SampleConversion.bytesRoundedToNearest(values), as: SIMD16<UInt8>.self)
        } else {
            guard count == 4 else {
                return raw.storeBytes(
                    of: SIMD4<UInt16>(
                        truncatingIfNeeded: SampleConversion.roundedToNearest(
                            values.lowHalf.lowHalf)), as: SIMD4<UInt16>.self)
            }
            raw.storeBytes(of: SampleConversion.wordsRoundedToNearest(values), as: SIMD16<UInt16>.self)
        }
    }
}

/// 8-bit output with an upscale (k > 1): ``FixedPoint`` values, sixteen lanes to a vector where `Float` has eight.
enum FixedPointArithmetic: CompositeArithmetic {
    typealias Sample = UInt8

    @inline(__always) static func withWeights<R>(of taps: BilinearTaps, _ body: (UnsafePointer<SIMD4<Int16>>) -> R) -> R
    {
        taps.fixedPointWeights.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    @inline(__always) static func group(repeating pixel: SIMD4<Int16>) -> SIMD16<Int16> {
        SIMD16(repeatingPixel: pixel)
    }

    /// Exact: both are in [0, 32 640].
    @inline(__always) static func difference(_ b: SIMD4<Int16>, _ a: SIMD4<Int16>) -> SIMD4<Int16> { b &- a }

    /// left + ``FixedPoint/scaledProduct(_:_:)`` of delta and the weights: two instructions per value.
    @inline(__always) static func interpolated(
        _ left: SIMD16<Int16>, _ delta: SIMD16<Int16>,
        _ weights: UnsafePointer<SIMD4<Int16>>
    ) -> SIMD16<Int16> {
        left &+ FixedPoint.scaledProduct(delta, UnsafeRawPointer(weights).loadUnaligned(as: SIMD16<Int16>.self))
    }

    @inline(__always) static func interpolated(
        _ left: SIMD16<Int16>, _ delta: SIMD16<Int16>,
        weightOf weights: UnsafePointer<SIMD4<Int16>>
    ) -> SIMD16<Int16> {
        left &+ FixedPoint.scaledProduct(delta, SIMD16(repeatingPixel: weights[0]))
    }

    /// ``OutputRows/fixedPointRow``, into `scratch` (the composite uses this arithmetic only for rows that have it).
    @inline(__always) static func row(
        _ y: Int, of effect: OutputRows, _ values: UnsafeMutablePointer<SIMD4<Float>>,
        scratch: UnsafeMutableRawPointer
    ) -> UnsafePointer<SIMD4<Int16>> {
        guard let fixedPointRow = effect.fixedPointRow else {
            preconditionFailure("the effect has no fixed-point rows")
        }
        let out = scratch.assumingMemoryBound(to: SIMD4<Int16>.self)
        fixedPointRow(y, out)
        return UnsafePointer(out)
    }

    static func constants(_ filter: VibrancyFilterPass) -> VibrancyFilterPass.FixedPointLanes {
        filter.fixedPointLanes()
    }

    @inline(__always) static func blend(
        _ content: UnsafeRawPointer, over values: SIMD16<Int16>,
        _ constants: VibrancyFilterPass.FixedPointLanes
    ) -> SIMD16<Int16> {
        VibrancyFilterPass.composite(FixedPoint.lanes(sixteenBytesAt: content), over: values, constants)
    }

    @inline(__always) static func blend(
        _ content: SIMD16<UInt8>, over values: SIMD16<Int16>,
        _ constants: VibrancyFilterPass.FixedPointLanes
    ) -> SIMD16<Int16> {
        VibrancyFilterPass.composite(SIMD16(truncatingIfNeeded: content), over: values, constants)
    }

    /// ``FixedPoint/bytes(_:_:)``: one 32-byte store.
    @inline(__always) static func store(
        _ first: SIMD16<Int16>, _ second: SIMD16<Int16>, to out: UnsafeMutablePointer<UInt8>
    ) {
        UnsafeMutableRawPointer(out).storeBytes(of: FixedPoint.bytes(first, second), as: SIMD32<UInt8>.self)
    }

    @inline(__always) static func store(_ values: SIMD16<Int16>, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        let bytes = FixedPoint.bytes(values)
        guard count == 4 else {
            return UnsafeMutableRawPointer(out).storeBytes(of: bytes.lowHalf.lowHalf, as: SIMD4<UInt8>.self)
        }
        UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
    }
}
