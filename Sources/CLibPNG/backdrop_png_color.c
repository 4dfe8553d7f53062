// backdrop_png_color.c — the colour chunks libpng 1.6.39 does not hand over as Backdrop needs them: cICP (which it
// does not know), iCCP (inflated here by libdeflate, bounded) and cHRM, with sRGB and gAMA beside them, read from
// the file's bytes.
#include "backdrop_png.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

// More than any real ICC profile; what libpng's reader allows for a chunk (backdrop_png.c).
enum { bd_icc_max = BD_ICC_MAX_BYTES };

static uint32_t bd_color_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

// An iCCP body: a name of 1–79 bytes, NUL, compression method 0, then a zlib stream. The output grows by doubling
// from 64 KiB to bd_icc_max.
static int bd_inflate_icc(const uint8_t *body, uint32_t length, bd_png_color *color) {
    const uint8_t *nul = memchr(body, 0, length < 81 ? length : 81);
    if (nul == NULL || nul == body || (size_t)(nul - body) + 2 > length || nul[1] != 0) return 0;
    const uint8_t *stream = nul + 2;
    size_t stream_size = length - (size_t)(stream - body);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (inflater == NULL) return 0;
    int done = 0;
    for (size_t capacity = 64u << 10; capacity <= bd_icc_max && !done; capacity *= 2) {
        uint8_t *profile = malloc(capacity);
        if (profile == NULL) break;
        size_t produced = 0;
        enum libdeflate_result result =
            libdeflate_zlib_decompress(inflater, stream, stream_size, profile, capacity, &produced);
        if (result == LIBDEFLATE_SUCCESS) {
            color->icc = profile;
            color->icc_size = produced;
            done = 1;
        } else {
            free(profile);
            if (result != LIBDEFLATE_INSUFFICIENT_SPACE) break;
        }
    }
    libdeflate_free_decompressor(inflater);
    return done;
}

int bd_png_color_chunks(const uint8_t *data, size_t size, bd_png_color *color) {
    memset(color, 0, sizeof *color);
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (size < 8 || memcmp(data, signature, 8) != 0) return 0;
    int found = 0, iccp_seen = 0;
    for (size_t offset = 8; offset + 12 <= size;) {
        uint32_t length = bd_color_be32(data + offset);
        if (length > 0x7fffffffu || (size_t)length + 12 > size - offset) break;
        const uint8_t *type = data + offset + 4, *body = data + offset + 8;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0) break;
        offset += (size_t)length + 12;
        int wanted = memcmp(type, "cICP", 4) == 0 || memcmp(type, "cHRM", 4) == 0 || memcmp(type, "iCCP", 4) == 0 ||
                     memcmp(type, "sRGB", 4) == 0 || memcmp(type, "gAMA", 4) == 0;
        if (!wanted || (uint32_t)libdeflate_crc32(0, type, (size_t)length + 4) != bd_color_be32(body + length)) continue;
        if (memcmp(type, "cICP", 4) == 0 && length == 4 && !color->has_cicp) {
            memcpy(color->cicp, body, 4);
            color->has_cicp = found = 1;
        } else if (memcmp(type, "cHRM", 4) == 0 && length == 32 && !color->has_chrm) {
            for (int i = 0; i < 8; i++) color->chrm[i] = bd_color_be32(body + 4 * i) / 100000.0;
            color->has_chrm = found = 1;
        } else if (memcmp(type, "sRGB", 4) == 0 && length == 1) {
            color->has_srgb = found = 1;
        } else if (memcmp(type, "gAMA", 4) == 0 && length == 4 && !color->has_gama && bd_color_be32(body) > 0) {
            color->gama = bd_color_be32(body) / 100000.0;
            color->has_gama = found = 1;
        } else if (memcmp(type, "iCCP", 4) == 0 && !iccp_seen) {
            iccp_seen = found = 1;
            if (!bd_inflate_icc(body, length, color)) color->icc_broken = 1;
        }
    }
    return found;
}

void bd_png_color_free(bd_png_color *color) {
    free(color->icc);
    color->icc = NULL;
    color->icc_size = 0;
}
