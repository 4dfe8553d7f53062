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

/// What the primary image's boxes say, before any pixel is decoded (bd_heif_plan_read's answer).
typedef struct {
    /// The size after the file's transformations (irot, imir, clap), from the boxes: the picture as it is shown.
    uint32_t width;
    uint32_t height;
    /// Non-zero when the size came from an `ispe` that a quarter turn swaps: a decoded image of height × width (a
    /// writer that put the shown size in `ispe`, as libheif 1.15's encoder does) is accepted too.
    int transposed;
    /// Non-zero when the image has an alpha plane.
    int has_alpha;
    /// The pixels of every image libheif makes on the way (coded images and tiles, grid and overlay canvases,
    /// inputs, alpha planes, each transformation's copy, the RGBA picture), and of the largest of them.
    uint64_t work_pixels;
    uint64_t largest_pixels;
} bd_heif_header;

/// What bd_heif_plan_read finds: the primary image's shown size and the work of decoding it.
typedef struct {
    uint32_t width;
    uint32_t height;
    int transposed;
    uint64_t work_pixels;
    uint64_t largest_pixels;
    /// Coded images (tiles, inputs, alpha planes) decoded.
    uint32_t decoded_images;
} bd_heif_plan;

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

/// Reads the file's boxes ourselves (ftyp, meta: pitm, iinf, iloc, idat, iref, iprp), without libheif, and sizes
/// everything decoding the primary image makes: the image, a grid's tiles and canvas (from its descriptor), an
/// overlay's canvas and inputs, an `iden`'s input, alpha planes, each transformation (in ipma's order). Returns 0, or
/// -1 with `error` filled when an image is over `max_pixels`, a grid's tiles do not make its output, an item has
/// more than one irot, imir or clap, or a count is over its bound (items, properties, an item's properties, item
/// references, images decoded, derived images' nesting). Allocates a fixed amount (about 1 MB), never what the file
/// asks for.
int bd_heif_plan_read(const uint8_t *data, size_t size, uint64_t max_pixels, bd_heif_plan *plan, char *error,
                      size_t error_size);

/// Plans the file (bd_heif_plan_read, with `max_pixels`), then parses its boxes with libheif (`data` must outlive the
/// reader) and finds its primary image: nothing that grows with the picture is allocated. Returns NULL and fills
/// `error` on failure, also when libheif cannot be loaded (then on every call).
bd_heif_reader *bd_heif_reader_open(const uint8_t *data, size_t size, uint64_t max_pixels, bd_heif_header *header,
                                    char *error, size_t error_size);

/// Decodes the primary image, its transformations applied, into `rgba` (width × height × 4 bytes from the header,
/// straight alpha, 255 without an alpha plane). Returns 0, or -1 with `error` filled (a corrupt or truncated HEVC
/// stream, or a decoded size other than the header's, or its transpose when the header is `transposed`).
int bd_heif_reader_read(bd_heif_reader *reader, uint8_t *rgba, char *error, size_t error_size);

/// The picture's size: the header's, or after bd_heif_reader_read, the size decoded (the header's, or transposed).
void bd_heif_reader_size(const bd_heif_reader *reader, uint32_t *width, uint32_t *height);

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
