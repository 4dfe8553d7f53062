import CVectorKernels

/// Conversions between integer samples and `Float`, written so that they compile to a few vector instructions
/// (no per-lane range checks, no library calls) on every CPU.
///
/// Swift's generic SIMD conversions compile to a call per vector; these are Clang's vector conversions
/// (`backdrop_vector_lanes.h`, inlined), which become the target's own widening, narrowing and converting
/// instructions: SSE2 on baseline x86-64, NEON on arm64. Float → integer rounding adds 1.5·2²³, which rounds the
/// value to the nearest integer (ties to even, the FPU's mode) and leaves it in the low mantissa bits: exact for
/// values in [0, 2²²). Every conversion is exact, so every CPU gives the same values (`SampleConversionTests`
/// holds each to its lane-by-lane definition).
public enum SampleConversion {
    /// Four 8-bit samples at `pointer` as floats 0 … 255.
    @inline(__always) static func floats(_ pointer: UnsafePointer<UInt8>) -> SIMD4<Float> {
        floats(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    /// Four 8-bit samples as floats 0 … 255.
    @inline(__always) static func floats(_ bytes: SIMD4<UInt8>) -> SIMD4<Float> { bd_floats4(bytes) }

    /// Sixteen 8-bit samples as floats 0 … 255.
    @inline(__always) public static func floats(_ bytes: SIMD16<UInt8>) -> SIMD16<Float> { bd_floats16(bytes) }

    /// The eight 8-bit samples at `pointer` (any alignment) as floats 0 … 255: two pixels.
    @inline(__always) public static func floats(eightBytesAt pointer: UnsafeRawPointer) -> SIMD8<Float> {
        bd_floats8(pointer.loadUnaligned(as: SIMD8<UInt8>.self))
    }

    /// The sixteen bytes at `pointer` (any alignment) widened to 16-bit lanes: four pixels, for integer sums.
    @inline(__always) public static func words(sixteenBytesAt pointer: UnsafeRawPointer) -> SIMD16<UInt16> {
        bd_words16(pointer.loadUnaligned(as: SIMD16<UInt8>.self))
    }

    /// Each lane v in [0, 2²²) rounded to nearest (ties to even, the FPU's mode), in the low bits of its lane:
    /// one add. Callers that need ties up add a small bias first (see ``CompositePass/roundingOffset``).
    @inline(__always) static func roundedToNearest(_ values: SIMD4<Float>) -> SIMD4<UInt32> {
        unsafeBitCast(values + 12_582_912, to: SIMD4<UInt32>.self) & 0x003F_FFFF
    }

    /// The same rounding on eight lanes.
    @inline(__always) static func roundedToNearest(_ values: SIMD8<Float>) -> SIMD8<UInt32> {
        unsafeBitCast(values + 12_582_912, to: SIMD8<UInt32>.self) & 0x003F_FFFF
    }

    /// Sixteen values in [0, 255.5) (four pixels at 8-bit output scale) rounded to nearest, ties to even, as bytes
    /// in lane order.
    @inline(__always) public static func bytesRoundedToNearest(_ values: SIMD16<Float>) -> SIMD16<UInt8> {
        bd_bytes_rounded16(values)
    }

    /// Sixteen values in [0, 65535.5) (four pixels at 16-bit output scale) rounded to nearest, ties to even, as
    /// 16-bit words in lane order.
    @inline(__always) public static func wordsRoundedToNearest(_ values: SIMD16<Float>) -> SIMD16<UInt16> {
        bd_words_rounded16(values)
    }

    /// Each lane of `values` limited to [lower, upper] (0 ≤ lower ≤ upper in every lane), exactly, as
    /// `SIMD4/limited(upTo:)` does it: negatives to +0 first, then integer compares of non-negative patterns.
    @inline(__always) public static func limited(
        _ values: SIMD8<Float>, from lower: SIMD8<Float>,
        upTo upper: SIMD8<Float>
    ) -> SIMD8<Float> {
        let bits = unsafeBitCast(values, to: SIMD8<Int32>.self)
        let atLeastZero = bits & ~(bits &>> 31)
        let lowerBits = unsafeBitCast(lower, to: SIMD8<Int32>.self)
        let below = (atLeastZero &- lowerBits) &>> 31  // all ones where the value < lower
        let atLeastLower = (atLeastZero & ~below) | (lowerBits & below)
        let upperBits = unsafeBitCast(upper, to: SIMD8<Int32>.self)
        let above = (upperBits &- atLeastLower) &>> 31  // all ones where the value > upper
        return unsafeBitCast((atLeastLower & ~above) | (upperBits & above), to: SIMD8<Float>.self)
    }
}

// Clamping without comparisons. Swift's SIMD comparisons and selects (`.<`, `replacing(with:where:)`,
// `pointwiseMin`, `clamped`) compile lane by lane, with branches, once inlined into a large loop. Non-negative
// floats order like their bit patterns read as integers, and a negative float's pattern is a negative integer,
// so the clamp below is integer shifts and masks on the bits: exact, branch-free, a few vector instructions.

extension SIMD4 where Scalar == Float {
    /// Each lane limited to [0, upper] (`upper` ≥ 0 in every lane), exactly. Pixel values are never NaN.
    @inline(__always) func limited(upTo upper: Self) -> Self {
        let bits = unsafeBitCast(self, to: SIMD4<Int32>.self)
        let atLeastZero = bits & ~(bits &>> 31)  // negative → +0
        let upperBits = unsafeBitCast(upper, to: SIMD4<Int32>.self)
        let above = (upperBits &- atLeastZero) &>> 31  // all ones where the value > upper
        return unsafeBitCast((atLeastZero & ~above) | (upperBits & above), to: SIMD4<Float>.self)
    }
}

extension SIMD8 where Scalar == Float {
    /// One pixel's four values in lanes 0–3 and again in 4–7: a per-pixel constant for two pixels at a time.
    @inline(__always) init(repeatingPixel pixel: SIMD4<Float>) { self.init(lowHalf: pixel, highHalf: pixel) }
}

extension SIMD16 where Scalar == Float {
    /// One pixel's four values in each of the four pixels' lanes.
    @inline(__always) init(repeatingPixel pixel: SIMD4<Float>) {
        let two = SIMD8(repeatingPixel: pixel)
        self.init(lowHalf: two, highHalf: two)
    }
}
