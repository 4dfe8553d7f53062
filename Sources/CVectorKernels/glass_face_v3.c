// glass_face_v3.c — Liquid Glass's face colour for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: bit for bit the Swift loops they stand in for, eight pixels at a time (each pixel in a lane).
// bd_glass_face_pixels_v3, `GlassFaceColour.applyOutputScaled`: on the blurred small image's straight pixels at output
// scale v (alpha untouched), s = (v − offset) / maximum; c, the face's colour of s before the clamp
// (glass_face_lanes.h); c ← c ≥ 0 ? c : 0, then c < 1 ? c : 1; v ← c·maximum + offset.
// Every operation a separate IEEE rounding in the Swift loop's order (FP_CONTRACT is off: no fused multiply-add);
// every constant as Swift computed it.
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif

#include "glass_face_lanes.h"

typedef bd_glass_f8 bd_gf8;
typedef float bd_gf16 __attribute__((ext_vector_type(16)));
typedef float bd_gf32 __attribute__((ext_vector_type(32)));
typedef bd_glass_i8 bd_gi8;

void bd_glass_face_pixels_v3(float *pixels, ptrdiff_t count, const float *k) {
    const bd_glass_face constants = bd_glass_face_of(k);
    const float maximum = k[17], offset = k[18];
    bd_gf8 zero = 0, one = 1;
    for (ptrdiff_t x = 0; x + 8 <= count; x += 8) {
        bd_gf32 p;
        __builtin_memcpy(&p, pixels + 4 * x, sizeof p);
        const bd_gf8 rgb[3] = {
            (__builtin_shufflevector(p, p, 0, 4, 8, 12, 16, 20, 24, 28) - offset) / maximum,
            (__builtin_shufflevector(p, p, 1, 5, 9, 13, 17, 21, 25, 29) - offset) / maximum,
            (__builtin_shufflevector(p, p, 2, 6, 10, 14, 18, 22, 26, 30) - offset) / maximum};
        bd_gf8 alpha = __builtin_shufflevector(p, p, 3, 7, 11, 15, 19, 23, 27, 31);
        bd_gf8 face[3];
        bd_glass_face_unclamped(&constants, rgb, face);
        for (int lane = 0; lane < 3; lane++) {
            bd_gf8 c = face[lane];
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

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
