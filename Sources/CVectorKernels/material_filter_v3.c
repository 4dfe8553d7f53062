// material_filter_v3.c — a system material's colour filters for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `MaterialFilterPass.filter(row:into:count:_:)`'s four-lane loop, bit for bit, eight pixels at a time
// (each pixel in a lane): per premultiplied pixel, straight colour c = C · (1 / A); L = unit(wr·r + wg·g + wb·b);
// the Bernstein curve v0·m·m·m + (3·v1)·m·m·L + (3·v2)·m·L·L + v3·L·L·L (m = 1 − L), unit; c ← c + (y − c)·amount;
// c ← unit(c·s + (luma(c)·(1 − s) + brightness)) · A; a pixel with A ≤ 0 → 0. bd_material_filter_box2_row_v3
// adds each pair of filtered neighbours, (0 + left) + right, to its output pixel: the f = 2 box loop of
// `MaterialFilterPass.boxRow`, bit for bit. Every operation a
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

/// The recipe's numbers as the loops use them.
typedef struct {
    float v0, v1Times3, v2Times3, v3, amount, saturation, brightness, wr, wg, wb, keep;
} bd_material_constants;

static inline __attribute__((always_inline)) bd_material_constants bd_material_constants_of(const float *constants) {
    bd_material_constants k;
    k.v0 = constants[0];
    k.v1Times3 = 3 * constants[1];
    k.v2Times3 = 3 * constants[2];
    k.v3 = constants[3];
    k.amount = constants[4];
    k.saturation = constants[5];
    k.brightness = constants[6];
    k.wr = constants[7];
    k.wg = constants[8];
    k.wb = constants[9];
    k.keep = 1 - constants[5];
    return k;
}

/// Eight premultiplied pixels, a channel a vector.
typedef struct {
    bd_mf8 r, g, b, a;
} bd_material_pixels;

/// The eight interleaved RGBA pixels at `row`, a channel a vector.
static inline __attribute__((always_inline)) bd_material_pixels bd_material_load8(const float *row) {
    bd_mf8 p0, p1, p2, p3;
    __builtin_memcpy(&p0, row, sizeof p0);
    __builtin_memcpy(&p1, row + 8, sizeof p1);
    __builtin_memcpy(&p2, row + 16, sizeof p2);
    __builtin_memcpy(&p3, row + 24, sizeof p3);
    bd_mf8 rg01 = __builtin_shufflevector(p0, p1, 0, 4, 8, 12, 1, 5, 9, 13);
    bd_mf8 ba01 = __builtin_shufflevector(p0, p1, 2, 6, 10, 14, 3, 7, 11, 15);
    bd_mf8 rg23 = __builtin_shufflevector(p2, p3, 0, 4, 8, 12, 1, 5, 9, 13);
    bd_mf8 ba23 = __builtin_shufflevector(p2, p3, 2, 6, 10, 14, 3, 7, 11, 15);
    bd_material_pixels pixels;
    pixels.r = __builtin_shufflevector(rg01, rg23, 0, 1, 2, 3, 8, 9, 10, 11);
    pixels.g = __builtin_shufflevector(rg01, rg23, 4, 5, 6, 7, 12, 13, 14, 15);
    pixels.b = __builtin_shufflevector(ba01, ba23, 0, 1, 2, 3, 8, 9, 10, 11);
    pixels.a = __builtin_shufflevector(ba01, ba23, 4, 5, 6, 7, 12, 13, 14, 15);
    return pixels;
}

/// The filters (the contract above) over eight pixels, from their straight colour: c = C · (1 / A).
static inline __attribute__((always_inline)) bd_material_pixels bd_material_filter8_straight(
    bd_mf8 r, bd_mf8 g, bd_mf8 b, bd_mf8 alpha, bd_material_constants k) {
    bd_mf8 zero = 0;
    bd_mf8 l = bd_unit8(k.wr * r + k.wg * g + k.wb * b), m = 1 - l;
    bd_mf8 curve = k.v0 * m * m * m + k.v1Times3 * m * m * l + k.v2Times3 * m * l * l + k.v3 * l * l * l;
    bd_mf8 y = bd_unit8(curve);
    r = r + (y - r) * k.amount;
    g = g + (y - g) * k.amount;
    b = b + (y - b) * k.amount;
    bd_mf8 added = (k.wr * r + k.wg * g + k.wb * b) * k.keep + k.brightness;
    bd_mi8 transparent = (bd_mi8)(alpha <= zero);
    bd_material_pixels out;
    out.r = bd_select8(transparent, zero, bd_unit8(r * k.saturation + added) * alpha);
    out.g = bd_select8(transparent, zero, bd_unit8(g * k.saturation + added) * alpha);
    out.b = bd_select8(transparent, zero, bd_unit8(b * k.saturation + added) * alpha);
    out.a = bd_select8(transparent, zero, alpha);
    return out;
}

/// The filters over eight premultiplied pixels. Where all eight alphas are exactly 1 (every opaque box of a capture:
/// 255·k²·255 · (1 / (65025·k²)) rounds to 1 for every k the plans take), 1 / A is 1, C · 1 is C and c · A is c, all
/// exact: the straight colour is the pixel itself and the division is skipped, with the same floats.
static inline __attribute__((always_inline)) bd_material_pixels bd_material_filter8(
    bd_material_pixels p, bd_material_constants k) {
    bd_mf8 one = 1;
    bd_mi8 isOne = (bd_mi8)(p.a == one);
    if (__builtin_reduce_and(isOne) != 0) {
        bd_material_pixels out = bd_material_filter8_straight(p.r, p.g, p.b, one, k);
        return out;
    }
    bd_mf8 unpremultiply = 1 / p.a;
    return bd_material_filter8_straight(p.r * unpremultiply, p.g * unpremultiply, p.b * unpremultiply, p.a, k);
}

void bd_material_filter_row_v3(const float *row, float *out, ptrdiff_t count, const float *constants) {
    const bd_material_constants k = bd_material_constants_of(constants);
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_material_pixels p = bd_material_filter8(bd_material_load8(row + 4 * x), k);
        // Back to interleaved RGBA.
        bd_mf8 rg03 = __builtin_shufflevector(p.r, p.g, 0, 1, 2, 3, 8, 9, 10, 11);
        bd_mf8 rg47 = __builtin_shufflevector(p.r, p.g, 4, 5, 6, 7, 12, 13, 14, 15);
        bd_mf8 ba03 = __builtin_shufflevector(p.b, p.a, 0, 1, 2, 3, 8, 9, 10, 11);
        bd_mf8 ba47 = __builtin_shufflevector(p.b, p.a, 4, 5, 6, 7, 12, 13, 14, 15);
        bd_mf8 p0 = __builtin_shufflevector(rg03, ba03, 0, 4, 8, 12, 1, 5, 9, 13);
        bd_mf8 p1 = __builtin_shufflevector(rg03, ba03, 2, 6, 10, 14, 3, 7, 11, 15);
        bd_mf8 p2 = __builtin_shufflevector(rg47, ba47, 0, 4, 8, 12, 1, 5, 9, 13);
        bd_mf8 p3 = __builtin_shufflevector(rg47, ba47, 2, 6, 10, 14, 3, 7, 11, 15);
        __builtin_memcpy(out + 4 * x, &p0, sizeof p0);
        __builtin_memcpy(out + 4 * x + 8, &p1, sizeof p1);
        __builtin_memcpy(out + 4 * x + 16, &p2, sizeof p2);
        __builtin_memcpy(out + 4 * x + 24, &p3, sizeof p3);
    }
}

void bd_material_filter_box2_row_v3(const float *row, float *sums, ptrdiff_t count, const float *constants) {
    const bd_material_constants k = bd_material_constants_of(constants);
    bd_mf8 zero = 0;
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_material_pixels p = bd_material_filter8(bd_material_load8(row + 4 * x), k);
        // Each pair of neighbours as the box loop adds them: (0 + left) + right, r and g together, b and a.
        bd_mf8 rgLeft = __builtin_shufflevector(p.r, p.g, 0, 2, 4, 6, 8, 10, 12, 14);
        bd_mf8 rgRight = __builtin_shufflevector(p.r, p.g, 1, 3, 5, 7, 9, 11, 13, 15);
        bd_mf8 baLeft = __builtin_shufflevector(p.b, p.a, 0, 2, 4, 6, 8, 10, 12, 14);
        bd_mf8 baRight = __builtin_shufflevector(p.b, p.a, 1, 3, 5, 7, 9, 11, 13, 15);
        bd_mf8 rg = (zero + rgLeft) + rgRight, ba = (zero + baLeft) + baRight;
        // Four interleaved RGBA sums, each added to its output pixel.
        bd_mf8 s01 = __builtin_shufflevector(rg, ba, 0, 4, 8, 12, 1, 5, 9, 13);
        bd_mf8 s23 = __builtin_shufflevector(rg, ba, 2, 6, 10, 14, 3, 7, 11, 15);
        bd_mf8 o01, o23;
        float *o = sums + 2 * x;
        __builtin_memcpy(&o01, o, sizeof o01);
        __builtin_memcpy(&o23, o + 8, sizeof o23);
        o01 = o01 + s01;
        o23 = o23 + s23;
        __builtin_memcpy(o, &o01, sizeof o01);
        __builtin_memcpy(o + 8, &o23, sizeof o23);
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
