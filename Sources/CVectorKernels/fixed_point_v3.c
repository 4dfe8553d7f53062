// fixed_point_v3.c — the 8-bit composite's fixed-point loops for x86-64-v3 (see backdrop_vector_kernels.h).
//
// The bodies are the portable lane functions of backdrop_vector_lanes.h, compiled here with AVX2 enabled: the same
// integer operations, so the same values, on twice the lanes per instruction.
#include "backdrop_vector_kernels.h"

// Every function of this file, the lane functions included, is compiled for AVX2.
#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#endif

#include "backdrop_vector_lanes.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// bd_scaled_product16 in one instruction: `vpmulhrsw` computes ⌊a·b/2¹⁵ + ½⌋ exactly as it does, for every input.
static inline __attribute__((always_inline)) bd_i16x16 bd_scaled_product16_v3(bd_i16x16 a, bd_i16x16 b) {
    return (bd_i16x16)_mm256_mulhrs_epi16((__m256i)a, (__m256i)b);
}
#define bd_scaled_product16 bd_scaled_product16_v3
#endif


void bd_fixed_point_interpolate_v3(
    const int16_t *top, const int16_t *bottom, int16_t multiplier, int16_t *out, ptrdiff_t groups) {
    bd_i16x16 weight = multiplier;
    for (ptrdiff_t i = 0; i < groups; i++) {
        bd_i16x16 above, below;
        __builtin_memcpy(&above, top + 16 * i, sizeof above);
        __builtin_memcpy(&below, bottom + 16 * i, sizeof below);
        bd_i16x16 value = above + bd_scaled_product16(below - above, weight);
        __builtin_memcpy(out + 16 * i, &value, sizeof value);
    }
}

/// `VibrancyFilterPass.composite` in 8.7 fixed point: four content pixels (straight RGBA8) over four values q.
static inline __attribute__((always_inline)) bd_i16x16 bd_vibrant16(
    const uint8_t *content, bd_i16x16 q, const int16_t *constants) {
    bd_u8x16 bytes;
    bd_i16x16 shift, lower, upper;
    __builtin_memcpy(&bytes, content, sizeof bytes);
    __builtin_memcpy(&shift, constants, sizeof shift);
    __builtin_memcpy(&lower, constants + 16, sizeof lower);
    __builtin_memcpy(&upper, constants + 32, sizeof upper);
    bd_i16x16 c = (bd_i16x16)bd_words16(bytes);
    bd_i16x16 difference = bd_limited16((c << 7) + shift, lower - q, upper - q);
    bd_u16x16 alphas = (bd_u16x16)bd_alphas16(c);
    bd_i16x16 coverage = (bd_i16x16)((alphas * 257) >> 1);
    return q + bd_scaled_product16(difference, coverage);
}

/// A walk over a run's groups of four output pixels in order: segment s, group g within it.
typedef struct {
    const int16_t *input, *weights;
    ptrdiff_t groups, segment, group;
    bd_i16x16 left, delta;
} bd_run_walk;

static inline __attribute__((always_inline)) void bd_enter_segment(bd_run_walk *walk) {
    const int16_t *pixel = walk->input + 4 * walk->segment;
    bd_i16x16 left = {pixel[0], pixel[1], pixel[2], pixel[3], pixel[0], pixel[1], pixel[2], pixel[3],
                      pixel[0], pixel[1], pixel[2], pixel[3], pixel[0], pixel[1], pixel[2], pixel[3]};
    bd_i16x16 right = {pixel[4], pixel[5], pixel[6], pixel[7], pixel[4], pixel[5], pixel[6], pixel[7],
                       pixel[4], pixel[5], pixel[6], pixel[7], pixel[4], pixel[5], pixel[6], pixel[7]};
    walk->left = left;
    walk->delta = right - left;
}

/// The next group's values, left + scaledProduct(delta, its weights), and the walk one group on.
static inline __attribute__((always_inline)) bd_i16x16 bd_next_group(bd_run_walk *walk) {
    bd_i16x16 weight;
    __builtin_memcpy(&weight, walk->weights + 16 * walk->group, sizeof weight);
    bd_i16x16 value = walk->left + bd_scaled_product16(walk->delta, weight);
    if (++walk->group == walk->groups) {
        walk->group = 0;
        walk->segment++;
    }
    return value;
}

void bd_fixed_point_upscale_run_v3(
    const int16_t *input, ptrdiff_t segments, ptrdiff_t factor, const int16_t *weights, uint8_t *out,
    const uint8_t *content, const int16_t *constants) {
    bd_run_walk walk = {input, weights, factor / 4, 0, 0, {0}, {0}};
    ptrdiff_t total = segments * walk.groups, g = 0;
    // Eight pixels (two groups, perhaps of two segments) to a 32-byte store: stores bound this loop.
    for (; g + 2 <= total; g += 2) {
        if (walk.group == 0) bd_enter_segment(&walk);
        bd_i16x16 first = bd_next_group(&walk);
        if (walk.group == 0) bd_enter_segment(&walk);
        bd_i16x16 second = bd_next_group(&walk);
        if (content) {
            first = bd_vibrant16(content + 16 * g, first, constants);
            second = bd_vibrant16(content + 16 * g + 16, second, constants);
        }
        bd_u8x32 bytes = bd_fixed_point_bytes32(first, second);
        __builtin_memcpy(out + 16 * g, &bytes, sizeof bytes);
    }
    if (g < total) {
        if (walk.group == 0) bd_enter_segment(&walk);
        bd_i16x16 last = bd_next_group(&walk);
        if (content) last = bd_vibrant16(content + 16 * g, last, constants);
        bd_u8x16 bytes = bd_fixed_point_bytes16(last);
        __builtin_memcpy(out + 16 * g, &bytes, sizeof bytes);
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
