// backdrop_webp.h — libwebp's still-image decoding and encoding, behind the same kind of boundary as CLibPNG.
#ifndef BACKDROP_WEBP_H
#define BACKDROP_WEBP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the width and height from a WebP file's header (nothing is allocated). Returns 1, or 0 when `data` is
/// not a WebP file libwebp can read, or -1 for an animated one.
int bd_webp_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);

/// Decodes into `rgba` (width × height × 4 bytes, straight alpha). Returns 1, or 0 for corrupt or truncated data.
int bd_webp_decode(const uint8_t *data, size_t size, uint8_t *rgba, size_t rgba_size, uint32_t width);

/// Copies the ICCP chunk's profile of an extended WebP file into a buffer for bd_webp_free, its size in `size`;
/// NULL when there is none.
uint8_t *bd_webp_icc_profile(const uint8_t *data, size_t size, size_t *profile_size);

/// Encodes `rgba` (width × height × 4 bytes): lossy at `quality` 1–99, or lossless when `quality` is 100 (the bytes
/// of libwebp's WebPEncodeRGBA and WebPEncodeLosslessRGBA); with `icc` (non-NULL, `icc_size` bytes) the file is an
/// extended one carrying the profile in an ICCP chunk (libwebp's mux API). Returns a buffer for bd_webp_free and its
/// size, or NULL with `error` filled with one line: a picture over 16383 pixels a side (its size named), or what
/// libwebp reported (bd_webp_encoding_error's words, or the mux's).
uint8_t *bd_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, const uint8_t *icc,
                        size_t icc_size, size_t *size, char *error, size_t error_size);

/// libwebp's WebPEncodingError `code` in words (one line, no full stop): out of memory, bad dimension, partition
/// size limits, a failed write, a file over 4 GiB, an aborted encoding; unknown codes say so.
const char *bd_webp_encoding_error(int code);

/// Frees a buffer bd_webp_encode returned.
void bd_webp_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
