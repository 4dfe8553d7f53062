// image_effects_v3.c — the per-pixel steps of ImageEffectsPlan for x86-64-v3 (see backdrop_vector_kernels.h):
// the premultiplication, and the composite with the saturation matrix applied as it reads the effect (a pass over
// the frame less than the portable loops' separate step, the same values).
//
// Contract: the Swift loops' values, bit for bit (integer arithmetic throughout: any order gives the same values).
// Eight pixels at a time, one pixel in each 32-bit lane, a channel pulled out by a shift and a mask; the last one to
// seven pixels go through the same code in a padded block of eight. ⌊y / 255⌋ is (y + 1 + ⌊y / 256⌋) / 256, exact for
// y ≤ 65 152 (every value divided here).
#include "backdrop_vector_kernels.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define BD_AVX2 __attribute__((target("avx2")))
#define BD_AVX2_INLINE __attribute__((target("avx2"), always_inline)) static inline

BD_AVX2_INLINE __m256i bd_channel(__m256i pixels, int channel) {
    return _mm256_and_si256(_mm256_srli_epi32(pixels, 8 * channel), _mm256_set1_epi32(0xFF));
}

// ⌊(y + 127) / 255⌋ for y ≤ 65 025: the 8-bit product of two 8-bit values rounded half up.
BD_AVX2_INLINE __m256i bd_rounded_over_255(__m256i y) {
    y = _mm256_add_epi32(y, _mm256_set1_epi32(127));
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(y, _mm256_set1_epi32(1)), _mm256_srli_epi32(y, 8)), 8);
}

BD_AVX2_INLINE __m256i bd_pixels(__m256i r, __m256i g, __m256i b, __m256i a) {
    return _mm256_or_si256(
        _mm256_or_si256(r, _mm256_slli_epi32(g, 8)), _mm256_or_si256(_mm256_slli_epi32(b, 16), _mm256_slli_epi32(a, 24)));
}

BD_AVX2_INLINE __m256i bd_premultiply8(__m256i v) {
    __m256i a = bd_channel(v, 3);
    return bd_pixels(
        bd_rounded_over_255(_mm256_mullo_epi32(bd_channel(v, 0), a)),
        bd_rounded_over_255(_mm256_mullo_epi32(bd_channel(v, 1), a)),
        bd_rounded_over_255(_mm256_mullo_epi32(bd_channel(v, 2), a)), a);
}

BD_AVX2 void bd_premultiply_row_v3(const uint8_t *in, ptrdiff_t count, uint8_t *out) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8)
        _mm256_storeu_si256((__m256i *)(out + 4 * i), bd_premultiply8(_mm256_loadu_si256((const __m256i *)(in + 4 * i))));
    if (i < count) {
        uint8_t block[32] = {0};
        memcpy(block, in + 4 * i, (size_t)(4 * (count - i)));
        _mm256_storeu_si256((__m256i *)block, bd_premultiply8(_mm256_loadu_si256((const __m256i *)block)));
        memcpy(out + 4 * i, block, (size_t)(4 * (count - i)));
    }
}

// The saturation matrix's entries (inputs R, G, B, each a row of outputs R, G, B) as vectors: each output channel's
// red and blue entries as the 16-bit halves of one lane, its green entry in the low half of another.
typedef struct {
    __m256i redBlue[3], green[3];
} bd_saturation;

BD_AVX2_INLINE bd_saturation bd_saturation_of(const int32_t *entries) {
    bd_saturation m;
    for (int c = 0; c < 3; c++) {
        m.redBlue[c] = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)entries[6 + c] << 16) | (uint16_t)entries[c]));
        m.green[c] = _mm256_set1_epi32((int32_t)(uint16_t)entries[3 + c]);
    }
    return m;
}

// Output channel c = ⌊(r·m[0][c] + g·m[1][c] + b·m[2][c] + 128) / 256⌋ clamped to 0…255: the (r, b) and (g, a)
// pairs of 16-bit halves multiplied and summed by one instruction each.
BD_AVX2_INLINE __m256i bd_saturate8(__m256i v, const bd_saturation *m) {
    const __m256i low = _mm256_set1_epi32(0x00FF00FF);
    __m256i rb = _mm256_and_si256(v, low), ga = _mm256_and_si256(_mm256_srli_epi32(v, 8), low);
    __m256i out[3];
    for (int c = 0; c < 3; c++) {
        __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(rb, m->redBlue[c]), _mm256_madd_epi16(ga, m->green[c]));
        sum = _mm256_srai_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(128)), 8);
        out[c] = _mm256_min_epi32(_mm256_max_epi32(sum, _mm256_setzero_si256()), _mm256_set1_epi32(255));
    }
    return bd_pixels(out[0], out[1], out[2], _mm256_srli_epi32(v, 24));
}

// The composite of eight pixels: the source's pixels premultiplied (the crop; only where the effect does not cover
// them), the effect (through the saturation matrix where there is one) over them through the mask's coverage, the
// tint (TintFill8's lines), then unpremultiplied with a float estimate of ⌊(c·255 + ⌊a/2⌋) / a⌋ corrected by one
// either way by exact products.
BD_AVX2_INLINE __m256i bd_composite8(
    __m256i straight, const uint8_t *effectPixels, const bd_saturation *saturation, const uint8_t *maskPixels,
    const uint32_t *tintLines) {
    __m256i channel[4];
    if (effectPixels == NULL) {
        __m256i crop = bd_premultiply8(straight);
        for (int c = 0; c < 4; c++) channel[c] = bd_channel(crop, c);
    } else {
        __m256i effect = _mm256_loadu_si256((const __m256i *)effectPixels), source[4];
        if (saturation != NULL) effect = bd_saturate8(effect, saturation);
        if (maskPixels != NULL) {
            __m256i mask = _mm256_loadu_si256((const __m256i *)maskPixels);
            __m256i luminance = _mm256_add_epi32(
                _mm256_add_epi32(
                    _mm256_mullo_epi32(bd_channel(mask, 0), _mm256_set1_epi32(54)),
                    _mm256_mullo_epi32(bd_channel(mask, 1), _mm256_set1_epi32(183))),
                _mm256_add_epi32(
                    _mm256_mullo_epi32(bd_channel(mask, 2), _mm256_set1_epi32(19)), _mm256_set1_epi32(128)));
            __m256i coverage = bd_rounded_over_255(
                _mm256_mullo_epi32(_mm256_srli_epi32(luminance, 8), bd_channel(mask, 3)));
            for (int c = 0; c < 4; c++)
                source[c] = bd_rounded_over_255(_mm256_mullo_epi32(bd_channel(effect, c), coverage));
        } else {
            for (int c = 0; c < 4; c++) source[c] = bd_channel(effect, c);
        }
        // Where every source is opaque the crop shows through nowhere: ⌊(c · 0 + 127) / 255⌋ = 0.
        __m256i keep = _mm256_sub_epi32(_mm256_set1_epi32(255), source[3]);
        if (_mm256_testz_si256(keep, keep))
            for (int c = 0; c < 4; c++) channel[c] = source[c];
        else {
            __m256i crop = bd_premultiply8(straight);
            for (int c = 0; c < 4; c++) {
                __m256i over =
                    _mm256_add_epi32(source[c], bd_rounded_over_255(_mm256_mullo_epi32(bd_channel(crop, c), keep)));
                channel[c] = _mm256_min_epi32(over, _mm256_set1_epi32(255));
            }
        }
    }
    // The tint: min(255, (v · slope + offset) >> BD_TINT_FRACTION_BITS) on each lane's line (below 2³¹).
    for (int c = 0; c < 4; c++) {
        __m256i v = _mm256_add_epi32(
            _mm256_mullo_epi32(channel[c], _mm256_set1_epi32((int)tintLines[2 * c])),
            _mm256_set1_epi32((int)tintLines[2 * c + 1]));
        channel[c] = _mm256_min_epi32(_mm256_srli_epi32(v, BD_TINT_FRACTION_BITS), _mm256_set1_epi32(255));
    }
    __m256i alpha = channel[3];
    // Opaque pixels: ⌊(c · 255 + 127) / 255⌋ = c.
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(alpha, _mm256_set1_epi32(255))) == -1)
        return bd_pixels(channel[0], channel[1], channel[2], alpha);
    __m256 reciprocal = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_cvtepi32_ps(alpha));
    __m256i transparent = _mm256_cmpeq_epi32(alpha, _mm256_setzero_si256());
    __m256i halfAlpha = _mm256_srli_epi32(alpha, 1);
    for (int c = 0; c < 3; c++) {
        __m256i n = _mm256_add_epi32(_mm256_mullo_epi32(channel[c], _mm256_set1_epi32(255)), halfAlpha);
        __m256i q = _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(n), reciprocal));
        q = _mm256_andnot_si256(transparent, q);  // a = 0: the estimate is meaningless, the answer 0
        q = _mm256_add_epi32(q, _mm256_cmpgt_epi32(_mm256_mullo_epi32(q, alpha), n));
        __m256i next = _mm256_mullo_epi32(_mm256_add_epi32(q, _mm256_set1_epi32(1)), alpha);
        __m256i up = _mm256_andnot_si256(
            _mm256_or_si256(_mm256_cmpgt_epi32(next, n), transparent), _mm256_set1_epi32(1));
        channel[c] = _mm256_min_epi32(_mm256_add_epi32(q, up), _mm256_set1_epi32(255));
    }
    return bd_pixels(channel[0], channel[1], channel[2], alpha);
}

BD_AVX2 void bd_image_effects_composite_row_v3(
    const uint8_t *source, const uint8_t *effect, const int32_t *saturationEntries, const uint8_t *mask,
    const uint32_t *tintLines, ptrdiff_t width, uint8_t *out) {
    const bd_saturation matrix = saturationEntries != NULL ? bd_saturation_of(saturationEntries) : (bd_saturation){0};
    const bd_saturation *saturation = saturationEntries != NULL ? &matrix : NULL;
    ptrdiff_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i pixels = bd_composite8(
            _mm256_loadu_si256((const __m256i *)(source + 4 * x)), effect ? effect + 4 * x : NULL, saturation,
            mask ? mask + 4 * x : NULL, tintLines);
        _mm256_storeu_si256((__m256i *)(out + 4 * x), pixels);
    }
    if (x < width) {
        size_t bytes = (size_t)(4 * (width - x));
        uint8_t sourceBlock[32] = {0}, effectBlock[32] = {0}, maskBlock[32] = {0}, outBlock[32];
        memcpy(sourceBlock, source + 4 * x, bytes);
        if (effect) memcpy(effectBlock, effect + 4 * x, bytes);
        if (mask) memcpy(maskBlock, mask + 4 * x, bytes);
        __m256i pixels = bd_composite8(
            _mm256_loadu_si256((const __m256i *)sourceBlock), effect ? effectBlock : NULL, saturation,
            mask ? maskBlock : NULL, tintLines);
        _mm256_storeu_si256((__m256i *)outBlock, pixels);
        memcpy(out + 4 * x, outBlock, bytes);
    }
}
#else
void bd_premultiply_row_v3(const uint8_t *in, ptrdiff_t count, uint8_t *out) {
    (void)in; (void)count; (void)out;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
void bd_image_effects_composite_row_v3(
    const uint8_t *source, const uint8_t *effect, const int32_t *saturationEntries, const uint8_t *mask,
    const uint32_t *tintLines, ptrdiff_t width, uint8_t *out) {
    (void)source; (void)effect; (void)saturationEntries; (void)mask; (void)tintLines; (void)width; (void)out;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
#endif
