// material_filter_v3.c — a system material's colour filters for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `MaterialFilterPass.filter(row:into:count:_:)`'s four-lane loop, bit for bit, eight pixels at a time
// (each pixel in a lane): per premultiplied pixel, straight colour c = C · (1 / A); L = unit(wr·r + wg·g + wb·b);
// the Bernstein curve v0·m·m·m + (3·v1)·m·m·L + (3·v2)·m·L·L + v3·L·L·L (m = 1 − L), unit; c ← c + (y − c)·amount;
// c ← unit(c·s + (luma(c)·(1 − s) + brightness)) · A; a pixel with A ≤ 0 → 0. Every operation a
// separate IEEE rounding in the Swift loop's order (FP_CONTRACT is off: no fused multiply-add), and unit(v) is
// Swift's pointwiseMin(pointwiseMax(v, 0), 1): v > 0 ? v : 0, then v ≤ 1 ? v : 1 (a NaN lane becomes 0).
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif

typedef float bd_mf8 __attribute__((ext_vector_type(8)));
typedef int32_t bd_mi8 __attribute__((ext_vector_type(8)));

/// Lanes of `values` where `mask` is all ones, of `otherwise` elsewhere.
static inline __attribute__((always_inline)) bd_mf8 bd_select8(bd_mi8 mask, bd_mf8 values, bd_mf8 otherwise) {
    return (bd_mf8)(((bd_mi8)values & mask) | ((bd_mi8)otherwise & ~mask));
}

/// Swift's pointwiseMin(pointwiseMax(v, 0), 1) (`Float.maximum` then `Float.minimum`, lane by lane).
static inline __attribute__((always_inline)) bd_mf8 bd_unit8(bd_mf8 v) {
    bd_mf8 zero = 0, one = 1;
    bd_mf8 positive = bd_select8((bd_mi8)(v > zero), v, zero);
    return bd_select8((bd_mi8)(positive <= one), positive, one);
}

void bd_material_filter_row_v3(const float *row, float *out, ptrdiff_t count, const float *constants) {
    const float v0 = constants[0], v1 = constants[1], v2 = constants[2], v3 = constants[3];
    const float amount = constants[4], saturation = constants[5], brightness = constants[6];
    const float wr = constants[7], wg = constants[8], wb = constants[9];
    const float v1Times3 = 3 * v1, v2Times3 = 3 * v2, keep = 1 - saturation;
    bd_mf8 zero = 0;
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_mf8 p0, p1, p2, p3;
        __builtin_memcpy(&p0, row + 4 * x, sizeof p0);
        __builtin_memcpy(&p1, row + 4 * x + 8, sizeof p1);
        __builtin_memcpy(&p2, row + 4 * x + 16, sizeof p2);
        __builtin_memcpy(&p3, row + 4 * x + 24, sizeof p3);
        // Interleaved RGBA to one vector per channel.
        bd_mf8 rg01 = __builtin_shufflevector(p0, p1, 0, 4, 8, 12, 1, 5, 9, 13);
        bd_mf8 ba01 = __builtin_shufflevector(p0, p1, 2, 6, 10, 14, 3, 7, 11, 15);
        bd_mf8 rg23 = __builtin_shufflevector(p2, p3, 0, 4, 8, 12, 1, 5, 9, 13);
        bd_mf8 ba23 = __builtin_shufflevector(p2, p3, 2, 6, 10, 14, 3, 7, 11, 15);
        bd_mf8 r = __builtin_shufflevector(rg01, rg23, 0, 1, 2, 3, 8, 9, 10, 11);
        bd_mf8 g = __builtin_shufflevector(rg01, rg23, 4, 5, 6, 7, 12, 13, 14, 15);
        bd_mf8 b = __builtin_shufflevector(ba01, ba23, 0, 1, 2, 3, 8, 9, 10, 11);
        bd_mf8 alpha = __builtin_shufflevector(ba01, ba23, 4, 5, 6, 7, 12, 13, 14, 15);

        bd_mf8 unpremultiply = 1 / alpha;
        r = r * unpremultiply;
        g = g * unpremultiply;
        b = b * unpremultiply;
        bd_mf8 l = bd_unit8(wr * r + wg * g + wb * b), m = 1 - l;
        bd_mf8 curve = v0 * m * m * m + v1Times3 * m * m * l + v2Times3 * m * l * l + v3 * l * l * l;
        bd_mf8 y = bd_unit8(curve);
        r = r + (y - r) * amount;
        g = g + (y - g) * amount;
        b = b + (y - b) * amount;
        bd_mf8 added = (wr * r + wg * g + wb * b) * keep + brightness;
        bd_mi8 transparent = (bd_mi8)(alpha <= zero);
        r = bd_select8(transparent, zero, bd_unit8(r * saturation + added) * alpha);
        g = bd_select8(transparent, zero, bd_unit8(g * saturation + added) * alpha);
        b = bd_select8(transparent, zero, bd_unit8(b * saturation + added) * alpha);
        bd_mf8 a = bd_select8(transparent, zero, alpha);

        // Back to interleaved RGBA.
        bd_mf8 rg03 = __builtin_shufflevector(r, g, 0, 1, 2, 3, 8, 9, 10, 11);
        bd_mf8 rg47 = __builtin_shufflevector(r, g, 4, 5, 6, 7, 12, 13, 14, 15);
        bd_mf8 ba03 = __builtin_shufflevector(b, a, 0, 1, 2, 3, 8, 9, 10, 11);
        bd_mf8 ba47 = __builtin_shufflevector(b, a, 4, 5, 6, 7, 12, 13, 14, 15);
        p0 = __builtin_shufflevector(rg03, ba03, 0, 4, 8, 12, 1, 5, 9, 13);
        p1 = __builtin_shufflevector(rg03, ba03, 2, 6, 10, 14, 3, 7, 11, 15);
        p2 = __builtin_shufflevector(rg47, ba47, 0, 4, 8, 12, 1, 5, 9, 13);
        p3 = __builtin_shufflevector(rg47, ba47, 2, 6, 10, 14, 3, 7, 11, 15);
        __builtin_memcpy(out + 4 * x, &p0, sizeof p0);
        __builtin_memcpy(out + 4 * x + 8, &p1, sizeof p1);
        __builtin_memcpy(out + 4 * x + 16, &p2, sizeof p2);
        __builtin_memcpy(out + 4 * x + 24, &p3, sizeof p3);
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
