#if BACKDROP_X86_64_V3
    import _Builtin_intrinsics.intel
#endif

/// Conversions between integer samples and `Float`, written so that they compile to a few vector instructions
/// (no per-lane range checks, no library calls).
///
/// The portable forms use the layout of a `Float` near 2²³, where the spacing between floats is exactly 1:
/// - integer → float: the integer is OR-ed into the mantissa of 2²³ and 2²³ is subtracted: exact for 0 … 2²³.
/// - float → integer: adding 1.5·2²³ rounds the value to the nearest integer (ties to even, the FPU's mode) and
///   leaves it in the low mantissa bits: exact for values in [0, 2²²).
///
/// The four-pixel (16-lane) forms the composite uses have a second body for x86-64-v3 builds
/// (`BACKDROP_X86_64_V3`, see Package.swift), written with the CPU's own conversions and packs
/// (`_Builtin_intrinsics.intel`, Clang's intrinsics as the toolchain ships them): Swift's generic 16-lane
/// conversions become a shuffle per lane or a call. Both bodies give the same values, bit for bit
/// (`vcvtps2dq` rounds to nearest, ties to even, as the 1.5·2²³ add does); the portable body is public under its
/// own name (`portable…`) so that the tests check that on every build.
///
/// Clang's intrinsics are `always_inline` functions, but the Swift compiler marks every call made inside a
/// closure handed to `withUnsafeTemporaryAllocation` `noinline`; such a call becomes a real call per vector (and
/// 3× slower code). The row loops therefore take their scratch rows from `withScratchRow(_:_:)`, which allocates.
public enum SampleConversion {
    /// Which body the 16-lane forms have in this build: "x86-64-v3" or "portable".
    public static var vectorBody: String {
        #if BACKDROP_X86_64_V3
            "x86-64-v3"
        #else
            "portable"
        #endif
    }

    /// Four 8-bit samples at `pointer` as floats 0 … 255.
    @inline(__always) static func floats(_ pointer: UnsafePointer<UInt8>) -> SIMD4<Float> {
        floats(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    /// Four 8-bit samples as floats 0 … 255.
    @inline(__always) static func floats(_ bytes: SIMD4<UInt8>) -> SIMD4<Float> {
        let bits = SIMD4<UInt32>(truncatingIfNeeded: bytes) | 0x4B00_0000
        return unsafeBitCast(bits, to: SIMD4<Float>.self) - 8_388_608
    }

    /// Sixteen 8-bit samples as floats 0 … 255.
    @inline(__always) public static func floats(_ bytes: SIMD16<UInt8>) -> SIMD16<Float> {
        #if BACKDROP_X86_64_V3
            let packed = unsafeBitCast(bytes, to: __m128i.self)
            return SIMD16(
                lowHalf: _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(packed)),
                highHalf: _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_unpackhi_epi64(packed, packed))))
        #else
            return portableFloats(bytes)
        #endif
    }

    /// The eight 8-bit samples at `pointer` (any alignment) as floats 0 … 255: two pixels, widened straight from
    /// memory (`vpmovzxbd` with a memory operand on x86-64-v3).
    @inline(__always) public static func floats(eightBytesAt pointer: UnsafeRawPointer) -> SIMD8<Float> {
        #if BACKDROP_X86_64_V3
            _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(pointer.assumingMemoryBound(to: __m128i.self))))
        #else
            portableFloats(eightBytesAt: pointer)
        #endif
    }

    /// ``floats(eightBytesAt:)``'s portable body.
    @inline(__always) public static func portableFloats(eightBytesAt pointer: UnsafeRawPointer) -> SIMD8<Float> {
        let bytes = pointer.loadUnaligned(as: SIMD8<UInt8>.self)
        return SIMD8(lowHalf: floats(bytes.lowHalf), highHalf: floats(bytes.highHalf))
    }

    /// The sixteen bytes at `pointer` (any alignment) widened to 16-bit lanes: four pixels, for integer sums
    /// (`vpmovzxbw` with a memory operand on x86-64-v3; Swift's generic widening becomes a call).
    @inline(__always) public static func words(sixteenBytesAt pointer: UnsafeRawPointer) -> SIMD16<UInt16> {
        #if BACKDROP_X86_64_V3
            unsafeBitCast(
                _mm256_cvtepu8_epi16(_mm_loadu_si128(pointer.assumingMemoryBound(to: __m128i.self))),
                to: SIMD16<UInt16>.self)
        #else
            portableWords(sixteenBytesAt: pointer)
        #endif
    }

    /// ``words(sixteenBytesAt:)``'s portable body.
    @inline(__always) public static func portableWords(sixteenBytesAt pointer: UnsafeRawPointer) -> SIMD16<UInt16> {
        SIMD16<UInt16>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD16<UInt8>.self))
    }

    /// ``floats(_:)-(SIMD16<UInt8>)``'s portable body: four at a time (the 16-lane widening compiles to a call).
    @inline(__always) public static func portableFloats(_ bytes: SIMD16<UInt8>) -> SIMD16<Float> {
        let quads = unsafeBitCast(bytes, to: (SIMD4<UInt8>, SIMD4<UInt8>, SIMD4<UInt8>, SIMD4<UInt8>).self)
        return SIMD16(
            lowHalf: SIMD8(lowHalf: floats(quads.0), highHalf: floats(quads.1)),
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

    /// Sixteen values in [0, 255.5) (four pixels at 8-bit output scale) rounded to nearest, ties to even, as bytes
    /// in lane order.
    @inline(__always) public static func bytesRoundedToNearest(_ values: SIMD16<Float>) -> SIMD16<UInt8> {
        #if BACKDROP_X86_64_V3
            // Packs work within each 128-bit half: after both, 32-bit group i holds lanes 4i … 4i + 3 of
            // (low 0–3, high 0–3, low 0–3, high 0–3 | low 4–7, high 4–7, …); one permute puts them in order.
            let words = roundedPackedWords(values)
            let bytes = _mm256_packus_epi16(words, words)
            let ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5))
            return unsafeBitCast(_mm256_castsi256_si128(ordered), to: SIMD16<UInt8>.self)
        #else
            return portableBytesRoundedToNearest(values)
        #endif
    }

    /// ``bytesRoundedToNearest(_:)``'s portable body: eight lanes at a time (16-lane narrowing compiles to a call).
    @inline(__always) public static func portableBytesRoundedToNearest(_ values: SIMD16<Float>) -> SIMD16<UInt8> {
        func bytes(_ v: SIMD8<Float>) -> SIMD8<UInt8> { SIMD8(truncatingIfNeeded: roundedToNearest(v)) }
        return SIMD16(lowHalf: bytes(values.lowHalf), highHalf: bytes(values.highHalf))
    }

    /// Sixteen values in [0, 65535.5) (four pixels at 16-bit output scale) rounded to nearest, ties to even, as
    /// 16-bit words in lane order.
    @inline(__always) public static func wordsRoundedToNearest(_ values: SIMD16<Float>) -> SIMD16<UInt16> {
        #if BACKDROP_X86_64_V3
            let ordered = _mm256_permutevar8x32_epi32(
                roundedPackedWords(values), _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7))
            return unsafeBitCast(ordered, to: SIMD16<UInt16>.self)
        #else
            return portableWordsRoundedToNearest(values)
        #endif
    }

    #if BACKDROP_X86_64_V3
        /// The sixteen values rounded to nearest, ties to even (`vcvtps2dq`), and packed to 16 bits with unsigned
        /// saturation (`vpackusdw`), which works within each 128-bit half: the 64-bit groups hold lanes low 0–3,
        /// high 0–3, low 4–7, high 4–7 of (values.lowHalf, values.highHalf), in that order.
        @inline(__always) static func roundedPackedWords(_ values: SIMD16<Float>) -> __m256i {
            _mm256_packus_epi32(_mm256_cvtps_epi32(values.lowHalf), _mm256_cvtps_epi32(values.highHalf))
        }
    #endif

    /// ``wordsRoundedToNearest(_:)``'s portable body.
    @inline(__always) public static func portableWordsRoundedToNearest(_ values: SIMD16<Float>) -> SIMD16<UInt16> {
        func words(_ v: SIMD8<Float>) -> SIMD8<UInt16> { SIMD8(truncatingIfNeeded: roundedToNearest(v)) }
        return SIMD16(lowHalf: words(values.lowHalf), highHalf: words(values.highHalf))
    }

    /// Each lane of `values` limited to [lower, upper] (0 ≤ lower ≤ upper in every lane), exactly: `vmaxps`,
    /// `vminps` on x86-64-v3, ``portableLimited(_:from:upTo:)`` elsewhere (the same values for every input but
    /// NaN, which pixels never are).
    @inline(__always) public static func limited(
        _ values: SIMD8<Float>, from lower: SIMD8<Float>,
        upTo upper: SIMD8<Float>
    ) -> SIMD8<Float> {
        #if BACKDROP_X86_64_V3
            _mm256_min_ps(_mm256_max_ps(values, lower), upper)
        #else
            portableLimited(values, from: lower, upTo: upper)
        #endif
    }

    /// ``limited(_:from:upTo:)``'s portable body, as `SIMD4/limited(upTo:)` does it: negatives to +0 first, then
    /// integer compares of non-negative patterns.
    @inline(__always) public static func portableLimited(
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
