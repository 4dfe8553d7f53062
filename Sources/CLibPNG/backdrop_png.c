// backdrop_png.c — libpng read/write with the setjmp kept inside.
//
// Each entry point that calls into libpng sets png_jmpbuf first; libpng's
// error callback copies the message and longjmps back to that point, which
// is always a C frame of this file.
#include "backdrop_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char message[256];
} bd_error_state;

static void bd_copy_message(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    snprintf(error, error_size, "%s", message);
}

static void bd_on_error(png_structp png, png_const_charp message) {
    bd_error_state *state = (bd_error_state *)png_get_error_ptr(png);
    if (state != NULL) snprintf(state->message, sizeof state->message, "%s", message);
    png_longjmp(png, 1);
}

static void bd_on_warning(png_structp png, png_const_charp message) {
    // Warnings (e.g. a bad CRC in an ancillary chunk) do not stop decoding.
    (void)png;
    (void)message;
}

// MARK: - Reading

struct bd_png_reader {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int passes;  // 7 for an interlaced file, 1 otherwise
    bd_error_state error;
};

static void bd_read_from_memory(png_structp png, png_bytep out, png_size_t length) {
    bd_png_reader *reader = (bd_png_reader *)png_get_io_ptr(png);
    if (reader->size - reader->offset < length) {
        png_error(png, "file is truncated (unexpected end of data)");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

// Checks that every chunk up to IEND fits in the data: libpng allocates an ancillary chunk at the length its
// header claims before reading it, so a 300-byte file claiming a 1.3 GB tEXt chunk made it allocate 1.3 GB
// (found by Fuzz/FuzzPNG). The whole file is in memory, so a length past its end is known to be a truncation.
// Adds up the IDAT chunks' lengths into `idat_bytes`.
static int bd_chunks_fit(const uint8_t *data, size_t size, uint64_t *idat_bytes, char *error, size_t error_size) {
    size_t offset = 8;
    *idat_bytes = 0;
    while (offset + 8 <= size) {
        uint32_t length = ((uint32_t)data[offset] << 24) | ((uint32_t)data[offset + 1] << 16)
                        | ((uint32_t)data[offset + 2] << 8) | (uint32_t)data[offset + 3];
        char type[5] = {0};
        for (int i = 0; i < 4; i++) {
            uint8_t c = data[offset + 4 + i];
            type[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
        }
        if (length > 0x7fffffffu || (size_t)length + 12 > size - offset) {
            char message[160];
            snprintf(message, sizeof message, "file is truncated (chunk %s claims %u bytes, %zu are left)",
                     type, length, size - offset - 8);
            bd_copy_message(error, error_size, message);
            return 0;
        }
        if (memcmp(data + offset + 4, "IEND", 4) == 0) return 1;
        if (memcmp(data + offset + 4, "IDAT", 4) == 0) *idat_bytes += length;
        offset += (size_t)length + 12;
    }
    return 1;  // a missing IEND is libpng's to report
}

// The ancillary chunks libpng knows and Backdrop never uses, each a 4-letter name and a NUL, as libpng takes them.
static const png_byte bd_unused_chunks[] =
    "bKGD\0eXIf\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sTER\0tEXt\0tIME\0zTXt";

bd_png_reader *bd_png_reader_open(const uint8_t *data, size_t size, uint64_t max_pixels, bd_png_header *header,
                                  char *error, size_t error_size) {
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        bd_copy_message(error, error_size, "not a PNG file (bad signature)");
        return NULL;
    }
    uint64_t idat_bytes = 0;
    if (!bd_chunks_fit(data, size, &idat_bytes, error, error_size)) return NULL;
    bd_png_reader *reader = (bd_png_reader *)calloc(1, sizeof *reader);
    if (reader == NULL) {
        bd_copy_message(error, error_size, "out of memory");
        return NULL;
    }
    reader->data = data;
    reader->size = size;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->error, bd_on_error, bd_on_warning);
    if (reader->png == NULL) {
        free(reader);
        bd_copy_message(error, error_size, "libpng could not be initialised");
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL || setjmp(png_jmpbuf(reader->png))) {
        bd_copy_message(error, error_size, reader->info ? reader->error.message : "out of memory");
        bd_png_reader_close(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, bd_read_from_memory);
    // The caller enforces its own pixel limit before allocating; let libpng accept
    // any header dimensions up to PNG's own maximum so that the caller can name them.
    png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
    // Ancillary chunks Backdrop does not use are skipped unread (their CRC still checked): never inflated, never
    // kept. A file of a thousand 8 MB zTXt bombs took 42 s and 7.56 GB when libpng inflated and kept each one. The
    // chunks it still reads are the colour ones: sRGB and gAMA (the header below), and cHRM and iCCP, kept because
    // libpng weighs them against sRGB and gAMA; the only one of them that inflates, iCCP, may not pass 8 MB (more
    // than any real ICC profile) and a file may carry one.
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, bd_unused_chunks,
                                (int)(sizeof bd_unused_chunks / 5));
    png_set_chunk_malloc_max(reader->png, 8u << 20);
    png_set_chunk_cache_max(reader->png, 1000);
    png_read_info(reader->png, reader->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if ((uint64_t)width * height > max_pixels) {
        // Before png_read_update_info, which allocates rows of the header's width (16 GB for a 68-byte file).
        header->width = width;
        header->height = height;
        bd_copy_message(error, error_size, "");
        bd_png_reader_close(reader);
        return NULL;
    }

    const int bits_per_pixel = bit_depth * png_get_channels(reader->png, reader->info);
    if (!bd_png_data_can_hold(idat_bytes, width, height, bits_per_pixel)) {
        // Before any buffer of the header's size: an 85-byte file declaring 10000×10000 cost 8.3 s and 405 MB
        // before libpng found the data missing.
        char message[200];
        snprintf(message, sizeof message,
                 "file is truncated or corrupt (its image data, %llu bytes, cannot hold the %u×%u pixels its header "
                 "declares)",
                 (unsigned long long)idat_bytes, (unsigned)width, (unsigned)height);
        bd_copy_message(error, error_size, message);
        bd_png_reader_close(reader);
        return NULL;
    }

    header->has_srgb = png_get_valid(reader->png, reader->info, PNG_INFO_sRGB) != 0;
    double gamma = 0;
    header->has_gamma = png_get_gAMA(reader->png, reader->info, &gamma) != 0;
    header->gamma = header->has_gamma ? gamma : 0;

    png_set_expand(reader->png);  // palette → RGB, grey < 8 bits → 8, tRNS → alpha
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(reader->png);
    }
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(reader->png, reader->info, PNG_INFO_tRNS);
    int out_depth = bit_depth == 16 ? 16 : 8;
    if (!has_alpha) png_set_add_alpha(reader->png, out_depth == 16 ? 0xffff : 0xff, PNG_FILLER_AFTER);
#if defined(__LITTLE_ENDIAN__) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    if (out_depth == 16) png_set_swap(reader->png);
#endif
    reader->passes = png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);

    if (png_get_channels(reader->png, reader->info) != 4 || png_get_bit_depth(reader->png, reader->info) != out_depth) {
        bd_copy_message(error, error_size, "unsupported PNG layout after expansion");
        bd_png_reader_close(reader);
        return NULL;
    }
    header->width = width;
    header->height = height;
    header->bit_depth = out_depth;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    return reader;
}

int bd_png_data_can_hold(uint64_t idat_bytes, uint32_t width, uint32_t height, int bits_per_pixel) {
    // The pixels' own bytes, without the filter bytes: a lower bound for interlaced and progressive files alike.
    const long double needed = ((long double)width * height * bits_per_pixel) / 8.0L;
    // 1032 bytes a byte, and a few bytes of zlib header, block headers and checksum.
    return (long double)idat_bytes * 1032.0L + 1032.0L * 16 >= needed;
}

int bd_png_reader_read(bd_png_reader *reader, uint8_t *pixels, size_t row_bytes,
                       char *error, size_t error_size) {
    // Row by row, each pass of an interlaced file over the same rows (libpng combines them): no array of row
    // pointers, which for a 1×100M picture was 800 MB, twice the pixels.
    const png_uint_32 height = png_get_image_height(reader->png, reader->info);
    const int passes = reader->passes;
    if (setjmp(png_jmpbuf(reader->png))) {
        bd_copy_message(error, error_size, reader->error.message);
        return -1;
    }
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) png_read_row(reader->png, pixels + (size_t)y * row_bytes, NULL);
    }
    png_read_end(reader->png, NULL);
    return 0;
}

void bd_png_reader_close(bd_png_reader *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}

// Buffers handed to Swift

void bd_png_free(void *pointer) { free(pointer); }
