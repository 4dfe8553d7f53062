// glass_face_v3.c — Liquid Glass's face away from its rim for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `GlassFacePass`'s per-pixel face, bit for bit, eight pixels at a time (each pixel in a lane).
// bd_glass_face_row*_v3, a row's middle (coverage 1, no refraction, a highlight of exactly zero): b = blurred /
// maximum, s = source / 255 (`bd_glass_unit`, no division); Y = wr·r + wg·g + wb·b; Cb = (b − Y) / kb · sat,
// Cr = (r − Y) / kr · sat; Y ← 0 ≥ Y ? 0 : Y; Y ← m·Y / (m + (1 − m)·Y); Y ← black + (white − black)·Y;
// R = Y + kr·Cr, B = Y + kb·Cb, G = (Y − wr·R − wb·B) / wg; c ← c·(1 − fill) + fill; with a tint
// c ← c·keep + tint·alpha; c ← c ≥ 0 ? c : 0, then c < 1 ? c : 1; v = s + ((c, b.alpha) − s); the sample
// ⌊v·maximum + ½⌋ limited to [0, maximum] as Swift's max(0, min(maximum, q)). bd_glass_rim_row8_v3, the rim: the
// same with `Face.shape`'s signed distance, the normal, the refraction's bilinear read (gathers), the highlight before
// the clamp and the coverage's mix. Every operation a separate IEEE rounding in the Swift loop's order (FP_CONTRACT
// is off: no fused multiply-add but bd_glass_unit's); every constant as Swift computed it.
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif

typedef float bd_gf8 __attribute__((ext_vector_type(8)));
typedef int32_t bd_gi8 __attribute__((ext_vector_type(8)));
typedef uint8_t bd_gb8 __attribute__((ext_vector_type(8)));
typedef uint8_t bd_gb16 __attribute__((ext_vector_type(16)));
typedef uint8_t bd_gb32 __attribute__((ext_vector_type(32)));
typedef uint16_t bd_gh8 __attribute__((ext_vector_type(8)));
typedef uint16_t bd_gh16 __attribute__((ext_vector_type(16)));
typedef uint16_t bd_gh32 __attribute__((ext_vector_type(32)));

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

/// The face's constants (`GlassFacePass`'s order, see the header).
typedef struct {
    float wr, wg, wb, kb, kr, saturation, maxLuma, oneMinusMaxLuma, black, whiteMinusBlack, keepFill, fill;
    int tinted;
    float keepTint, tintR, tintG, tintB, maximum, reciprocal;
} bd_glass_constants;

static inline __attribute__((always_inline)) bd_glass_constants bd_glass_read(const float *k) {
    bd_glass_constants c = {
        k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11],
        k[12] != 0, k[13], k[14], k[15], k[16], k[17], 1 / k[17]};
    return c;
}

/// Eight pixels' face: the straight blurred channels (0…maximum) and the source's (0…255) in, the samples out
/// (integral floats in [0, maximum]).
static inline __attribute__((always_inline)) void bd_glass_face8(
    const bd_glass_constants *k, bd_gf8 *channels, const bd_gf8 *source) {
    bd_gf8 maximum = k->maximum, zero = 0, one = 1, half = 0.5f;
    bd_gf8 r = bd_glass_unit(channels[0], k->maximum, k->reciprocal);
    bd_gf8 g = bd_glass_unit(channels[1], k->maximum, k->reciprocal);
    bd_gf8 b = bd_glass_unit(channels[2], k->maximum, k->reciprocal);
    bd_gf8 alpha = bd_glass_unit(channels[3], k->maximum, k->reciprocal);
    bd_gf8 luma = k->wr * r + k->wg * g + k->wb * b;
    bd_gf8 cb = (b - luma) / k->kb * k->saturation, cr = (r - luma) / k->kr * k->saturation;
    luma = bd_glass_select((bd_gi8)(zero >= luma), zero, luma);
    luma = k->maxLuma * luma / (k->maxLuma + k->oneMinusMaxLuma * luma);
    luma = k->black + k->whiteMinusBlack * luma;
    bd_gf8 red = luma + k->kr * cr, blue = luma + k->kb * cb;
    bd_gf8 green = (luma - k->wr * red - k->wb * blue) / k->wg;
    bd_gf8 face[3] = {red, green, blue};
    bd_gf8 tint[3] = {k->tintR, k->tintG, k->tintB};
    for (int lane = 0; lane < 3; lane++) {
        bd_gf8 c = face[lane] * k->keepFill + k->fill;
        if (k->tinted) c = c * k->keepTint + tint[lane];
        c = bd_glass_select((bd_gi8)(c >= zero), c, zero);
        face[lane] = bd_glass_select((bd_gi8)(c < one), c, one);
    }
    bd_gf8 glass[4] = {face[0], face[1], face[2], alpha};
    for (int lane = 0; lane < 4; lane++) {
        bd_gf8 s = bd_glass_unit(source[lane], 255, 1 / 255.0f);
        bd_gf8 q = __builtin_elementwise_floor((s + (glass[lane] - s)) * maximum + half);
        bd_gf8 limited = bd_glass_select((bd_gi8)(q < maximum), q, maximum);
        channels[lane] = bd_glass_select((bd_gi8)(limited >= zero), limited, zero);
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

void bd_glass_face_row8_v3(uint8_t *pixels, const uint8_t *source, ptrdiff_t count, const float *constants) {
    const bd_glass_constants k = bd_glass_read(constants);
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_gb32 p;
        __builtin_memcpy(&p, pixels + 4 * x, sizeof p);
        bd_gf8 channels[4] = {
            __builtin_convertvector(__builtin_shufflevector(p, p, 0, 4, 8, 12, 16, 20, 24, 28), bd_gf8),
            __builtin_convertvector(__builtin_shufflevector(p, p, 1, 5, 9, 13, 17, 21, 25, 29), bd_gf8),
            __builtin_convertvector(__builtin_shufflevector(p, p, 2, 6, 10, 14, 18, 22, 26, 30), bd_gf8),
            __builtin_convertvector(__builtin_shufflevector(p, p, 3, 7, 11, 15, 19, 23, 27, 31), bd_gf8)};
        bd_gf8 s[4];
        bd_glass_source8(source + 4 * x, s);
        bd_glass_face8(&k, channels, s);
        bd_gb8 r = __builtin_convertvector(__builtin_convertvector(channels[0], bd_gi8), bd_gb8);
        bd_gb8 g = __builtin_convertvector(__builtin_convertvector(channels[1], bd_gi8), bd_gb8);
        bd_gb8 b = __builtin_convertvector(__builtin_convertvector(channels[2], bd_gi8), bd_gb8);
        bd_gb8 a = __builtin_convertvector(__builtin_convertvector(channels[3], bd_gi8), bd_gb8);
        bd_gb16 rg = __builtin_shufflevector(r, g, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gb16 ba = __builtin_shufflevector(b, a, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gb32 out = __builtin_shufflevector(
            rg, ba, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13,
            28, 29, 14, 15, 30, 31);
        __builtin_memcpy(pixels + 4 * x, &out, sizeof out);
    }
}

void bd_glass_face_row16_v3(uint16_t *pixels, const uint8_t *source, ptrdiff_t count, const float *constants) {
    const bd_glass_constants k = bd_glass_read(constants);
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_gh32 p;
        __builtin_memcpy(&p, pixels + 4 * x, sizeof p);
        bd_gf8 channels[4] = {
            __builtin_convertvector(__builtin_shufflevector(p, p, 0, 4, 8, 12, 16, 20, 24, 28), bd_gf8),
            __builtin_convertvector(__builtin_shufflevector(p, p, 1, 5, 9, 13, 17, 21, 25, 29), bd_gf8),
            __builtin_convertvector(__builtin_shufflevector(p, p, 2, 6, 10, 14, 18, 22, 26, 30), bd_gf8),
            __builtin_convertvector(__builtin_shufflevector(p, p, 3, 7, 11, 15, 19, 23, 27, 31), bd_gf8)};
        bd_gf8 s[4];
        bd_glass_source8(source + 4 * x, s);
        bd_glass_face8(&k, channels, s);
        bd_gh8 r = __builtin_convertvector(__builtin_convertvector(channels[0], bd_gi8), bd_gh8);
        bd_gh8 g = __builtin_convertvector(__builtin_convertvector(channels[1], bd_gi8), bd_gh8);
        bd_gh8 b = __builtin_convertvector(__builtin_convertvector(channels[2], bd_gi8), bd_gh8);
        bd_gh8 a = __builtin_convertvector(__builtin_convertvector(channels[3], bd_gi8), bd_gh8);
        bd_gh16 rg = __builtin_shufflevector(r, g, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gh16 ba = __builtin_shufflevector(b, a, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        bd_gh32 out = __builtin_shufflevector(
            rg, ba, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13,
            28, 29, 14, 15, 30, 31);
        __builtin_memcpy(pixels + 4 * x, &out, sizeof out);
    }
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
    const bd_glass_constants k = bd_glass_read(constants);
    const float *g = constants + 18;
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
        bd_gf8 topLeft[4], topRight[4], bottomLeft[4], bottomRight[4], own[4];
        bd_glass_gather(blurred, y0 * stride + x0, topLeft);
        bd_glass_gather(blurred, y0 * stride + x1, topRight);
        bd_glass_gather(blurred, y1 * stride + x0, bottomLeft);
        bd_glass_gather(blurred, y1 * stride + x1, bottomRight);
        bd_glass_gather(blurred, (int32_t)y * stride + column, own);
        bd_gf8 channels[4];
        for (int lane = 0; lane < 4; lane++) {
            bd_gf8 top = topLeft[lane] * (1 - fx) + topRight[lane] * fx;
            bd_gf8 bottom = bottomLeft[lane] * (1 - fx) + bottomRight[lane] * fx;
            channels[lane] = bd_glass_select(refracts, top * (1 - fy) + bottom * fy, own[lane]);
        }
        // The face (as `bd_glass_face8`, which cannot be shared: the highlight comes before the clamp).
        bd_gf8 r = channels[0], gg = channels[1], b = channels[2];
        bd_gf8 luma = k.wr * r + k.wg * gg + k.wb * b;
        bd_gf8 cb = (b - luma) / k.kb * k.saturation, cr = (r - luma) / k.kr * k.saturation;
        luma = bd_glass_select((bd_gi8)(zero >= luma), zero, luma);
        luma = k.maxLuma * luma / (k.maxLuma + k.oneMinusMaxLuma * luma);
        luma = k.black + k.whiteMinusBlack * luma;
        bd_gf8 red = luma + k.kr * cr, blue = luma + k.kb * cb;
        bd_gf8 green = (luma - k.wr * red - k.wb * blue) / k.wg;
        bd_gf8 face[3] = {red, green, blue};
        bd_gf8 tint[3] = {k.tintR, k.tintG, k.tintB};
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
                bd_gf8 c = face[lane] * k.keepFill + k.fill;
                if (k.tinted) c = c * k.keepTint + tint[lane];
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
