// backdrop_png.h — a small C boundary around libpng, for reading every kind of PNG.
//
// libpng reports errors by longjmp. Every function here sets its own setjmp
// point, so a longjmp never unwinds through a Swift frame: errors come back
// as a return code and a one-line message in `error` (NUL-terminated).
#ifndef BACKDROP_PNG_H
#define BACKDROP_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the header says, after the expansion to RGBA described below.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// 8 or 16: the sample depth the pixels will be delivered at.
    int bit_depth;
    /// Non-zero for Adam7 files.
    int interlaced;
    /// Non-zero when the file has an sRGB chunk.
    int has_srgb;
    /// Non-zero when the file has a gAMA chunk; `gamma` is then its value (e.g. 0.45455).
    int has_gamma;
    double gamma;
} bd_png_header;

typedef struct bd_png_reader bd_png_reader;

/// Reads the signature and the header from `data` (which must outlive the reader)
/// and sets up the expansion of every colour type to RGBA: palettes to RGB, grey
/// to RGB, bit depths below 8 to 8, tRNS to alpha, a missing alpha to opaque.
/// Samples keep their depth (8 or 16); 16-bit samples come in host byte order.
/// No gamma transform is applied: the caller converts colour.
/// Returns NULL and fills `error` on failure. When the header's width × height exceeds `max_pixels`, returns NULL
/// with `header->width` and `header->height` filled and `error` empty, before libpng allocates anything that
/// grows with the picture (its row buffers are allocated when the expansion is set up): the caller names the limit.
bd_png_reader *bd_png_reader_open(const uint8_t *data, size_t size, uint64_t max_pixels, bd_png_header *header,
                                  char *error, size_t error_size);

/// Decodes every pixel into `pixels`, `row_bytes` apart (at least width × 4 × bit_depth / 8).
/// Returns 0 on success, -1 with `error` filled on failure (corrupt or truncated data).
int bd_png_reader_read(bd_png_reader *reader, uint8_t *pixels, size_t row_bytes,
                       char *error, size_t error_size);

/// Whether `idat_bytes` of compressed image data can inflate to a picture of `width` × `height` pixels of
/// `bits_per_pixel` bits (as the file stores them, before any expansion): deflate cannot pass 1032 bytes out per byte
/// in (a 258-byte match in two bits), so a header that declares more than its data can hold is refused before the
/// buffer its size implies is allocated. 1 when it can.
int bd_png_data_can_hold(uint64_t idat_bytes, uint32_t width, uint32_t height, int bits_per_pixel);

/// Frees the reader. Safe on NULL.
void bd_png_reader_close(bd_png_reader *reader);

/// The colour chunks a PNG carries before its image data, beyond sRGB and gAMA (which bd_png_header holds).
typedef struct {
    /// Non-zero with a cICP chunk: its colour primaries, transfer function, matrix (0 for RGB) and full-range flag.
    int has_cicp;
    uint8_t cicp[4];
    /// Non-zero with a cHRM chunk: white x, y, red x, y, green x, y, blue x, y.
    int has_chrm;
    double chrm[8];
    /// An iCCP chunk's profile, inflated (at most 8 MB), or NULL; free with bd_png_color_free.
    uint8_t *icc;
    size_t icc_size;
    /// Non-zero when the iCCP chunk was there but did not inflate (or passed 8 MB).
    int icc_broken;
    /// Non-zero with an sRGB chunk; with a gAMA chunk, its value (e.g. 0.45455).
    int has_srgb;
    int has_gama;
    double gama;
} bd_png_color;

/// The largest ICC profile an iCCP chunk inflates to here (8 MiB): a larger one is `icc_broken`. The writer keeps no
/// larger profile, so that what it writes reads back.
#define BD_ICC_MAX_BYTES 8388608

/// Reads the cICP, cHRM, iCCP, sRGB and gAMA chunks of `data` (a PNG file) before its first IDAT; a chunk whose CRC is wrong,
/// whose length is not its type's, or which repeats, is ignored. Returns 1 when any was found, 0 otherwise.
int bd_png_color_chunks(const uint8_t *data, size_t size, bd_png_color *color);

/// Frees the profile bd_png_color_chunks inflated. Safe on a zeroed struct.
void bd_png_color_free(bd_png_color *color);

/// Frees a buffer the encoder (backdrop_fastpng.h) returned.
void bd_png_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
