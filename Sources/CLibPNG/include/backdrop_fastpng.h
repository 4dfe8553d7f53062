// backdrop_fastpng.h — PNG's common cases without libpng: 8-bit RGB and RGBA, not interlaced, decoded and
// encoded with libdeflate (Debian libdeflate-dev). Everything else, and every file the fast path has any doubt
// about, goes to libpng (backdrop_png.h): the fast path never reports an error of its own.
#ifndef BACKDROP_FASTPNG_H
#define BACKDROP_FASTPNG_H

#include <stddef.h>
#include <stdint.h>
#include "backdrop_png.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the chunks of `data` and says whether the fast path decodes it: 1 when the file is 8-bit RGB or RGBA, not
/// interlaced, without tRNS, every chunk's CRC right, no unknown critical chunk, at most one of sRGB, gAMA and iCCP
/// (so that the colour rule reads the same as libpng's); `header` is then filled as libpng's reader fills it.
/// 0 otherwise: let libpng read the file (and report its errors).
int bd_fast_png_header(const uint8_t *data, size_t size, bd_png_header *header);

/// Decodes a file `bd_fast_png_header` accepted into straight RGBA8, `row_bytes` apart (alpha 255 for RGB files).
/// Returns 1 on success, 0 when the data turns out not to decode (a bad stream): the caller then asks libpng, which
/// reports the problem. Never longjmps; allocates one buffer of the inflated size.
int bd_fast_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, size_t row_bytes);

/// Encodes straight RGBA (`bit_depth` 8 or 16; 16-bit samples in host byte order, `row_bytes` apart) as a PNG with
/// sRGB, gAMA and cHRM chunks, as libpng's encoder wrote them. `drop_alpha` writes colour type 2 (RGB) — for an
/// opaque picture, the same pixels in three quarters of the bytes. Every row is filtered with "up" (the first with
/// none): one subtraction a byte, and with libdeflate as small as libpng's adaptive choice on photographs and effect
/// output. The image data is one zlib stream made by libdeflate at `level` (1–12) in one IDAT. Deterministic: the
/// same pixels and options give the same bytes.
/// Returns 0 with a malloc'ed buffer in `out` (free with `bd_png_free`), -1 when memory runs out.
int bd_fast_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int bit_depth, size_t row_bytes,
                       int drop_alpha, int level, uint8_t **out, size_t *out_size);

/// Whether every alpha sample of `pixels` (straight RGBA, `count` pixels, `bit_depth` 8 or 16) is at its maximum.
int bd_rgba_is_opaque(const uint8_t *pixels, size_t count, int bit_depth);

#ifdef __cplusplus
}
#endif

#endif
