/// Conversions between integer samples and `Float`, written so that they compile to a few vector instructions
/// (no per-lane range checks, no library calls).
///
/// Both use the layout of a `Float` near 2²³, where the spacing between floats is exactly 1:
/// - integer → float: the integer is OR-ed into the mantissa of 2²³ and 2²³ is subtracted: exact for 0 … 2²³.
/// - float → integer: adding 1.5·2²³ rounds the value to the nearest integer (ties to even, the FPU's mode) and
///   leaves it in the low mantissa bits: exact for values in [0, 2²²).
enum SampleConversion {
    /// Four 8-bit samples at `pointer` as floats 0 … 255.
    @inline(__always) static func floats(_ pointer: UnsafePointer<UInt8>) -> SIMD4<Float> {
        floats(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    /// Four 8-bit samples as floats 0 … 255.
    @inline(__always) static func floats(_ bytes: SIMD4<UInt8>) -> SIMD4<Float> {
        let bits = SIMD4<UInt32>(truncatingIfNeeded: bytes) | 0x4B00_0000
        return unsafeBitCast(bits, to: SIMD4<Float>.self) - 8_388_608
    }

    /// Sixteen 8-bit samples as floats 0 … 255, four at a time (the 16-lane widening compiles to a call).
    @inline(__always) static func floats(_ bytes: SIMD16<UInt8>) -> SIMD16<Float> {
        let quads = unsafeBitCast(bytes, to: (SIMD4<UInt8>, SIMD4<UInt8>, SIMD4<UInt8>, SIMD4<UInt8>).self)
        return SIMD16(lowHalf: SIMD8(lowHalf: floats(quads.0), highHalf: floats(quads.1)),
                      highHalf: SIMD8(lowHalf: floats(quads.2), highHalf: floats(quads.3)))
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
}

// Clamping without comparisons. Swift's SIMD comparisons and selects (`.<`, `replacing(with:where:)`,
// `pointwiseMin`, `clamped`) compile lane by lane, with branches, once inlined into a large loop. Non-negative
// floats order like their bit patterns read as integers, and a negative float's pattern is a negative integer,
// so the clamp below is integer shifts and masks on the bits: exact, branch-free, a few vector instructions.

extension SIMD4 where Scalar == Float {
    /// Each lane limited to [0, upper] (`upper` ≥ 0 in every lane), exactly. Pixel values are never NaN.
    @inline(__always) func limited(upTo upper: Self) -> Self {
        let bits = unsafeBitCast(self, to: SIMD4<Int32>.self)
        let atLeastZero = bits & ~(bits &>> 31)                               // negative → +0
        let upperBits = unsafeBitCast(upper, to: SIMD4<Int32>.self)
        let above = (upperBits &- atLeastZero) &>> 31                         // all ones where the value > upper
        return unsafeBitCast((atLeastZero & ~above) | (upperBits & above), to: SIMD4<Float>.self)
    }
}

extension SIMD16 where Scalar == Float {
    /// Each lane limited to [lower, upper] (0 ≤ lower ≤ upper in every lane), exactly, as
    /// ``SIMD4/limited(upTo:)`` does it: negatives to +0 first, then integer compares of non-negative patterns.
    @inline(__always) func limited(from lower: Self, upTo upper: Self) -> Self {
        let bits = unsafeBitCast(self, to: SIMD16<Int32>.self)
        let atLeastZero = bits & ~(bits &>> 31)
        let lowerBits = unsafeBitCast(lower, to: SIMD16<Int32>.self)
        let below = (atLeastZero &- lowerBits) &>> 31                         // all ones where the value < lower
        let atLeastLower = (atLeastZero & ~below) | (lowerBits & below)
        let upperBits = unsafeBitCast(upper, to: SIMD16<Int32>.self)
        let above = (upperBits &- atLeastLower) &>> 31                        // all ones where the value > upper
        return unsafeBitCast((atLeastLower & ~above) | (upperBits & above), to: SIMD16<Float>.self)
    }
}
