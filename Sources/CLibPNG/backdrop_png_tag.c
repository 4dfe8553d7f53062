// backdrop_png_tag.c — the colour chunks of the input's own space (iCCP or cICP) for the encoder to write.
#include "backdrop_png_tag.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static void bd_tag_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

// Writes a chunk of `type` and `body` at `at`; returns its size (12 + length).
static size_t bd_tag_chunk(uint8_t *at, const char *type, const uint8_t *body, size_t length) {
    bd_tag_put32(at, (uint32_t)length);
    memcpy(at + 4, type, 4);
    if (length > 0) memcpy(at + 8, body, length);
    bd_tag_put32(at + 8 + length, (uint32_t)libdeflate_crc32(0, at + 4, length + 4));
    return length + 12;
}

int bd_png_colour_chunks(const uint8_t *icc, size_t icc_size, const uint8_t *cicp, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (icc == NULL && cicp == NULL) return 0;
    if (icc == NULL) {
        uint8_t *chunk = malloc(16);
        if (chunk == NULL) return -1;
        *out_size = bd_tag_chunk(chunk, "cICP", cicp, 4);
        *out = chunk;
        return 0;
    }
    if (icc_size == 0 || icc_size > 0x7fffffffu) return -1;
    // The iCCP body: "ICC Profile", NUL, compression method 0, the zlib stream.
    static const char name[] = "ICC Profile";
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(12);
    if (deflater == NULL) return -1;
    size_t bound = libdeflate_zlib_compress_bound(deflater, icc_size);
    uint8_t *body = malloc(sizeof name + 1 + bound), *chunk = malloc(sizeof name + 1 + bound + 12);
    size_t stream = 0;
    if (body != NULL && chunk != NULL) {
        memcpy(body, name, sizeof name);
        body[sizeof name] = 0;
        stream = libdeflate_zlib_compress(deflater, icc, icc_size, body + sizeof name + 1, bound);
    }
    libdeflate_free_compressor(deflater);
    if (stream == 0) {
        free(body);
        free(chunk);
        return -1;
    }
    *out_size = bd_tag_chunk(chunk, "iCCP", body, sizeof name + 1 + stream);
    *out = chunk;
    free(body);
    return 0;
}
