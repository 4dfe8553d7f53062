// capture_v3.c — the fused capture-and-downscale's opaque strips for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `CaptureDownscale.storeOpaqueStrip`'s. Exact integer sums: the same values on any CPU.
#include "backdrop_vector_kernels.h"

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#endif

#include "backdrop_vector_lanes.h"

typedef uint64_t bd_u64x4 __attribute__((ext_vector_type(4)));

int bd_opaque_strip_v3(const uint8_t *const *rows, ptrdiff_t factor, ptrdiff_t firstGroup, uint16_t *sums) {
    bd_u16x16 sum[8] = {0};
    bd_u64x4 all = ~(bd_u64x4)0;
    for (ptrdiff_t r = 0; r < factor; r++) {
        const uint8_t *pixels = rows[r] + 16 * firstGroup;
        bd_u64x4 quarter[4];
        __builtin_memcpy(quarter, pixels, sizeof quarter);
        all &= (quarter[0] & quarter[1]) & (quarter[2] & quarter[3]);
        for (int g = 0; g < 8; g++) {
            bd_u8x16 bytes;
            __builtin_memcpy(&bytes, pixels + 16 * g, sizeof bytes);
            sum[g] += bd_words16(bytes);
        }
    }
    // Every alpha is 255 exactly when the AND of all bytes, with the colour bytes set, is all ones.
    const uint64_t colorBytes = 0x00FFFFFF00FFFFFFull;
    if (((all[0] & all[1] & all[2] & all[3]) | colorBytes) != ~(uint64_t)0) return 0;
    __builtin_memcpy(sums + 16 * firstGroup, sum, sizeof sum);
    return 1;
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
