// backdrop_png_tag.c — the colour chunks of a PNG the encoder made, replaced by the input's own (iCCP or cICP).
#include "backdrop_png_tag.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t bd_tag_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

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

static int bd_tag_is_colour(const uint8_t *type) {
    return memcmp(type, "sRGB", 4) == 0 || memcmp(type, "gAMA", 4) == 0 || memcmp(type, "cHRM", 4) == 0 ||
           memcmp(type, "iCCP", 4) == 0 || memcmp(type, "cICP", 4) == 0;
}

int bd_png_retag(const uint8_t *png, size_t size, const uint8_t *icc, size_t icc_size, const uint8_t *cicp,
                 uint8_t **out, size_t *out_size) {
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    *out = NULL;
    *out_size = 0;
    if (size < 33 || memcmp(png, signature, 8) != 0 || memcmp(png + 12, "IHDR", 4) != 0 || bd_tag_be32(png + 8) != 13)
        return -1;
    if (icc != NULL && (icc_size == 0 || icc_size > 0x7fffffffu)) return -1;
    // The iCCP body: "ICC Profile", NUL, compression method 0, the zlib stream.
    static const char name[] = "ICC Profile";
    uint8_t *body = NULL;
    size_t body_size = 0;
    if (icc != NULL) {
        struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(12);
        if (deflater == NULL) return -1;
        size_t bound = libdeflate_zlib_compress_bound(deflater, icc_size);
        body = malloc(sizeof name + 1 + bound);
        if (body == NULL) {
            libdeflate_free_compressor(deflater);
            return -1;
        }
        memcpy(body, name, sizeof name);
        body[sizeof name] = 0;
        size_t stream = libdeflate_zlib_compress(deflater, icc, icc_size, body + sizeof name + 1, bound);
        libdeflate_free_compressor(deflater);
        if (stream == 0) {
            free(body);
            return -1;
        }
        body_size = sizeof name + 1 + stream;
    }
    uint8_t *file = malloc(size + body_size + 16 + 12);
    if (file == NULL) {
        free(body);
        return -1;
    }
    memcpy(file, png, 33);
    size_t at = 33;
    if (body != NULL) {
        at += bd_tag_chunk(file + at, "iCCP", body, body_size);
    } else if (cicp != NULL) {
        at += bd_tag_chunk(file + at, "cICP", cicp, 4);
    }
    free(body);
    for (size_t offset = 33; offset < size;) {
        if (size - offset < 12) goto corrupt;
        size_t length = bd_tag_be32(png + offset);
        if (length > size - offset - 12) goto corrupt;
        if (!bd_tag_is_colour(png + offset + 4)) {
            memcpy(file + at, png + offset, length + 12);
            at += length + 12;
        }
        offset += length + 12;
    }
    *out = file;
    *out_size = at;
    return 0;
corrupt:
    free(file);
    return -1;
}
