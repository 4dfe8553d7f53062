// backdrop_jpeg.h — a small C boundary around libjpeg-turbo, for reading JPEG files.
//
// libjpeg reports errors by longjmp. Every function here sets its own setjmp point, so a longjmp never unwinds
// through a Swift frame: errors come back as a return code and a one-line message in `error` (NUL-terminated).
#ifndef BACKDROP_JPEG_H
#define BACKDROP_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the header says.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// The EXIF orientation (1–8) from an APP1 Exif segment; 1 when there is none or it is out of range.
    int orientation;
    /// Non-zero for a CMYK or YCCK file (delivered as RGB by the naive conversion R = C·K/255 of Adobe's inverted
    /// samples).
    int cmyk;
    /// Non-zero for a progressive file (libjpeg then holds every coefficient: about width × height × 6 bytes).
    int progressive;
} bd_jpeg_header;

typedef struct bd_jpeg_reader bd_jpeg_reader;

/// Reads the header from `data` (which must outlive the reader): nothing grows with the picture yet.
/// Returns NULL and fills `error` on failure.
bd_jpeg_reader *bd_jpeg_reader_open(const uint8_t *data, size_t size, bd_jpeg_header *header, char *error,
                                    size_t error_size);

/// Decodes every pixel into `rgba` (width × height × 4 bytes, alpha 255), in the file's stored orientation.
/// A file that ends early is an error (libjpeg would pad it with grey). Returns 0, or -1 with `error` filled.
int bd_jpeg_reader_read(bd_jpeg_reader *reader, uint8_t *rgba, char *error, size_t error_size);

/// The ICC profile the APP2 segments hold (joined), or NULL when there is none; owned by the reader.
const uint8_t *bd_jpeg_reader_icc_profile(const bd_jpeg_reader *reader, size_t *size);

/// Frees the reader. Safe on NULL.
void bd_jpeg_reader_close(bd_jpeg_reader *reader);

/// Encodes `rgba` (width × height × 4 bytes; alpha ignored) as a baseline JPEG of `quality` 1–100 with 4:2:0
/// chroma; with `icc` (non-NULL, `icc_size` bytes) the ICC profile written as APP2 ICC_PROFILE segments
/// (libjpeg-turbo's jpeg_write_icc_profile). Returns a buffer for bd_jpeg_free and its size in `size`, or NULL with
/// `error` filled with one line: a picture over 65500 pixels a side or a profile over the 16 707 345 bytes 255 APP2
/// segments hold (each named with its size, before libjpeg starts), or libjpeg's own message.
uint8_t *bd_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, const uint8_t *icc,
                        size_t icc_size, size_t *size, char *error, size_t error_size);

/// Frees a buffer bd_jpeg_encode returned.
void bd_jpeg_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
