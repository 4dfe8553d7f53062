// backdrop_png_fast_encoder.h — the PNG encoder of `--compression default` and `fast` for 8-bit RGB and RGBA: our own
// deflate, made for filtered picture rows and for speed, on every core.
//
// The method is fpnge's (github.com/veluca93/fpnge: a filter a row chosen by an estimate, one Huffman code for the
// picture, no search for matches), our code:
// - Rows: each row is packed as the file stores it (RGB or RGBA), and filtered with every one of PNG's five filters;
//   the row keeps the filter whose residuals, read as signed bytes, have the smallest sum of magnitudes (libpng's
//   heuristic; ties to the lower filter type). The sums are exact integers, so the AVX2 kernel and the portable loop
//   choose the same filters.
// - One code: the symbols of every sixteenth row (every row below 64 rows) are counted, every symbol counted once
//   more so that each has a code, and a Huffman code of at most 12 bits a symbol is built from the counts (halved
//   until it fits). Symbols: each run of 12 or more zero bytes is a literal 0 and copies at distance 1 (the first
//   of two one-bit distance codes), every other byte a literal; no search for other matches.
// - Strips: the rows are cut into strips of about 512 KiB of filtered bytes (a count that depends on the picture's
//   size alone); each strip is one dynamic block with the picture's code, ended on a byte boundary by an empty stored
//   block (the last strip's block is final), on whichever thread is free. The strips joined, a zlib header and the
//   Adler-32 of all the filtered bytes (the strips' combined) make one zlib stream (RFC 1950, 1951).
// - Deterministic: the same bytes for any thread count, with the vector kernels or without them.
// Precision: lossless. Size: measured smaller than libdeflate's level 1 after the "up" filter on the fixtures'
// photographs and on the wallpaper's render (figures in docs/performance.md; a test holds the render's bound).
#ifndef BACKDROP_PNG_FAST_ENCODER_H
#define BACKDROP_PNG_FAST_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Encodes straight 8-bit RGBA (rows `row_bytes` apart) as a PNG by the method above: RGB (colour type 2) when
/// `drop_alpha` is 1, RGBA (6) when 0; the chunks around the image data as `bd_fast_png_encode` writes them (sRGB,
/// gAMA and cHRM, or the `colour_size` bytes at `colour` when it is non-NULL). Up to `threads` threads (≥ 1; the
/// calling thread is one of them). `vector` 1 uses the AVX2 kernel where `bd_vector_kernels_available()`, 0 the
/// portable loops: the same bytes. Returns 0 with a malloc'ed file in `out` (free with `bd_png_free`), -1 when memory
/// runs out or the picture is empty.
int bd_png_fast_encoder_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_bytes,
                               int drop_alpha, int threads, int vector, const uint8_t *colour, size_t colour_size,
                               uint8_t **out, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif
