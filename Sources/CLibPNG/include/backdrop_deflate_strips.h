// backdrop_deflate_strips.h — one zlib stream compressed in strips, each on its own thread, by libdeflate.
//
// libdeflate compresses a buffer into a complete deflate stream whose last block is marked final, and cannot end a
// block without ending the stream. A strip's stream is made joinable here: its blocks are walked (their Huffman
// codes decoded, no output made) to find the final block, whose BFINAL bit is cleared, and where its last code
// ends, after which an empty stored block brings the stream to a byte boundary (what zlib's sync flush writes).
// The strips' streams, so joined, are one deflate stream; a zlib header and the Adler-32 of all the data make it a
// zlib stream (RFC 1950, 1951).
//
// Contract: the strips are cut by the caller at offsets that depend on the data's size only, so the bytes are the
// same for any number of threads. Each strip is compressed without the previous strip's window (files a little
// larger, by the matches lost at each boundary: under 0.01 % at 1 MiB strips on the wallpaper's render).
#ifndef BACKDROP_DEFLATE_STRIPS_H
#define BACKDROP_DEFLATE_STRIPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Compresses `size` bytes at `data` at libdeflate `level` as raw deflate into a new buffer (`*out`, freed with
/// bd_png_free). When `last` is 0 the stream is made joinable as above. Returns the bytes written, or 0 when memory
/// ran out (or the stream libdeflate made did not parse, which would be a bug: the caller then fails).
size_t bd_deflate_strip(const uint8_t *data, size_t size, int level, int last, uint8_t **out);

/// The Adler-32 of `size` bytes at `data` (RFC 1950), as libdeflate computes it.
uint32_t bd_adler32(const uint8_t *data, size_t size);

/// The Adler-32 of two parts of data one after the other, from the first's (`first`), the second's (`second`) and the
/// second's length: `bd_adler32` of the whole, computed apart (1, the Adler-32 of nothing, as `first` gives `second`).
uint32_t bd_adler32_combine(uint32_t first, uint32_t second, size_t second_size);

/// The two bytes of the zlib header libdeflate writes for `level` (CMF, FLG).
void bd_zlib_header(int level, uint8_t header[2]);

#ifdef __cplusplus
}
#endif

#endif
