// backdrop_png_fast_encoder.c — see backdrop_png_fast_encoder.h.
//
// Each thread keeps, for the row it filters, the packed row and the one above it behind 32 zero bytes (a left
// neighbour of 0 for the first pixel, as PNG's filters define it, with no test in the loops), and the five filtered
// candidates; the chosen one's zero bytes are marked in a bit mask (where its runs start: a few shifts and ANDs a
// 64-byte word), and it is counted (first pass) or written (second pass). Codes are written least significant bit
// first into a 64-bit buffer, stored eight bytes at a time; the literals between runs four bytes at once, through a
// table of the 65,536 byte pairs' codes (at most 24 bits a pair).
#include "backdrop_png_fast_encoder.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "backdrop_deflate_strips.h"
#include "backdrop_fastpng.h"
#include "backdrop_vector_kernels.h"
#include "backdrop_threads.h"
#include "png_paeth.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum {
    bd_fe_pad = 32,              // zero bytes before each packed row
    bd_fe_limit = 12,            // the longest literal code, bits
    bd_fe_symbols = 286,         // byte values, end-of-block, the 29 length codes
    bd_fe_strip_bytes = 1 << 19,  // a strip's filtered bytes, about
    bd_fe_run_bytes = 12,         // the fewest zero bytes written as a run (8 to 16)
    bd_fe_sample_step = 16        // one row in this many counted, from 64 rows on
};

/// The Huffman code of the picture: lengths and bit-reversed codes (ready to write least significant bit first) of
/// the 286 literal/length symbols; the byte pairs' codes and each match length's (its length code, extra bits and
/// distance code 0, distance 1), `(code) | (length << 24)`.
typedef struct {
    uint8_t lengths[bd_fe_symbols];
    uint16_t codes[bd_fe_symbols];
    uint32_t *pairs;
    uint32_t matches[259];
    uint16_t match_symbols[259];
} bd_fe_code;

/// RFC 1951 3.2.5: the shortest length of each length code 257–285, and its extra bits.
static const uint16_t bd_fe_length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                               31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t bd_fe_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                               2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

typedef struct {
    uint64_t bits;
    unsigned count;
    uint8_t *next;
} bd_fe_writer;

/// Adds `length` bits (count + length ≤ 64).
static inline void bd_fe_put(bd_fe_writer *w, uint64_t bits, unsigned length) {
    w->bits |= bits << w->count;
    w->count += length;
}

/// Stores the whole bytes of the buffer (eight bytes written, the next store overwrites what is past them).
static inline void bd_fe_flush(bd_fe_writer *w) {
    memcpy(w->next, &w->bits, 8);  // little-endian hosts only, as the rest of CLibPNG
    w->next += w->count >> 3;
    w->bits = (w->count & 56) ? w->bits >> (w->count & 56) : w->bits;
    w->count &= 7;
}

/// Flushes and pads to a byte boundary with zero bits.
static inline void bd_fe_align(bd_fe_writer *w) {
    bd_fe_flush(w);
    if (w->count > 0) {
        w->next += 1;
        w->bits = 0;
        w->count = 0;
    }
}

// MARK: - Huffman codes

/// Lengths of a Huffman code for `count` symbols of frequencies `freq` (0: no code), none over `limit` bits: the
/// frequencies halved (rounding up to 1) until the tree fits. Ties by symbol, so the lengths depend on `freq` alone.
static void bd_fe_lengths(const uint64_t *freq, int count, int limit, uint8_t *lengths) {
    uint64_t f[bd_fe_symbols], weight[2 * bd_fe_symbols];
    int order[bd_fe_symbols], parent[2 * bd_fe_symbols], depth[2 * bd_fe_symbols];
    for (int s = 0; s < count; s++) f[s] = freq[s];
    memset(lengths, 0, (size_t)count);
    for (;;) {
        int m = 0;
        for (int s = 0; s < count; s++)
            if (f[s] > 0) order[m++] = s;
        if (m == 0) return;
        if (m == 1) {
            lengths[order[0]] = 1;
            return;
        }
        for (int i = 1; i < m; i++) {  // insertion sort by (frequency, symbol)
            int s = order[i], j = i;
            while (j > 0 && f[order[j - 1]] > f[s]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = s;
        }
        for (int i = 0; i < m; i++) weight[i] = f[order[i]];
        int leaf = 0, inner = m, next = m;
        while (next < 2 * m - 1) {
            int pick[2];
            for (int k = 0; k < 2; k++)
                pick[k] = (leaf < m && (inner >= next || weight[leaf] <= weight[inner])) ? leaf++ : inner++;
            weight[next] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = parent[pick[1]] = next;
            next++;
        }
        depth[2 * m - 2] = 0;
        int longest = 0;
        for (int i = 2 * m - 3; i >= 0; i--) {
            depth[i] = depth[parent[i]] + 1;
            if (i < m && depth[i] > longest) longest = depth[i];
        }
        if (longest <= limit) {
            for (int i = 0; i < m; i++) lengths[order[i]] = (uint8_t)depth[i];
            return;
        }
        for (int s = 0; s < count; s++)
            if (f[s] > 0) f[s] = (f[s] >> 1) | 1;
    }
}

/// The canonical codes of `lengths` (RFC 1951 3.2.2), bit-reversed for writing least significant bit first.
static void bd_fe_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    unsigned per_length[16] = {0}, next[16] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    unsigned code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (code + per_length[bits - 1]) << 1;
        next[bits] = code;
    }
    for (int s = 0; s < count; s++) {
        unsigned length = lengths[s], value = length ? next[length]++ : 0, reversed = 0;
        for (unsigned b = 0; b < length; b++) reversed |= ((value >> b) & 1u) << (length - 1 - b);
        codes[s] = (uint16_t)reversed;
    }
}

/// The picture's code from the sample's counts; 0 when memory ran out.
static int bd_fe_make_code(const uint64_t *counts, bd_fe_code *code) {
    uint64_t freq[bd_fe_symbols];
    for (int s = 0; s < bd_fe_symbols; s++) freq[s] = counts[s] + 1;  // every symbol a code
    bd_fe_lengths(freq, bd_fe_symbols, bd_fe_limit, code->lengths);
    bd_fe_codes(code->lengths, bd_fe_symbols, code->codes);
    code->pairs = (uint32_t *)malloc(65536 * sizeof(uint32_t));
    if (code->pairs == NULL) return 0;
    for (unsigned second = 0; second < 256; second++)
        for (unsigned first = 0; first < 256; first++) {
            uint32_t bits = code->codes[first] | ((uint32_t)code->codes[second] << code->lengths[first]);
            uint32_t length = (uint32_t)(code->lengths[first] + code->lengths[second]);
            code->pairs[first | (second << 8)] = bits | (length << 24);
        }
    for (unsigned length = 3; length <= 258; length++) {
        unsigned symbol = code->match_symbols[length], bits = code->lengths[symbol];
        int k = (int)symbol - 257;
        uint32_t word = code->codes[symbol] | ((uint32_t)(length - bd_fe_length_base[k]) << bits);
        bits += bd_fe_length_extra[k];
        code->matches[length] = word | ((bits + 1) << 24);  // distance code 0: the one bit 0
    }
    return 1;
}

/// Each match length's length code (before the lengths of the codes are known: the first pass counts them).
static void bd_fe_match_symbols(bd_fe_code *code) {
    for (unsigned length = 3; length <= 258; length++) {
        int k = 28;
        while (bd_fe_length_base[k] > length) k--;
        code->match_symbols[length] = (uint16_t)(257 + k);
    }
}

/// A dynamic block's header (RFC 1951 3.2.7) with `code` for literals and two distance codes of one bit (a complete
/// code no literal-only block uses): every code length written as itself (no repeat codes), by a code-length code of
/// at most 7 bits.
static void bd_fe_header(bd_fe_writer *w, const bd_fe_code *code, int final) {
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint8_t all[bd_fe_symbols + 2];
    memcpy(all, code->lengths, bd_fe_symbols);
    all[bd_fe_symbols] = all[bd_fe_symbols + 1] = 1;
    uint64_t freq[19] = {0};
    for (int i = 0; i < bd_fe_symbols + 2; i++) freq[all[i]]++;
    uint8_t cl_lengths[19];
    uint16_t cl_codes[19];
    bd_fe_lengths(freq, 19, 7, cl_lengths);
    bd_fe_codes(cl_lengths, 19, cl_codes);
    int hclen = 19;
    while (hclen > 4 && cl_lengths[order[hclen - 1]] == 0) hclen--;
    bd_fe_put(w, (uint64_t)(final ? 1 : 0) | (2u << 1), 3);
    bd_fe_put(w, (bd_fe_symbols - 257) | (1u << 5) | ((unsigned)(hclen - 4) << 10), 14);  // HLIT, HDIST 2, HCLEN
    bd_fe_flush(w);
    for (int i = 0; i < hclen; i++) {
        bd_fe_put(w, cl_lengths[order[i]], 3);
        bd_fe_flush(w);
    }
    for (int i = 0; i < bd_fe_symbols + 2; i++) {
        bd_fe_put(w, cl_codes[all[i]], cl_lengths[all[i]]);
        bd_fe_flush(w);
    }
}

// MARK: - Rows

/// What a thread needs for one row at a time: two packed rows (each behind `bd_fe_pad` zero bytes) and the five
/// candidates (a filter byte, then the residuals), and the chosen one's masks.
typedef struct {
    uint8_t *above, *current, *candidates[5];
    uint64_t *zeros, *starts;  // the chosen candidate's zero bytes and eight-zero starts (bd_fe_zero_masks)
} bd_fe_rows;

typedef struct {
    const uint8_t *rgba;
    size_t row_bytes, packed;  // packed: bytes of a row as stored, without the filter byte
    uint32_t width, height;
    int channels, vector;
} bd_fe_picture;

static void bd_fe_pack_portable(const bd_fe_picture *p, uint32_t y, uint8_t *to) {
    const uint8_t *from = p->rgba + (size_t)y * p->row_bytes;
    if (p->channels == 4) {
        memcpy(to, from, p->packed);
        return;
    }
    for (uint32_t x = 0; x < p->width; x++) {
        to[3 * x] = from[4 * x];
        to[3 * x + 1] = from[4 * x + 1];
        to[3 * x + 2] = from[4 * x + 2];
    }
}

static inline uint64_t bd_fe_magnitude(uint8_t r) { return r < 128 ? r : 256u - r; }

/// Filters `current` (above it `above`) five ways from byte `start` on into the candidates and adds each one's sum of
/// magnitudes to `costs`.
static void bd_fe_filter_portable(const bd_fe_rows *r, size_t start, size_t n, int bpp, uint64_t costs[5]) {
    const uint8_t *c = r->current, *u = r->above;
    for (size_t i = start; i < n; i++) {
        uint8_t x = c[i], a = c[(ptrdiff_t)i - bpp], b = u[i], d = u[(ptrdiff_t)i - bpp];
        uint8_t v[5] = {x, (uint8_t)(x - a), (uint8_t)(x - b), (uint8_t)(x - ((a + b) >> 1)),
                        (uint8_t)(x - bd_paeth(a, b, d))};
        for (int k = 0; k < 5; k++) {
            r->candidates[k][1 + i] = v[k];
            costs[k] += bd_fe_magnitude(v[k]);
        }
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void bd_fe_pack_v3(const bd_fe_picture *p, uint32_t y, uint8_t *to) {
    const uint8_t *from = p->rgba + (size_t)y * p->row_bytes;
    if (p->channels == 4) {
        memcpy(to, from, p->packed);
        return;
    }
    const __m256i shuffle = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5,
                                             6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i gather = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    uint32_t x = 0;
    for (; x + 8 <= p->width; x += 8) {  // 32 bytes stored, 24 kept: the row buffer has room past its end
        __m256i v = _mm256_loadu_si256((const __m256i *)(from + 4 * (size_t)x));
        v = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, shuffle), gather);
        _mm256_storeu_si256((__m256i *)(to + 3 * (size_t)x), v);
    }
    for (; x < p->width; x++) {
        to[3 * x] = from[4 * x];
        to[3 * x + 1] = from[4 * x + 1];
        to[3 * x + 2] = from[4 * x + 2];
    }
}

/// Paeth's predictor of 32 bytes in 8-bit lanes, exact: with pa = |b − c| and pb = |a − c|,
/// pc = |(a − c) + (b − c)| is pa + pb when a − c and b − c have the same sign and |pa − pb| otherwise; a sum over
/// 255 saturates, which changes no comparison (pa and pb are at most 255).
__attribute__((target("avx2"))) static inline __m256i bd_fe_paeth8(__m256i a, __m256i b, __m256i c) {
    __m256i max_bc = _mm256_max_epu8(b, c), max_ac = _mm256_max_epu8(a, c);
    __m256i pa = _mm256_sub_epi8(max_bc, _mm256_min_epu8(b, c)), pb = _mm256_sub_epi8(max_ac, _mm256_min_epu8(a, c));
    __m256i differ = _mm256_xor_si256(_mm256_cmpeq_epi8(max_ac, a), _mm256_cmpeq_epi8(max_bc, b));
    __m256i pc = _mm256_blendv_epi8(_mm256_adds_epu8(pa, pb),
                                    _mm256_sub_epi8(_mm256_max_epu8(pa, pb), _mm256_min_epu8(pa, pb)), differ);
    __m256i take_a = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(pa, pb), pa),
                                      _mm256_cmpeq_epi8(_mm256_min_epu8(pa, pc), pa));
    __m256i take_b = _mm256_cmpeq_epi8(_mm256_min_epu8(pb, pc), pb);
    return _mm256_blendv_epi8(_mm256_blendv_epi8(c, b, take_b), a, take_a);
}

__attribute__((target("avx2"))) static inline __m256i bd_fe_sad(__m256i r) {
    return _mm256_sad_epu8(_mm256_abs_epi8(r), _mm256_setzero_si256());  // |−128| is 0x80: 128, as bd_fe_magnitude
}

static uint64_t bd_fe_sum4(const uint64_t lanes[4]) { return lanes[0] + lanes[1] + lanes[2] + lanes[3]; }

/// The zero bytes of `words` × 64 bytes at `row`, a bit each.
__attribute__((target("avx2"))) static void bd_fe_zero_mask_v3(const uint8_t *row, size_t words, uint64_t *zeros) {
    const __m256i zero = _mm256_setzero_si256();
    for (size_t k = 0; k < words; k++) {
        uint32_t low = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(row + 64 * k)), zero));
        uint32_t high = (uint32_t)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(row + 64 * k + 32)), zero));
        zeros[k] = low | ((uint64_t)high << 32);
    }
}

/// `bd_fe_filter_portable` 32 bytes at a time, the rest by it: the same candidates and sums.
__attribute__((target("avx2"))) static void bd_fe_filter_v3(const bd_fe_rows *r, size_t n, int bpp,
                                                            uint64_t costs[5]) {
    const uint8_t *c = r->current, *u = r->above;
    __m256i sums[5];
    for (int k = 0; k < 5; k++) sums[k] = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi8(1);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(c + i));
        __m256i a = _mm256_loadu_si256((const __m256i *)(c + i - bpp));
        __m256i b = _mm256_loadu_si256((const __m256i *)(u + i));
        __m256i d = _mm256_loadu_si256((const __m256i *)(u + i - bpp));
        __m256i avg = _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), one));
        __m256i paeth = bd_fe_paeth8(a, b, d);
        __m256i v[5] = {x, _mm256_sub_epi8(x, a), _mm256_sub_epi8(x, b), _mm256_sub_epi8(x, avg),
                        _mm256_sub_epi8(x, paeth)};
        for (int k = 0; k < 5; k++) {
            _mm256_storeu_si256((__m256i *)(r->candidates[k] + 1 + i), v[k]);
            sums[k] = _mm256_add_epi64(sums[k], bd_fe_sad(v[k]));
        }
    }
    for (int k = 0; k < 5; k++) {
        uint64_t lanes[4];
        _mm256_storeu_si256((__m256i *)lanes, sums[k]);
        costs[k] += bd_fe_sum4(lanes);
    }
    bd_fe_filter_portable(r, i, n, bpp, costs);
}
#endif

static void bd_fe_zero_masks(const uint8_t *row, size_t n, int vector, uint64_t *zeros, uint64_t *starts);

/// Packs row `y` into `rows->current` (row `y − 1` already in `rows->above`, zeros for the first) and filters it:
/// the chosen candidate, its filter byte first; `n` + 1 bytes.
static const uint8_t *bd_fe_row(const bd_fe_picture *p, bd_fe_rows *rows, uint32_t y) {
    uint64_t costs[5] = {0};
    int bpp = p->channels;
#if defined(__x86_64__)
    if (p->vector) {
        bd_fe_pack_v3(p, y, rows->current);
        bd_fe_filter_v3(rows, p->packed, bpp, costs);
    } else
#endif
    {
        bd_fe_pack_portable(p, y, rows->current);
        bd_fe_filter_portable(rows, 0, p->packed, bpp, costs);
    }
    int best = 0;
    for (int k = 1; k < 5; k++)
        if (costs[k] < costs[best]) best = k;
    bd_fe_zero_masks(rows->candidates[best], p->packed + 1, p->vector, rows->zeros, rows->starts);
    return rows->candidates[best];
}

/// Makes `row` the row above by swapping the buffers.
static void bd_fe_advance(bd_fe_rows *rows) {
    uint8_t *t = rows->above;
    rows->above = rows->current;
    rows->current = t;
}

static int bd_fe_rows_make(bd_fe_rows *rows, size_t packed) {
    size_t size = bd_fe_pad + packed + 64;
    uint8_t *block = (uint8_t *)calloc(7, size);
    size_t words = (packed + 1 + 63) / 64 + 1;
    rows->zeros = (uint64_t *)calloc(2 * words, sizeof(uint64_t));
    if (block == NULL || rows->zeros == NULL) {
        free(block);
        free(rows->zeros);
        return 0;
    }
    rows->starts = rows->zeros + words;
    rows->above = block + bd_fe_pad;
    rows->current = block + size + bd_fe_pad;
    for (int k = 0; k < 5; k++) {
        rows->candidates[k] = block + (2 + (size_t)k) * size;
        rows->candidates[k][0] = (uint8_t)k;
    }
    return 1;
}

static void bd_fe_rows_free(bd_fe_rows *rows) {
    free(rows->zeros);
    free(rows->above < rows->current ? rows->above - bd_fe_pad : rows->current - bd_fe_pad);
}

/// Primes `rows->above` with row `y − 1` (zeros for the first row).
static void bd_fe_rows_start(const bd_fe_picture *p, bd_fe_rows *rows, uint32_t y) {
    memset(rows->above - bd_fe_pad, 0, bd_fe_pad + p->packed + 32);
    memset(rows->current - bd_fe_pad, 0, bd_fe_pad);
    if (y == 0) return;
#if defined(__x86_64__)
    if (p->vector) {
        bd_fe_pack_v3(p, y - 1, rows->above);
        return;
    }
#endif
    bd_fe_pack_portable(p, y - 1, rows->above);
}

// MARK: - Tokens

/// The first set bit of `mask` at `from` or after, or `limit` when there is none before it.
static inline size_t bd_fe_next_one(const uint64_t *mask, size_t from, size_t limit) {
    if (from >= limit) return limit;
    size_t word = from >> 6;
    uint64_t m = mask[word] & (~0ull << (from & 63));
    while (m == 0) {
        word++;
        if (word * 64 >= limit) return limit;
        m = mask[word];
    }
    size_t at = word * 64 + (size_t)__builtin_ctzll(m);
    return at < limit ? at : limit;
}

/// The first clear bit of `mask` at `from` or after, or `limit` when there is none before it.
static inline size_t bd_fe_next_zero(const uint64_t *mask, size_t from, size_t limit) {
    if (from >= limit) return limit;
    size_t word = from >> 6;
    uint64_t m = ~mask[word] & (~0ull << (from & 63));
    while (m == 0) {
        word++;
        if (word * 64 >= limit) return limit;
        m = ~mask[word];
    }
    size_t at = word * 64 + (size_t)__builtin_ctzll(m);
    return at < limit ? at : limit;
}

/// Marks the zero bytes of `row` (`n` bytes; the buffer readable 64 bytes further) in `zeros`, and in `starts` the
/// bytes where `bd_fe_run_bytes` zero bytes start; bits from `n` on clear, and one more word of each, clear.
static void bd_fe_zero_masks(const uint8_t *row, size_t n, int vector, uint64_t *zeros, uint64_t *starts) {
    size_t words = (n + 63) / 64;
#if defined(__x86_64__)
    if (vector) {
        bd_fe_zero_mask_v3(row, words, zeros);
    } else
#endif
    {
        for (size_t k = 0; k < words; k++) {
            uint64_t m = 0;
            for (unsigned b = 0; b < 64; b++) m |= (uint64_t)(row[64 * k + b] == 0) << b;
            zeros[k] = m;
        }
    }
    if (n & 63) zeros[words - 1] &= (1ull << (n & 63)) - 1;
    zeros[words] = 0;
    for (size_t k = 0; k < words; k++) {
        unsigned __int128 v = zeros[k] | ((unsigned __int128)zeros[k + 1] << 64);
        v &= v >> 1;
        v &= v >> 2;
        v &= v >> 4;
        v &= v >> (bd_fe_run_bytes - 8);
        starts[k] = (uint64_t)v;
    }
    starts[words] = 0;
}

/// Writes the literals `row[i..<end]`: eight bytes as four pairs, the last up to seven without a branch on their
/// count (a pair or byte past `end` written with no bits).
__attribute__((always_inline)) static inline void bd_fe_write_literals(const uint8_t *row, size_t i, size_t end,
                                                                       bd_fe_writer *w, const bd_fe_code *code) {
    uint64_t word;
    for (; i + 8 <= end; i += 8) {  // each four bytes' codes joined first, then one shift into the buffer
        memcpy(&word, row + i, 8);
        uint32_t e0 = code->pairs[word & 0xFFFF], e1 = code->pairs[(word >> 16) & 0xFFFF];
        uint32_t e2 = code->pairs[(word >> 32) & 0xFFFF], e3 = code->pairs[word >> 48];
        uint64_t low = (e0 & 0xFFFFFF) | ((uint64_t)(e1 & 0xFFFFFF) << (e0 >> 24));
        uint64_t high = (e2 & 0xFFFFFF) | ((uint64_t)(e3 & 0xFFFFFF) << (e2 >> 24));
        bd_fe_put(w, low, (e0 >> 24) + (e1 >> 24));
        bd_fe_flush(w);
        bd_fe_put(w, high, (e2 >> 24) + (e3 >> 24));
        bd_fe_flush(w);
    }
    size_t tail = end - i;  // 0–7
    memcpy(&word, row + i, 8);
    for (unsigned k = 0; k < 3; k++) {
        uint32_t e = code->pairs[(word >> (16 * k)) & 0xFFFF];
        uint64_t keep = 2 * k + 2 <= tail ? ~0ull : 0;
        bd_fe_put(w, (e & 0xFFFFFF) & keep, (e >> 24) & (unsigned)keep);
        if (k == 1) bd_fe_flush(w);
    }
    uint8_t last = row[i + (tail | 1) - 1];
    uint64_t odd = (tail & 1) ? ~0ull : 0;
    bd_fe_put(w, code->codes[last] & odd, code->lengths[last] & (unsigned)odd);
    bd_fe_flush(w);
}

/// A zero run `row[start..<end]` (`bd_fe_run_bytes` or more): a literal 0, then copies at distance 1 of up to 258
/// bytes (a rest of 1 or 2 bytes as literals). Counted into `counts` when it is non-NULL, else written.
__attribute__((always_inline)) static inline void bd_fe_run(size_t start, size_t end, uint64_t *counts,
                                                            bd_fe_writer *w, const bd_fe_code *code) {
    size_t rest = end - start - 1;
    if (counts) counts[0]++;
    else bd_fe_put(w, code->codes[0], code->lengths[0]);
    while (rest >= 3) {
        size_t m = rest <= 258 ? rest : rest - 258 < 3 ? rest - 3 : 258;
        if (counts) {
            counts[code->match_symbols[m]]++;
        } else {
            uint32_t e = code->matches[m];
            bd_fe_put(w, e & 0xFFFFFF, e >> 24);
            bd_fe_flush(w);
        }
        rest -= m;
    }
    for (; rest > 0; rest--) {
        if (counts) counts[0]++;
        else bd_fe_put(w, code->codes[0], code->lengths[0]);
    }
    if (!counts) bd_fe_flush(w);
}

/// A row's `n` bytes as symbols: literals, except that every run of `bd_fe_run_bytes` zero bytes or more (`starts`
/// and `zeros`, from bd_fe_zero_masks) is a literal 0 and copies at distance 1. Counted into `counts` when it is
/// non-NULL, else written by `w` with `code`: the same symbols either way.
__attribute__((always_inline)) static inline void bd_fe_tokens(const uint8_t *row, size_t n, const uint64_t *zeros,
                                                               const uint64_t *starts, uint64_t *counts,
                                                               bd_fe_writer *w, const bd_fe_code *code) {
    size_t i = 0;
    for (;;) {
        size_t run = bd_fe_next_one(starts, i, n);
        if (counts) {
            for (size_t k = i; k < run; k++) counts[row[k]]++;
        } else {
            bd_fe_write_literals(row, i, run, w, code);
        }
        if (run >= n) return;
        size_t end = bd_fe_next_zero(zeros, run + bd_fe_run_bytes, n);
        bd_fe_run(run, end, counts, w, code);
        i = end;
    }
}

/// bd_fe_tokens counting.
static void bd_fe_count_tokens(const uint8_t *row, size_t n, const uint64_t *zeros, const uint64_t *starts,
                               uint64_t *counts, const bd_fe_code *code) {
    bd_fe_tokens(row, n, zeros, starts, counts, NULL, code);
}

/// bd_fe_tokens writing (through a copy of the writer that no store can alias: it stays in registers).
static void bd_fe_write_tokens(const uint8_t *row, size_t n, const uint64_t *zeros, const uint64_t *starts,
                               bd_fe_writer *w, const bd_fe_code *code) {
    bd_fe_writer local = *w;
    bd_fe_tokens(row, n, zeros, starts, NULL, &local, code);
    *w = local;
}

// MARK: - Strips and threads

typedef struct {
    bd_fe_picture picture;
    uint32_t strip_rows, strips, sample_step;
    bd_fe_code code;
    int pass;                          // 0: count the sample; 1: write the strips
    uint64_t (*counts)[bd_fe_symbols];  // a strip's sample counts
    uint8_t **streams;                 // a strip's deflate bytes
    size_t *sizes;
    uint32_t *adlers;
    int next, failed;
} bd_fe_job;

static void bd_fe_count_strip(bd_fe_job *job, bd_fe_rows *rows, uint32_t strip) {
    const bd_fe_picture *p = &job->picture;
    uint32_t first = strip * job->strip_rows, end = first + job->strip_rows;
    if (end > p->height) end = p->height;
    uint64_t *counts = job->counts[strip];
    memset(counts, 0, sizeof(job->counts[0]));
    uint32_t y = (first + job->sample_step - 1) / job->sample_step * job->sample_step;
    for (; y < end; y += job->sample_step) {
        bd_fe_rows_start(p, rows, y);
        const uint8_t *row = bd_fe_row(p, rows, y);
        bd_fe_count_tokens(row, p->packed + 1, rows->zeros, rows->starts, counts, &job->code);
    }
}

/// Makes room for `need` more bytes after the writer's position in `*out` (`*capacity` bytes), moving the buffer to
/// `bound` bytes when they might not fit; 0 when that fails.
static int bd_fe_reserve(bd_fe_writer *w, uint8_t **out, size_t *capacity, size_t need, size_t bound) {
    size_t used = (size_t)(w->next - *out);
    if (used + need <= *capacity) return 1;
    uint8_t *grown = (uint8_t *)realloc(*out, bound);
    if (grown == NULL) return 0;
    *out = grown;
    *capacity = bound;
    w->next = grown + used;
    return 1;
}

static int bd_fe_write_strip(bd_fe_job *job, bd_fe_rows *rows, uint32_t strip) {
    const bd_fe_picture *p = &job->picture;
    const bd_fe_code *code = &job->code;
    uint32_t first = strip * job->strip_rows, end = first + job->strip_rows;
    if (end > p->height) end = p->height;
    int last = strip + 1 == job->strips;
    size_t n = p->packed + 1;
    // The most a row's codes take (every byte a literal of the longest code), with the flush's 8-byte store, and
    // the strip's: 1024 bytes for the header and the end.
    size_t row_bound = (n * bd_fe_limit + 7) / 8 + 8;
    size_t bound = 1024 + (size_t)(end - first) * row_bound;
    // The buffer starts at half the strip's filtered bytes and moves to `bound` only for a strip that needs more
    // (noise does): bounds held 14 MB for the wallpaper's 1 MB, in a heap whose pages may be huge
    // (backdrop_memory.c; docs/performance.md, "The encoder's strips"). `row_bound` is exact, not generous: a row's
    // last 8-byte store ends at most (7 + 12 n) / 8 + 8 bytes past where the row began (codes of at most 12 bits a
    // byte), so the check before each row keeps every store inside the buffer.
    size_t capacity = 1024 + (size_t)(end - first) * n / 2 + row_bound;
    if (capacity > bound) capacity = bound;
    uint8_t *out = (uint8_t *)malloc(capacity);
    if (out == NULL) return 0;
    bd_fe_writer w = {0, 0, out};
    bd_fe_header(&w, code, last);
    uint32_t adler = 1;
    bd_fe_rows_start(p, rows, first);
    for (uint32_t y = first; y < end; y++) {
        if (!bd_fe_reserve(&w, &out, &capacity, row_bound, bound)) {
            free(out);
            return 0;
        }
        const uint8_t *row = bd_fe_row(p, rows, y);
        adler = libdeflate_adler32(adler, row, n);
        bd_fe_write_tokens(row, n, rows->zeros, rows->starts, &w, code);
        bd_fe_advance(rows);
    }
    if (!bd_fe_reserve(&w, &out, &capacity, 64, bound)) {
        free(out);
        return 0;
    }
    bd_fe_put(&w, code->codes[256], code->lengths[256]);
    if (last) {
        bd_fe_align(&w);
    } else {
        bd_fe_put(&w, 0, 3);  // an empty stored block: BFINAL 0, BTYPE 00, to the byte boundary, LEN 0, NLEN 0xFFFF
        bd_fe_align(&w);
        static const uint8_t empty[4] = {0, 0, 0xFF, 0xFF};
        memcpy(w.next, empty, 4);
        w.next += 4;
    }
    job->streams[strip] = out;
    job->sizes[strip] = (size_t)(w.next - out);
    job->adlers[strip] = adler;
    return 1;
}

static void *bd_fe_work(void *argument) {
    bd_fe_job *job = (bd_fe_job *)argument;
    bd_fe_rows rows;
    if (!bd_fe_rows_make(&rows, job->picture.packed)) {
        __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    for (;;) {
        int strip = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (strip >= (int)job->strips || __atomic_load_n(&job->failed, __ATOMIC_RELAXED)) break;
        if (job->pass == 0) {
            bd_fe_count_strip(job, &rows, (uint32_t)strip);
        } else if (!bd_fe_write_strip(job, &rows, (uint32_t)strip)) {
            __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    bd_fe_rows_free(&rows);
    return NULL;
}

/// Runs the job's pass on up to `threads` threads, the calling one included (fewer when threads cannot start).
static void bd_fe_run_pass(bd_fe_job *job, int threads) {
    job->next = 0;
    pthread_t helpers[64];
    int started = 0;
    int wanted = threads < (int)job->strips ? threads : (int)job->strips;
    if (wanted > 65) wanted = 65;
    for (int t = 1; t < wanted; t++) {
        if (bd_thread_create(&helpers[started], bd_fe_work, job) != 0) break;
        started++;
    }
    bd_fe_work(job);
    for (int t = 0; t < started; t++) pthread_join(helpers[t], NULL);
}

int bd_png_fast_encoder_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               int drop_alpha, int threads, int vector, const uint8_t *colour, size_t colour_size,
                               uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (width == 0 || height == 0 || width > 0x7fffffffu / 4) return -1;
    bd_fe_job job;
    memset(&job, 0, sizeof(job));
    job.picture = (bd_fe_picture){rgba, row_bytes, (size_t)width * (drop_alpha ? 3 : 4), width, height,
                                  drop_alpha ? 3 : 4, vector && bd_vector_kernels_available()};
    size_t n = job.picture.packed + 1;
    size_t rows_a_strip = (bd_fe_strip_bytes + n - 1) / n;
    job.strip_rows = rows_a_strip > height ? height : (uint32_t)rows_a_strip;
    job.strips = (height + job.strip_rows - 1) / job.strip_rows;
    job.sample_step = height < 64 ? 1 : bd_fe_sample_step;
    job.counts = calloc(job.strips, sizeof(job.counts[0]));
    job.streams = calloc(job.strips, sizeof(uint8_t *));
    job.sizes = calloc(job.strips, sizeof(size_t));
    job.adlers = calloc(job.strips, sizeof(uint32_t));
    int status = -1;
    uint8_t *file = NULL, *stream = NULL;
    if (job.counts == NULL || job.streams == NULL || job.sizes == NULL || job.adlers == NULL) goto done;
    if (threads < 1) threads = 1;
    bd_fe_match_symbols(&job.code);
    job.pass = 0;
    bd_fe_run_pass(&job, threads);
    if (job.failed) goto done;
    uint64_t counts[bd_fe_symbols] = {0};
    for (uint32_t s = 0; s < job.strips; s++)
        for (int k = 0; k < bd_fe_symbols; k++) counts[k] += job.counts[s][k];
    if (!bd_fe_make_code(counts, &job.code)) goto done;
    job.pass = 1;
    bd_fe_run_pass(&job, threads);
    if (job.failed) goto done;
    // The strips are joined once, straight into the file's buffer, which the PNG's chunks are then written around.
    size_t total = 2 + 4, at = 2;
    for (uint32_t s = 0; s < job.strips; s++) total += job.sizes[s];
    const size_t offset = bd_fast_png_wrap_offset(colour, colour_size);
    file = (uint8_t *)malloc(offset + total + 16);
    if (file == NULL) goto done;
    stream = file + offset;
    stream[0] = 0x78;  // deflate, 32 KiB window; FLEVEL 0 (the fastest), check bits
    stream[1] = 0x01;
    uint32_t adler = 1;
    for (uint32_t s = 0; s < job.strips; s++) {
        memcpy(stream + at, job.streams[s], job.sizes[s]);
        at += job.sizes[s];
        uint32_t end = (s + 1) * job.strip_rows;
        size_t rows = (size_t)((end > height ? height : end) - s * job.strip_rows);
        adler = bd_adler32_combine(adler, job.adlers[s], rows * n);
    }
    for (int b = 0; b < 4; b++) stream[at++] = (uint8_t)(adler >> (24 - 8 * b));
    status = bd_fast_png_wrap_in_place(file, total, width, height, 8, drop_alpha, colour, colour_size, out_size);
    if (status == 0) {
        *out = file;
        file = NULL;
    }
done:
    free(file);
    if (job.streams != NULL)
        for (uint32_t s = 0; s < job.strips; s++) free(job.streams[s]);
    free(job.streams);
    free(job.sizes);
    free(job.adlers);
    free(job.counts);
    free(job.code.pairs);
    return status;
}
