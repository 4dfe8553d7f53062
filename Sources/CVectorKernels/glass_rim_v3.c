// glass_rim_v3.c — Liquid Glass's rim for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: bit for bit the Swift loops they stand in for, eight pixels at a time (each pixel in a lane).
// bd_glass_rim_run8_v3, `GlassFacePass`'s `Face.pixel` with a blurred surface at 8-bit samples: the shape's place
// (`GlassShape.place`), coverage and normal, the highlight's band and lift, the face's colour of the blurred small
// image read bilinearly at the refracted place (`GlassBlurredSurface.value`, `GlassFaceColour.unclamped`), the
// lift, the clamp, the mix with the source by the coverage and the store (⌊v·255 + ½⌋ limited to 0…255).
// bd_glass_refract_run_v3, `GlassRefraction.refract(row:width:of:into:constants:)`: each small pixel's point, its place in the
// shape, and where t < h the surface's bilinear read at the point less n·a·(1 − t/h)², stored over the pixel.
// Swift's min(x, y) is y < x ? y : x and max(x, y) is y ≥ x ? y : x; both are written out as those selects. Every
// operation a separate IEEE rounding in the Swift loop's order (FP_CONTRACT is off: no fused multiply-add); every
// constant as Swift computed it.
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)

#include "glass_face_lanes.h"

typedef bd_glass_f8 bd_rf8;
typedef bd_glass_i8 bd_ri8;

/// Swift's max(x, y): y ≥ x ? y : x.
static inline __attribute__((always_inline)) bd_rf8 bd_rim_max(bd_rf8 x, bd_rf8 y) {
    return bd_glass_select((bd_ri8)(y >= x), y, x);
}

/// Swift's min(x, y): y < x ? y : x.
static inline __attribute__((always_inline)) bd_rf8 bd_rim_min(bd_rf8 x, bd_rf8 y) {
    return bd_glass_select((bd_ri8)(y < x), y, x);
}

static inline __attribute__((always_inline)) bd_rf8 bd_rim_abs(bd_rf8 x) {
    return (bd_rf8)((bd_ri8)x & (bd_ri8)0x7fffffff);
}

/// A place in the shape (`GlassShape.place(centre:)`) and its outward normal (`GlassShape.normal`).
typedef struct {
    bd_rf8 d, normalX, normalY;
} bd_rim_place;

static inline __attribute__((always_inline)) bd_rim_place bd_rim_place_of(
    bd_rf8 centreX, bd_rf8 centreY, const float *k) {
    const float halfX = k[0], halfY = k[1], innerX = k[2], innerY = k[3], radius = k[4];
    const bd_rf8 zero = 0, one = 1;
    bd_rf8 px = centreX - halfX, py = centreY - halfY;
    bd_rf8 signX = bd_glass_select((bd_ri8)(px < zero), (bd_rf8)-1, one);
    bd_rf8 signY = bd_glass_select((bd_ri8)(py < zero), (bd_rf8)-1, one);
    bd_rf8 qx = bd_rim_abs(px) - innerX, qy = bd_rim_abs(py) - innerY;
    bd_rf8 outX = bd_rim_max(qx, zero), outY = bd_rim_max(qy, zero);
    bd_rf8 outLength = _mm256_sqrt_ps(outX * outX + outY * outY);
    bd_rf8 d = outLength + bd_rim_min(bd_rim_max(qx, qy), zero);
    bd_rim_place place;
    place.d = d - radius;
    bd_ri8 corner = (bd_ri8)(qx > zero) & (bd_ri8)(qy > zero);
    bd_ri8 side = (bd_ri8)(qx > qy);
    place.normalX = bd_glass_select(corner, outX / outLength * signX, bd_glass_select(side, signX, zero));
    place.normalY = bd_glass_select(corner, outY / outLength * signY, bd_glass_select(side, zero, signY));
    return place;
}

/// The surface's bilinear read at (atX, atY), at output scale (`GlassBlurredSurface.outputScaled(at:)`), one
/// vector a channel. `k`: the factor k, the last column and the last row, as floats. The table's sample offsets fit
/// in 32 bits (the caller checks).
static inline __attribute__((always_inline)) void bd_rim_bilinear(
    bd_rf8 atX, bd_rf8 atY, const float *table, ptrdiff_t tableStride, ptrdiff_t tableWidth, ptrdiff_t tableHeight,
    const float *k, bd_rf8 read[4]) {
    const float factor = k[0], lastU = k[1], lastV = k[2];
    const bd_rf8 zero = 0;
    bd_rf8 u = bd_rim_min(bd_rim_max(atX / factor - 0.5f, zero), (bd_rf8)lastU);
    bd_rf8 v = bd_rim_min(bd_rim_max(atY / factor - 0.5f, zero), (bd_rf8)lastV);
    bd_ri8 x0 = __builtin_convertvector(u, bd_ri8), y0 = __builtin_convertvector(v, bd_ri8);
    bd_rf8 fx = u - __builtin_convertvector(x0, bd_rf8), fy = v - __builtin_convertvector(y0, bd_rf8);
    bd_ri8 lastColumn = (bd_ri8)(int32_t)(tableWidth - 1), lastRow = (bd_ri8)(int32_t)(tableHeight - 1);
    bd_ri8 x1 = x0 + 1, y1 = y0 + 1;
    x1 = (bd_ri8)_mm256_min_epi32((__m256i)x1, (__m256i)lastColumn);
    y1 = (bd_ri8)_mm256_min_epi32((__m256i)y1, (__m256i)lastRow);
    bd_ri8 stride = (bd_ri8)(int32_t)tableStride;
    bd_ri8 top = y0 * stride, bottom = y1 * stride;
    bd_ri8 offsets[4] = {4 * (top + x0), 4 * (top + x1), 4 * (bottom + x0), 4 * (bottom + x1)};
    for (int c = 0; c < 4; c++) {
        bd_rf8 corner[4];
        for (int q = 0; q < 4; q++) corner[q] = (bd_rf8)_mm256_i32gather_ps(table + c, (__m256i)offsets[q], 4);
        bd_rf8 upper = corner[0] * (1 - fx) + corner[1] * fx;
        bd_rf8 lower = corner[2] * (1 - fx) + corner[3] * fx;
        read[c] = upper * (1 - fy) + lower * fy;
    }
}

void bd_glass_refract_run_v3(
    float *row, ptrdiff_t j, ptrdiff_t start, ptrdiff_t end, const float *table, ptrdiff_t tableStride,
    ptrdiff_t tableWidth, ptrdiff_t tableHeight, const float *k) {
    const float amount = k[5], height = k[6], halfFactor = k[7];
    const bd_rf8 zero = 0, lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    const bd_rf8 centreY = (float)(2 * j + 1) * halfFactor;
    for (ptrdiff_t i = start; i < end; i += 8) {
        ptrdiff_t count = end - i < 8 ? end - i : 8;
        // The point small pixel (i, j) stands for: (Float(2i + 1), Float(2j + 1)) · (k / 2).
        bd_rf8 centreX = (float)(2 * i + 1) + 2 * lanes;
        centreX = centreX * halfFactor;
        bd_rim_place place = bd_rim_place_of(centreX, centreY, k);
        bd_rf8 t = bd_rim_max(-place.d, zero);
        bd_ri8 refracted = (bd_ri8)(t < height);
        int any = 0;
        for (int lane = 0; lane < count; lane++) any |= refracted[lane];
        if (!any) continue;
        bd_rf8 falloff = 1 - t / height;
        bd_rf8 shift = amount * falloff * falloff;
        bd_rf8 read[4];
        bd_rim_bilinear(
            centreX - place.normalX * shift, centreY - place.normalY * shift, table, tableStride, tableWidth,
            tableHeight, k + 8, read);
        // Lanes back to pixels (shuffles move the values unchanged): pixels[l] holds pixel l and pixel l + 4.
        __m256 rgLow = _mm256_unpacklo_ps((__m256)read[0], (__m256)read[1]);
        __m256 rgHigh = _mm256_unpackhi_ps((__m256)read[0], (__m256)read[1]);
        __m256 baLow = _mm256_unpacklo_ps((__m256)read[2], (__m256)read[3]);
        __m256 baHigh = _mm256_unpackhi_ps((__m256)read[2], (__m256)read[3]);
        __m256 pixels[4] = {
            _mm256_shuffle_ps(rgLow, baLow, 0x44), _mm256_shuffle_ps(rgLow, baLow, 0xEE),
            _mm256_shuffle_ps(rgHigh, baHigh, 0x44), _mm256_shuffle_ps(rgHigh, baHigh, 0xEE)};
        for (int lane = 0; lane < count; lane++) {
            if (!refracted[lane]) continue;
            __m128 pixel =
                lane < 4 ? _mm256_castps256_ps128(pixels[lane]) : _mm256_extractf128_ps(pixels[lane - 4], 1);
            _mm_storeu_ps(row + 4 * (i + lane), pixel);
        }
    }
}

void bd_glass_rim_run8_v3(
    uint8_t *out, const uint8_t *source, ptrdiff_t y, ptrdiff_t start, ptrdiff_t end, const float *table,
    ptrdiff_t tableStride, ptrdiff_t tableWidth, ptrdiff_t tableHeight, const float *k, ptrdiff_t prefetch) {
    // The face's colour (`GlassFaceColour.constants(maximum: 1)`).
    const bd_glass_face constants = bd_glass_face_of(k);
    // The shape (k[19…23]), the rim and the surface (k[31…33]).
    const float amount = k[24], height = k[25], highlight = k[26], highlightWidth = k[27], cosSpread = k[28];
    const float oneMinusCosSpread = k[29], exactWidth = k[30], offset = k[34], maximum = k[35];
    const bd_rf8 zero = 0, one = 1, lanes = {0, 1, 2, 3, 4, 5, 6, 7};
    const bd_ri8 laneIndices = {0, 1, 2, 3, 4, 5, 6, 7};
    const bd_rf8 centreY = (float)y + 0.5f;
    for (ptrdiff_t x = start; x < end; x += 8) {
        ptrdiff_t count = end - x < 8 ? end - x : 8;
        if (prefetch) {  // a later row's source at the same columns: a hint, no value depends on it
            __builtin_prefetch(source + 4 * x + prefetch);
            __builtin_prefetch(source + 4 * (x + count - 1) + prefetch);
        }
        bd_rf8 centreX = (float)x + lanes;
        centreX = centreX + 0.5f;
        bd_rim_place place = bd_rim_place_of(centreX, centreY, k + 19);
        bd_rf8 coverage = bd_rim_min(bd_rim_max(0.5f - place.d, zero), one);
        bd_rf8 t = bd_rim_max(-place.d, zero);
        bd_rf8 band = bd_rim_min(bd_rim_max(1 - t / highlightWidth, zero), one);
        bd_rf8 caught =
            bd_rim_min(bd_rim_max((bd_rim_abs(place.normalY) - cosSpread) / oneMinusCosSpread, zero), one);
        bd_rf8 lift = highlight * band * caught;
        bd_ri8 exact = (bd_ri8)(t < exactWidth) | (bd_ri8)(lift != zero);
        bd_ri8 full = (bd_ri8)(coverage == one);
        bd_ri8 drawn = ~(full & ~exact);
        int any = 0;
        for (int lane = 0; lane < count; lane++) any |= drawn[lane];
        if (!any) continue;
        // The refracted place and the surface's read there (`GlassBlurredSurface.value(at:)`).
        bd_ri8 refracted = (bd_ri8)(t < height);
        bd_rf8 falloff = 1 - t / height;
        bd_rf8 shift = amount * falloff * falloff;
        bd_rf8 atX = bd_glass_select(refracted, centreX - place.normalX * shift, centreX);
        bd_rf8 atY = bd_glass_select(refracted, centreY - place.normalY * shift, centreY);
        bd_rf8 read[4];
        bd_rim_bilinear(atX, atY, table, tableStride, tableWidth, tableHeight, k + 31, read);
        // The run's pixels of the output and the source (lanes past the run read as 0 and are not stored).
        bd_ri8 inRun = (bd_ri8)(laneIndices < (bd_ri8)(int32_t)count);
        bd_ri8 own = (bd_ri8)_mm256_maskload_epi32((const int *)(out + 4 * x), (__m256i)inRun);
        bd_ri8 under = (bd_ri8)_mm256_maskload_epi32((const int *)(source + 4 * x), (__m256i)inRun);
        bd_rf8 b[4], glass[4], below[4];
        for (int c = 0; c < 4; c++) {
            bd_rf8 mine = __builtin_convertvector((own >> (8 * c)) & 0xff, bd_rf8);
            bd_rf8 beneath = __builtin_convertvector((under >> (8 * c)) & 0xff, bd_rf8);
            b[c] = bd_glass_select(exact, (read[c] - offset) / maximum, mine / 255.0f);
            below[c] = beneath / 255.0f;
        }
        // The face's colour before the clamp (`GlassFaceColour.unclamped`), in the exact lanes.
        bd_rf8 face[3];
        bd_glass_face_unclamped(&constants, b, face);
        for (int c = 0; c < 3; c++) {
            bd_rf8 colour = bd_glass_select(exact, face[c], b[c]);
            colour = colour + (1 - colour) * lift;
            colour = bd_glass_select((bd_ri8)(colour >= zero), colour, zero);
            glass[c] = bd_glass_select((bd_ri8)(colour < one), colour, one);
        }
        glass[3] = b[3];
        bd_ri8 packed = 0;
        for (int c = 0; c < 4; c++) {
            bd_rf8 mixed = below[c] + (glass[c] - below[c]) * coverage;
            bd_rf8 value = bd_glass_select(full, glass[c], mixed);
            value = bd_glass_select((bd_ri8)(coverage == zero), below[c], value);
            bd_rf8 level = _mm256_floor_ps(value * 255.0f + 0.5f);
            level = bd_rim_min((bd_rf8)255.0f, level);
            level = bd_rim_max(zero, level);
            // Int32, then its low 8 bits (Swift's `Sample(truncatingIfNeeded: Int32(…))`).
            packed |= (__builtin_convertvector(level, bd_ri8) & 0xff) << (8 * c);
        }
        _mm256_maskstore_epi32((int *)(out + 4 * x), (__m256i)(drawn & inRun), (__m256i)packed);
    }
}

#pragma clang attribute pop
#else
void bd_glass_refract_run_v3(
    float *row, ptrdiff_t j, ptrdiff_t start, ptrdiff_t end, const float *table, ptrdiff_t tableStride,
    ptrdiff_t tableWidth, ptrdiff_t tableHeight, const float *k) {
    (void)row; (void)j; (void)start; (void)end; (void)table; (void)tableStride; (void)tableWidth; (void)tableHeight;
    (void)k;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
void bd_glass_rim_run8_v3(
    uint8_t *out, const uint8_t *source, ptrdiff_t y, ptrdiff_t start, ptrdiff_t end, const float *table,
    ptrdiff_t tableStride, ptrdiff_t tableWidth, ptrdiff_t tableHeight, const float *k, ptrdiff_t prefetch) {
    (void)out; (void)source; (void)y; (void)start; (void)end; (void)table; (void)tableStride; (void)tableWidth;
    (void)tableHeight; (void)k; (void)prefetch;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
#endif
