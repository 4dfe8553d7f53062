// backdrop_fastpng.c — see backdrop_fastpng.h. PNG's container (chunks, CRCs), its row filters and their
// inverse are written here; inflate, deflate and CRC-32 are libdeflate's, but for the two-thread decode's inflate,
// which streams, and is ISA-L's.
#include "backdrop_fastpng.h"
#include "backdrop_png.h"
#include "backdrop_threads.h"
#include "png_paeth.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>

#include "backdrop_vector_kernels.h"
#endif

static uint32_t bd_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/// Four bytes as they lie in memory.
static inline uint32_t bd_load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void bd_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static const uint8_t bd_signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};

/// Walks the chunks: calls `visit` with each one, whose CRC is checked when `check_crc` is set (a walk over a file
/// already checked skips it); returns 0 at the first doubt.
typedef int (*bd_chunk_visitor)(const uint8_t *type, const uint8_t *body, uint32_t length, void *context);

static int bd_walk(const uint8_t *data, size_t size, bd_chunk_visitor visit, void *context, int check_crc) {
    if (size < 8 || memcmp(data, bd_signature, 8) != 0) return 0;
    size_t offset = 8;
    int first = 1;
    while (offset + 12 <= size) {
        uint32_t length = bd_be32(data + offset);
        if (length > 0x7fffffffu || (size_t)length + 12 > size - offset) return 0;
        const uint8_t *type = data + offset + 4;
        if (check_crc && (uint32_t)libdeflate_crc32(0, type, (size_t)length + 4) != bd_be32(data + offset + 8 + length))
            return 0;
        if (first && memcmp(type, "IHDR", 4) != 0) return 0;
        first = 0;
        if (memcmp(type, "IEND", 4) == 0) return 1;
        if (!visit(type, data + offset + 8, length, context)) return 0;
        offset += (size_t)length + 12;
    }
    return 0;  // no IEND
}

typedef struct {
    bd_png_header header;
    int channels;
    int seen_ihdr, seen_idat, idat_ended, srgb_chunks, gama_chunks, iccp_chunks;
    uint32_t gama;
    size_t idat_bytes;
} bd_scan;

static int bd_scan_chunk(const uint8_t *type, const uint8_t *body, uint32_t length, void *context) {
    bd_scan *scan = (bd_scan *)context;
    if (memcmp(type, "IHDR", 4) == 0) {
        if (length != 13 || scan->seen_ihdr) return 0;
        scan->seen_ihdr = 1;
        uint32_t width = bd_be32(body), height = bd_be32(body + 4);
        if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) return 0;
        // 8-bit, colour type 2 or 6, deflate, filter method 0, not interlaced.
        if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[10] != 0 || body[11] != 0 || body[12] != 0) return 0;
        scan->header.width = width;
        scan->header.height = height;
        scan->header.bit_depth = 8;
        scan->channels = body[9] == 6 ? 4 : 3;
        return 1;
    }
    if (memcmp(type, "IDAT", 4) == 0) {
        if (scan->idat_ended) return 0;  // IDATs must be consecutive
        scan->seen_idat = 1;
        scan->idat_bytes += length;
        return 1;
    }
    if (scan->seen_idat) scan->idat_ended = 1;
    if (memcmp(type, "tRNS", 4) == 0) return 0;  // a transparent colour: libpng's expansion
    if (memcmp(type, "sRGB", 4) == 0) {
        if (length != 1 || body[0] > 3 || scan->seen_idat) return 0;
        scan->header.has_srgb = 1;
        scan->srgb_chunks++;
        return 1;
    }
    if (memcmp(type, "gAMA", 4) == 0) {
        uint32_t value = length == 4 ? bd_be32(body) : 0;
        if (value == 0 || value > 0x7fffffffu || scan->seen_idat) return 0;
        scan->header.has_gamma = 1;
        scan->header.gamma = value / 100000.0;
        scan->gama = value;
        scan->gama_chunks++;
        return 1;
    }
    if (memcmp(type, "iCCP", 4) == 0) {
        scan->iccp_chunks++;
        return 1;
    }
    // Any other critical chunk (upper-case first letter) but PLTE, which RGB files may carry as a suggestion.
    if ((type[0] & 0x20) == 0 && memcmp(type, "PLTE", 4) != 0) return 0;
    return 1;
}

/// Every chunk of the file read and checked (CRCs included), and the fast path's conditions: 1 when it takes the file.
/// Reads the chunks' structure into `scan` (their CRCs checked when `check_crc`: `bd_chunks_sound` checks them apart,
/// where a decode overlaps the check with its inflating); 0 for a file the fast path does not take.
static int bd_read_chunks(const uint8_t *data, size_t size, bd_scan *scan, int check_crc) {
    memset(scan, 0, sizeof *scan);
    if (!bd_walk(data, size, bd_scan_chunk, scan, check_crc)) return 0;
    if (!scan->seen_ihdr || !scan->seen_idat) return 0;
    // The colour chunks libpng reads the same way as the fast path does: each at most once; sRGB with gAMA only at
    // sRGB's own 0.45455 (what Backdrop and libpng write); an ICC profile only alone.
    if (scan->srgb_chunks > 1 || scan->gama_chunks > 1 || scan->iccp_chunks > 1) return 0;
    if (scan->srgb_chunks && scan->gama_chunks && scan->gama != 45455) return 0;
    if (scan->iccp_chunks && (scan->srgb_chunks || scan->gama_chunks)) return 0;
    // A header its data cannot hold: libpng's path names the error.
    if (!bd_png_data_can_hold(scan->idat_bytes, scan->header.width, scan->header.height, 8 * scan->channels)) return 0;
    return 1;
}

static int bd_accept_chunk(const uint8_t *type, const uint8_t *body, uint32_t length, void *context) {
    (void)type, (void)body, (void)length, (void)context;
    return 1;
}

/// Whether every chunk's CRC is right (the structure `bd_read_chunks` read is taken as sound).
static int bd_chunks_sound(const uint8_t *data, size_t size) { return bd_walk(data, size, bd_accept_chunk, NULL, 1); }

int bd_fast_png_header(const uint8_t *data, size_t size, bd_png_header *header) {
    bd_scan scan;
    if (!bd_read_chunks(data, size, &scan, 0)) return 0;
    *header = scan.header;
    return 1;
}

typedef struct {
    size_t skip, wanted;
    uint8_t *out;
} bd_stream_read;

static int bd_read_stream_idat(const uint8_t *type, const uint8_t *body, uint32_t length, void *context) {
    if (memcmp(type, "IDAT", 4) != 0) return 1;
    bd_stream_read *read = (bd_stream_read *)context;
    if (read->skip >= length) {
        read->skip -= length;
        return 1;
    }
    size_t take = length - read->skip < read->wanted ? length - read->skip : read->wanted;
    memcpy(read->out, body + read->skip, take);
    read->out += take;
    read->wanted -= take;
    read->skip = 0;
    return read->wanted > 0;  // 0 ends the walk once every byte is read
}

/// Copies `count` bytes of the zlib stream (the IDATs' payloads joined) from `offset` on; 0 when it has fewer.
static int bd_stream_bytes(const uint8_t *data, size_t size, size_t offset, uint8_t *out, size_t count) {
    bd_stream_read read = {offset, count, out};
    bd_walk(data, size, bd_read_stream_idat, &read, 0);  // the structure is read; the CRCs are checked apart
    return read.wanted == 0;
}

#if defined(__SSE2__)
/// One pixel of Paeth's inverse in 16-bit lanes: `x` the filtered pixel, `a` left, `b` up, `c` up-left (all
/// unfiltered); the same arithmetic as `bd_paeth`, ties broken the same way (a, then b).
static inline __attribute__((always_inline)) __m128i bd_unpaeth_pixel(__m128i x, __m128i a, __m128i b, __m128i c) {
    const __m128i zero = _mm_setzero_si128();
    __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);  // p − a = b − c, p − b = a − c
    __m128i pc = _mm_add_epi16(pa, pb);
    pa = _mm_max_epi16(pa, _mm_sub_epi16(zero, pa));
    pb = _mm_max_epi16(pb, _mm_sub_epi16(zero, pb));
    pc = _mm_max_epi16(pc, _mm_sub_epi16(zero, pc));
    __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
    __m128i take_a = _mm_cmpeq_epi16(smallest, pa), take_b = _mm_cmpeq_epi16(smallest, pb);
    __m128i nearest = _mm_or_si128(_mm_and_si128(take_a, a),
                                   _mm_andnot_si128(take_a, _mm_or_si128(_mm_and_si128(take_b, b), _mm_andnot_si128(take_b, c))));
    return _mm_and_si128(_mm_add_epi16(x, nearest), _mm_set1_epi16(0xff));
}

/// A pixel as four 16-bit lanes. Always reads four bytes (the caller pads the buffer): for three-byte pixels the
/// fourth lane holds the next pixel's first byte, carried along and never stored. A narrower load would go through
/// memory and stall the chain of dependent pixels.
static inline __attribute__((always_inline)) __m128i bd_load_pixel(const uint8_t *p) {
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)bd_load32(p)), _mm_setzero_si128());
}

static inline __attribute__((always_inline)) void bd_store_pixel(uint8_t *p, __m128i x, const int bpp) {
    uint32_t v = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(x, x));
    if (bpp == 4) {
        memcpy(p, &v, 4);
    } else {
        uint16_t low = (uint16_t)v;
        memcpy(p, &low, 2);
        p[2] = (uint8_t)(v >> 16);
    }
}

/// Steps `from`..<`to` of Paeth's inverse over `count` consecutive rows, `stride` bytes apart (each row's filter byte
/// before it), the first row's prior at `prior`; `a` and `c` hold each row's left and up-left pixels between calls. A
/// pixel depends on the one to its left, so one row is a chain of dependent steps; the rows are worked on together,
/// each one pixel behind the row above it (whose pixels it reads), so that their chains overlap in the processor.
/// Photographs are mostly Paeth-filtered, and this loop was most of their decode.
static inline __attribute__((always_inline)) void bd_unpaeth_steps(uint8_t *first, const uint8_t *prior, size_t stride,
                                                                   int count, size_t pixels, const int bpp,
                                                                   size_t from, size_t to, __m128i a[4], __m128i c[4]) {
    // Row j at pixel step − j; `j < count` and the range test are the prologue and epilogue of the wavefront. The
    // pixel above row j's is the one row j − 1 made in the step before, still in its `a`: rows go from the last to
    // the first, so only the first row reads the row above from memory (a read of a pixel just stored would wait).
#define BD_STEP(j, above)                                                                       \
    if ((j) < count && step >= (size_t)(j) && step - (size_t)(j) < pixels) {                    \
        const size_t offset = (step - (size_t)(j)) * (size_t)bpp;                               \
        uint8_t *row = first + (size_t)(j) * stride;                                            \
        __m128i b = (above);                                                                    \
        __m128i x = bd_unpaeth_pixel(bd_load_pixel(row + offset), a[j], b, c[j]);               \
        bd_store_pixel(row + offset, x, bpp);                                                   \
        a[j] = x;                                                                               \
        c[j] = b;                                                                               \
    }
    for (size_t step = from; step < to; step++) {
        BD_STEP(3, a[2])
        BD_STEP(2, a[1])
        BD_STEP(1, a[0])
        BD_STEP(0, bd_load_pixel(prior + step * (size_t)bpp))
    }
#undef BD_STEP
}

/// Paeth's inverse over `count` (1–4) consecutive rows of `n` bytes (``bd_unpaeth_steps``).
static inline __attribute__((always_inline)) void bd_unpaeth_rows(uint8_t *first, const uint8_t *prior, size_t stride,
                                                                  int count, size_t n, const int bpp) {
    __m128i a[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    __m128i c[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    const size_t pixels = n / (size_t)bpp;
    bd_unpaeth_steps(first, prior, stride, count, pixels, bpp, 0, pixels + (size_t)count - 1, a, c);
}
#endif

#if defined(__x86_64__)
// The AVX2 (x86-64-v3) forms of the two loops a photograph's decode spends its time in: Paeth's inverse and the
// expansion of RGB to RGBA. They compute what the loops above and `bd_expand_row` compute, byte for byte
// (`PNGPipelinedDecodingTests` decodes every filter both ways); `bd_png_vector` says whether they run.

/// `bd_unpaeth_pixel` over four pixels at once, one a 64-bit group of 16-bit lanes.
__attribute__((target("avx2"))) static inline __m256i bd_unpaeth4_v3(__m256i x, __m256i a, __m256i b, __m256i c) {
    __m256i pa = _mm256_sub_epi16(b, c), pb = _mm256_sub_epi16(a, c);  // p − a = b − c, p − b = a − c
    const __m256i pc = _mm256_abs_epi16(_mm256_add_epi16(pa, pb));
    pa = _mm256_abs_epi16(pa);
    pb = _mm256_abs_epi16(pb);
    // a when pa ≤ pb and pa ≤ pc, else b when pb ≤ pc, else c: bd_paeth's order of ties.
    const __m256i b_or_c = _mm256_blendv_epi8(b, c, _mm256_cmpgt_epi16(pb, pc));
    const __m256i nearest = _mm256_blendv_epi8(a, b_or_c, _mm256_cmpgt_epi16(pa, _mm256_min_epi16(pb, pc)));
    return _mm256_and_si256(_mm256_add_epi16(x, nearest), _mm256_set1_epi16(0xff));
}

/// `bd_unpaeth_rows` over four rows of `pixels` (at least 3) pixels, the four rows' pixels of a step in one vector:
/// group j holds row j's pixel step − j, as in the wavefront above, so that the pixel above row j's is group j − 1
/// of the step before (a lane permute, not a load) and one chain of vector steps does the work of four chains of
/// pixel steps. The wavefront's first and last three steps, where some rows have no pixel, run as above.
__attribute__((target("avx2"))) static void bd_unpaeth_rows4_v3(uint8_t *first, const uint8_t *prior, size_t stride,
                                                                size_t pixels, const int bpp) {
    __m128i a[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    __m128i c[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
    bd_unpaeth_steps(first, prior, stride, 4, pixels, bpp, 0, 3, a, c);
    // Each row's left pixel (its last result) and up-left pixel (the last pixel above it), in groups.
    __m256i left = _mm256_set_m128i(_mm_unpacklo_epi64(a[2], a[3]), _mm_unpacklo_epi64(a[0], a[1]));
    __m256i up_left = _mm256_set_m128i(_mm_unpacklo_epi64(c[2], c[3]), _mm_unpacklo_epi64(c[0], c[1]));
    uint8_t *rows[4] = {first, first + stride, first + 2 * stride, first + 3 * stride};
    const size_t step_bytes = (size_t)bpp;
    for (size_t step = 3; step < pixels; step++) {
        const size_t at = step * step_bytes;
        // Four bytes a pixel read, as bd_load_pixel does (the fourth of an RGB pixel is carried, never stored).
        __m128i filtered = _mm_cvtsi32_si128((int)bd_load32(rows[0] + at));
        filtered = _mm_insert_epi32(filtered, (int)bd_load32(rows[1] + at - step_bytes), 1);
        filtered = _mm_insert_epi32(filtered, (int)bd_load32(rows[2] + at - 2 * step_bytes), 2);
        filtered = _mm_insert_epi32(filtered, (int)bd_load32(rows[3] + at - 3 * step_bytes), 3);
        const __m256i above_first = _mm256_cvtepu8_epi16(_mm_cvtsi32_si128((int)bd_load32(prior + at)));
        const __m256i up = _mm256_blend_epi32(_mm256_permute4x64_epi64(left, _MM_SHUFFLE(2, 1, 0, 0)), above_first, 0x03);
        left = bd_unpaeth4_v3(_mm256_cvtepu8_epi16(filtered), left, up, up_left);
        up_left = up;
        const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(left), _mm256_extracti128_si256(left, 1));
        const uint32_t p0 = (uint32_t)_mm_cvtsi128_si32(bytes), p1 = (uint32_t)_mm_extract_epi32(bytes, 1);
        const uint32_t p2 = (uint32_t)_mm_extract_epi32(bytes, 2), p3 = (uint32_t)_mm_extract_epi32(bytes, 3);
        if (bpp == 4) {
            memcpy(rows[0] + at, &p0, 4);
            memcpy(rows[1] + at - 4, &p1, 4);
            memcpy(rows[2] + at - 8, &p2, 4);
            memcpy(rows[3] + at - 12, &p3, 4);
        } else {  // three bytes: the fourth is the next pixel's, still filtered
            memcpy(rows[0] + at, &p0, 2), rows[0][at + 2] = (uint8_t)(p0 >> 16);
            memcpy(rows[1] + at - 3, &p1, 2), rows[1][at - 1] = (uint8_t)(p1 >> 16);
            memcpy(rows[2] + at - 6, &p2, 2), rows[2][at - 4] = (uint8_t)(p2 >> 16);
            memcpy(rows[3] + at - 9, &p3, 2), rows[3][at - 7] = (uint8_t)(p3 >> 16);
        }
    }
    const __m128i low_left = _mm256_castsi256_si128(left), high_left = _mm256_extracti128_si256(left, 1);
    const __m128i low_up_left = _mm256_castsi256_si128(up_left), high_up_left = _mm256_extracti128_si256(up_left, 1);
    a[0] = low_left, a[1] = _mm_srli_si128(low_left, 8), a[2] = high_left, a[3] = _mm_srli_si128(high_left, 8);
    c[0] = low_up_left, c[1] = _mm_srli_si128(low_up_left, 8), c[2] = high_up_left;
    c[3] = _mm_srli_si128(high_up_left, 8);
    bd_unpaeth_steps(first, prior, stride, 4, pixels, bpp, pixels, pixels + 3, a, c);
}

/// `bd_expand_row` for RGB, four pixels a shuffle. Reads up to four bytes past the row (the decode buffer's slack,
/// or the next row). In place, `row` must lie at least `width` bytes after `out` (the decode's layout: filtered row
/// y starts W·(H − y) + y + 1 bytes after RGBA row y), so that no store reaches bytes not yet read.
__attribute__((target("avx2"))) static void bd_expand_rgb_v3(uint8_t *out, const uint8_t *row, size_t width) {
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i opaque = _mm_set1_epi32((int)0xff000000u);
    size_t x = 0;
    for (; x + 4 <= width; x += 4) {
        const __m128i pixels = _mm_loadu_si128((const __m128i *)(const void *)(row + 3 * x));
        _mm_storeu_si128((__m128i *)(void *)(out + 4 * x), _mm_or_si128(_mm_shuffle_epi8(pixels, spread), opaque));
    }
    for (; x < width; x++) {
        out[4 * x] = row[3 * x];
        out[4 * x + 1] = row[3 * x + 1];
        out[4 * x + 2] = row[3 * x + 2];
        out[4 * x + 3] = 255;
    }
}
#endif

/// Whether the AVX2 loops run: 1 when `vector` asks for them and the processor has them.
static int bd_png_vector(int vector) {
#if defined(__x86_64__)
    return vector && bd_vector_kernels_available();
#else
    (void)vector;
    return 0;
#endif
}

/// Undoes one row's filter in place: `row` holds `n` filtered bytes, `prior` the previous row's unfiltered bytes
/// (zeros for the first row), `bpp` bytes a pixel. Returns 0 for an unknown filter type.
static int bd_unfilter(int type, uint8_t *row, const uint8_t *prior, size_t n, int bpp) {
    size_t i;
    switch (type) {
    case 0:
        return 1;
    case 1:
        for (i = (size_t)bpp; i < n; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        for (i = 0; i < n; i++) row[i] = (uint8_t)(row[i] + prior[i]);
        return 1;
    case 3:
        for (i = 0; i < (size_t)bpp; i++) row[i] = (uint8_t)(row[i] + (prior[i] >> 1));
        for (; i < n; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + prior[i]) >> 1));
        return 1;
    case 4:
        for (i = 0; i < (size_t)bpp; i++) row[i] = (uint8_t)(row[i] + prior[i]);
        for (; i < n; i++) row[i] = (uint8_t)(row[i] + bd_paeth(row[i - bpp], prior[i], prior[i - bpp]));
        return 1;
    default:
        return 0;
    }
}

/// One unfiltered row to RGBA8 (alpha 255 for RGB); by `bd_expand_rgb_v3` when `vector` (``bd_png_vector``).
static void bd_expand_row(uint8_t *out, const uint8_t *row, size_t width, int channels, int vector) {
    if (channels == 4) {
        memmove(out, row, width * 4);  // in place, `out` may overlap `row`
        return;
    }
#if defined(__x86_64__)
    if (vector) {
        bd_expand_rgb_v3(out, row, width);
        return;
    }
#endif
    for (size_t x = 0; x < width; x++) {
        out[4 * x] = row[3 * x];
        out[4 * x + 1] = row[3 * x + 1];
        out[4 * x + 2] = row[3 * x + 2];
        out[4 * x + 3] = 255;
    }
}

/// The IDAT payload of a file whose chunks `scan` has read (and so are known to be sound): the whole zlib stream.
static size_t bd_gather_idat(const uint8_t *data, size_t size, const bd_scan *scan, uint8_t **idat) {
    *idat = (uint8_t *)malloc(scan->idat_bytes ? scan->idat_bytes : 1);
    if (*idat == NULL) return 0;
    return bd_stream_bytes(data, size, 0, *idat, scan->idat_bytes) ? scan->idat_bytes : 0;
}

size_t bd_fast_png_idat(const uint8_t *data, size_t size, uint8_t **idat) {
    bd_scan scan;
    *idat = NULL;
    if (!bd_read_chunks(data, size, &scan, 1)) return 0;
    return bd_gather_idat(data, size, &scan, idat);
}

size_t bd_fast_png_raw_size(uint32_t width, uint32_t height, int channels) {
    const size_t stride = (size_t)width * (size_t)channels;
    const size_t inflated = (size_t)height * (stride + 1);
    return inflated / height == stride + 1 ? inflated : 0;
}

int bd_fast_png_inflate(const uint8_t *idat, size_t idat_size, uint8_t *raw, size_t raw_size) {
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (inflater == NULL) return 0;
    size_t taken = 0, produced = 0;
    // Bytes after the stream's end are an error, as on two threads (libdeflate alone would ignore them).
    int ok = libdeflate_zlib_decompress_ex(inflater, idat, idat_size, raw, raw_size, &taken, &produced)
                 == LIBDEFLATE_SUCCESS
             && produced == raw_size && taken == idat_size;
    libdeflate_free_decompressor(inflater);
    return ok;
}

/// Undoes the filter of row `y` of `raw` in place, or of up to four Paeth rows from `y` together (four by
/// `bd_unpaeth_rows4_v3` when `vector`, ``bd_png_vector``); returns how many rows it did (0 for an unknown filter
/// type). The rows above are already unfiltered.
static size_t bd_unfilter_step(uint8_t *raw, size_t y, size_t height, size_t stride, int channels, int vector) {
    uint8_t *row = raw + y * (stride + 1) + 1;
#if defined(__SSE2__)
    // Up to four Paeth rows in a row, together (below the first row, which has no row above).
    int paeth_rows = 0;
    while (y && paeth_rows < 4 && y + (size_t)paeth_rows < height && row[(size_t)paeth_rows * (stride + 1) - 1] == 4)
        paeth_rows++;
    if (paeth_rows) {
        const uint8_t *above = row - (stride + 1);
#if defined(__x86_64__)
        if (vector && paeth_rows == 4 && stride / (size_t)channels >= 3) {
            bd_unpaeth_rows4_v3(row, above, stride + 1, stride / (size_t)channels, channels);
            return 4;
        }
#endif
        if (channels == 3) bd_unpaeth_rows(row, above, stride + 1, paeth_rows, stride, 3);
        else bd_unpaeth_rows(row, above, stride + 1, paeth_rows, stride, 4);
        return (size_t)paeth_rows;
    }
#endif
    static const uint8_t zeros[8] = {0};
    if (y == 0) {
        // The first row has no row above: up and Paeth read zeros.
        int type = row[-1] == 2 ? 0 : row[-1] == 4 ? 1 : row[-1];
        if (row[-1] == 3) {  // average of the left neighbour and zero
            for (size_t i = (size_t)channels; i < stride; i++) row[i] = (uint8_t)(row[i] + (row[i - channels] >> 1));
            type = 0;
        }
        return bd_unfilter(type, row, zeros, stride, channels) ? 1 : 0;
    }
    return bd_unfilter(row[-1], row, row - (stride + 1), stride, channels) ? 1 : 0;
}

int bd_fast_png_unfilter(uint8_t *raw, uint32_t width, uint32_t height, int channels) {
    const size_t stride = (size_t)width * (size_t)channels;
    const int vector = bd_png_vector(1);
    for (size_t y = 0; y < height;) {
        size_t done = bd_unfilter_step(raw, y, height, stride, channels, vector);
        if (done == 0) return 0;
        y += done;
    }
    return 1;
}

void bd_fast_png_expand(const uint8_t *raw, uint32_t width, uint32_t height, int channels, uint8_t *rgba,
                        size_t row_bytes) {
    const size_t stride = (size_t)width * (size_t)channels;
    const int vector = bd_png_vector(1);
    for (size_t y = 0; y < height; y++)
        bd_expand_row(rgba + y * row_bytes, raw + y * (stride + 1) + 1, width, channels, vector);
}

size_t bd_fast_png_decode_capacity(uint32_t width, uint32_t height) {
    const size_t pixels = (size_t)width * (size_t)height;
    if (height != 0 && pixels / height != width) return 0;
    const size_t bytes = 4 * pixels + (size_t)height + 4;
    return bytes / 4 < pixels ? 0 : bytes;
}

/// The decode on one thread: the whole stream inflated by libdeflate into the buffer's end, then unfiltered and
/// expanded.
static int bd_decode_whole(const uint8_t *data, size_t size, const bd_scan *scan, uint8_t *raw, uint8_t *rgba,
                           size_t inflated, int vector) {
    const size_t width = scan->header.width, height = scan->header.height, stride = width * (size_t)scan->channels;
    const size_t row_bytes = 4 * width;
    const int channels = scan->channels;
    uint8_t *idat = NULL;
    size_t idat_size = bd_gather_idat(data, size, scan, &idat);
    int ok = idat != NULL && bd_fast_png_inflate(idat, idat_size, raw, inflated);
    free(idat);
    // A step of rows is unfiltered (it reads the filtered row above it), then the step before it is expanded: one
    // step behind, so that the row above is still there when the next step reads it. Expanding a row moves its bytes
    // towards the start of the buffer, each written no later than it is read.
    size_t expanded = 0;
    for (size_t y = 0; ok && y < height;) {
        size_t done = bd_unfilter_step(raw, y, height, stride, channels, vector);
        ok = done > 0;
        for (; ok && expanded < y; expanded++)
            bd_expand_row(rgba + expanded * row_bytes, raw + expanded * (stride + 1) + 1, width, channels, vector);
        y += done;
    }
    for (; ok && expanded < height; expanded++)
        bd_expand_row(rgba + expanded * row_bytes, raw + expanded * (stride + 1) + 1, width, channels, vector);
    return ok;
}

// The decode on two threads. The inflater (ISA-L, streaming, on a thread of its own) writes the filtered rows in
// order and publishes how many bytes the unfilterer may have; the unfilterer (the calling thread) undoes the filters
// of the rows it has, in place, and expands them to RGBA8 a step behind, as bd_decode_whole does. Deflate's matches
// copy from the last 32 KiB of output. ISA-L keeps that window in its own state between calls (a probe that handed
// over every byte at once decoded right), but does not document it: the unfilterer, which rewrites the rows, is
// handed only the bytes before the window until the deflate data has ended with the trailer where it belongs, then
// all of them. The unfilterer sums the Adler-32 of what it is handed before changing it, and the sum is compared with
// the trailer after both finish. Either side's failure (a bad stream, an unknown filter type) stops both.
//
// One thread keeps libdeflate: on one core ISA-L was no faster (the wallpaper, decoded in steps: 18.3 against 18.9
// ms) and slower on streams of many literals (a 1024 × 1024 crop of it written by libvips: 7.2 against 6.6 ms to
// inflate). ISA-L's AVX-512 code also returns with the vector registers' upper halves in use, which made the SSE
// unfiltering after it on the same thread 7 ms slower until a `vzeroupper`: the inflater's thread runs nothing else.

/// The inflater's output a call, and so the hand-over's step: 128 KiB.
enum { bd_inflate_step = 128 * 1024 };

/// The window of deflate's matches, which the inflater reads back: the bytes the unfilterer must leave alone.
enum { bd_inflate_window = ISAL_DEF_HIST_SIZE };

/// When the decode takes two threads: from 4 MiB of filtered rows (about 1200 × 1200 RGB), and only for a stream
/// under half their size. The second thread pays when unfiltering costs about what inflating does, as for a
/// photograph's Paeth rows compressed to a third or so: the wallpaper (9.4 MB of rows, a stream of 0.28 of that)
/// decoded in 19.0 ms on one thread and 12.2 on two (medians of 101 in-process decodes), the 10000 × 10000 picture
/// (0.35) in 1 201 and 1 086 ms. A stream of mostly literals is nearly all inflate, which ISA-L does more
/// slowly than libdeflate: crops of the wallpaper that libvips wrote unfiltered, a stream of 0.69 of their rows, took
/// longer on two threads (1448 × 1448: 18.7 against 14.4 ms; 1024 × 1024, 3 MB: 8.7 against 7.0 ms; 512 × 512: 1.8
/// against 1.5 ms, the least of 61).
enum { bd_pipeline_threshold = 4 * 1024 * 1024 };

/// How often the unfilterer checks for new rows (a `pause` between checks, a few microseconds in all) before it
/// sleeps: the inflater hands over a step every 0.1 ms or so, and 2048 checks cost the 10000 × 10000 decode a third
/// more processor time in the unfilterer (858 against 623 ms, most of it spinning).
enum { bd_wait_spins = 64 };

/// How far ahead of the inflater the waiting unfilterer faults in the rows' pages, and how much a call. A fresh
/// buffer's first write costs a page fault and the page's clearing; on the 10000 × 10000 picture (400 MB of rows) they
/// were a quarter of the inflater's time (925 against 698 ms for ISA-L alone on a populated buffer), while the
/// unfilterer, which keeps up easily, mostly waited. So it populates (`MADV_POPULATE_WRITE`, Linux 5.14: the same as
/// writing, without changing a byte, safe beside the inflater's writes) the pages the inflater reaches next instead.
enum { bd_populate_lead = 16 * 1024 * 1024, bd_populate_step = 2 * 1024 * 1024 };
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

typedef struct {
    // The picture, read by both sides.
    const uint8_t *data;
    size_t size;
    uint8_t *rgba, *raw;
    size_t width, height, stride, inflated;
    int channels;
    int vector;  // bd_png_vector
    // The inflater's: the zlib stream's bytes seen (its 2-byte header, then the deflate data ISA-L takes, raw), and
    // its Adler-32 from the trailer once the deflate data has ended.
    struct inflate_state *inflater;
    size_t written, stream_bytes, idat_bytes;
    uint8_t zlib_header[2];
    uint32_t expected_adler;
    int finished;
    // The unfilterer's: the next row to unfilter, and to expand; the end of the rows' pages it has populated; the
    // Adler-32 of the rows' bytes so far, and how many it covers (taken before those bytes are unfiltered in place).
    size_t next_row, expanded, populated, summed;
    uint32_t adler;
    // Between the two: the bytes the unfilterer may have (sequentially consistent stores and loads, paired with
    // `sleeping`, so that a publication either is seen or wakes the sleeper), and whether either side failed.
    _Atomic size_t published;
    _Atomic int failed, sleeping;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} bd_pipeline;

static void bd_wake(bd_pipeline *p) {
    if (atomic_load(&p->sleeping)) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
}

static void bd_fail(bd_pipeline *p) {
    atomic_store(&p->failed, 1);
    bd_wake(p);
}

/// Unfilters and expands the rows wholly within the first `available` bytes; 0 for an unknown filter type.
static int bd_unfilter_available(bd_pipeline *p, size_t available) {
    const size_t row_size = p->stride + 1, rows = available / row_size, row_bytes = 4 * p->width;
    // The stream's Adler-32 is the unfilterer's to compute (the inflater's thread is the decode's slower side):
    // over the bytes as inflated, before any of them is unfiltered or overwritten by an expanded row.
    if (available > p->summed) {
        p->adler = (uint32_t)libdeflate_adler32(p->adler, p->raw + p->summed, available - p->summed);
        p->summed = available;
    }
    size_t y = p->next_row, expanded = p->expanded;
    while (y < rows) {
        // `rows` as the height: a step of Paeth rows never reads a row not yet handed over.
        size_t done = bd_unfilter_step(p->raw, y, rows, p->stride, p->channels, p->vector);
        if (done == 0) return 0;
        for (; expanded < y; expanded++)
            bd_expand_row(p->rgba + expanded * row_bytes, p->raw + expanded * row_size + 1, p->width, p->channels,
                          p->vector);
        y += done;
    }
    if (y == p->height) {
        for (; expanded < p->height; expanded++)
            bd_expand_row(p->rgba + expanded * row_bytes, p->raw + expanded * row_size + 1, p->width, p->channels,
                          p->vector);
    }
    p->next_row = y;
    p->expanded = expanded;
    return 1;
}

/// The inflater's hand-over of its first `bytes` bytes.
static void bd_publish(bd_pipeline *p, size_t bytes) {
    atomic_store(&p->published, bytes);
    bd_wake(p);
}

/// Inflates the input the inflater holds, a step of output a call; 0 when the stream or the unfilterer failed, or
/// when bytes follow the stream's end.
static int bd_inflate_input(bd_pipeline *p) {
    struct inflate_state *s = p->inflater;
    for (;;) {
        if (atomic_load_explicit(&p->failed, memory_order_relaxed)) return 0;
        if (p->finished) return 1;  // the trailer's bytes: their count was checked at the end of the deflate data
        // The next step, and past the rows the buffer's 4 bytes of padding: a byte there is a stream too long.
        size_t room = p->inflated + 4 - p->written;
        if (room > bd_inflate_step) room = bd_inflate_step;
        s->next_out = p->raw + p->written;
        s->avail_out = (uint32_t)room;
        const uint32_t input = s->avail_in;
        int status = isal_inflate(s);
        const size_t before = p->written;
        p->written = (size_t)(s->next_out - p->raw);
        if (status != ISAL_DECOMP_OK || p->written > p->inflated) return 0;
        // No input taken and no output made: a stream ISA-L would never finish (never seen; a guard against a hang).
        if (p->written == before && s->avail_in == input && s->block_state != ISAL_BLOCK_FINISH && input != 0) return 0;
        if (s->block_state == ISAL_BLOCK_FINISH) {
            // The deflate data ends where ISA-L stopped reading, less the whole bytes it read ahead into its bit
            // buffer (what is left of the last byte is padding): the Adler-32 must be the 4 bytes after it, and the
            // stream's last.
            const size_t end = p->stream_bytes - s->avail_in - (size_t)(s->read_in_length / 8);
            if (p->written != p->inflated || end + 4 != p->idat_bytes) return 0;
            uint8_t trailer[4];
            if (!bd_stream_bytes(p->data, p->size, end, trailer, 4)) return 0;
            p->expected_adler = bd_be32(trailer);
            p->finished = 1;
            bd_publish(p, p->inflated);
            return 1;
        }
        if (p->written > bd_inflate_window) bd_publish(p, p->written - bd_inflate_window);
        if (s->avail_in == 0 && s->avail_out != 0) return 1;  // wants the next IDAT
    }
}

static int bd_inflate_idat(const uint8_t *type, const uint8_t *body, uint32_t length, void *context) {
    if (memcmp(type, "IDAT", 4) != 0) return 1;
    bd_pipeline *p = (bd_pipeline *)context;
    // The zlib header (RFC 1950 2.2), which may span IDATs: deflate, a window of at most 32 KiB, no preset
    // dictionary, its check bits right; libdeflate asks the same of a stream on one thread.
    while (p->stream_bytes < 2 && length > 0) {
        p->zlib_header[p->stream_bytes++] = *body++;
        length--;
        if (p->stream_bytes == 2) {
            const unsigned cmf = p->zlib_header[0], flg = p->zlib_header[1];
            if ((cmf & 15) != 8 || (cmf >> 4) > 7 || (flg & 32) != 0 || (cmf * 256 + flg) % 31 != 0) return 0;
        }
    }
    p->stream_bytes += length;
    p->inflater->next_in = (uint8_t *)body;
    p->inflater->avail_in = length;
    return bd_inflate_input(p);
}

/// The inflater: every IDAT in turn, then whatever ISA-L still holds; a stream that has not ended is an error.
static int bd_inflate_all(bd_pipeline *p) {
    if (!bd_walk(p->data, p->size, bd_inflate_idat, p, 0)) return 0;  // the CRCs: the unfilterer checks them
    if (!p->finished) {
        p->inflater->avail_in = 0;
        if (!bd_inflate_input(p)) return 0;
    }
    return p->finished;
}

static void *bd_inflater_thread(void *context) {
    bd_pipeline *p = (bd_pipeline *)context;
    if (!bd_inflate_all(p)) bd_fail(p);
    return NULL;
}

/// Populates the next step of the rows' pages when they are less than `bd_populate_lead` ahead of `available` (the
/// inflater is at most a step and a window further): 1 when it did, 0 when there is nothing to do (or the kernel
/// cannot, which ends the populating). Only the pages wholly inside the rows are touched.
static int bd_populate_ahead(bd_pipeline *p, size_t available) {
    if (p->populated >= p->inflated || p->populated >= available + bd_populate_lead) return 0;
    static _Atomic long page_size = 0;  // the kernel's page (4 KiB here; 16 or 64 KiB on some arm64 kernels)
    long size = atomic_load_explicit(&page_size, memory_order_relaxed);
    if (size <= 0) {
        size = sysconf(_SC_PAGESIZE);
        if (size <= 0) size = 4096;
        atomic_store_explicit(&page_size, size, memory_order_relaxed);
    }
    const uintptr_t page = (uintptr_t)size, start = (uintptr_t)p->raw;
    uintptr_t from = (start + p->populated + page - 1) & ~(page - 1);
    size_t end = p->populated + bd_populate_step;
    if (end > p->inflated) end = p->inflated;
    uintptr_t to = (start + end) & ~(page - 1);
    p->populated = end;
    if (to > from && madvise((void *)from, to - from, MADV_POPULATE_WRITE) != 0) p->populated = p->inflated;
    return 1;
}

/// The unfilterer's wait for at least `needed` bytes: a few checks, the pages the inflater writes next populated,
/// then sleep until the inflater wakes it. Returns the bytes published, or 0 when either side failed.
static size_t bd_wait(bd_pipeline *p, size_t needed) {
    for (int spin = 0; spin < bd_wait_spins; spin++) {
        size_t available = atomic_load_explicit(&p->published, memory_order_acquire);
        if (available >= needed) return available;
        if (atomic_load_explicit(&p->failed, memory_order_relaxed)) return 0;
        if (bd_populate_ahead(p, available)) spin = 0;
#if defined(__SSE2__)
        _mm_pause();
#endif
    }
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->sleeping, 1);
    size_t available;
    while ((available = atomic_load(&p->published)) < needed && !atomic_load(&p->failed))
        pthread_cond_wait(&p->wake, &p->lock);
    atomic_store(&p->sleeping, 0);
    pthread_mutex_unlock(&p->lock);
    return atomic_load(&p->failed) ? 0 : available;
}

/// The unfilterer on the calling thread while the inflater runs on another: 1 when both finished, 0 when either
/// failed, -1 when no thread could be started (nothing done yet).
static int bd_decode_on_two_threads(bd_pipeline *p) {
    pthread_t inflater;
    if (pthread_mutex_init(&p->lock, NULL) != 0) return -1;
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        return -1;
    }
    if (bd_thread_create(&inflater, bd_inflater_thread, p) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        return -1;
    }
    // The chunks' CRCs (2.6 MB of the wallpaper's file), checked here while the inflater starts, not before it.
    if (!bd_chunks_sound(p->data, p->size)) bd_fail(p);
    const size_t row_size = p->stride + 1;
    while (p->next_row < p->height) {
        size_t available = bd_wait(p, (p->next_row + 1) * row_size);
        if (available == 0) break;
        if (!bd_unfilter_available(p, available)) {
            bd_fail(p);
            break;
        }
    }
    pthread_join(inflater, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    return !atomic_load(&p->failed) && p->finished && p->expanded == p->height && p->summed == p->inflated
           && p->adler == p->expected_adler;
}

/// Whether two threads pay for `filtered_bytes` of filtered rows in a stream of `stream_bytes`: as
/// `bd_pipeline_threshold` says, on a machine of two cores or more.
static int bd_pipeline_worthwhile(size_t filtered_bytes, size_t stream_bytes) {
    static _Atomic long cores = 0;
    long count = atomic_load_explicit(&cores, memory_order_relaxed);
    if (count == 0) {
        count = sysconf(_SC_NPROCESSORS_ONLN);
        atomic_store_explicit(&cores, count, memory_order_relaxed);
    }
    return filtered_bytes >= bd_pipeline_threshold && stream_bytes < filtered_bytes / 2 && count >= 2;
}

int bd_fast_png_decode_kernels(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity, int threads,
                               int vector) {
    bd_scan scan;
    if (!bd_read_chunks(data, size, &scan, 0)) return 0;
    const size_t inflated = bd_fast_png_raw_size(scan.header.width, scan.header.height, scan.channels);
    if (inflated == 0 || capacity < bd_fast_png_decode_capacity(scan.header.width, scan.header.height)) return 0;
    // The filtered rows are inflated into the end of the picture's own buffer (4 bytes of slack after them: pixels
    // are read four bytes at a time) and expanded towards its start: for RGB they start W·H bytes in, for RGBA at 0,
    // and either way RGBA row y ends at or before filtered row y + 1 begins, so writing row y destroys only rows
    // already done. No second picture-sized buffer, none of its page faults.
    uint8_t *raw = rgba + capacity - 4 - inflated;
    if (threads == 0) threads = bd_pipeline_worthwhile(inflated, scan.idat_bytes) ? 2 : 1;
    // ISA-L's counts are 32-bit: rows beyond them (over 4 GiB, more than a gigapixel) are decoded on one thread.
    if (threads < 2 || inflated > (size_t)UINT32_MAX - 2 * bd_inflate_step)
        return bd_chunks_sound(data, size) && bd_decode_whole(data, size, &scan, raw, rgba, inflated, bd_png_vector(vector));
    bd_pipeline p;
    memset(&p, 0, sizeof p);
    p.data = data;
    p.size = size;
    p.rgba = rgba;
    p.raw = raw;
    p.width = scan.header.width;
    p.height = scan.header.height;
    p.channels = scan.channels;
    p.vector = bd_png_vector(vector);
    p.stride = p.width * (size_t)p.channels;
    p.inflated = inflated;
    atomic_init(&p.published, 0);
    atomic_init(&p.failed, 0);
    atomic_init(&p.sleeping, 0);
    p.inflater = (struct inflate_state *)malloc(sizeof *p.inflater);
    if (p.inflater == NULL) return 0;
    isal_inflate_init(p.inflater);
    p.inflater->crc_flag = ISAL_DEFLATE;  // the header is bd_inflate_idat's to check, the Adler-32 the unfilterer's
    p.idat_bytes = scan.idat_bytes;
    p.adler = 1;
    int ok = bd_decode_on_two_threads(&p);
    free(p.inflater);
    if (ok < 0) {  // no second thread
        return bd_chunks_sound(data, size) && bd_decode_whole(data, size, &scan, raw, rgba, inflated, p.vector);
    }
    return ok;
}

int bd_fast_png_decode_threads(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity, int threads) {
    return bd_fast_png_decode_kernels(data, size, rgba, capacity, threads, 1);
}

int bd_fast_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity) {
    return bd_fast_png_decode_threads(data, size, rgba, capacity, 0);
}

/// Appends a chunk (length, type, body, CRC) at `out`; returns the bytes written.
static size_t bd_put_chunk(uint8_t *out, const char *type, const uint8_t *body, uint32_t length) {
    bd_put32(out, length);
    memcpy(out + 4, type, 4);
    if (length) memmove(out + 8, body, length);
    bd_put32(out + 8 + length, (uint32_t)libdeflate_crc32(0, out + 4, (size_t)length + 4));
    return (size_t)length + 12;
}

/// One row of straight RGBA (`sample_bytes` 1 or 2, host order) packed as PNG stores it: RGB or RGBA, 16-bit samples
/// big-endian.
static void bd_pack_row(const uint8_t *source, size_t width, int channels, int sample_bytes, uint8_t *out) {
    if (sample_bytes == 1 && channels == 4) {
        memcpy(out, source, width * 4);
    } else if (sample_bytes == 1) {
        for (size_t x = 0; x < width; x++) {
            out[3 * x] = source[4 * x];
            out[3 * x + 1] = source[4 * x + 1];
            out[3 * x + 2] = source[4 * x + 2];
        }
    } else {
        size_t k = 0;
        for (size_t x = 0; x < width; x++) {
            for (int ch = 0; ch < channels; ch++) {
                uint16_t v;
                memcpy(&v, source + 8 * x + 2 * (size_t)ch, 2);
                out[k++] = (uint8_t)(v >> 8);
                out[k++] = (uint8_t)v;
            }
        }
    }
}

int bd_fast_png_filter(const uint8_t *pixels, uint32_t width, uint32_t height, int bit_depth, size_t row_bytes,
                       int drop_alpha, uint8_t *filtered) {
    const int sample_bytes = bit_depth == 16 ? 2 : 1, channels = drop_alpha ? 3 : 4, bpp = channels * sample_bytes;
    const size_t stride = (size_t)width * (size_t)bpp;
    // The row above, packed (its pixels may already be overwritten when filtering in place), and a segment of this
    // row: a row is packed and filtered a segment at a time, so the scratch is one row, not two (a 20M×1 picture
    // needed 120 MB of it, a third more memory than a 5000×4000 one of the same pixels).
    enum { segment_pixels = 16384 };
    uint8_t *previous = (uint8_t *)malloc(stride ? stride : 1);
    uint8_t *segment = (uint8_t *)malloc((size_t)segment_pixels * (size_t)bpp);
    if (previous == NULL || segment == NULL) {
        free(previous);
        free(segment);
        return 0;
    }
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = pixels + (size_t)y * row_bytes;
        uint8_t *target = filtered + (size_t)y * (stride + 1);
        for (size_t x = 0; x < width; x += segment_pixels) {
            const size_t count = width - x < segment_pixels ? width - x : segment_pixels, n = count * (size_t)bpp;
            const size_t at = x * (size_t)bpp;
            // In place, target bytes up to this segment's end never reach the source pixels not yet packed (the
            // filtered row, 3·W + 1 bytes at y·(3·W + 1), trails the RGBA row at 4·W·y): pack first, then write.
            bd_pack_row(source + x * 4 * (size_t)sample_bytes, count, channels, sample_bytes, segment);
            if (x == 0) target[0] = y ? 2 : 0;  // "up" after the first row, "none" on it
            uint8_t *out = target + 1 + at;
            if (y == 0) {
                memcpy(out, segment, n);
            } else {
                for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(segment[i] - previous[at + i]);
            }
            memcpy(previous + at, segment, n);
        }
    }
    free(previous);
    free(segment);
    return 1;
}

size_t bd_fast_png_deflate(const uint8_t *filtered, size_t filtered_size, int level, uint8_t **out) {
    *out = NULL;
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(level);
    if (deflater == NULL) return 0;
    size_t bound = libdeflate_zlib_compress_bound(deflater, filtered_size);
    uint8_t *stream = (uint8_t *)malloc(bound);
    size_t compressed = stream ? libdeflate_zlib_compress(deflater, filtered, filtered_size, stream, bound) : 0;
    libdeflate_free_compressor(deflater);
    if (compressed == 0) { free(stream); return 0; }
    *out = stream;
    return compressed;
}

/// The PNG file around one zlib stream of `filtered`: signature, IHDR, colour chunks, one IDAT, IEND.
static int bd_write_file(const uint8_t *filtered, size_t filtered_size, uint32_t width, uint32_t height,
                         int bit_depth, int drop_alpha, int level, const uint8_t *colour, size_t colour_size,
                         uint8_t **out, size_t *out_size) {
    uint8_t *stream = NULL;
    size_t compressed = bd_fast_png_deflate(filtered, filtered_size, level, &stream);
    if (compressed == 0) { free(stream); return -1; }
    int status = bd_fast_png_wrap(stream, compressed, width, height, bit_depth, drop_alpha, colour, colour_size, out,
                                  out_size);
    free(stream);
    return status;
}

size_t bd_fast_png_wrap_offset(const uint8_t *colour, size_t colour_size) {
    const size_t colour_bytes = colour != NULL ? colour_size : 13 + 16 + 44;
    return 8 + 25 + colour_bytes + 8;  // the signature, IHDR, the colour chunks, IDAT's length and type
}

int bd_fast_png_wrap_in_place(uint8_t *file, size_t compressed, uint32_t width, uint32_t height, int bit_depth,
                              int drop_alpha, const uint8_t *colour, size_t colour_size, size_t *out_size) {
    if (compressed > 0x7fffffffu) return -1;
    const size_t offset = bd_fast_png_wrap_offset(colour, colour_size);
    size_t at = 0;
    memcpy(file, bd_signature, 8);
    at = 8;
    uint8_t ihdr[13];
    bd_put32(ihdr, width); bd_put32(ihdr + 4, height);
    ihdr[8] = (uint8_t)bit_depth; ihdr[9] = drop_alpha ? 2 : 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
    at += bd_put_chunk(file + at, "IHDR", ihdr, 13);
    if (colour != NULL) {
        if (colour_size > 0) memcpy(file + at, colour, colour_size);
        at += colour_size;
    } else {
        // What png_set_sRGB_gAMA_and_cHRM(perceptual) writes: sRGB, and gAMA and cHRM for decoders without sRGB.
        const uint8_t srgb[1] = {0};
        at += bd_put_chunk(file + at, "sRGB", srgb, 1);
        uint8_t gama[4];
        bd_put32(gama, 45455);
        at += bd_put_chunk(file + at, "gAMA", gama, 4);
        static const uint32_t chrm_values[8] = {31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000};
        uint8_t chrm[32];
        for (int i = 0; i < 8; i++) bd_put32(chrm + 4 * i, chrm_values[i]);
        at += bd_put_chunk(file + at, "cHRM", chrm, 32);
    }
    // The IDAT around the stream already in place (bd_put_chunk would move it onto itself).
    bd_put32(file + at, (uint32_t)compressed);
    memcpy(file + at + 4, "IDAT", 4);
    bd_put32(file + offset + compressed, (uint32_t)libdeflate_crc32(0, file + at + 4, compressed + 4));
    at = offset + compressed + 4;
    at += bd_put_chunk(file + at, "IEND", NULL, 0);
    *out_size = at;
    return 0;
}

int bd_fast_png_wrap(const uint8_t *stream, size_t compressed, uint32_t width, uint32_t height, int bit_depth,
                     int drop_alpha, const uint8_t *colour, size_t colour_size, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (compressed > 0x7fffffffu) return -1;
    const size_t offset = bd_fast_png_wrap_offset(colour, colour_size);
    uint8_t *file = (uint8_t *)malloc(offset + compressed + 16);
    if (file == NULL) return -1;
    memcpy(file + offset, stream, compressed);
    bd_fast_png_wrap_in_place(file, compressed, width, height, bit_depth, drop_alpha, colour, colour_size, out_size);
    *out = file;
    return 0;
}

int bd_fast_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int bit_depth, size_t row_bytes,
                       int drop_alpha, int level, const uint8_t *colour, size_t colour_size, uint8_t **out,
                       size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    const int sample_bytes = bit_depth == 16 ? 2 : 1, channels = drop_alpha ? 3 : 4, bpp = channels * sample_bytes;
    const size_t stride = (size_t)width * (size_t)bpp, filtered_size = (size_t)height * (stride + 1);
    uint8_t *filtered = (uint8_t *)malloc(filtered_size);
    if (filtered == NULL || !bd_fast_png_filter(pixels, width, height, bit_depth, row_bytes, drop_alpha, filtered)) {
        free(filtered);
        return -1;
    }
    int status = bd_write_file(filtered, filtered_size, width, height, bit_depth, drop_alpha, level, colour,
                               colour_size, out, out_size);
    free(filtered);
    return status;
}

int bd_fast_png_encode_opaque_in_place(uint8_t *pixels, uint32_t width, uint32_t height, int level,
                                       const uint8_t *colour, size_t colour_size, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    // Filtered RGB row y, 3·W + 1 bytes at y·(3·W + 1), ends at or before RGBA row y + 1 begins (4·W·(y + 1)), and
    // bd_fast_png_filter packs each row aside before writing it: every pixel is read before it is overwritten.
    const size_t filtered_size = (size_t)height * ((size_t)width * 3 + 1);
    if (!bd_fast_png_filter(pixels, width, height, 8, (size_t)width * 4, 1, pixels)) return -1;
    return bd_write_file(pixels, filtered_size, width, height, 8, 1, level, colour, colour_size, out, out_size);
}

int bd_rgba_is_opaque(const uint8_t *pixels, size_t count, int bit_depth) {
    if (bit_depth == 16) {
        for (size_t i = 0; i < count; i++) {
            if (pixels[8 * i + 6] != 0xff || pixels[8 * i + 7] != 0xff) return 0;
        }
        return 1;
    }
    // Two pixels a word, the words of 4096 pixels ANDed (a loop the compiler turns into vector ANDs) and their alphas
    // tested once (a C probe on this machine: 0.15 ms for the wallpaper's 3.1 million pixels, against 0.38 ms testing
    // every eight pixels' alphas).
    static const uint8_t alpha_bytes[8] = {0, 0, 0, 0xff, 0, 0, 0, 0xff};  // two pixels' alphas, in memory order
    uint64_t alphas;
    memcpy(&alphas, alpha_bytes, 8);
    const size_t pairs = count & ~(size_t)1;
    size_t i = 0;
    while (i < pairs) {
        const size_t end = pairs - i > 4096 ? i + 4096 : pairs;
        uint64_t all = ~0ull;
        for (; i < end; i += 2) {
            uint64_t word;
            memcpy(&word, pixels + 4 * i, 8);
            all &= word;
        }
        if ((all & alphas) != alphas) return 0;
    }
    return i == count || pixels[4 * i + 3] == 0xff;
}
