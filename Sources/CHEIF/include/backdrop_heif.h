// backdrop_heif.h — libheif (Debian libheif-dev, with its HEVC decoder libde265) behind a small C boundary.
//
// libheif reports errors as values, never by longjmp or exceptions across its C API; this boundary turns them into a
// return code and a one-line message in `error` (NUL-terminated). libheif is not linked: the first
// bd_heif_reader_open loads BD_HEIF_LIBRARY (once, thread-safe) and resolves the functions the boundary calls.
#ifndef BACKDROP_HEIF_H
#define BACKDROP_HEIF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the primary image's boxes say, before any pixel is decoded.
typedef struct {
    /// The size after the file's transformations (irot, imir, clap): the picture as it is shown.
    uint32_t width;
    uint32_t height;
    /// The coded size from the `ispe` box, before the transformations.
    uint32_t coded_width;
    uint32_t coded_height;
    /// Non-zero when the image has an alpha plane.
    int has_alpha;
} bd_heif_header;

/// An nclx `colr` box: the primaries' and white point's CIE xy (red, green, blue, white) and the H.273 codes.
typedef struct {
    double primaries[8];
    int color_primaries;
    int transfer_characteristics;
} bd_heif_nclx;

typedef struct bd_heif_reader bd_heif_reader;

/// The library the boundary loads on first use (Debian libheif1, which libheif-dev installs).
#define BD_HEIF_LIBRARY "libheif.so.1"

/// Loads `soname` as the boundary does and resolves every function it calls, without using it. Returns 0, or -1 with
/// `error` filled with the one-line message bd_heif_reader_open gives when BD_HEIF_LIBRARY is missing or lacks one
/// of them. A library once loaded stays loaded.
int bd_heif_library_check(const char *soname, char *error, size_t error_size);

/// Parses the file's boxes from `data` (which must outlive the reader) and finds its primary image: nothing that
/// grows with the picture is allocated. `max_side` bounds the width and height libheif accepts from the `ispe` box.
/// Returns NULL and fills `error` on failure, also when libheif cannot be loaded (then on every call).
bd_heif_reader *bd_heif_reader_open(const uint8_t *data, size_t size, uint32_t max_side, bd_heif_header *header,
                                    char *error, size_t error_size);

/// Decodes the primary image, its transformations applied, into `rgba` (width × height × 4 bytes from the header,
/// straight alpha, 255 without an alpha plane). Returns 0, or -1 with `error` filled (a corrupt or truncated HEVC
/// stream, or a decoded size other than the header's).
int bd_heif_reader_read(bd_heif_reader *reader, uint8_t *rgba, char *error, size_t error_size);

/// The ICC profile of a `colr` box of type prof or rICC, or NULL; owned by the reader.
const uint8_t *bd_heif_reader_icc_profile(bd_heif_reader *reader, size_t *size);

/// Fills `nclx` from an nclx `colr` box. Returns 1, or 0 when there is none.
int bd_heif_reader_nclx(bd_heif_reader *reader, bd_heif_nclx *nclx);

/// Frees the reader. Safe on NULL.
void bd_heif_reader_close(bd_heif_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
