// recursive_gaussian_v3.c — exact mode's recursive Gaussian for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: `RecursiveGaussian.causal`/`anticausal` as `HorizontalBlurPass.filter` and
// `VerticalBlurPass.filterColumns` run them, bit for bit: one pixel's four channels in one 4-lane `double` vector,
// widened from `float` exactly, the same fused multiply-adds in the same order, narrowed to `float` by rounding to
// nearest (as Swift's `Float(Double)` does). FP_CONTRACT is off: every fusion is written out.
#include "backdrop_vector_kernels.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#endif

typedef double bd_d4 __attribute__((ext_vector_type(4)));
typedef float bd_f4 __attribute__((ext_vector_type(4)));

#define BD_INLINE static inline __attribute__((always_inline))

typedef struct {
    bd_d4 x1, x2, y1, y2, z1, z2;
} bd_recursion_state;

BD_INLINE bd_d4 bd_widen(const float *pixel) {
    bd_f4 value;
    __builtin_memcpy(&value, pixel, sizeof value);
    return __builtin_convertvector(value, bd_d4);
}

BD_INLINE void bd_narrow(float *pixel, bd_d4 value) {
    bd_f4 narrow = __builtin_convertvector(value, bd_f4);
    __builtin_memcpy(pixel, &narrow, sizeof narrow);
}

BD_INLINE bd_d4 bd_fma(bd_d4 a, double b, bd_d4 c) { return __builtin_elementwise_fma(a, (bd_d4)b, c); }

BD_INLINE bd_recursion_state bd_causal_start(bd_d4 edge, const bd_recursive_section *s) {
    bd_d4 y = edge * s[0].causalSteadyState, z = edge * s[1].causalSteadyState;
    return (bd_recursion_state){edge, edge, y, y, z, z};
}

BD_INLINE bd_recursion_state bd_anticausal_start(bd_d4 edge, const bd_recursive_section *s) {
    bd_d4 y = edge * s[0].anticausalSteadyState, z = edge * s[1].anticausalSteadyState;
    return (bd_recursion_state){edge, edge, y, y, z, z};
}

BD_INLINE bd_d4 bd_causal(bd_d4 x, bd_recursion_state *s, const bd_recursive_section *f) {
    const bd_recursive_section *g = f + 1;
    bd_d4 y = bd_fma(s->y1, f->minusA1, bd_fma(s->y2, f->minusA2, bd_fma(s->x1, f->b1, x * f->b0)));
    bd_d4 z = bd_fma(s->z1, g->minusA1, bd_fma(s->z2, g->minusA2, bd_fma(s->x1, g->b1, x * g->b0)));
    *s = (bd_recursion_state){x, s->x1, y, s->y1, z, s->z1};
    return y + z;
}

BD_INLINE bd_d4 bd_anticausal(bd_d4 x, bd_recursion_state *s, const bd_recursive_section *f) {
    const bd_recursive_section *g = f + 1;
    bd_d4 y = bd_fma(s->y1, f->minusA1, bd_fma(s->y2, f->minusA2, bd_fma(s->x2, f->c2, s->x1 * f->c1)));
    bd_d4 z = bd_fma(s->z1, g->minusA1, bd_fma(s->z2, g->minusA2, bd_fma(s->x2, g->c2, s->x1 * g->c1)));
    *s = (bd_recursion_state){x, s->x1, y, s->y1, z, s->z1};
    return y + z;
}

void bd_recursive_row_v3(const float *row, ptrdiff_t width, const bd_recursive_section *sections, float *out) {
    bd_recursion_state state = bd_causal_start(bd_widen(row), sections);
    for (ptrdiff_t x = 0; x < width; x++) bd_narrow(out + 4 * x, bd_causal(bd_widen(row + 4 * x), &state, sections));
    state = bd_anticausal_start(bd_widen(row + 4 * (width - 1)), sections);
    for (ptrdiff_t x = width - 1; x >= 0; x--) {
        bd_d4 sum = bd_widen(out + 4 * x) + bd_anticausal(bd_widen(row + 4 * x), &state, sections);
        bd_narrow(out + 4 * x, sum);
    }
}

void bd_recursive_columns_v3(
    float *image, ptrdiff_t rowStride, ptrdiff_t height, ptrdiff_t count, const bd_recursive_section *sections,
    float *causal) {
    bd_recursion_state states[BD_RECURSIVE_COLUMNS_MAX];
    if (count > BD_RECURSIVE_COLUMNS_MAX) __builtin_trap();  // a caller's bug: the strips are 32 columns wide
    for (ptrdiff_t i = 0; i < count; i++) states[i] = bd_causal_start(bd_widen(image + 4 * i), sections);
    for (ptrdiff_t y = 0; y < height; y++) {
        const float *pixels = image + 4 * rowStride * y;
        float *saved = causal + 4 * count * y;
        for (ptrdiff_t i = 0; i < count; i++)
            bd_narrow(saved + 4 * i, bd_causal(bd_widen(pixels + 4 * i), &states[i], sections));
    }
    const float *bottom = image + 4 * rowStride * (height - 1);
    for (ptrdiff_t i = 0; i < count; i++) states[i] = bd_anticausal_start(bd_widen(bottom + 4 * i), sections);
    for (ptrdiff_t y = height - 1; y >= 0; y--) {
        float *pixels = image + 4 * rowStride * y;
        const float *saved = causal + 4 * count * y;
        for (ptrdiff_t i = 0; i < count; i++) {
            bd_d4 anticausal = bd_anticausal(bd_widen(pixels + 4 * i), &states[i], sections);
            bd_narrow(pixels + 4 * i, bd_widen(saved + 4 * i) + anticausal);
        }
    }
}

#if defined(__x86_64__)
#pragma clang attribute pop
#endif
