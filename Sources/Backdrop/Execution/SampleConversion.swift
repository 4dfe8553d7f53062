/// Conversions between integer samples and `Float`, written so that they compile to a few vector instructions
/// (no per-lane range checks, no library calls).
///
/// Both use the layout of a `Float` near 2²³, where the spacing between floats is exactly 1:
/// - integer → float: the integer is OR-ed into the mantissa of 2²³ and 2²³ is subtracted: exact for 0 … 2²³.
/// - float → integer: adding 1.5·2²³ rounds the value to the nearest integer (ties to even, the FPU's mode) and
///   leaves it in the low mantissa bits: exact for values in [0, 2²²); ties are then moved up (``roundedHalfUp(_:)``).
enum SampleConversion {
    /// Four 8-bit samples at `pointer` as floats 0 … 255.
    @inline(__always) static func floats(_ pointer: UnsafePointer<UInt8>) -> SIMD4<Float> {
        let bytes = UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<UInt8>.self)
        let bits = SIMD4<UInt32>(truncatingIfNeeded: bytes) | 0x4B00_0000
        return unsafeBitCast(bits, to: SIMD4<Float>.self) - 8_388_608
    }

    /// ⌊v + ½⌋ for each lane v in [0, 2²²): round to nearest, ties up, as the reference renders round.
    /// Ties are common, not rare: a channel that saturation clamps to 0 comes out of the light tint as exactly
    /// 0.3 · 255 = 76.5. The FPU rounds ties to even, so a lane that was exactly halfway (v − r = ½) is moved up.
    @inline(__always) static func roundedHalfUp(_ values: SIMD4<Float>) -> SIMD4<UInt32> {
        let shifted = values + 12_582_912
        let nearestEven = unsafeBitCast(shifted, to: SIMD4<UInt32>.self) & 0x003F_FFFF
        let wasTie = (values - (shifted - 12_582_912)) .== 0.5
        return nearestEven &+ SIMD4<UInt32>(repeating: 0).replacing(with: 1, where: wasTie)
    }
}

extension SIMD4 where Scalar == Float {
    /// Each lane limited to [lower, upper], as compare-and-select vector instructions. (The standard library's
    /// `clamped(lowerBound:upperBound:)` compiles lane by lane here because of its NaN rules; pixel values are
    /// never NaN.)
    @inline(__always) func limited(to lower: SIMD4<Float>, _ upper: SIMD4<Float>) -> SIMD4<Float> {
        var v = self
        v.replace(with: lower, where: v .< lower)
        v.replace(with: upper, where: v .> upper)
        return v
    }
}
