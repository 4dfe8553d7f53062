// horizontal_blur_v3.c — the horizontal blur's row loop for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: HorizontalBlurPass.convolve's, bit for bit. Eight pixels at a time in four 8-float accumulators (two
// pixels each), then the last one to seven pixels one at a time in 4-float vectors. Each sum starts at the centre
// tap, centre × its weight, and adds (left + right) × weight for t = 1 … radius in that order, a multiply and then
// an add, never fused (the Swift loop does not fuse them either), so the result does not depend on which ran.
#include "backdrop_vector_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2"))) void bd_horizontal_blur_row_v3(
    const float *row, ptrdiff_t width, ptrdiff_t radius, const float *weights, float *out) {
    const float centre = weights[radius];
    ptrdiff_t x = 0;
    for (; x + 8 <= width; x += 8) {
        const float *c = row + 4 * x;
        __m256 w = _mm256_set1_ps(centre);
        __m256 a01 = _mm256_mul_ps(_mm256_loadu_ps(c), w), a23 = _mm256_mul_ps(_mm256_loadu_ps(c + 8), w);
        __m256 a45 = _mm256_mul_ps(_mm256_loadu_ps(c + 16), w), a67 = _mm256_mul_ps(_mm256_loadu_ps(c + 24), w);
        for (ptrdiff_t t = 1; t <= radius; t++) {
            __m256 weight = _mm256_set1_ps(weights[radius + t]);
            const float *l = c - 4 * t, *r = c + 4 * t;
            a01 = _mm256_add_ps(a01, _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(l), _mm256_loadu_ps(r)), weight));
            a23 = _mm256_add_ps(
                a23, _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(l + 8), _mm256_loadu_ps(r + 8)), weight));
            a45 = _mm256_add_ps(
                a45, _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(l + 16), _mm256_loadu_ps(r + 16)), weight));
            a67 = _mm256_add_ps(
                a67, _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(l + 24), _mm256_loadu_ps(r + 24)), weight));
        }
        float *o = out + 4 * x;
        _mm256_storeu_ps(o, a01);
        _mm256_storeu_ps(o + 8, a23);
        _mm256_storeu_ps(o + 16, a45);
        _mm256_storeu_ps(o + 24, a67);
    }
    for (; x < width; x++) {
        const float *c = row + 4 * x;
        __m128 a = _mm_mul_ps(_mm_loadu_ps(c), _mm_set1_ps(centre));
        for (ptrdiff_t t = 1; t <= radius; t++) {
            __m128 sum = _mm_add_ps(_mm_loadu_ps(c - 4 * t), _mm_loadu_ps(c + 4 * t));
            a = _mm_add_ps(a, _mm_mul_ps(sum, _mm_set1_ps(weights[radius + t])));
        }
        _mm_storeu_ps(out + 4 * x, a);
    }
}
#else
void bd_horizontal_blur_row_v3(
    const float *row, ptrdiff_t width, ptrdiff_t radius, const float *weights, float *out) {
    (void)row; (void)width; (void)radius; (void)weights; (void)out;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
#endif
