// backdrop_fastpng.h — PNG's common cases without libpng: 8-bit RGB and RGBA, not interlaced, decoded and
// encoded with libdeflate (Debian libdeflate-dev); large pictures inflated by ISA-L (Debian libisal-dev) on a
// second thread while the first unfilters. Everything else, and every file the fast path has any doubt
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
/// interlaced, without tRNS, no unknown critical chunk, at most one of sRGB, gAMA and iCCP (so that the colour rule
/// reads the same as libpng's); `header` is then filled as libpng's reader fills it. 0 otherwise: let libpng read the
/// file (and report its errors). The chunks' CRCs are the decode's to check: `bd_fast_png_decode` fails on a wrong
/// one, and libpng then reads the file.
int bd_fast_png_header(const uint8_t *data, size_t size, bd_png_header *header);

/// Decodes a file `bd_fast_png_header` accepted into straight RGBA8, rows 4 × width bytes apart from `rgba` (alpha
/// 255 for RGB files). `capacity`, the buffer's size, must be at least `bd_fast_png_decode_capacity`: a little more
/// than the picture, because the filtered rows are inflated into the buffer's end and expanded in place.
/// Returns 1 on success, 0 when the data turns out not to decode (a bad stream): the caller then asks libpng, which
/// reports the problem. Never longjmps; allocates only the IDAT payload's copy (one thread) or ISA-L's state and a
/// thread (two: see `bd_fast_png_decode_threads`).
int bd_fast_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity);

/// `bd_fast_png_decode` on a chosen number of threads: 1 decodes on the calling thread alone (the whole stream
/// inflated by libdeflate, then the rows unfiltered and expanded), 2 inflates on a second thread with ISA-L, which
/// streams, while the calling thread unfilters and expands the rows already inflated; 0 chooses (two threads from
/// 4 MiB of filtered rows on, compressed to less than half, on a machine of two cores or more). The same pixels and
/// the same result for every
/// choice; a failure on either thread stops both. Rows over 4 GiB, or no second thread to be had: one thread.
int bd_fast_png_decode_threads(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity, int threads);

/// `bd_fast_png_decode_threads` with the AVX2 loops of Paeth's inverse and RGB's expansion (x86-64-v3, where the
/// processor has them) when `vector` is 1, the portable ones when 0: the same pixels and result either way.
int bd_fast_png_decode_kernels(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity, int threads,
                               int vector);

/// The buffer `bd_fast_png_decode` needs: 4 × width × height + height + 4 bytes; 0 on overflow.
size_t bd_fast_png_decode_capacity(uint32_t width, uint32_t height);

/// Encodes straight RGBA (`bit_depth` 8 or 16; 16-bit samples in host byte order, `row_bytes` apart) as a PNG with
/// sRGB, gAMA and cHRM chunks, as libpng's encoder wrote them, or, when `colour` is non-NULL, with the `colour_size`
/// bytes at `colour` (whole chunks, as bd_png_colour_chunks makes them; none when 0) in their place, right after
/// IHDR. `drop_alpha` writes colour type 2 (RGB) — for an opaque picture, the same pixels in three quarters of the
/// bytes. Every row is filtered with "up" (the first with none): one subtraction a byte, and with libdeflate as small
/// as libpng's adaptive choice on photographs and effect output. The image data is one zlib stream made by libdeflate
/// at `level` (1–12) in one IDAT. Deterministic: the same pixels and options give the same bytes.
/// Returns 0 with a malloc'ed buffer in `out` (free with `bd_png_free`), -1 when memory runs out.
int bd_fast_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int bit_depth, size_t row_bytes,
                       int drop_alpha, int level, const uint8_t *colour, size_t colour_size, uint8_t **out,
                       size_t *out_size);

// The stages of the two functions above, apart, for the codec benchmark (Benchmarks/Codec) and for reading.
// Decoding: the IDAT chunks' bytes gathered, inflated, unfiltered, expanded to RGBA8.

/// The IDAT chunks' payload, concatenated, in a malloc'ed buffer (`*idat`, free with `bd_png_free`); its size, or 0.
size_t bd_fast_png_idat(const uint8_t *data, size_t size, uint8_t **idat);
/// The inflated size of a picture's filtered rows (a filter byte and `width` × `channels` bytes a row); 0 on overflow.
size_t bd_fast_png_raw_size(uint32_t width, uint32_t height, int channels);
/// Inflates the zlib stream `idat`, which must end at its last byte, into exactly `raw_size` bytes; 1 on success.
int bd_fast_png_inflate(const uint8_t *idat, size_t idat_size, uint8_t *raw, size_t raw_size);
/// Undoes every row's filter in place (`raw` padded by 4 bytes); 1 on success, 0 for an unknown filter type.
int bd_fast_png_unfilter(uint8_t *raw, uint32_t width, uint32_t height, int channels);
/// Unfiltered rows to straight RGBA8, `row_bytes` apart (alpha 255 for RGB; `raw` padded by 4 bytes, which the
/// AVX2 expansion of RGB reads past the last row).
void bd_fast_png_expand(const uint8_t *raw, uint32_t width, uint32_t height, int channels, uint8_t *rgba,
                        size_t row_bytes);
// Encoding: rows packed as the file stores them and filtered with "up", then deflated.

/// Packs and filters every row into `filtered` (height × (1 + width × bytes a pixel) bytes); 1 on success.
int bd_fast_png_filter(const uint8_t *pixels, uint32_t width, uint32_t height, int bit_depth, size_t row_bytes,
                       int drop_alpha, uint8_t *filtered);
/// The PNG file (signature, IHDR, the sRGB, gAMA and cHRM chunks or `colour` as `bd_fast_png_encode` says, one IDAT,
/// IEND) around a finished zlib stream of the filtered rows, in a new buffer (`*out`, freed with bd_png_free).
/// Returns 0, or -1 when memory ran out or the stream is over 2³¹ − 1 bytes.
int bd_fast_png_wrap(const uint8_t *stream, size_t size, uint32_t width, uint32_t height, int bit_depth,
                     int drop_alpha, const uint8_t *colour, size_t colour_size, uint8_t **out, size_t *out_size);

/// Where `bd_fast_png_wrap_in_place` expects the zlib stream in the file's buffer: the bytes of the signature, IHDR,
/// the colour chunks (`colour`, or sRGB, gAMA and cHRM when it is NULL) and the IDAT's length and type.
size_t bd_fast_png_wrap_offset(const uint8_t *colour, size_t colour_size);
/// `bd_fast_png_wrap` without the copy: `file` holds the stream of `size` bytes at `bd_fast_png_wrap_offset` and has
/// room for 16 bytes after it (the IDAT's CRC and IEND); the rest of the file is written around it, and its length
/// stored in `*out_size`. Returns 0, or -1 for a stream over 2³¹ − 1 bytes.
int bd_fast_png_wrap_in_place(uint8_t *file, size_t size, uint32_t width, uint32_t height, int bit_depth,
                              int drop_alpha, const uint8_t *colour, size_t colour_size, size_t *out_size);

/// One zlib stream of `filtered` by libdeflate at `level`, in a malloc'ed buffer (`*out`); its size, or 0.
size_t bd_fast_png_deflate(const uint8_t *filtered, size_t filtered_size, int level, uint8_t **out);

/// `bd_fast_png_encode` of an opaque 8-bit picture (RGBA rows 4 × width bytes apart) written as RGB, filtering the rows
/// into the picture's own buffer: no second picture-sized buffer. The pixels are destroyed. The same bytes as
/// `bd_fast_png_encode(…, 8, 4 × width, 1, level, colour, colour_size, …)`.
int bd_fast_png_encode_opaque_in_place(uint8_t *pixels, uint32_t width, uint32_t height, int level,
                                       const uint8_t *colour, size_t colour_size, uint8_t **out, size_t *out_size);

/// Whether every alpha sample of `pixels` (straight RGBA, `count` pixels, `bit_depth` 8 or 16) is at its maximum.
int bd_rgba_is_opaque(const uint8_t *pixels, size_t count, int bit_depth);

#ifdef __cplusplus
}
#endif

#endif
