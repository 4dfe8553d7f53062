// box_blur_v3.c — BoxBlurPass's loops for x86-64-v3 (see backdrop_vector_kernels.h).
//
// Contract: BoxBlurPass.slideColumns's and BoxBlurPass.writeRow's, bit for bit: exact integer sums, so any order of the
// additions gives the same values. Rows go two at a time: every column slid twice, eight lanes at a time, both
// rows' sums kept side by side; then the window sums along the rows, a chain (each the previous plus the entering
// pixel minus the leaving one) carrying both rows' eight lanes in one 256-bit register; then the divisions,
// ⌊(sum + ⌊area/2⌋) / area⌋, eight at a time as a multiply by a 32-bit reciprocal and a shift, exact for every
// dividend below 2³¹ (BoxBlurPass.maximumWidth keeps them there). Boxes up to 127 wide, every style's up to scale 2, go
// through a second kernel with 16-bit column sums and single-precision quotients (below): the same values, with
// half the bytes of column sums to move and four instructions for eight quotients instead of eight.
#include "backdrop_vector_kernels.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>

// A band's first column sums, before its first row: the 32-bit kernel's; bd_box16_add_row_v3 is the 16-bit one's.
__attribute__((target("avx2"))) void bd_box_add_row_v3(uint32_t *sums, const uint8_t *row, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i in = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(row + i)));
        __m256i s = _mm256_loadu_si256((const __m256i *)(sums + i));
        _mm256_storeu_si256((__m256i *)(sums + i), _mm256_add_epi32(s, in));
    }
    for (; i < count; i++) sums[i] = sums[i] + row[i];
}

// ⌊n / area⌋ for every n < 2³¹ as ⌊n · m / 2^(31 + ℓ)⌋, with ℓ = ⌈log₂ area⌉ and m = ⌈2^(31 + ℓ) / area⌉ < 2³²
// (Granlund and Montgomery, "Division by invariant integers using multiplication", theorem 4.2): exact, and two
// 32 × 32 → 64-bit multiplies for eight lanes.
typedef struct {
    __m256i rounding, magic;
    __m128i shift;
} bd_box_divisor;

__attribute__((target("avx2"))) static inline bd_box_divisor bd_box_divisor_of(uint32_t area) {
    int l = 0;
    while (((uint64_t)1 << l) < area) l++;
    uint64_t magic = (((uint64_t)1 << (31 + l)) + area - 1) / area;
    bd_box_divisor divisor = {
        _mm256_set1_epi32((int)(area / 2)), _mm256_set1_epi32((int)(uint32_t)magic), _mm_cvtsi32_si128(31 + l)};
    return divisor;
}

// Eight quotients ⌊(v + ⌊area/2⌋) / area⌋, every dividend below 2³¹ (BoxBlurPass.maximumWidth keeps them there): the
// even lanes' products, then the odd lanes' moved into the high halves.
__attribute__((target("avx2"), always_inline)) static inline __m256i bd_box_quotients(
    __m256i v, bd_box_divisor divisor) {
    __m256i n = _mm256_add_epi32(v, divisor.rounding);
    __m256i even = _mm256_srl_epi64(_mm256_mul_epu32(n, divisor.magic), divisor.shift);
    __m256i odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64(n, 32), divisor.magic), divisor.shift);
    return _mm256_or_si256(even, _mm256_slli_epi64(odd, 32));
}

__attribute__((target("avx2"))) void bd_box_write_two_rows_v3(
    uint32_t *columns, const uint8_t *const *inputRows, ptrdiff_t width, ptrdiff_t half, uint32_t area,
    uint32_t *pairs, uint32_t *windows, uint8_t *first, uint8_t *second) {
    // First every column slid twice, eight lanes (two pixels) at a time: the column keeps the second row's sums,
    // `pairs` gets both rows' sums of each pixel side by side. The row pointers are copied to locals: a store
    // through the sums may alias the array that holds them.
    const uint8_t *entering1 = inputRows[0], *leaving1 = inputRows[1];
    const uint8_t *entering2 = inputRows[2], *leaving2 = inputRows[3];
    const ptrdiff_t lanes = 4 * width;
    ptrdiff_t i = 0;
    for (; i + 8 <= lanes; i += 8) {
        __m256i sums = _mm256_loadu_si256((const __m256i *)(columns + i));
        __m256i firstSums = _mm256_sub_epi32(
            _mm256_add_epi32(sums, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(entering1 + i)))),
            _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(leaving1 + i))));
        __m256i secondSums = _mm256_sub_epi32(
            _mm256_add_epi32(firstSums, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(entering2 + i)))),
            _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(leaving2 + i))));
        _mm256_storeu_si256((__m256i *)(columns + i), secondSums);
        _mm256_storeu_si256((__m256i *)(pairs + 2 * i), _mm256_permute2x128_si256(firstSums, secondSums, 0x20));
        _mm256_storeu_si256((__m256i *)(pairs + 2 * i + 8), _mm256_permute2x128_si256(firstSums, secondSums, 0x31));
    }
    for (; i < lanes; i += 4) {  // an odd last pixel
        for (int lane = 0; lane < 4; lane++) {
            uint32_t once = columns[i + lane] + entering1[i + lane] - leaving1[i + lane];
            uint32_t twice = once + entering2[i + lane] - leaving2[i + lane];
            columns[i + lane] = twice;
            pairs[2 * i + lane] = once;
            pairs[2 * i + 4 + lane] = twice;
        }
    }
    // Then the window sums of both rows in one register, edges extended: the first window holds column 0 half + 1
    // times. Three stretches: where the leaving pixel is clamped to 0, where neither index is clamped (no
    // comparisons in the loop the time goes to), and where the entering one is clamped to width − 1.
    const __m256i *pair = (const __m256i *)pairs;
    const __m256i leftmost = _mm256_loadu_si256(pair), rightmost = _mm256_loadu_si256(pair + width - 1);
    __m256i sum = _mm256_mullo_epi32(leftmost, _mm256_set1_epi32((int)(half + 1)));
    for (ptrdiff_t k = 1; k <= half; k++)
        sum = _mm256_add_epi32(sum, _mm256_loadu_si256(pair + (k < width ? k : width - 1)));
    __m256i *window = (__m256i *)windows;
    _mm256_storeu_si256(window, sum);
    const ptrdiff_t middleStart = half + 1 < width ? half + 1 : width;
    const ptrdiff_t middleEnd = width - half > middleStart ? width - half : middleStart;
    ptrdiff_t x = 1;
    for (; x < middleStart; x++) {
        __m256i entered = x + half < width ? _mm256_loadu_si256(pair + x + half) : rightmost;
        sum = _mm256_add_epi32(sum, _mm256_sub_epi32(entered, leftmost));
        _mm256_storeu_si256(window + x, sum);
    }
    for (; x < middleEnd; x++) {
        __m256i change = _mm256_sub_epi32(_mm256_loadu_si256(pair + x + half), _mm256_loadu_si256(pair + x - half - 1));
        sum = _mm256_add_epi32(sum, change);
        _mm256_storeu_si256(window + x, sum);
    }
    for (; x < width; x++) {
        ptrdiff_t leavingColumn = x - half - 1 > 0 ? x - half - 1 : 0;
        sum = _mm256_add_epi32(sum, _mm256_sub_epi32(rightmost, _mm256_loadu_si256(pair + leavingColumn)));
        _mm256_storeu_si256(window + x, sum);
    }
    // The quotients, four pixels of both rows at a time: the packs leave the first row's sixteen bytes in the low
    // half and the second's in the high half.
    const bd_box_divisor divisor = bd_box_divisor_of(area);
    x = 0;
    for (; x + 4 <= width; x += 4) {
        __m256i q0 = bd_box_quotients(_mm256_loadu_si256(window + x), divisor);
        __m256i q1 = bd_box_quotients(_mm256_loadu_si256(window + x + 1), divisor);
        __m256i q2 = bd_box_quotients(_mm256_loadu_si256(window + x + 2), divisor);
        __m256i q3 = bd_box_quotients(_mm256_loadu_si256(window + x + 3), divisor);
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(q0, q1), _mm256_packus_epi32(q2, q3));
        _mm_storeu_si128((__m128i *)(first + 4 * x), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(second + 4 * x), _mm256_extracti128_si256(bytes, 1));
    }
    for (; x < width; x++)
        for (int lane = 0; lane < 4; lane++) {
            first[4 * x + lane] = (uint8_t)((windows[8 * x + lane] + area / 2) / area);
            second[4 * x + lane] = (uint8_t)((windows[8 * x + 4 + lane] + area / 2) / area);
        }
}

// Boxes up to BD_BOX16_WIDEST (BoxBlurPass.widestSixteenBitBox): a column's sum of at most 127 8-bit values fits 16 bits,
// so the columns slide sixteen lanes at a time, and two columns' sums differ by less than 2¹⁵, so the window's
// change is one 16-bit subtraction; the quotients in single precision (below). The same values as the kernel above.
__attribute__((target("avx2"))) void bd_box16_add_row_v3(uint16_t *sums, const uint8_t *row, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i s = _mm256_loadu_si256((const __m256i *)(sums + i));
        __m256i in = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + i)));
        _mm256_storeu_si256((__m256i *)(sums + i), _mm256_add_epi16(s, in));
    }
    for (; i < count; i++) sums[i] = (uint16_t)(sums[i] + row[i]);
}

// Eight quotients ⌊(n + ⌊area/2⌋) / area⌋ in single precision: n (below 2²⁴) converts exactly and x = n + (⌊area/2⌋
// + ½) is exact (below 2²³ with one bit after the point), at least ½/area from every multiple of area; the product
// x · fl(1/area) is within x/area · 2⁻²³ < 2⁻¹⁵ of x/area, so its truncation is exact while 2⁻¹⁵ < ½/area: every area
// below 2¹⁴, boxes up to 127 (BoxBlurPass's tests check every dividend of every such box). Four instructions for eight
// lanes, where the 64-bit products take eight.
__attribute__((target("avx2"), always_inline)) static inline __m256i bd_box16_quotients(
    __m256i n, __m256 rounding, __m256 reciprocal) {
    __m256 x = _mm256_add_ps(_mm256_cvtepi32_ps(n), rounding);
    return _mm256_cvttps_epi32(_mm256_mul_ps(x, reciprocal));
}

// The change of both rows' window sums from x − 1 to x: the entering column's sums minus the leaving one's.
__attribute__((target("avx2"), always_inline)) static inline __m256i bd_box16_change(
    const uint16_t *pairs, ptrdiff_t entering, ptrdiff_t leaving) {
    __m128i in = _mm_loadu_si128((const __m128i *)(pairs + 8 * entering));
    __m128i out = _mm_loadu_si128((const __m128i *)(pairs + 8 * leaving));
    __m128i d = _mm_sub_epi16(in, out);
    return _mm256_cvtepi16_epi32(d);
}

// The same near an edge: the entering column clamped to width − 1, the leaving one to 0.
__attribute__((target("avx2"), always_inline)) static inline __m256i bd_box16_clamped_change(
    const uint16_t *pairs, ptrdiff_t x, ptrdiff_t half, ptrdiff_t width) {
    return bd_box16_change(pairs, x + half < width ? x + half : width - 1, x - half - 1 > 0 ? x - half - 1 : 0);
}

__attribute__((target("avx2"))) void bd_box16_write_two_rows_v3(
    uint16_t *columns, const uint8_t *const *inputRows, ptrdiff_t width, ptrdiff_t half, uint32_t area, uint16_t *pairs,
    uint8_t *first, uint8_t *second) {
    // As above: every column slid twice, here four pixels at a time, `pairs` getting each pixel's two rows' sums
    // side by side (sixteen bytes a pixel).
    const uint8_t *entering1 = inputRows[0], *leaving1 = inputRows[1];
    const uint8_t *entering2 = inputRows[2], *leaving2 = inputRows[3];
    const ptrdiff_t lanes = 4 * width;
    ptrdiff_t i = 0;
    for (; i + 16 <= lanes; i += 16) {
        __m256i sums = _mm256_loadu_si256((const __m256i *)(columns + i));
        __m256i once = _mm256_sub_epi16(
            _mm256_add_epi16(sums, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(entering1 + i)))),
            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(leaving1 + i))));
        __m256i twice = _mm256_sub_epi16(
            _mm256_add_epi16(once, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(entering2 + i)))),
            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(leaving2 + i))));
        _mm256_storeu_si256((__m256i *)(columns + i), twice);
        __m256i even = _mm256_unpacklo_epi64(once, twice), odd = _mm256_unpackhi_epi64(once, twice);
        _mm256_storeu_si256((__m256i *)(pairs + 2 * i), _mm256_permute2x128_si256(even, odd, 0x20));
        _mm256_storeu_si256((__m256i *)(pairs + 2 * i + 16), _mm256_permute2x128_si256(even, odd, 0x31));
    }
    for (; i < lanes; i += 4)
        for (int lane = 0; lane < 4; lane++) {
            uint16_t once = (uint16_t)(columns[i + lane] + entering1[i + lane] - leaving1[i + lane]);
            uint16_t twice = (uint16_t)(once + entering2[i + lane] - leaving2[i + lane]);
            columns[i + lane] = twice;
            pairs[2 * i + lane] = once;
            pairs[2 * i + 4 + lane] = twice;
        }
    // Then the window sums along the rows, both rows in one register, four pixels at a time and their quotients packed
    // as above; the indices clamped only in the groups that reach within half a box of an edge.
    const __m256 rounding = _mm256_set1_ps((float)(area / 2) + 0.5f);
    const __m256 reciprocal = _mm256_set1_ps(1.0f / (float)area);
    __m256i sum = _mm256_mullo_epi32(
        _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)pairs)), _mm256_set1_epi32((int)(half + 1)));
    for (ptrdiff_t k = 1; k <= half; k++) {
        const uint16_t *pair = pairs + 8 * (k < width ? k : width - 1);
        sum = _mm256_add_epi32(sum, _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)pair)));
    }
    const ptrdiff_t middleStart = half + 1, middleEnd = width - half;
    ptrdiff_t x = 0;
    for (; x + 4 <= width; x += 4) {
        __m256i s[4];
        if (x >= middleStart && x + 4 <= middleEnd) {
            for (int k = 0; k < 4; k++) {
                sum = _mm256_add_epi32(sum, bd_box16_change(pairs, x + k + half, x + k - half - 1));
                s[k] = sum;
            }
        } else {
            for (int k = 0; k < 4; k++) {
                if (x + k > 0) sum = _mm256_add_epi32(sum, bd_box16_clamped_change(pairs, x + k, half, width));
                s[k] = sum;
            }
        }
        __m256i q[4];
        for (int k = 0; k < 4; k++) q[k] = bd_box16_quotients(s[k], rounding, reciprocal);
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(q[0], q[1]), _mm256_packus_epi32(q[2], q[3]));
        _mm_storeu_si128((__m128i *)(first + 4 * x), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(second + 4 * x), _mm256_extracti128_si256(bytes, 1));
    }
    for (; x < width; x++) {
        if (x > 0) sum = _mm256_add_epi32(sum, bd_box16_clamped_change(pairs, x, half, width));
        uint32_t v[8];
        _mm256_storeu_si256((__m256i *)v, sum);
        for (int lane = 0; lane < 4; lane++) {
            first[4 * x + lane] = (uint8_t)((v[lane] + area / 2) / area);
            second[4 * x + lane] = (uint8_t)((v[4 + lane] + area / 2) / area);
        }
    }
}
#else
void bd_box16_add_row_v3(uint16_t *sums, const uint8_t *row, ptrdiff_t count) {
    (void)sums; (void)row; (void)count;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
void bd_box16_write_two_rows_v3(
    uint16_t *columns, const uint8_t *const *rows, ptrdiff_t width, ptrdiff_t half, uint32_t area, uint16_t *pairs,
    uint8_t *first, uint8_t *second) {
    (void)columns; (void)rows; (void)width; (void)half; (void)area; (void)pairs; (void)first; (void)second;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
void bd_box_add_row_v3(uint32_t *sums, const uint8_t *row, ptrdiff_t count) {
    (void)sums; (void)row; (void)count;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
void bd_box_write_two_rows_v3(
    uint32_t *columns, const uint8_t *const *rows, ptrdiff_t width, ptrdiff_t half, uint32_t area, uint32_t *pairs,
    uint32_t *windows, uint8_t *first, uint8_t *second) {
    (void)columns; (void)rows; (void)width; (void)half; (void)area; (void)pairs; (void)windows; (void)first;
    (void)second;
    __builtin_trap();  // never called: bd_vector_kernels_available() is 0 here
}
#endif
