// backdrop_jpeg.c — libjpeg-turbo read/write with the setjmp kept inside.
//
// Each entry point that calls into libjpeg sets its jump point first; the error callback formats the message and
// longjmps back to that point, which is always a C frame of this file.
#include "backdrop_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// More scans than any encoder writes (a progressive file has about 10): a file of thousands of tiny scans would
// otherwise make libjpeg redo the picture's work for each.
enum { bd_jpeg_max_scans = 1000 };

// The entropy decoding a file may ask for, in passes over every block of the picture: each scan visits every block of
// the components it holds, however few coefficients it carries, so a 372 kB file of 999 scans cost 9 s. libjpeg's
// standard progressive script visits each block about 6 times (a DC scan, AC bands, their refinements); 64 is ample
// for any encoder's script, and the budget is checked as each scan starts, before its work.
enum { bd_jpeg_max_scan_passes = 64 };

// The largest ICC profile a JPEG carries: 255 APP2 segments (their count is one byte) of 65 519 profile bytes each.
enum { bd_jpeg_max_profile = 255 * 65519 };

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} bd_jpeg_error;

static void bd_jpeg_on_error(j_common_ptr info) {
    bd_jpeg_error *error = (bd_jpeg_error *)info->err;
    info->err->format_message(info, error->message);
    longjmp(error->jump, 1);
}

// Warnings go on, except data that ends before the picture does (the file's end, or a marker inside the entropy-coded
// data: a header that declares more rows than follow): libjpeg would fill the rest of the picture with grey.
static void bd_jpeg_on_message(j_common_ptr info, int level) {
    if (level != -1) return;
    bd_jpeg_error *error = (bd_jpeg_error *)info->err;
    if (info->err->msg_code == JWRN_JPEG_EOF) {
        snprintf(error->message, sizeof error->message, "file is truncated (the image data ends early)");
        longjmp(error->jump, 1);
    }
    if (info->err->msg_code == JWRN_HIT_MARKER) {
        snprintf(error->message, sizeof error->message,
                 "the image data ends before the picture does (corrupt or truncated)");
        longjmp(error->jump, 1);
    }
}

struct bd_jpeg_reader {
    struct jpeg_decompress_struct info;  // first: the progress monitor finds the reader from it
    struct jpeg_progress_mgr progress;
    bd_jpeg_error error;
    int cmyk;
    JOCTET *icc;
    unsigned int icc_size;
    // The scan whose blocks were last counted, and the blocks every scan so far visits.
    int counted_scan;
    unsigned long long scan_blocks;
};

// Called by libjpeg as it reads (and at least once per scan, as the scan starts): refuses a file past the scan limit
// or the scan-work budget.
static void bd_jpeg_on_progress(j_common_ptr info) {
    if (!info->is_decompressor) return;
    struct bd_jpeg_reader *reader = (struct bd_jpeg_reader *)info;
    j_decompress_ptr decompress = &reader->info;
    bd_jpeg_error *error = (bd_jpeg_error *)info->err;
    if (decompress->input_scan_number > bd_jpeg_max_scans) {
        snprintf(error->message, sizeof error->message, "the file has more than %d scans", bd_jpeg_max_scans);
        longjmp(error->jump, 1);
    }
    // Scan 0: no scan header read yet. A scan's header is read before its first block, and libjpeg calls this
    // between the two.
    if (decompress->input_scan_number == 0 || decompress->input_scan_number == reader->counted_scan) return;
    reader->counted_scan = decompress->input_scan_number;
    unsigned long long picture = 0, scan = 0;
    for (int c = 0; c < decompress->num_components; c++) {
        const jpeg_component_info *component = &decompress->comp_info[c];
        picture += (unsigned long long)component->width_in_blocks * component->height_in_blocks;
    }
    for (int c = 0; c < decompress->comps_in_scan; c++) {
        const jpeg_component_info *component = decompress->cur_comp_info[c];
        scan += (unsigned long long)component->width_in_blocks * component->height_in_blocks;
    }
    reader->scan_blocks += scan;
    if (reader->scan_blocks > picture * bd_jpeg_max_scan_passes) {
        snprintf(error->message, sizeof error->message,
                 "the file's %d scans decode its blocks more than %d times over", decompress->input_scan_number,
                 bd_jpeg_max_scan_passes);
        longjmp(error->jump, 1);
    }
}

static void bd_copy(char *error, size_t error_size, const char *message) {
    if (error != NULL && error_size > 0) snprintf(error, error_size, "%s", message);
}

static uint32_t bd_read16(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : (uint32_t)p[0] << 8 | (uint32_t)p[1];
}

static uint32_t bd_read32(const uint8_t *p, int little) {
    return little ? bd_read16(p, 1) | bd_read16(p + 2, 1) << 16 : bd_read16(p, 0) << 16 | bd_read16(p + 2, 0);
}

// The Orientation tag (0x0112) of IFD0 in an APP1 "Exif\0\0" segment; 1 when absent, malformed or out of range.
static int bd_exif_orientation(const uint8_t *data, size_t size) {
    if (size < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = data + 6;
    size_t length = size - 6;
    int little;
    if (memcmp(tiff, "II", 2) == 0) little = 1;
    else if (memcmp(tiff, "MM", 2) == 0) little = 0;
    else return 1;
    uint32_t ifd = bd_read32(tiff + 4, little);
    if (ifd > length || length - ifd < 2) return 1;
    uint32_t entries = bd_read16(tiff + ifd, little);
    for (uint32_t i = 0; i < entries; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > length) return 1;
        if (bd_read16(tiff + entry, little) != 0x0112) continue;
        if (bd_read16(tiff + entry + 2, little) != 3) return 1;  // SHORT
        uint32_t value = bd_read16(tiff + entry + 8, little);
        return value >= 1 && value <= 8 ? (int)value : 1;
    }
    return 1;
}

bd_jpeg_reader *bd_jpeg_reader_open(const uint8_t *data, size_t size, bd_jpeg_header *header, char *error,
                                    size_t error_size) {
    memset(header, 0, sizeof *header);
    if (size > (size_t)0xffffffffu) {
        bd_copy(error, error_size, "the file is over 4 GiB");
        return NULL;
    }
    bd_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        bd_copy(error, error_size, "out of memory");
        return NULL;
    }
    reader->info.err = jpeg_std_error(&reader->error.manager);
    reader->error.manager.error_exit = bd_jpeg_on_error;
    reader->error.manager.emit_message = bd_jpeg_on_message;
    if (setjmp(reader->error.jump)) {
        bd_copy(error, error_size, reader->error.message);
        jpeg_destroy_decompress(&reader->info);
        free(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->info);
    reader->progress.progress_monitor = bd_jpeg_on_progress;
    reader->info.progress = &reader->progress;
    jpeg_mem_src(&reader->info, data, (unsigned long)size);
    jpeg_save_markers(&reader->info, JPEG_APP0 + 1, 0xffff);
    jpeg_save_markers(&reader->info, JPEG_APP0 + 2, 0xffff);
    jpeg_read_header(&reader->info, TRUE);
    if (!jpeg_read_icc_profile(&reader->info, &reader->icc, &reader->icc_size)) {
        reader->icc = NULL;
        reader->icc_size = 0;
    }
    header->width = reader->info.image_width;
    header->height = reader->info.image_height;
    header->orientation = 1;
    for (jpeg_saved_marker_ptr marker = reader->info.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            header->orientation = bd_exif_orientation(marker->data, marker->data_length);
            break;
        }
    }
    reader->cmyk = reader->info.jpeg_color_space == JCS_CMYK || reader->info.jpeg_color_space == JCS_YCCK;
    header->cmyk = reader->cmyk;
    header->progressive = reader->info.progressive_mode ? 1 : 0;
    return reader;
}

int bd_jpeg_reader_read(bd_jpeg_reader *reader, uint8_t *rgba, char *error, size_t error_size) {
    if (setjmp(reader->error.jump)) {
        bd_copy(error, error_size, reader->error.message);
        return -1;
    }
    struct jpeg_decompress_struct *info = &reader->info;
    info->out_color_space = reader->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(info);
    size_t row_bytes = (size_t)info->output_width * 4;
    while (info->output_scanline < info->output_height) {
        JSAMPROW row = rgba + (size_t)info->output_scanline * row_bytes;
        jpeg_read_scanlines(info, &row, 1);
        if (reader->cmyk) {
            // Adobe's CMYK JPEGs store inverted samples (255 − C), so R = 255·(1 − C)(1 − K) is stored C · stored K / 255.
            uint8_t *p = rgba + (size_t)(info->output_scanline - 1) * row_bytes;
            for (size_t x = 0; x < info->output_width; x++, p += 4) {
                unsigned k = p[3];
                p[0] = (uint8_t)((p[0] * k + 127) / 255);
                p[1] = (uint8_t)((p[1] * k + 127) / 255);
                p[2] = (uint8_t)((p[2] * k + 127) / 255);
                p[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(info);
    return 0;
}

const uint8_t *bd_jpeg_reader_icc_profile(const bd_jpeg_reader *reader, size_t *size) {
    *size = reader->icc_size;
    return reader->icc;
}

void bd_jpeg_reader_close(bd_jpeg_reader *reader) {
    if (reader == NULL) return;
    free(reader->icc);
    jpeg_destroy_decompress(&reader->info);
    free(reader);
}

uint8_t *bd_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, const uint8_t *icc,
                        size_t icc_size, size_t *size, char *error, size_t error_size) {
    // Refused before libjpeg starts, in words that name the picture's size or the profile's: libjpeg's own message
    // names only its limit, and it writes a profile of more than 255 segments with their count wrapped round.
    if (width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        snprintf(error, error_size, "JPEG holds at most %ld×%ld pixels (this is %u×%u)", (long)JPEG_MAX_DIMENSION,
                 (long)JPEG_MAX_DIMENSION, width, height);
        return NULL;
    }
    if (icc != NULL && icc_size > bd_jpeg_max_profile) {
        snprintf(error, error_size, "the ICC profile (%zu bytes) is over the %d bytes a JPEG's APP2 segments hold",
                 icc_size, bd_jpeg_max_profile);
        return NULL;
    }
    struct jpeg_compress_struct info;
    bd_jpeg_error failure;
    unsigned char *buffer = NULL;
    unsigned long length = 0;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = bd_jpeg_on_error;
    if (setjmp(failure.jump)) {
        bd_copy(error, error_size, failure.message);
        jpeg_destroy_compress(&info);
        free(buffer);
        return NULL;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &length);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = TRUE;
    jpeg_start_compress(&info, TRUE);
    if (icc != NULL && icc_size > 0) jpeg_write_icc_profile(&info, icc, (unsigned)icc_size);
    size_t row_bytes = (size_t)width * 4;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + (size_t)info.next_scanline * row_bytes);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *size = length;
    return buffer;
}

void bd_jpeg_free(void *pointer) { free(pointer); }
