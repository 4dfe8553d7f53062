// backdrop_png_tag.h — a PNG's colour chunks for `--color-space keep`: the input's own profile (iCCP) or code points
// (cICP), or none, written by the encoder in place of its sRGB tags.
#ifndef BACKDROP_PNG_TAG_H
#define BACKDROP_PNG_TAG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The colour chunks, whole, that tag a PNG with the input's own space, for bd_fast_png_encode's `colour`: an iCCP
/// chunk of `icc` (named "ICC Profile", compressed by libdeflate at level 12 into a zlib stream) when `icc` is
/// non-NULL, else a cICP chunk of `cicp` (primaries, transfer, matrix, full range) when `cicp` is non-NULL, else none
/// (`*out` NULL, `*out_size` 0). `*out` is freed with bd_png_free. Returns 0, or -1 when memory runs out or the
/// profile is empty or over 2³¹ − 1 bytes.
int bd_png_colour_chunks(const uint8_t *icc, size_t icc_size, const uint8_t *cicp, uint8_t **out, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif
