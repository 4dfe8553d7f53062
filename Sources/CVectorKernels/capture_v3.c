// capture_v3.c — the fused capture-and-downscale's opaque strips for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `CaptureDownscale.storeOpaqueStrip`'s, and with k = 4 its small pixels (`CaptureDownscale.reduce`'s
// values for an opaque strip). Exact integer sums, then one rounding: the same values on any CPU.
#include "backdrop_vector_kernels.h"

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#endif

#include "backdrop_vector_lanes.h"

typedef uint64_t bd_u64x4 __attribute__((ext_vector_type(4)));
typedef uint16_t bd_u16x8 __attribute__((ext_vector_type(8)));
typedef uint16_t bd_u16x4 __attribute__((ext_vector_type(4)));
typedef int32_t bd_i32x4 __attribute__((ext_vector_type(4)));

/// The strip of eight groups from group `first` in the `factor` rows: its 16-bit column sums into `sum`, and whether
/// every alpha is 255 (the AND of all bytes, with the colour bytes set, is all ones).
static inline __attribute__((always_inline)) int bd_strip_sums(
    const uint8_t *const *rows, ptrdiff_t factor, ptrdiff_t first, bd_u16x16 sum[8]) {
    for (int g = 0; g < 8; g++) sum[g] = 0;
    bd_u64x4 all = ~(bd_u64x4)0;
    for (ptrdiff_t r = 0; r < factor; r++) {
        const uint8_t *pixels = rows[r] + 16 * first;
        // The row's bytes 8 strips (1 KiB) ahead: each row is its own stream and the sums wait on memory; a hint
        // only (no fault past the row's end), the same values.
        __builtin_prefetch(pixels + 1024, 0, 3);
        __builtin_prefetch(pixels + 1088, 0, 3);
        bd_u64x4 quarter[4];
        __builtin_memcpy(quarter, pixels, sizeof quarter);
        all &= (quarter[0] & quarter[1]) & (quarter[2] & quarter[3]);
        for (int g = 0; g < 8; g++) {
            bd_u8x16 bytes;
            __builtin_memcpy(&bytes, pixels + 16 * g, sizeof bytes);
            sum[g] += bd_words16(bytes);
        }
    }
    const uint64_t colorBytes = 0x00FFFFFF00FFFFFFull;
    return ((all[0] & all[1] & all[2] & all[3]) | colorBytes) == ~(uint64_t)0;
}

int bd_opaque_strip_v3(const uint8_t *const *rows, ptrdiff_t factor, ptrdiff_t firstGroup, uint16_t *sums) {
    bd_u16x16 sum[8];
    if (!bd_strip_sums(rows, factor, firstGroup, sum)) return 0;
    __builtin_memcpy(sums + 16 * firstGroup, sum, sizeof sum);
    return 1;
}

ptrdiff_t bd_opaque_strips_k4_v3(
    const uint8_t *const *rows, ptrdiff_t firstGroup, ptrdiff_t strips, float scale, float *small) {
    for (ptrdiff_t strip = 0; strip < strips; strip++) {
        const ptrdiff_t first = firstGroup + 8 * strip;
        bd_u16x16 sum[8];
        if (!bd_strip_sums(rows, 4, first, sum)) return strip;
        // With k = 4 a group is a box: its four columns' sums added (exact integers, at most 4080), then
        // (float)sum · 255 (exact) · scale, one rounding, as `CaptureDownscale.reduce` computes an opaque box.
        float *out = small + 4 * first;
        for (int g = 0; g < 8; g++) {
            bd_u16x8 pairs = __builtin_shufflevector(sum[g], sum[g], 0, 1, 2, 3, 4, 5, 6, 7) +
                             __builtin_shufflevector(sum[g], sum[g], 8, 9, 10, 11, 12, 13, 14, 15);
            bd_u16x4 box =
                __builtin_shufflevector(pairs, pairs, 0, 1, 2, 3) + __builtin_shufflevector(pairs, pairs, 4, 5, 6, 7);
            bd_f32x4 value = __builtin_convertvector(__builtin_convertvector(box, bd_i32x4), bd_f32x4);
            value = value * 255.0f;
            value = value * scale;
            __builtin_memcpy(out + 4 * g, &value, sizeof value);
        }
    }
    return strips;
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
