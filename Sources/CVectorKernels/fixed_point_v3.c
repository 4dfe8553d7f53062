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

/// The vibrancy filter's shift, lower and upper bounds (sixteen lanes each), held in registers: read once per run,
/// not after every store (a store through a byte pointer may alias them, so the compiler would reload them).
typedef struct {
    bd_i16x16 shift, lower, upper;
} bd_vibrancy_lanes;

/// `VibrancyFilterPass.composite` in 8.7 fixed point: four content pixels (straight RGBA8) over four values q.
static inline __attribute__((always_inline)) bd_i16x16 bd_vibrant16(
    const uint8_t *content, bd_i16x16 q, bd_vibrancy_lanes constants) {
    bd_u8x16 bytes;
    __builtin_memcpy(&bytes, content, sizeof bytes);
    bd_i16x16 shift = constants.shift, lower = constants.lower, upper = constants.upper;
    bd_i16x16 c = (bd_i16x16)bd_words16(bytes);
    bd_i16x16 difference = bd_limited16((c << 7) + shift, lower - q, upper - q);
    bd_u16x16 alphas = (bd_u16x16)bd_alphas16(c);
    bd_i16x16 coverage = (bd_i16x16)((alphas * 257) >> 1);
    return q + bd_scaled_product16(difference, coverage);
}

/// Segment s's left pixel and its delta to pixel s + 1, each repeated over four pixels' lanes.
static inline __attribute__((always_inline)) void bd_segment(
    const int16_t *input, ptrdiff_t s, bd_i16x16 *left, bd_i16x16 *delta) {
    const int16_t *pixel = input + 4 * s;
    bd_i16x16 l = {pixel[0], pixel[1], pixel[2], pixel[3], pixel[0], pixel[1], pixel[2], pixel[3],
                   pixel[0], pixel[1], pixel[2], pixel[3], pixel[0], pixel[1], pixel[2], pixel[3]};
    bd_i16x16 r = {pixel[4], pixel[5], pixel[6], pixel[7], pixel[4], pixel[5], pixel[6], pixel[7],
                   pixel[4], pixel[5], pixel[6], pixel[7], pixel[4], pixel[5], pixel[6], pixel[7]};
    *left = l;
    *delta = r - l;
}

/// Group j of a segment: left + scaledProduct(delta, the weights of its four pixels).
static inline __attribute__((always_inline)) bd_i16x16 bd_group(
    bd_i16x16 left, bd_i16x16 delta, const int16_t *weights, ptrdiff_t j) {
    bd_i16x16 weight;
    __builtin_memcpy(&weight, weights + 16 * j, sizeof weight);
    return left + bd_scaled_product16(delta, weight);
}

/// Output groups g and g + 1 (their vibrant content blended first, where there is content), one 32-byte store.
static inline __attribute__((always_inline)) void bd_store_pair(
    bd_i16x16 first, bd_i16x16 second, ptrdiff_t g, uint8_t *out, const uint8_t *content,
    bd_vibrancy_lanes constants) {
    if (content) {
        first = bd_vibrant16(content + 16 * g, first, constants);
        second = bd_vibrant16(content + 16 * g + 16, second, constants);
    }
    bd_u8x32 bytes = bd_fixed_point_bytes32(first, second);
    __builtin_memcpy(out + 16 * g, &bytes, sizeof bytes);
}

// Stores bound this loop: every pair of groups (eight pixels) goes out in one 32-byte store, and the loops follow
// the segments so that no group asks which segment it is in. With an odd number of groups a segment, segments go
// in pairs, the pair's middle store holding the first's last group and the second's first. Inlined into the
// kernel once per common `groups` (1, 2, 3: k = 4, 8, 12), so that its inner loops unroll away.
static inline __attribute__((always_inline)) void bd_upscale_run(
    const int16_t *input, ptrdiff_t segments, const ptrdiff_t groups, const int16_t *weights, uint8_t *out,
    const uint8_t *content, bd_vibrancy_lanes constants) {
    ptrdiff_t s = 0;
    bd_i16x16 left, delta, nextLeft, nextDelta;
    if (groups % 2 == 0) {
        for (; s < segments; s++) {
            bd_segment(input, s, &left, &delta);
            for (ptrdiff_t j = 0; j < groups; j += 2) {
                bd_store_pair(
                    bd_group(left, delta, weights, j), bd_group(left, delta, weights, j + 1), s * groups + j, out,
                    content, constants);
            }
        }
        return;
    }
    for (; s + 2 <= segments; s += 2) {
        bd_segment(input, s, &left, &delta);
        bd_segment(input, s + 1, &nextLeft, &nextDelta);
        ptrdiff_t g = s * groups, j = 0;
        for (; j + 2 <= groups; j += 2) {
            bd_store_pair(
                bd_group(left, delta, weights, j), bd_group(left, delta, weights, j + 1), g + j, out, content,
                constants);
        }
        bd_store_pair(
            bd_group(left, delta, weights, j), bd_group(nextLeft, nextDelta, weights, 0), g + j, out, content,
            constants);
        for (j = 1; j < groups; j += 2) {
            bd_store_pair(
                bd_group(nextLeft, nextDelta, weights, j), bd_group(nextLeft, nextDelta, weights, j + 1),
                g + groups + j, out, content, constants);
        }
    }
    if (s < segments) {
        // The last segment of an odd count: its pairs, then its last group alone.
        bd_segment(input, s, &left, &delta);
        ptrdiff_t g = s * groups, j = 0;
        for (; j + 2 <= groups; j += 2) {
            bd_store_pair(
                bd_group(left, delta, weights, j), bd_group(left, delta, weights, j + 1), g + j, out, content,
                constants);
        }
        bd_i16x16 last = bd_group(left, delta, weights, j);
        if (content) last = bd_vibrant16(content + 16 * (g + j), last, constants);
        bd_u8x16 bytes = bd_fixed_point_bytes16(last);
        __builtin_memcpy(out + 16 * (g + j), &bytes, sizeof bytes);
    }
}

void bd_fixed_point_upscale_run_v3(
    const int16_t *input, ptrdiff_t segments, ptrdiff_t factor, const int16_t *weights, uint8_t *out,
    const uint8_t *content, const int16_t *constants) {
    bd_vibrancy_lanes lanes = {0};
    if (content) {
        __builtin_memcpy(&lanes.shift, constants, sizeof lanes.shift);
        __builtin_memcpy(&lanes.lower, constants + 16, sizeof lanes.lower);
        __builtin_memcpy(&lanes.upper, constants + 32, sizeof lanes.upper);
    }
    // The common factors' weights in registers (a local array the stores cannot alias); others read them in place.
    int16_t local[3 * 16];
    if (factor / 4 <= 3) __builtin_memcpy(local, weights, (size_t)factor * 4 * sizeof(int16_t));
    switch (factor / 4) {
    case 1: bd_upscale_run(input, segments, 1, local, out, content, lanes); break;
    case 2: bd_upscale_run(input, segments, 2, local, out, content, lanes); break;
    case 3: bd_upscale_run(input, segments, 3, local, out, content, lanes); break;
    default: bd_upscale_run(input, segments, factor / 4, weights, out, content, lanes); break;
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
