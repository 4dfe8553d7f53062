// backdrop_png_tag.h — a PNG file's colour chunks replaced, for `--color-space keep`: the encoder's sRGB tags swapped
// for the input's own profile (iCCP) or code points (cICP), or for none.
#ifndef BACKDROP_PNG_TAG_H
#define BACKDROP_PNG_TAG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Copies the PNG file `png` into a new buffer (`*out`, free with bd_png_free) with its sRGB, gAMA, cHRM, iCCP and
/// cICP chunks left out and, right after IHDR, an iCCP chunk of `icc` (named "ICC Profile", compressed by
/// libdeflate at level 12 into a zlib stream) when `icc` is non-NULL, else a cICP chunk of `cicp` (primaries,
/// transfer, matrix, full range) when `cicp` is non-NULL, else no colour chunk. Every other chunk is copied as it
/// is, in order. Returns 0, or -1 when `png` does not start with a signature and an IHDR chunk, a chunk runs past its
/// end, or memory runs out.
int bd_png_retag(const uint8_t *png, size_t size, const uint8_t *icc, size_t icc_size, const uint8_t *cicp,
                 uint8_t **out, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif
