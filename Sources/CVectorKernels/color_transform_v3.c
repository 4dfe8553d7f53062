// color_transform_v3.c — the upscale-and-tint pass's colour steps for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `ColorTransform.applyOutputScaled`'s, bit for bit: per premultiplied pixel p, the saturation as
// (0, 0, 0, A) + R·column₀ + G·column₁ + B·column₂, one fused multiply-add each in that order, clamped to [0, A];
// then tint + c·keep (one fused multiply-add); then `CompositePass.outputScaled`: straight colour
// clamp(C / clamp(A, least normal, greatest finite), 0, 1), times `maximum`, plus `offset` (a multiply and an add,
// never fused: FP_CONTRACT is off). Two pixels per 8-lane vector; the clamps are the Swift loop's integer ones.
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif

typedef float bd_f8 __attribute__((ext_vector_type(8)));
typedef int32_t bd_s8 __attribute__((ext_vector_type(8)));

/// Each lane limited to [lower, upper] (0 ≤ lower ≤ upper): negatives to +0, then integer compares of the
/// non-negative patterns (`SampleConversion.limited`).
static inline __attribute__((always_inline)) bd_f8 bd_limited8(bd_f8 values, bd_f8 lower, bd_f8 upper) {
    bd_s8 bits = (bd_s8)values, lowerBits = (bd_s8)lower, upperBits = (bd_s8)upper;
    bd_s8 atLeastZero = bits & ~(bits >> 31);
    bd_s8 below = (atLeastZero - lowerBits) >> 31;
    bd_s8 atLeastLower = (atLeastZero & ~below) | (lowerBits & below);
    bd_s8 above = (upperBits - atLeastLower) >> 31;
    return (bd_f8)((atLeastLower & ~above) | (upperBits & above));
}

static inline __attribute__((always_inline)) bd_f8 bd_pixel_pair(const float *p) {
    bd_f8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

void bd_color_transform_row_v3(
    const float *row, float *out, ptrdiff_t count, const float *columns, const float *tint, float keep,
    int saturates, float maximum, float offset) {
    bd_f8 column0 = {columns[0], columns[1], columns[2], columns[3], columns[0], columns[1], columns[2], columns[3]};
    bd_f8 column1 = {columns[4], columns[5], columns[6], columns[7], columns[4], columns[5], columns[6], columns[7]};
    bd_f8 column2 = {columns[8], columns[9], columns[10], columns[11], columns[8], columns[9], columns[10],
                     columns[11]};
    bd_f8 tint8 = {tint[0], tint[1], tint[2], tint[3], tint[0], tint[1], tint[2], tint[3]};
    bd_f8 keep8 = keep, zero = 0, one = 1, alphaMask = {0, 0, 0, 1, 0, 0, 0, 1};
    bd_f8 leastNormal = __FLT_MIN__, greatestFinite = __FLT_MAX__;
    for (ptrdiff_t x = 0; x < count; x += 2) {
        // An odd last pixel goes through the vector in both halves, as the Swift loop's single one does.
        bd_f8 p;
        if (x + 2 <= count) {
            p = bd_pixel_pair(row + 4 * x);
        } else {
            typedef float bd_f4 __attribute__((ext_vector_type(4)));
            bd_f4 single;
            __builtin_memcpy(&single, row + 4 * x, sizeof single);
            p = __builtin_shufflevector(single, single, 0, 1, 2, 3, 0, 1, 2, 3);
        }
        bd_f8 c = p;
        if (saturates) {
            bd_f8 red = __builtin_shufflevector(p, p, 0, 0, 0, 0, 4, 4, 4, 4);
            bd_f8 green = __builtin_shufflevector(p, p, 1, 1, 1, 1, 5, 5, 5, 5);
            bd_f8 blue = __builtin_shufflevector(p, p, 2, 2, 2, 2, 6, 6, 6, 6);
            bd_f8 alpha = __builtin_shufflevector(p, p, 3, 3, 3, 3, 7, 7, 7, 7);
            c = __builtin_elementwise_fma(red, column0, p * alphaMask);
            c = __builtin_elementwise_fma(green, column1, c);
            c = __builtin_elementwise_fma(blue, column2, c);
            c = bd_limited8(c, zero, alpha);
        }
        bd_f8 tinted = __builtin_elementwise_fma(c, keep8, tint8);
        bd_f8 alphas = __builtin_shufflevector(tinted, one, 3, 3, 3, 8, 7, 7, 7, 8);
        bd_f8 divisor = bd_limited8(alphas, leastNormal, greatestFinite);
        bd_f8 straight = bd_limited8(tinted / divisor, zero, one);
        bd_f8 scaled = straight * maximum;
        bd_f8 result = scaled + offset;
        __builtin_memcpy(out + 4 * x, &result, (x + 2 <= count ? 8 : 4) * sizeof(float));
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
