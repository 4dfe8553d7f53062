// backdrop_vector_lanes.h — the composite's lane conversions and fixed-point operations, for any CPU.
//
// Swift's generic SIMD conversions (`SIMD8<Int32>(truncatingIfNeeded:)` and the like) compile to a call per
// vector, and it has no vector high-half multiply; Clang's vector extensions compile the same operations to a few
// instructions of whatever the target has (SSE2 on baseline x86-64, NEON on arm64). Swift imports these vector
// types as its own SIMD types (`bd_i16x16` is `SIMD16<Int16>`) and inlines these functions into its loops.
//
// Every function is exact integer arithmetic or an exact conversion: the same values on every CPU and every
// vector width, which the tests check against the lane-by-lane definitions (`FixedPointTests`,
// `SampleConversionTests`). No function here depends on the floating-point rounding mode beyond round to nearest,
// ties to even, the default.
#ifndef BACKDROP_VECTOR_LANES_H
#define BACKDROP_VECTOR_LANES_H

#include <stdint.h>

typedef uint8_t bd_u8x4 __attribute__((ext_vector_type(4)));
typedef uint8_t bd_u8x8 __attribute__((ext_vector_type(8)));
typedef uint8_t bd_u8x16 __attribute__((ext_vector_type(16)));
typedef uint8_t bd_u8x32 __attribute__((ext_vector_type(32)));
typedef int16_t bd_i16x16 __attribute__((ext_vector_type(16)));
typedef uint16_t bd_u16x16 __attribute__((ext_vector_type(16)));
typedef int32_t bd_i32x16 __attribute__((ext_vector_type(16)));
typedef uint32_t bd_u32x16 __attribute__((ext_vector_type(16)));
typedef float bd_f32x4 __attribute__((ext_vector_type(4)));
typedef float bd_f32x8 __attribute__((ext_vector_type(8)));
typedef float bd_f32x16 __attribute__((ext_vector_type(16)));

// Sixteen-lane arguments would be passed differently by a caller with AVX-512 than by one without (Clang's
// -Wpsabi); these functions are always inlined, so no call, and no argument passing, remains.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

#define BD_LANES static inline __attribute__((always_inline, nodebug))

/// Four 8-bit samples as floats 0 … 255 (exact).
BD_LANES bd_f32x4 bd_floats4(bd_u8x4 bytes) { return __builtin_convertvector(bytes, bd_f32x4); }

/// Eight 8-bit samples as floats 0 … 255 (exact).
BD_LANES bd_f32x8 bd_floats8(bd_u8x8 bytes) { return __builtin_convertvector(bytes, bd_f32x8); }

/// Sixteen 8-bit samples as floats 0 … 255 (exact).
BD_LANES bd_f32x16 bd_floats16(bd_u8x16 bytes) { return __builtin_convertvector(bytes, bd_f32x16); }

/// Sixteen 8-bit samples widened to 16 bits.
BD_LANES bd_u16x16 bd_words16(bd_u8x16 bytes) { return __builtin_convertvector(bytes, bd_u16x16); }

/// Each lane v in [0, 2²²) rounded to nearest, ties to even: adding 1.5·2²³ leaves the integer in the low
/// mantissa bits (the FPU's rounding does the work).
BD_LANES bd_u32x16 bd_rounded16(bd_f32x16 values) {
    bd_f32x16 shifted = values + 12582912.0f;
    bd_u32x16 bits;
    __builtin_memcpy(&bits, &shifted, sizeof bits);
    return bits & 0x003FFFFFu;
}

/// Sixteen values in [0, 255.5) rounded to nearest, ties to even, as bytes.
BD_LANES bd_u8x16 bd_bytes_rounded16(bd_f32x16 values) {
    return __builtin_convertvector(bd_rounded16(values), bd_u8x16);
}

/// Sixteen values in [0, 65535.5) rounded to nearest, ties to even, as 16-bit words.
BD_LANES bd_u16x16 bd_words_rounded16(bd_f32x16 values) {
    return __builtin_convertvector(bd_rounded16(values), bd_u16x16);
}

/// Sixteen values at 8-bit output scale as 8.7 fixed point: round(128·v), ties to even (v·128 is exact).
BD_LANES bd_i16x16 bd_quantised16(bd_f32x16 values) {
    return __builtin_convertvector(bd_rounded16(values * 128.0f), bd_i16x16);
}

/// ⌊a·b/2¹⁵ + ½⌋ in each lane: a times the fraction b/2¹⁵, rounded to nearest, ties up (x86's `pmulhrsw`).
BD_LANES bd_i16x16 bd_scaled_product16(bd_i16x16 a, bd_i16x16 b) {
    bd_i32x16 product = __builtin_convertvector(a, bd_i32x16) * __builtin_convertvector(b, bd_i32x16);
    return __builtin_convertvector((product + 16384) >> 15, bd_i16x16);
}

/// Each lane of `a` limited to [lower, upper] (lower ≤ upper in every lane).
BD_LANES bd_i16x16 bd_limited16(bd_i16x16 a, bd_i16x16 lower, bd_i16x16 upper) {
    return __builtin_elementwise_min(__builtin_elementwise_max(a, lower), upper);
}

/// Each pixel's fourth lane (its alpha) in all four of its lanes.
BD_LANES bd_i16x16 bd_alphas16(bd_i16x16 a) {
    return __builtin_shufflevector(a, a, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15);
}

/// Eight pixels' 8.7 fixed point q ∈ [0, 32 703] (`first`, then `second`) as samples ⌊q/128 + ½⌋.
BD_LANES bd_u8x32 bd_fixed_point_bytes32(bd_i16x16 first, bd_i16x16 second) {
    bd_u8x16 low = __builtin_convertvector((first + 64) >> 7, bd_u8x16);
    bd_u8x16 high = __builtin_convertvector((second + 64) >> 7, bd_u8x16);
    return __builtin_shufflevector(
        low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
        26, 27, 28, 29, 30, 31);
}

/// Four pixels' 8.7 fixed point q ∈ [0, 32 703] as samples ⌊q/128 + ½⌋.
BD_LANES bd_u8x16 bd_fixed_point_bytes16(bd_i16x16 group) {
    return __builtin_convertvector((group + 64) >> 7, bd_u8x16);
}

#pragma clang diagnostic pop

#endif
