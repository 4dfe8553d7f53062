// glass_face_v3.c — Liquid Glass's face colour and its rim for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: bit for bit the Swift loops they stand in for, eight pixels at a time (each pixel in a lane).
// bd_glass_face_pixels_v3, `GlassFaceColour.applyOutputScaled`: on the blurred small image's straight pixels at output
// scale v (alpha untouched), s = (v − offset) / maximum; Y = wr·r + wg·g + wb·b; Cb = (b − Y) / kb · sat,
// Cr = (r − Y) / kr · sat; Y ← 0 ≥ Y ? 0 : Y; Y ← m·Y / (m + (1 − m)·Y); Y ← black + (white − black)·Y;
// R = Y + kr·Cr, B = Y + kb·Cb, G = (Y − wr·R − wb·B) / wg; c ← c·(1 − fill) + fill; with a tint
// c ← c·keep + tint·alpha; c ← c ≥ 0 ? c : 0, then c < 1 ? c : 1; v ← c·maximum + offset.
// bd_glass_rim_row8_v3, `GlassFacePass`'s rim over the face's frame: `Face.shape`'s signed distance, the normal, the
// refraction's bilinear read (gathers) of the face's samples, the highlight, the clamp and the coverage's mix.
// Every operation a separate IEEE rounding in the Swift loop's order (FP_CONTRACT is off: no fused multiply-add but
// bd_glass_unit's); every constant as Swift computed it.
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif

typedef float bd_gf8 __attribute__((ext_vector_type(8)));
typedef float bd_gf16 __attribute__((ext_vector_type(16)));
typedef float bd_gf32 __attribute__((ext_vector_type(32)));
typedef int32_t bd_gi8 __attribute__((ext_vector_type(8)));
typedef uint8_t bd_gb8 __attribute__((ext_vector_type(8)));
typedef uint8_t bd_gb16 __attribute__((ext_vector_type(16)));
typedef uint8_t bd_gb32 __attribute__((ext_vector_type(32)));

/// Lanes of `values` where `mask` is all ones, of `otherwise` elsewhere.
static inline __attribute__((always_inline)) bd_gf8 bd_glass_select(bd_gi8 mask, bd_gf8 values, bd_gf8 otherwise) {
    return (bd_gf8)(((bd_gi8)values & mask) | ((bd_gi8)otherwise & ~mask));
}

/// x / maximum for the integers 0 ≤ x ≤ maximum (255 or 65535), correctly rounded without a division: q = x·r
/// (r = 1 / maximum, rounded), then fma(fma(−q, maximum, x), r, q). Checked, not derived: the same formula in Swift
/// (`Float` fused multiply-adds, the same r) gives the division's float for each of the 256 and 65536 inputs
/// (`VectorKernelTests.theGlassKernelsDivideEverySampleByItsMaximumExactly`); the kernels' own bytes are held to the
/// Swift loop's by the same file's kernel cases.
static inline __attribute__((always_inline)) bd_gf8 bd_glass_unit(bd_gf8 x, float maximum, float reciprocal) {
    bd_gf8 m = maximum, r = reciprocal;
    bd_gf8 q = x * r;
    return __builtin_elementwise_fma(__builtin_elementwise_fma(-q, m, x), r, q);
}

void bd_glass_face_pixels_v3(float *pixels, ptrdiff_t count, const float *k) {
    const float wr = k[0], wg = k[1], wb = k[2], kb = k[3], kr = k[4], saturation = k[5], maxLuma = k[6];
    const float oneMinusMaxLuma = k[7], black = k[8], whiteMinusBlack = k[9], keepFill = k[10], fill = k[11];
    const int tinted = k[12] != 0;
    const float keepTint = k[13], maximum = k[17], offset = k[18];
    const bd_gf8 tint[3] = {k[14], k[15], k[16]};
    bd_gf8 zero = 0, one = 1;
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_gf32 p;
        __builtin_memcpy(&p, pixels + 4 * x, sizeof p);
        bd_gf8 r = (__builtin_shufflevector(p, p, 0, 4, 8, 12, 16, 20, 24, 28) - offset) / maximum;
        bd_gf8 g = (__builtin_shufflevector(p, p, 1, 5, 9, 13, 17, 21, 25, 29) - offset) / maximum;
        bd_gf8 b = (__builtin_shufflevector(p, p, 2, 6, 10, 14, 18, 22, 26, 30) - offset) / maximum;
        bd_gf8 alpha = __builtin_shufflevector(p, p, 3, 7, 11, 15, 19, 23, 27, 31);
        bd_gf8 luma = wr * r + wg * g + wb * b;
        bd_gf8 cb = (b - luma) / kb * saturation, cr = (r - luma) / kr * saturation;
        luma = bd_glass_select((bd_gi8)(zero >= luma), zero, luma);
        luma = maxLuma * luma / (maxLuma + oneMinusMaxLuma * luma);
        luma = black + whiteMinusBlack * luma;
        bd_gf8 red = luma + kr * cr, blue = luma + kb * cb;
        bd_gf8 green = (luma - wr * red - wb * blue) / wg;
        bd_gf8 face[3] = {red, green, blue};
        for (int lane = 0; lane < 3; lane++) {
            bd_gf8 c = face[lane] * keepFill + fill;
            if (tinted) c = c * keepTint + tint[lane];
            c = bd_glass_select((bd_gi8)(c >= zero), c, zero);
            c = bd_glass_select((bd_gi8)(c < one), c, one);
            face[lane] = c * maximum + offset;
        }
        bd_gf16 rg = __builtin_shufflevector(face[0], face[1], 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gf16 ba = __builtin_shufflevector(face[2], alpha, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gf32 out = __builtin_shufflevector(
            rg, ba, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13,
            28, 29, 14, 15, 30, 31);
        __builtin_memcpy(pixels + 4 * x, &out, sizeof out);
    }
}

/// The source's eight straight RGBA8 pixels as four channel vectors.
static inline __attribute__((always_inline)) void bd_glass_source8(const uint8_t *source, bd_gf8 *out) {
    bd_gb32 s;
    __builtin_memcpy(&s, source, sizeof s);
    out[0] = __builtin_convertvector(__builtin_shufflevector(s, s, 0, 4, 8, 12, 16, 20, 24, 28), bd_gf8);
    out[1] = __builtin_convertvector(__builtin_shufflevector(s, s, 1, 5, 9, 13, 17, 21, 25, 29), bd_gf8);
    out[2] = __builtin_convertvector(__builtin_shufflevector(s, s, 2, 6, 10, 14, 18, 22, 26, 30), bd_gf8);
    out[3] = __builtin_convertvector(__builtin_shufflevector(s, s, 3, 7, 11, 15, 19, 23, 27, 31), bd_gf8);
}

/// Swift's max(v, 0) (`0 >= v ? 0 : v`) and min(v, limit) (`limit < v ? limit : v`), lane by lane.
static inline __attribute__((always_inline)) bd_gf8 bd_glass_max0(bd_gf8 v) {
    bd_gf8 zero = 0;
    return bd_glass_select((bd_gi8)(zero >= v), zero, v);
}
static inline __attribute__((always_inline)) bd_gf8 bd_glass_min(bd_gf8 v, bd_gf8 limit) {
    return bd_glass_select((bd_gi8)(limit < v), limit, v);
}

/// The blurred frame's eight RGBA8 pixels at `indices` (pixels from `frame`), 0…1, as four channel vectors.
static inline __attribute__((always_inline)) void bd_glass_gather(
    const uint8_t *frame, bd_gi8 indices, bd_gf8 *out) {
#if defined(__x86_64__)
    bd_gi8 v = (bd_gi8)_mm256_i32gather_epi32((const int *)frame, (__m256i)indices, 4);
#else
    bd_gi8 v;
    for (int lane = 0; lane < 8; lane++) __builtin_memcpy(&v[lane], frame + 4 * (ptrdiff_t)indices[lane], 4);
#endif
    bd_gi8 mask = 0xff;
    out[0] = bd_glass_unit(__builtin_convertvector(v & mask, bd_gf8), 255, 1 / 255.0f);
    out[1] = bd_glass_unit(__builtin_convertvector((v >> 8) & mask, bd_gf8), 255, 1 / 255.0f);
    out[2] = bd_glass_unit(__builtin_convertvector((v >> 16) & mask, bd_gf8), 255, 1 / 255.0f);
    out[3] = bd_glass_unit(__builtin_convertvector((v >> 24) & mask, bd_gf8), 255, 1 / 255.0f);
}

void bd_glass_rim_row8_v3(
    const uint8_t *blurred, ptrdiff_t rowStride, const uint8_t *source, uint8_t *out, ptrdiff_t y, ptrdiff_t first,
    ptrdiff_t count, ptrdiff_t width, ptrdiff_t height, const float *constants) {
    const float *g = constants;
    const float halfWidth = g[0], halfHeight = g[1], innerWidth = g[2], innerHeight = g[3], radius = g[4];
    const float amount = g[5], refractionHeight = g[6], highlight = g[7], highlightWidth = g[8];
    const float cosSpread = g[9], oneMinusCosSpread = g[10];
    bd_gf8 zero = 0, one = 1, half = 0.5f, byteMaximum = 255, minusOne = -1;
    bd_gf8 lastX = (float)(width - 1), lastY = (float)(height - 1);
    bd_gi8 lastColumn = (int32_t)(width - 1), lastRow = (int32_t)(height - 1), stride = (int32_t)rowStride;
    bd_gi8 lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    const float centreY = (float)y + 0.5f;
    const float py = centreY - halfHeight;
    const float signY = py < 0 ? -1.0f : 1.0f;
    const float qy = __builtin_fabsf(py) - innerHeight;
    const float outsideY = 0 >= qy ? 0 : qy;
    for (ptrdiff_t x = first; x + 8 <= first + count; x += 8) {
        // The shape (`Face.shape`).
        bd_gi8 column = (int32_t)x + lanes;
        bd_gf8 centreX = __builtin_convertvector(column, bd_gf8) + half;
        bd_gf8 px = centreX - halfWidth;
        bd_gf8 signX = bd_glass_select((bd_gi8)(px < zero), minusOne, one);
        bd_gf8 qx = __builtin_elementwise_abs(px) - innerWidth;
        bd_gf8 qyv = qy;
        bd_gf8 outsideX = bd_glass_max0(qx), outsideYv = outsideY;
        bd_gf8 outsideLength = __builtin_elementwise_sqrt(outsideX * outsideX + outsideYv * outsideYv);
        bd_gf8 largerQ = bd_glass_select((bd_gi8)(qyv >= qx), qyv, qx);
        bd_gf8 d = outsideLength + bd_glass_min(largerQ, zero) - radius;
        bd_gf8 coverage = bd_glass_min(bd_glass_max0(half - d), one);
        bd_gi8 corner = (bd_gi8)(qx > zero) & (bd_gi8)(qyv > zero);
        bd_gi8 horizontal = (bd_gi8)(qx > qyv);
        bd_gf8 normalX = bd_glass_select(
            corner, outsideX / outsideLength * signX, bd_glass_select(horizontal, signX, zero));
        bd_gf8 normalY = bd_glass_select(
            corner, outsideYv / outsideLength * signY, bd_glass_select(horizontal, zero, (bd_gf8)signY));
        bd_gf8 t = bd_glass_max0(-d);
        // The refraction's bilinear read, or the pixel's own.
        bd_gi8 refracts = (bd_gi8)(t < refractionHeight);
        bd_gf8 falloff = 1 - t / refractionHeight;
        bd_gf8 shift = amount * falloff * falloff;
        bd_gf8 atX = bd_glass_select(refracts, centreX - normalX * shift, centreX);
        bd_gf8 atY = bd_glass_select(refracts, centreY - normalY * shift, (bd_gf8)centreY);
        bd_gf8 sx = bd_glass_min(bd_glass_max0(atX - half), lastX);
        bd_gf8 sy = bd_glass_min(bd_glass_max0(atY - half), lastY);
        bd_gi8 x0 = __builtin_convertvector(sx, bd_gi8), y0 = __builtin_convertvector(sy, bd_gi8);
        bd_gi8 x1 = x0 + 1, y1 = y0 + 1;
        bd_gi8 x1Past = (bd_gi8)(lastColumn < x1), y1Past = (bd_gi8)(lastRow < y1);
        x1 = (lastColumn & x1Past) | (x1 & ~x1Past);
        y1 = (lastRow & y1Past) | (y1 & ~y1Past);
        bd_gf8 fx = sx - __builtin_convertvector(x0, bd_gf8), fy = sy - __builtin_convertvector(y0, bd_gf8);
        // Only the reads some lane selects (most blocks refract in every lane or in none).
        bd_gf8 topLeft[4] = {0}, topRight[4] = {0}, bottomLeft[4] = {0}, bottomRight[4] = {0}, own[4] = {0};
        int refracting = 0;
        for (int lane = 0; lane < 8; lane++) refracting += refracts[lane] != 0;
        if (refracting > 0) {
            bd_glass_gather(blurred, y0 * stride + x0, topLeft);
            bd_glass_gather(blurred, y0 * stride + x1, topRight);
            bd_glass_gather(blurred, y1 * stride + x0, bottomLeft);
            bd_glass_gather(blurred, y1 * stride + x1, bottomRight);
        }
        if (refracting < 8) bd_glass_gather(blurred, (int32_t)y * stride + column, own);
        bd_gf8 channels[4];
        for (int lane = 0; lane < 4; lane++) {
            bd_gf8 top = topLeft[lane] * (1 - fx) + topRight[lane] * fx;
            bd_gf8 bottom = bottomLeft[lane] * (1 - fx) + bottomRight[lane] * fx;
            channels[lane] = bd_glass_select(refracts, top * (1 - fy) + bottom * fy, own[lane]);
        }
        // The highlight over the face's colour, the clamp and the coverage's mix.
        bd_gf8 band = bd_glass_min(bd_glass_max0(1 - t / highlightWidth), one);
        bd_gf8 caught = bd_glass_min(
            bd_glass_max0((__builtin_elementwise_abs(normalY) - cosSpread) / oneMinusCosSpread), one);
        bd_gf8 lift = highlight * band * caught;
        bd_gf8 s[4];
        bd_glass_source8(source + 4 * x, s);
        bd_gi8 uncovered = (bd_gi8)(coverage == zero);
        bd_gf8 samples[4];
        for (int lane = 0; lane < 4; lane++) {
            bd_gf8 value = bd_glass_unit(s[lane], 255, 1 / 255.0f);
            bd_gf8 glass = channels[3];
            if (lane < 3) {
                bd_gf8 c = channels[lane];
                c = c + (one - c) * lift;
                c = bd_glass_select((bd_gi8)(c >= zero), c, zero);
                glass = bd_glass_select((bd_gi8)(c < one), c, one);
            }
            bd_gf8 v = bd_glass_select(uncovered, value, value + (glass - value) * coverage);
            bd_gf8 q = __builtin_elementwise_floor(v * byteMaximum + half);
            bd_gf8 limited = bd_glass_select((bd_gi8)(q < byteMaximum), q, byteMaximum);
            samples[lane] = bd_glass_select((bd_gi8)(limited >= zero), limited, zero);
        }
        bd_gb8 rr = __builtin_convertvector(__builtin_convertvector(samples[0], bd_gi8), bd_gb8);
        bd_gb8 gb = __builtin_convertvector(__builtin_convertvector(samples[1], bd_gi8), bd_gb8);
        bd_gb8 bb = __builtin_convertvector(__builtin_convertvector(samples[2], bd_gi8), bd_gb8);
        bd_gb8 ab = __builtin_convertvector(__builtin_convertvector(samples[3], bd_gi8), bd_gb8);
        bd_gb16 rg = __builtin_shufflevector(rr, gb, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gb16 ba = __builtin_shufflevector(bb, ab, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gb32 pixels = __builtin_shufflevector(
            rg, ba, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13,
            28, 29, 14, 15, 30, 31);
        __builtin_memcpy(out + 4 * (x - first), &pixels, sizeof pixels);
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
