// A raw DEFLATE stream (RFC 1951, as a zip archive stores its members) inflated by libdeflate: the ZIP reader of
// BackdropImageIO (`ZipArchive`) calls it for `backdrop import sketch FILE.sketch`.
#include "backdrop_inflate_raw.h"

#include <libdeflate.h>

int bd_inflate_raw(const uint8_t *compressed, size_t compressed_size, uint8_t *out, size_t out_size) {
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (inflater == NULL) return 0;
    size_t taken = 0, produced = 0;
    int ok = libdeflate_deflate_decompress_ex(inflater, compressed, compressed_size, out, out_size, &taken, &produced)
                 == LIBDEFLATE_SUCCESS
             && produced == out_size;
    libdeflate_free_decompressor(inflater);
    return ok;
}
