// vertical_blur_v3.c — the vertical blur's inner loop for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: VerticalBlurPass.convolveBlock's, bit for bit. Four pixels (two 8-float vectors) of four output rows
// at a time, eight sums in registers, each input row read once for the four; then the last one to three pixels one
// at a time, in 4-float vectors. Every sum starts at +0 and takes `fma(input, weight, sum)` per tap in the same
// order as the Swift loop, so the result does not depend on which of the two ran.
#include "backdrop_vector_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2,fma"))) void bd_vertical_blur_block_v3(
    const float *const *rows, ptrdiff_t span, const float *weights, float *const *out, ptrdiff_t count,
    ptrdiff_t width) {
    ptrdiff_t x = 0;
    for (; x + 4 <= width; x += 4) {
        __m256 a0 = _mm256_setzero_ps(), b0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(),
               b1 = _mm256_setzero_ps();
        __m256 a2 = _mm256_setzero_ps(), b2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps(),
               b3 = _mm256_setzero_ps();
        for (ptrdiff_t s = 0; s < span; s++) {
            const float *row = rows[s] + 4 * x;
            __m256 low = _mm256_loadu_ps(row), high = _mm256_loadu_ps(row + 8);
            __m256 w0 = _mm256_loadu_ps(weights + 8 * (s + 3)), w1 = _mm256_loadu_ps(weights + 8 * (s + 2));
            __m256 w2 = _mm256_loadu_ps(weights + 8 * (s + 1)), w3 = _mm256_loadu_ps(weights + 8 * s);
            a0 = _mm256_fmadd_ps(low, w0, a0); b0 = _mm256_fmadd_ps(high, w0, b0);
            a1 = _mm256_fmadd_ps(low, w1, a1); b1 = _mm256_fmadd_ps(high, w1, b1);
            a2 = _mm256_fmadd_ps(low, w2, a2); b2 = _mm256_fmadd_ps(high, w2, b2);
            a3 = _mm256_fmadd_ps(low, w3, a3); b3 = _mm256_fmadd_ps(high, w3, b3);
        }
        _mm256_storeu_ps(out[0] + 4 * x, a0); _mm256_storeu_ps(out[0] + 4 * x + 8, b0);
        if (count > 1) { _mm256_storeu_ps(out[1] + 4 * x, a1); _mm256_storeu_ps(out[1] + 4 * x + 8, b1); }
        if (count > 2) { _mm256_storeu_ps(out[2] + 4 * x, a2); _mm256_storeu_ps(out[2] + 4 * x + 8, b2); }
        if (count > 3) { _mm256_storeu_ps(out[3] + 4 * x, a3); _mm256_storeu_ps(out[3] + 4 * x + 8, b3); }
    }
    for (; x < width; x++) {
        __m128 a0 = _mm_setzero_ps(), a1 = _mm_setzero_ps(), a2 = _mm_setzero_ps(), a3 = _mm_setzero_ps();
        for (ptrdiff_t s = 0; s < span; s++) {
            __m128 v = _mm_loadu_ps(rows[s] + 4 * x);
            a0 = _mm_fmadd_ps(v, _mm_loadu_ps(weights + 8 * (s + 3)), a0);
            a1 = _mm_fmadd_ps(v, _mm_loadu_ps(weights + 8 * (s + 2)), a1);
            a2 = _mm_fmadd_ps(v, _mm_loadu_ps(weights + 8 * (s + 1)), a2);
            a3 = _mm_fmadd_ps(v, _mm_loadu_ps(weights + 8 * s), a3);
        }
        _mm_storeu_ps(out[0] + 4 * x, a0);
        if (count > 1) _mm_storeu_ps(out[1] + 4 * x, a1);
        if (count > 2) _mm_storeu_ps(out[2] + 4 * x, a2);
        if (count > 3) _mm_storeu_ps(out[3] + 4 * x, a3);
    }
}
#else
void bd_vertical_blur_block_v3(
    const float *const *rows, ptrdiff_t span, const float *weights, float *const *out, ptrdiff_t count,
    ptrdiff_t width) {
    (void)rows; (void)span; (void)weights; (void)out; (void)count; (void)width;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
#endif
